"""Swiss system: pairing by points without rematches, byes for an odd field, Buchholz."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from kernel.errors import Conflict
from matches.progress import swiss_round_generate
from matches.standings.selectors import standings_table
from matches.standings.services import standings_compute
from tests.factories import AdminFactory, CompetitionFactory, TeamFactory, play, team_with_member
from tournaments.bracket import Score
from tournaments.models import Bye, Fixture, LotDraw, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create
from tournaments.swiss import PairingImpossible, swiss_pair


def test_pairs_by_points_and_never_repeats_a_match() -> None:
    ranked = [1, 2, 3, 4]
    points = {1: 3, 2: 3, 3: 0, 4: 0}
    played = {frozenset((1, 3)), frozenset((2, 4))}
    result = swiss_pair(ranked=ranked, points=points, played=played, had_bye=set(), home_counts={1: 1, 2: 1})
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 2)), frozenset((3, 4))}
    # Leaders already met: the next best pairing avoids the rematch.
    played.add(frozenset((1, 2)))
    result = swiss_pair(ranked=ranked, points=points, played=played, had_bye=set(), home_counts={})
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 4)), frozenset((2, 3))}
    played |= {frozenset((1, 4)), frozenset((2, 3)), frozenset((3, 4))}
    with pytest.raises(PairingImpossible):
        swiss_pair(ranked=ranked, points=points, played=played, had_bye=set(), home_counts={})


def test_bye_goes_to_the_lowest_ranked_team_without_one() -> None:
    result = swiss_pair(
        ranked=[1, 2, 3, 4, 5],
        points=dict.fromkeys(range(1, 6), 0),
        played=set(),
        had_bye={5},
        home_counts={},
    )
    assert result.bye == 4
    assert len(result.pairs) == 2


@pytest.mark.django_db
def test_swiss_stage_of_seven_teams_over_three_rounds() -> None:
    from matches.services import result_override

    competition = CompetitionFactory()
    teams = [TeamFactory(competition=competition, name=f"P{i}", seed=i) for i in range(1, 8)]
    stage = stage_create(
        competition=competition, name="Swiss", kind=Stage.Kind.SWISS, swiss_rounds=3, teams=teams
    )
    admin = AdminFactory()
    first = fixture_generate(stage=stage)
    assert len(first) == 3
    with pytest.raises(Conflict, match="not finished"):
        swiss_round_generate(stage=stage)
    for rnd in range(1, 4):
        for f in Fixture.objects.filter(stage=stage, round=rnd).select_related("home_team", "away_team"):
            # The better seed wins.
            home_wins = f.home_team.seed < f.away_team.seed
            result_override(
                fixture_id=f.id,
                user=admin,
                score=Score(int(home_wins), int(not home_wins)),
                note="swiss",
            )
        if rnd < 3:
            swiss_round_generate(stage=stage)
    with pytest.raises(Conflict, match="already paired"):
        swiss_round_generate(stage=stage)

    pairs = [frozenset(p) for p in Fixture.objects.filter(stage=stage).values_list("home_team", "away_team")]
    assert len(pairs) == 9 == len(set(pairs)), "no rematches"
    byes = list(Bye.objects.filter(stage=stage).values_list("team_id", flat=True))
    assert len(byes) == 3 == len(set(byes))
    stage.refresh_from_db()
    assert stage.status == Stage.Status.COMPLETED

    table = standings_table(stage=stage)
    assert table[0].team == teams[0].id and table[0].points == 9
    for row in table:
        opponents_points = sum(r.points for r in table if r.team in row.opponents)
        assert row.buchholz == opponents_points


def test_large_fields_are_paired_block_by_block_without_rematches() -> None:
    import random

    rng = random.Random(7)
    teams = list(range(301))
    points = dict.fromkeys(teams, 0)
    played: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    for _ in range(6):
        ranked = sorted(teams, key=lambda t: (-points[t], t))
        result = swiss_pair(ranked=ranked, points=points, played=played, had_bye=had_bye, home_counts={})
        seen = [t for pair in result.pairs for t in pair]
        assert len(seen) == len(set(seen)) == 300 and result.bye not in seen
        assert result.bye not in had_bye
        had_bye.add(result.bye)  # type: ignore[arg-type]
        points[result.bye] += 3  # type: ignore[index]
        for a, b in result.pairs:
            assert frozenset((a, b)) not in played
            played.add(frozenset((a, b)))
            points[a if rng.random() < 0.5 else b] += 3
            # Pairs come from the same score group or a neighbouring one.
            assert abs(points[a] - points[b]) <= 6


@pytest.mark.django_db
def test_the_draws_of_record_of_a_table_are_read_in_one_query() -> None:
    competition = CompetitionFactory()
    teams = [team_with_member(competition, f"S{i}", seed=i + 1)[0] for i in range(8)]
    stage = stage_create(
        competition=competition, name="Swiss", kind=Stage.Kind.SWISS, swiss_rounds=3, teams=teams
    )
    for fixture in fixture_generate(stage=stage):
        play(fixture.id, 1, 0)
    # Winners level with winners, losers with losers: two drawings of lots, recorded the first time.
    standings_compute(stage=stage)
    assert LotDraw.objects.filter(stage=stage).count() == 2
    with CaptureQueriesContext(connection) as queries:
        again = standings_compute(stage=stage)
    assert len([q for q in queries if "tournaments_lotdraw" in q["sql"]]) == 1
    assert [r.team for r in again] == [r.team for r in standings_compute(stage=stage)]
