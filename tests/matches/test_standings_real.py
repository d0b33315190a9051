"""Tie-breakers on real published competitions, through the results services.

- 2018 FIFA World Cup, group H: Japan and Senegal finished level on points, goal difference, goals
  and their head-to-head (2-2); Japan went through on fair-play points (−4 against −6).
- UEFA Euro 2012, group A: Greece and Russia finished level on 4 points; Greece went through on
  head-to-head (1-0) although Russia had the better goal difference (+2 against 0).
- UEFA Euro 2024, group C: Denmark and Slovenia drew all three matches 1-1, 1-1 and 0-0 / 1-1,
  1-1 and 0-0; level on everything, including their 1-1, Denmark was second on disciplinary
  points. At a neutral venue, which side the schedule calls "home" must not decide: away goals
  in the head-to-head would have put Denmark (the "away" side of Slovenia v Denmark) second
  whatever the cards said, and Slovenia second with the fixture turned.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.errors import ApplicationError
from matches.standings.selectors import standings_table, tiebreak_order
from matches.standings.services import lots_order_from_seed, standings_compute
from tests.factories import CompetitionFactory, play, team_with_member
from tournaments.models import Competition, Fixture, LotDraw, Stage, Team, TiebreakPreset
from tournaments.services.competitions import competition_tiebreak_set
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create
from tournaments.standings.criteria import CRITERIA, PRESETS
from tournaments.standings.table import compute_table
from tournaments.standings.tally import MatchRecord

pytestmark = pytest.mark.django_db


def _group(competition: Competition, names: list[str]) -> tuple[Stage, dict[str, Team]]:
    teams = {name: team_with_member(competition, name)[0] for name in names}
    stage = stage_create(
        competition=competition,
        name="Group stage",
        kind=Stage.Kind.GROUPS,
        groups={"X": list(teams.values())},
    )
    fixture_generate(stage=stage)
    return stage, teams


def _record(
    teams: dict[str, Team],
    home: str,
    away: str,
    home_goals: int,
    away_goals: int,
    cards: Sequence[tuple[str, str]] = (),
) -> None:
    """Record a real result whatever venue the generated schedule gave the pairing."""
    fixture = Fixture.objects.get(
        home_team__in=[teams[home], teams[away]], away_team__in=[teams[home], teams[away]]
    )
    swapped = fixture.home_team == teams[away]
    goals = (away_goals, home_goals) if swapped else (home_goals, away_goals)
    side = {home: "away" if swapped else "home", away: "home" if swapped else "away"}
    play(fixture.id, *goals, cards=[{"team": side[team], "kind": kind} for team, kind in cards])


def test_world_cup_2018_group_h_japan_above_senegal_on_fair_play() -> None:
    competition = CompetitionFactory(tiebreak_preset=TiebreakPreset.FIFA_WORLD_CUP)
    stage, t = _group(competition, ["Colombia", "Japan", "Senegal", "Poland"])
    # Scores as played. Bookings: FIFA's fair-play totals for the two teams concerned (Japan four
    # yellow cards, Senegal six) and Carlos Sánchez's direct red for Colombia in the 3rd minute.
    _record(t, "Colombia", "Japan", 1, 2, [("Colombia", "red"), ("Japan", "yellow")])
    _record(t, "Poland", "Senegal", 1, 2, [("Senegal", "yellow")])
    _record(t, "Japan", "Senegal", 2, 2, [("Japan", "yellow"), ("Japan", "yellow"), ("Senegal", "yellow")])
    _record(t, "Poland", "Colombia", 0, 3)
    _record(t, "Japan", "Poland", 0, 1, [("Japan", "yellow")])
    _record(t, "Senegal", "Colombia", 0, 1, [("Senegal", "yellow")] * 4)

    table = standings_table(stage=stage, group=stage.groups.get())

    by_id = {team.id: name for name, team in t.items()}
    assert [by_id[r.team] for r in table] == ["Colombia", "Japan", "Senegal", "Poland"]
    japan, senegal = table[1], table[2]
    assert (japan.points, japan.goal_difference, japan.goals_for) == (4, 0, 4)
    assert (senegal.points, senegal.goal_difference, senegal.goals_for) == (4, 0, 4)
    assert (japan.fair_play, senegal.fair_play) == (-4, -6)
    assert senegal.decided_by == "fair_play"
    assert table[0].fair_play == -4


def test_euro_2012_group_a_greece_above_russia_on_head_to_head() -> None:
    competition = CompetitionFactory(tiebreak_preset=TiebreakPreset.UEFA)
    stage, t = _group(competition, ["Poland", "Greece", "Russia", "Czech Republic"])
    _record(t, "Poland", "Greece", 1, 1)
    _record(t, "Russia", "Czech Republic", 4, 1)
    _record(t, "Greece", "Czech Republic", 1, 2)
    _record(t, "Poland", "Russia", 1, 1)
    _record(t, "Czech Republic", "Poland", 1, 0)
    _record(t, "Greece", "Russia", 1, 0)

    table = standings_table(stage=stage, group=stage.groups.get())

    by_id = {team.id: name for name, team in t.items()}
    assert [by_id[r.team] for r in table] == ["Czech Republic", "Greece", "Russia", "Poland"]
    assert table[0].goal_difference == -1, "the group winner had a negative goal difference"
    assert table[2].goal_difference == 2 > table[1].goal_difference
    assert table[2].decided_by == "head_to_head_neutral"

    # Under the World Cup order (goal difference before head-to-head) Russia would have been second.
    competition_tiebreak_set(competition=competition, preset=TiebreakPreset.FIFA_WORLD_CUP)
    stage.competition.refresh_from_db()
    table = standings_table(stage=Stage.objects.get(id=stage.id), group=stage.groups.get())
    assert [by_id[r.team] for r in table] == ["Czech Republic", "Russia", "Greece", "Poland"]


def test_head_to_head_is_reapplied_to_the_teams_still_level() -> None:
    # Three teams on 6 points: A beat B, B beat C, C beat A (a mini-league all level), each beat D
    # and E; the h2h block cannot split them, so UEFA moves on to overall goal difference.
    matches = [
        MatchRecord(1, 2, 1, 0),
        MatchRecord(2, 3, 1, 0),
        MatchRecord(3, 1, 1, 0),
        MatchRecord(1, 4, 5, 0),
        MatchRecord(2, 4, 3, 0),
        MatchRecord(3, 4, 1, 0),
    ]
    table = compute_table(teams=[1, 2, 3, 4], matches=matches, criteria=PRESETS["uefa"])
    assert [r.team for r in table] == [1, 2, 3, 4]
    assert table[1].decided_by == "goal_difference"

    # Now 1 and 2 only are level on h2h after 3 is split off: the block is re-applied to {1, 2}.
    matches = [
        MatchRecord(1, 2, 2, 2),
        MatchRecord(1, 3, 1, 0),
        MatchRecord(2, 3, 1, 0),
        MatchRecord(3, 1, 3, 0),
        MatchRecord(3, 2, 0, 1),
        MatchRecord(2, 1, 0, 1),
    ]
    table = compute_table(teams=[1, 2, 3], matches=matches, criteria=PRESETS["uefa"])
    assert [r.team for r in table] == [1, 2, 3]


def test_drawing_of_lots_is_recorded_once_and_reproducible() -> None:
    competition = CompetitionFactory(tiebreak_preset=TiebreakPreset.FIFA_WORLD_CUP)
    stage, t = _group(competition, ["North", "South"])
    _record(t, "North", "South", 1, 1)
    group = stage.groups.get()

    assert standings_table(stage=stage, group=group)[1].level_with_previous
    first = [r.team for r in standings_compute(stage=stage, group=group)]
    draw = LotDraw.objects.get()
    assert draw.order == first == lots_order_from_seed(seed=draw.seed, teams=first)
    for _ in range(3):
        assert [r.team for r in standings_compute(stage=stage, group=group)] == first
    assert LotDraw.objects.count() == 1
    table = standings_table(stage=stage, group=group)
    assert [r.team for r in table] == first and table[1].decided_by == "lots"


def test_custom_tiebreak_order_is_validated() -> None:
    competition = CompetitionFactory()
    with pytest.raises(ApplicationError, match="unknown tie-break criteria"):
        competition_tiebreak_set(
            competition=competition, preset=TiebreakPreset.CUSTOM, order=["points", "style"]
        )
    competition_tiebreak_set(
        competition=competition, preset=TiebreakPreset.CUSTOM, order=["points", "wins", "fair_play", "lots"]
    )
    assert Competition.objects.get(id=competition.id).tiebreak_order == [
        "points",
        "wins",
        "fair_play",
        "lots",
    ]


def test_the_wins_criterion_ranks_a_winner_above_a_team_of_draws() -> None:
    # Found by the property test below: "wins" (UEFA, FIFA across groups) read a Row attribute
    # that did not exist, so a tie that reached it was a crash (a 500 on the standings page).
    matches = [
        MatchRecord(1, 3, 1, 0, 0, 0),  # team 1: one win, 3 points
        MatchRecord(2, 3, 0, 0, 0, 0),  # team 2: three draws, 3 points
        MatchRecord(2, 4, 0, 0, 0, 0),
        MatchRecord(2, 5, 0, 0, 0, 0),
        MatchRecord(4, 1, 1, 0, 0, 0),
    ]
    table = compute_table(
        teams=[1, 2, 3, 4, 5],
        matches=matches,
        criteria=("points", "wins", "lots"),
        draw_lots=lambda tied: sorted(tied, reverse=True),  # lots would put team 2 first
    )
    by_team = {r.team: r for r in table}
    assert by_team[1].position < by_team[2].position and by_team[2].decided_by == "wins"


@settings(max_examples=60, deadline=None)
@given(
    scores=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(-5, 0), st.integers(-5, 0)),
        min_size=6,
        max_size=6,
    ),
    preset=st.sampled_from(["fifa_world_cup", "uefa"]),
    order=st.permutations([1, 2, 3, 4]),
)
def test_tables_are_consistent_and_independent_of_input_order(scores, preset, order) -> None:  # type: ignore[no-untyped-def]
    pairs = [(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)]
    matches = [
        MatchRecord(h, a, hg, ag, hf, af) for (h, a), (hg, ag, hf, af) in zip(pairs, scores, strict=True)
    ]

    def lots(tied):  # type: ignore[no-untyped-def]
        return sorted(tied, reverse=True)

    table = compute_table(teams=[1, 2, 3, 4], matches=matches, criteria=PRESETS[preset], draw_lots=lots)
    shuffled = compute_table(teams=order, matches=matches[::-1], criteria=PRESETS[preset], draw_lots=lots)
    assert [r.team for r in table] == [r.team for r in shuffled]
    assert [r.position for r in table] == [1, 2, 3, 4]
    assert [r.points for r in table] == sorted((r.points for r in table), reverse=True)
    assert sum(r.goals_for for r in table) == sum(r.goals_against for r in table)
    assert all(r.played == 3 and r.won + r.drawn + r.lost == 3 for r in table)
    assert not any(r.level_with_previous for r in table), "lots settle every tie"


def test_euro_2004_group_c_three_way_head_to_head_puts_italy_out() -> None:
    # Sweden, Denmark and Italy all drew with each other and beat Bulgaria: 5 points each.
    # Among the three, points and goal difference are level; goals scored in those matches
    # (Sweden 3, Denmark 2, Italy 1) decided, the famous 2-2 between Denmark and Sweden.
    swe, den, ita, bul = 1, 2, 3, 4
    matches = [
        MatchRecord(den, ita, 0, 0),
        MatchRecord(swe, bul, 5, 0),
        MatchRecord(bul, den, 0, 2),
        MatchRecord(ita, swe, 1, 1),
        MatchRecord(ita, bul, 2, 1),
        MatchRecord(den, swe, 2, 2),
    ]
    table = compute_table(teams=[ita, den, swe, bul], matches=matches, criteria=PRESETS["uefa"])
    assert [r.team for r in table] == [swe, den, ita, bul]
    assert {r.points for r in table[:3]} == {5}
    assert [r.decided_by for r in table[1:3]] == ["head_to_head_neutral", "head_to_head_neutral"]


EURO_2024_C = ("England", "Denmark", "Slovenia", "Serbia")
# (home, away, goals, goals, fair play of each): Denmark fewer disciplinary points than Slovenia.
EURO_2024_C_MATCHES = [
    (3, 2, 1, 1, -1, -1),  # Slovenia 1-1 Denmark
    (4, 1, 0, 1, -2, 0),  # Serbia 0-1 England
    (3, 4, 1, 1, -2, -2),  # Slovenia 1-1 Serbia
    (2, 1, 1, 1, -1, -1),  # Denmark 1-1 England
    (1, 3, 0, 0, -1, -2),  # England 0-0 Slovenia
    (2, 4, 0, 0, -1, -2),  # Denmark 0-0 Serbia
]


def _euro_2024_c(turned: bool) -> list[MatchRecord]:
    return [
        MatchRecord(a, h, ag, hg, af, hf) if turned else MatchRecord(h, a, hg, ag, hf, af)
        for h, a, hg, ag, hf, af in EURO_2024_C_MATCHES
    ]


@pytest.mark.parametrize("turned", [False, True])
def test_euro_2024_group_c_denmark_second_whichever_side_is_home(turned: bool) -> None:
    table = compute_table(teams=[1, 2, 3, 4], matches=_euro_2024_c(turned), criteria=PRESETS["uefa"])
    assert [EURO_2024_C[r.team - 1] for r in table] == ["England", "Denmark", "Slovenia", "Serbia"]
    assert table[2].decided_by == "fair_play"


def test_away_goals_in_a_single_leg_head_to_head_let_the_schedule_decide() -> None:
    # The club competitions' order read on single-leg results: the "away" side of the 1-1 goes through.
    orders = [
        [
            r.team
            for r in compute_table(teams=[1, 2, 3, 4], matches=_euro_2024_c(t), criteria=PRESETS["uefa_club"])
        ]
        for t in (False, True)
    ]
    assert orders[0] != orders[1]


@settings(max_examples=60, deadline=None)
@given(
    scores=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=6, max_size=6),
    preset=st.sampled_from(["uefa", "uefa_club", "fifa_world_cup"]),
)
def test_turning_every_fixture_of_a_single_leg_group_gives_the_same_order(scores, preset) -> None:  # type: ignore[no-untyped-def]
    competition = CompetitionFactory(tiebreak_preset=preset)
    stage = Stage(competition=competition, kind=Stage.Kind.GROUPS, legs=1)
    order = tiebreak_order(competition=competition, stage=stage)
    pairs = [(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)]
    matches = [MatchRecord(h, a, hg, ag) for (h, a), (hg, ag) in zip(pairs, scores, strict=True)]
    turned = [MatchRecord(m.away, m.home, m.away_goals, m.home_goals) for m in matches]

    def lots(tied):  # type: ignore[no-untyped-def]
        return sorted(tied)

    table = compute_table(teams=[1, 2, 3, 4], matches=matches, criteria=order, draw_lots=lots)
    again = compute_table(teams=[1, 2, 3, 4], matches=turned, criteria=order, draw_lots=lots)
    assert [r.team for r in table] == [r.team for r in again]


def test_a_two_legged_group_still_counts_away_goals_and_says_so() -> None:
    competition = CompetitionFactory(tiebreak_preset=TiebreakPreset.UEFA_CLUB)
    teams = {name: team_with_member(competition, name)[0] for name in ("Ajax", "Benfica", "Celtic")}
    stage = stage_create(
        competition=competition,
        name="Groups",
        kind=Stage.Kind.GROUPS,
        legs=2,
        groups={"A": list(teams.values())},
    )
    fixture_generate(stage=stage)
    ajax, benfica, celtic = teams.values()
    # Ajax 1-0 Benfica, Benfica 2-1 Ajax: level on points, goals and goal difference, in the group and
    # between them; Ajax scored the only away goal of the pair.
    scores = {
        (ajax.id, benfica.id): (1, 0),
        (benfica.id, ajax.id): (2, 1),
        (ajax.id, celtic.id): (1, 0),
        (celtic.id, ajax.id): (0, 1),
        (benfica.id, celtic.id): (1, 0),
        (celtic.id, benfica.id): (0, 1),
    }
    for fixture in Fixture.objects.filter(stage=stage):
        play(fixture.id, *scores[(fixture.home_team_id, fixture.away_team_id)])
    table = standings_table(stage=stage, group=stage.groups.get())
    assert [r.team for r in table] == [ajax.id, benfica.id, celtic.id]
    assert table[1].decided_by == "head_to_head"
    rows = Client().get(f"/api/v1/competitions/{competition.slug}/standings").json()[0]["rows"]
    assert "head-to-head record (points, goal difference, goals scored, away goals)" in rows[1]["explanation"]
    assert "away goals" in CRITERIA["head_to_head"].label
    assert "away goals" not in CRITERIA["head_to_head_neutral"].label
