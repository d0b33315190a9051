"""The drawing of lots stored in bulk (matches.standings.services.standings_compute).

A table's new draws are kept in memory while it is ranked and stored in one insert at the end; a
table ranked so must be the one the draw-by-draw way (a transaction per tied set, as before) gives
with the same seeds, and a set another writer drew first must be ranked by that writer's draw.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from matches.standings import services
from matches.standings.selectors import lot_key, standings_table, standings_tables, table_of
from matches.standings.services import lots_order_from_seed, standings_compute
from tests.factories import CompetitionFactory, play, team_with_member
from tournaments.models import Fixture, LotDraw, Stage, TiebreakPreset
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create
from tournaments.standings.table import LotDrawer
from tournaments.standings.tally import Row

pytestmark = pytest.mark.django_db

# Round 1 of a 12-team league: two 1-1 draws, two 0-0 draws and two 2-0 wins leave four sets
# of teams level on every criterion before lots (4, 4, 2 and 2 teams).
SCORES = [(1, 1), (1, 1), (0, 0), (0, 0), (2, 0), (2, 0)]


@pytest.fixture
def league() -> Stage:
    competition = CompetitionFactory(tiebreak_preset=TiebreakPreset.FIFA_WORLD_CUP)
    teams = [team_with_member(competition, f"Team {i:02d}")[0] for i in range(12)]
    stage = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    fixture_generate(stage=stage)
    for fixture, (home, away) in zip(Fixture.objects.filter(stage=stage, round=1), SCORES, strict=True):
        play(fixture.pk, home, away)
    return stage


def _seeds() -> Callable[[int], int]:
    """The same seeds, in the order the sets are drawn, for each computation that starts anew."""
    counter = itertools.count(1000)
    return lambda bits: next(counter) * 7919


def _draw_by_draw(stage: Stage) -> LotDrawer:
    """The former way: each tied set drawn and stored in its own transaction as it is met."""

    def drawer(tied: Sequence[int]) -> Sequence[int]:
        seed = services.secrets.randbits(62)
        order = lots_order_from_seed(seed=seed, teams=tied)
        with transaction.atomic():
            LotDraw.objects.create(stage=stage, group=None, key=lot_key(tied), order=order, seed=seed)
        return order

    return drawer


def _stored(stage: Stage) -> set[tuple[str, tuple[int, ...], int]]:
    return {(d.key, tuple(d.order), d.seed) for d in LotDraw.objects.filter(stage=stage)}


def _places(rows: Sequence[Row]) -> list[tuple[int, int, str, bool]]:
    return [(r.team, r.position, r.decided_by, r.level_with_previous) for r in rows]


def test_bulk_lots_equal_the_lots_drawn_one_by_one(league: Stage, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.secrets, "randbits", _seeds())
    with CaptureQueriesContext(connection) as queries:
        bulk = standings_compute(stage=league)
    bulk_draws = _stored(league)
    assert len(bulk_draws) == 4, "four tied sets"
    inserts = [
        q for q in queries.captured_queries if q["sql"].startswith('INSERT INTO "tournaments_lotdraw"')
    ]
    assert len(inserts) == 1, "the table's draws are stored in one insert"

    LotDraw.objects.filter(stage=league).delete()
    monkeypatch.setattr(services.secrets, "randbits", _seeds())
    one_by_one = table_of(stage=league, group=None, draw_lots=_draw_by_draw(league))

    assert _stored(league) == bulk_draws
    assert _places(bulk) == _places(one_by_one)
    assert not any(r.level_with_previous for r in bulk), "lots settle every tie"
    for key, order, seed in bulk_draws:
        assert list(order) == lots_order_from_seed(seed=seed, teams=[int(t) for t in key.split(",")])
    # Read back, the stored draws give the same table, and nothing more is drawn.
    assert _places(standings_table(stage=league)) == _places(bulk)
    assert _places(standings_tables(stage=league)[None]) == _places(bulk)
    assert _places(standings_compute(stage=league)) == _places(bulk)
    assert _stored(league) == bulk_draws


def test_a_set_drawn_meanwhile_by_another_writer_is_ranked_by_that_draw(
    league: Stage, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = services._LotDrawing.store
    theirs: dict[str, list[int]] = {}

    def another_writer_first(self: services._LotDrawing) -> bool:
        key, ours = next(iter(self.pending.items()))
        theirs[key] = list(reversed(ours.order))
        LotDraw.objects.create(stage=league, group=None, key=key, order=theirs[key], seed=1)
        return store(self)

    monkeypatch.setattr(services._LotDrawing, "store", another_writer_first)
    table = standings_compute(stage=league)

    [(key, order)] = theirs.items()
    assert LotDraw.objects.get(stage=league, key=key).order == order
    places = [r.team for r in table]
    drawn = [t for t in places if t in order]
    assert drawn == order, "the table follows the draw of record, not the one this computation made"
    assert LotDraw.objects.filter(stage=league).count() == 4


def test_a_table_without_tied_teams_reads_and_writes_no_draws() -> None:
    competition = CompetitionFactory(tiebreak_preset=TiebreakPreset.FIFA_WORLD_CUP)
    teams = [team_with_member(competition, name)[0] for name in ("North", "South")]
    stage = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    fixture_generate(stage=stage)
    play(Fixture.objects.get(stage=stage).pk, 1, 0)
    for compute in (standings_compute, standings_table):
        with CaptureQueriesContext(connection) as queries:
            compute(stage=stage)
        assert not [q for q in queries.captured_queries if "tournaments_lotdraw" in q["sql"]]


def test_a_tied_set_too_long_for_the_key_column_is_named_by_its_digest() -> None:
    # 100 teams of six-digit ids: 699 characters joined, the column holds 400 (a Swiss event of
    # thousands after one round ties hundreds; this gave a 500 on its standings).
    large = list(range(100_000, 100_100))
    key = lot_key(list(reversed(large)))
    assert key == lot_key(large), "the same set, whatever the order"
    assert key.startswith("sha256:") and len(key) <= 400
    assert lot_key(large[:-1]) != key
    assert lot_key([3, 1, 2]) == "1,2,3", "a set that fits keeps its readable name"


def test_a_long_tied_set_is_drawn_once_and_read_back(league: Stage, monkeypatch: pytest.MonkeyPatch) -> None:
    from matches.standings import selectors

    # Every set named by its digest, as a set of hundreds of teams is.
    monkeypatch.setattr(selectors, "LOT_KEY_LENGTH", 3)
    first = standings_compute(stage=league)
    draws = _stored(league)
    assert len(draws) == 4 and all(key.startswith("sha256:") for key, _, _ in draws)
    assert not any(r.level_with_previous for r in first), "lots settle every tie"
    assert _places(standings_table(stage=league)) == _places(first)
    assert _places(standings_compute(stage=league)) == _places(first)
    assert _stored(league) == draws, "nothing drawn twice"
