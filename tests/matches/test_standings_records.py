"""The one records loader (matches.standings.records) against records and tables worked out by hand.

Pages, the API, the admin and knockout qualification all read their match records here, so the
loader must count exactly the counted results (confirmed, simulated, awarded) of the stage or group
asked for, with each side's fair-play points from its own cards.
"""

from __future__ import annotations

import pytest

from matches.models import Card, CardKind, Result
from matches.services import result_submit
from matches.standings.records import match_records
from matches.standings.selectors import standings_table, standings_tables
from matches.standings.services import standings_compute
from tests.factories import CompetitionFactory, member_of, play, team_with_member
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage, Team, TiebreakPreset
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create
from tournaments.standings.tally import MatchRecord

pytestmark = pytest.mark.django_db


def _fixture(x: Team, y: Team) -> Fixture:
    return Fixture.objects.get(home_team__in=[x, y], away_team__in=[x, y])


def _cards(fixture: Fixture, booked: dict[Team, list[str]]) -> list[dict[str, str]]:
    return [
        {"team": "home" if team.pk == fixture.home_team_id else "away", "kind": kind}
        for team, kinds in booked.items()
        for kind in kinds
    ]


@pytest.fixture
def groups() -> dict[str, object]:
    competition = CompetitionFactory(tiebreak_preset=TiebreakPreset.FIFA_WORLD_CUP)
    t = {name: team_with_member(competition, name)[0] for name in ("A", "B", "C", "D", "E")}
    stage = stage_create(
        competition=competition,
        name="Groups",
        kind=Stage.Kind.GROUPS,
        groups={"X": [t["A"], t["B"], t["C"]], "Y": [t["D"], t["E"]]},
    )
    fixture_generate(stage=stage)
    # Group X: A beat B 2-1 (A one yellow, B a red), B and C drew 0-0; A v C is only submitted
    # (5-0 for A), so it must not count. Group Y: E beat D 3-1.
    ab = _fixture(t["A"], t["B"])
    a_home = ab.home_team_id == t["A"].pk
    play(ab.pk, *((2, 1) if a_home else (1, 2)), cards=_cards(ab, {t["A"]: ["yellow"], t["B"]: ["red"]}))
    bc = _fixture(t["B"], t["C"])
    play(bc.pk, 0, 0)
    ac = _fixture(t["A"], t["C"])
    result_submit(
        fixture_id=ac.pk,
        user=member_of(ac.home_team),
        score=Score(5 if ac.home_team_id == t["A"].pk else 0, 0 if ac.home_team_id == t["A"].pk else 5),
    )
    # A result row (with a card) on a fixture that does not count: the loader filters on the
    # fixture's status, not on the row being there.
    stray = Result.objects.create(fixture=ac, home_goals=5, away_goals=0, source=Result.Source.ADMIN)
    Card.objects.create(result=stray, team=t["C"], kind=CardKind.RED)
    de = _fixture(t["D"], t["E"])
    play(de.pk, *((1, 3) if de.home_team_id == t["D"].pk else (3, 1)))
    return {"stage": stage, "teams": t, "fixtures": {"ab": ab, "bc": bc, "ac": ac, "de": de}}


def _expected(fixture: Fixture, goals: dict[int, int], fair_play: dict[int, int]) -> MatchRecord:
    home, away = fixture.home_team_id, fixture.away_team_id
    assert home is not None and away is not None
    return MatchRecord(home, away, goals[home], goals[away], fair_play[home], fair_play[away], fixture.round)


def test_records_of_a_group_are_its_counted_results_with_fair_play(groups) -> None:  # type: ignore[no-untyped-def]
    stage, t, f = groups["stage"], groups["teams"], groups["fixtures"]
    a, b, c, d, e = (t[n].pk for n in "ABCDE")
    x = stage.groups.get(name="X")
    assert Fixture.objects.get(pk=f["ac"].pk).status == Fixture.Status.SUBMITTED

    records = match_records(stage=stage, group=x)

    assert sorted(records, key=lambda m: m.home) == sorted(
        [
            _expected(f["ab"], {a: 2, b: 1}, {a: -1, b: -4}),
            _expected(f["bc"], {b: 0, c: 0}, {b: 0, c: 0}),
        ],
        key=lambda m: m.home,
    )
    whole_stage = match_records(stage=stage)
    assert len(whole_stage) == 3
    assert _expected(f["de"], {d: 1, e: 3}, {d: 0, e: 0}) in whole_stage


def test_group_table_from_the_loader_matches_the_hand_computed_table(groups) -> None:  # type: ignore[no-untyped-def]
    stage, t = groups["stage"], groups["teams"]
    x = stage.groups.get(name="X")

    table = standings_table(stage=stage, group=x)

    # A: W1 (2-1) 3 pts, fair play -1. C: D1 (0-0) 1 pt, goal difference 0. B: L1 D1 (1-2, 0-0)
    # 1 pt, goal difference -1, fair play -4: below C on goal difference.
    got = [
        (r.team, r.played, r.won, r.drawn, r.lost, r.goals_for, r.goals_against, r.points, r.fair_play)
        for r in table
    ]
    assert got == [
        (t["A"].pk, 1, 1, 0, 0, 2, 1, 3, -1),
        (t["C"].pk, 1, 0, 1, 0, 0, 0, 1, 0),
        (t["B"].pk, 2, 0, 1, 1, 1, 2, 1, -4),
    ]
    assert [r.decided_by for r in table] == ["", "points", "goal_difference"]
    # Drawing lots is the only thing the service adds: nothing is level here, so the same table.
    assert [r.team for r in standings_compute(stage=stage, group=x)] == [r.team for r in table]


def test_a_stages_tables_read_together_equal_each_group_read_alone(groups) -> None:  # type: ignore[no-untyped-def]
    stage = groups["stage"]
    standings_compute(stage=stage, group=stage.groups.get(name="Y"))  # no tie: nothing drawn
    together = standings_tables(stage=stage)
    assert [g.name for g in together] == ["X", "Y"]
    for group, rows in together.items():
        assert rows == standings_table(stage=stage, group=group), group.name


def test_a_table_is_ranked_with_the_cyclic_collector_paused(groups, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # A big table keeps half a million records alive for a moment: the cyclic collector, left on,
    # walks the whole heap several times over it (kernel/gc_pause.py, bench/bench_standings.py).
    import gc

    from matches.standings import selectors

    seen: list[bool] = []
    compute = selectors.compute_table

    def spy(**kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return compute(**kwargs)

    monkeypatch.setattr(selectors, "compute_table", spy)
    gc.enable()
    table = standings_table(stage=groups["stage"], group=groups["stage"].groups.get(name="X"))
    assert seen == [False]
    assert gc.isenabled()
    assert len(table) == 3
