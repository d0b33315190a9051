"""Suspensions: yellow accumulation, red-card bans, wipes after a stage, and Soccer City's Cup mode."""

from __future__ import annotations

import pytest

from kernel.errors import ApplicationError
from matches.discipline import competition_discipline_set
from tests.factories import CompetitionFactory, play, team_with_member
from tournaments.bracket import Score
from tournaments.models import Competition, Fixture, Stage, Suspension, Team
from tournaments.selectors import (
    fixture_banned_shirts,
    fixture_players_short,
    suspension_list,
    team_fixtures_in_order,
)
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def _league(**competition_fields: object) -> tuple[Competition, list[Team], Stage]:
    competition = CompetitionFactory(**competition_fields)
    teams = [team_with_member(competition, name)[0] for name in ("Ankka", "Hessu", "Mikki", "Pelle")]
    stage = stage_create(
        competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, legs=2, teams=teams
    )
    fixture_generate(stage=stage)
    return competition, teams, stage


def _side(fixture: Fixture, team: Team) -> str:
    return "home" if fixture.home_team_id == team.id else "away"


def test_two_yellow_cards_suspend_a_fuba_team_which_starts_the_next_fixture_one_player_short() -> None:
    competition, (ankka, *_), _ = _league(yellow_card_threshold=2)
    first, second, third, fourth, *_ = team_fixtures_in_order(team=ankka)
    play(first.id, 1, 0, cards=[{"team": _side(first, ankka), "kind": "yellow"}])
    assert not Suspension.objects.exists()
    play(second.id, 1, 0, cards=[{"team": _side(second, ankka), "kind": "yellow"}])

    (ban,) = suspension_list(competition=competition, team=ankka)
    assert (ban.reason, ban.source_fixture_id, ban.served_in_id) == (
        Suspension.Reason.YELLOW_ACCUMULATION,
        second.id,
        third.id,
    )
    assert not ban.is_served
    assert fixture_players_short(fixture=third, team=ankka) == 1
    assert fixture_players_short(fixture=fourth, team=ankka) == 0

    play(third.id, 0, 0)
    ban.refresh_from_db()
    assert ban.is_served


def test_red_cards_ban_for_the_chosen_number_of_matches_and_bans_roll_on() -> None:
    competition, (ankka, *_), _ = _league(red_card_ban_matches=1)
    fixtures = team_fixtures_in_order(team=ankka)
    # Two red cards in one match: a FUBA team starts at most one player short per match, so the
    # second ban is served in the match after.
    side = _side(fixtures[0], ankka)
    play(fixtures[0].id, 0, 3, cards=[{"team": side, "kind": "second_yellow"}, {"team": side, "kind": "red"}])
    served = [s.served_in_id for s in suspension_list(competition=competition, team=ankka)]
    assert served == [fixtures[1].id, fixtures[2].id]


def test_an_admin_override_recomputes_suspensions() -> None:
    from matches.services import result_override
    from tests.factories import AdminFactory

    competition, (ankka, *_), _ = _league(red_card_ban_matches=2)
    fixtures = team_fixtures_in_order(team=ankka)
    play(fixtures[0].id, 0, 1, cards=[{"team": _side(fixtures[0], ankka), "kind": "red"}])
    assert [s.served_in_id for s in suspension_list(competition=competition, team=ankka)] == [
        fixtures[1].id,
        fixtures[2].id,
    ]
    result_override(fixture_id=fixtures[0].id, user=AdminFactory(), score=Score(0, 1), note="red rescinded")
    assert not suspension_list(competition=competition, team=ankka).exists()


def test_single_yellow_cards_are_wiped_after_the_chosen_stage() -> None:
    competition = CompetitionFactory(yellow_card_threshold=2)
    a, b, c, d = (team_with_member(competition, n)[0] for n in "ABCD")
    groups = stage_create(
        competition=competition,
        name="Groups",
        kind=Stage.Kind.GROUPS,
        groups={"X": [a, b], "Y": [c, d]},
        legs=2,
    )
    knockout = stage_create(competition=competition, name="Final", kind=Stage.Kind.KNOCKOUT)
    groups.advance_per_group = 1
    groups.save()
    competition_discipline_set(
        competition=competition,
        yellow_card_threshold=2,
        red_card_ban_matches=1,
        yellow_wipe_after_stage=groups,
    )
    fixture_generate(stage=groups)
    fixture_generate(stage=knockout)
    for f in Fixture.objects.filter(stage=groups).select_related("home_team", "away_team"):
        home_is_winner = f.home_team in (a, c)
        cards = [{"team": _side(f, a), "kind": "yellow"}] if a.id in (f.home_team_id, f.away_team_id) else []
        # A's first group match only: one yellow before the wipe.
        if cards and f.round == 2:
            cards = []
        play(f.id, int(home_is_winner) * 2, int(not home_is_winner) * 2, cards=cards)
    final = Fixture.objects.get(stage=knockout)
    assert {final.home_team, final.away_team} == {a, c}
    play(final.id, 1, 0, cards=[{"team": _side(final, a), "kind": "yellow"}])
    assert not Suspension.objects.filter(team=a).exists(), "the group-stage yellow was wiped"

    competition_discipline_set(competition=competition, yellow_card_threshold=2, red_card_ban_matches=1)
    (ban,) = Suspension.objects.filter(team=a)
    assert ban.source_fixture == final and ban.served_in is None


def test_soccer_city_cup_mode_bans_the_first_two_booked_players_and_red_cards_by_shirt_number() -> None:
    competition = CompetitionFactory(game_system=Competition.GameSystem.SOCCER_CITY, cup_mode=True)
    teams = [
        team_with_member(competition, name, seed=i)[0]
        for i, name in enumerate(("Reds", "Blues", "Greens", "Whites"), 1)
    ]
    reds = teams[0]
    stage = stage_create(
        competition=competition, name="The Cup", kind=Stage.Kind.KNOCKOUT, legs=2, teams=teams
    )
    fixture_generate(stage=stage)
    leg1, leg2 = Fixture.objects.filter(stage=stage, round=1, home_team=reds) | Fixture.objects.filter(
        stage=stage, round=1, away_team=reds
    )
    leg1, leg2 = sorted((leg1, leg2), key=lambda f: f.leg)
    side = _side(leg1, reds)
    play(
        leg1.id,
        1,
        1,
        cards=[
            {"team": side, "kind": "yellow", "shirt_number": 4},
            {"team": side, "kind": "yellow", "shirt_number": 7},
            {"team": side, "kind": "yellow", "shirt_number": 9},
            {"team": side, "kind": "red", "shirt_number": 5},
        ],
    )
    assert fixture_banned_shirts(fixture=leg2, team=reds) == {4, 7, 5}
    with pytest.raises(ApplicationError, match="#4 is suspended"):
        play(leg2.id, 0, 2, cards=[{"team": _side(leg2, reds), "kind": "yellow", "shirt_number": 4}])
    with pytest.raises(ApplicationError, match="shirt number"):
        play(leg2.id, 0, 2, cards=[{"team": _side(leg2, reds), "kind": "yellow"}])

    # Reds win the tie; a red card in the second leg bans the player for the final's first leg.
    home_goals, away_goals = (3, 0) if leg2.home_team == reds else (0, 3)
    play(
        leg2.id,
        home_goals,
        away_goals,
        cards=[{"team": _side(leg2, reds), "kind": "red", "shirt_number": 12}],
    )
    other = (
        Fixture.objects.filter(stage=stage, round=1).exclude(match_number=leg1.match_number).order_by("leg")
    )
    play(other[0].id, 2, 0)
    play(other[1].id, 0, 1)
    final_leg1 = Fixture.objects.get(stage=stage, round=2, leg=1)
    assert reds.id in (final_leg1.home_team_id, final_leg1.away_team_id)
    assert fixture_banned_shirts(fixture=final_leg1, team=reds) == {12}
    reasons = sorted(s.reason for s in suspension_list(competition=competition, team=reds))
    assert reasons == ["cup_red", "cup_red", "cup_yellow", "cup_yellow"]
