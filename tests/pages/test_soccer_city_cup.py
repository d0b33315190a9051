"""A Soccer City Cup (seed 003, "The Cup") played end to end through the clubs' result forms.

Every result is reported on the match page by one club and confirmed there by the other: cards
by shirt number (12 and 14 exist in Cup mode), a 5-0 for two players of one side sent off, away
goals deciding a two-legged tie, and the literal shoot-out ("each team shoots 5 penalties"),
so 5-0 is a real score. A Super Team form has no cards, extra time or shoot-out.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Result
from matches.progress import competition_champion
from tests.factories import team_with_member
from tournaments.game_systems import SOCCER_CITY, SUPER_TEAM
from tournaments.models import Competition, Fixture, Stage, Team
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def _cup(game_system: str = SOCCER_CITY, **fields: Any) -> tuple[Competition, Stage, dict[str, Team]]:
    competition = competition_create(name="City Cup", slug="city-cup", game_system=game_system, **fields)
    teams = {
        name: team_with_member(competition, name, seed=i)[0]
        for i, name in enumerate(("Reds", "Blues", "Greens", "Whites"), 1)
    }
    stage = stage_create(
        competition=competition, name="The Cup", kind=Stage.Kind.KNOCKOUT, legs=2, teams=list(teams.values())
    )
    fixture_generate(stage=stage)
    return competition, stage, teams


def _leg(stage: Stage, home: Team, leg: int) -> Fixture:
    fixture = Fixture.objects.filter(stage=stage, leg=leg, home_team=home).order_by("-round").first()
    assert fixture is not None, (home, leg)
    return fixture


def _report(client: Client, fixture: Fixture, data: dict[str, Any]) -> str:
    """The home club reports on the match page, the away club confirms there; returns the page."""
    slug = fixture.competition.slug
    fixture = Fixture.objects.select_related("home_team__club", "away_team__club").get(id=fixture.id)
    client.force_login(fixture.home_team.club.members.get())  # type: ignore[union-attr]
    client.post(reverse("tournaments:submit_result", args=[slug, fixture.pk]), data)
    client.force_login(fixture.away_team.club.members.get())  # type: ignore[union-attr]
    client.post(reverse("tournaments:confirm_result", args=[slug, fixture.pk]))
    return client.get(reverse("tournaments:match", args=[slug, fixture.pk])).content.decode()


def _card(i: int, team: str, shirt: int, kind: str) -> dict[str, Any]:
    return {f"card_{i}_team": team, f"card_{i}_shirt": shirt, f"card_{i}_kind": kind}


def test_a_soccer_city_cup_runs_end_to_end_through_the_pages(client: Client) -> None:
    competition, stage, _teams = _cup(cup_mode=True)
    assert stage.away_goals_rule, "the Cup: 'In case of a tie on aggregate, away goals rule applies'"
    first = Fixture.objects.filter(stage=stage, round=1, leg=1).select_related("home_team", "away_team")
    (a_home, a_away), (b_home, b_away) = [(f.home_team, f.away_team) for f in first]

    # The form books players by shirt number, 12 and 14 included in Cup mode.
    client.force_login(a_home.club.members.get())  # type: ignore[union-attr]
    form_page = client.get(reverse("tournaments:match", args=[competition.slug, _leg(stage, a_home, 1).pk]))
    html = form_page.content.decode()
    assert 'data-testid="card-lines"' in html and '<option value="14">#14</option>' in html
    assert 'name="home_yellow"' not in html
    assert 'data-testid="score-live"' not in html

    # Tie A: 1-0, then 2-1 for the other side: 2-2 on aggregate, the away goal decides.
    page = _report(
        client,
        _leg(stage, a_home, 1),
        {"home_goals": 1, "away_goals": 0, **_card(1, "home", 4, "yellow"), **_card(2, "away", 12, "yellow")},
    )
    assert "#12" in page and "#4" in page
    _report(client, _leg(stage, a_away, 2), {"home_goals": 2, "away_goals": 1})

    # Tie B: two players of the home side sent off: the match ends 0-5, whatever the score was.
    page = _report(
        client,
        _leg(stage, b_home, 1),
        {
            "home_goals": 1,
            "away_goals": 1,
            **_card(1, "home", 3, "red"),
            **_card(2, "home", 5, "second_yellow"),
        },
    )
    leg = Result.objects.get(fixture=_leg(stage, b_home, 1))
    assert (leg.home_goals, leg.away_goals) == (0, 5)
    _report(client, _leg(stage, b_away, 2), {"home_goals": 1, "away_goals": 0})

    final_1 = Fixture.objects.select_related("home_team", "away_team").get(stage=stage, round=2, leg=1)
    assert {final_1.home_team, final_1.away_team} == {a_home, b_away}
    _report(client, final_1, {"home_goals": 1, "away_goals": 1})
    final_2 = Fixture.objects.select_related("home_team", "away_team").get(stage=stage, round=2, leg=2)
    # Level on aggregate and on away goals after extra time: the literal shoot-out, 5-0.
    page = _report(
        client,
        final_2,
        {"home_goals": 1, "away_goals": 1, "extra_time": "on", "home_penalties": 5, "away_penalties": 0},
    )
    result = Result.objects.get(fixture=final_2)
    assert (result.home_penalties, result.away_penalties, result.extra_time) == (5, 0, True)
    bracket = client.get(reverse("tournaments:bracket", args=[competition.slug])).content.decode()
    assert f"🏆 {final_2.home_team.name}" in bracket  # type: ignore[union-attr]
    assert competition_champion(competition=competition) == final_2.home_team
    assert Fixture.objects.filter(stage=stage, status=Fixture.Status.CONFIRMED).count() == 6


def test_a_soccer_city_form_refuses_a_shirt_outside_the_booking_area(client: Client) -> None:
    competition, stage, _t = _cup()
    fixture = Fixture.objects.filter(stage=stage, leg=1).select_related("home_team").first()
    assert fixture is not None
    client.force_login(fixture.home_team.club.members.get())  # type: ignore[union-attr]
    page = client.get(reverse("tournaments:match", args=[competition.slug, fixture.pk])).content.decode()
    assert '<option value="9">#9</option>' in page and '<option value="12">' not in page  # no Cup mode
    response = client.post(
        reverse("tournaments:submit_result", args=[competition.slug, fixture.pk]),
        {"home_goals": 1, "away_goals": 0, **_card(1, "home", 12, "yellow")},
        follow=True,
    )
    assert "12 is not one of the available choices" in response.content.decode()
    assert not Result.objects.exists()


def test_a_super_team_form_has_no_cards_no_extra_time_and_no_shoot_out(client: Client) -> None:
    competition, stage, _t = _cup(SUPER_TEAM)
    fixture = Fixture.objects.filter(stage=stage, leg=1).select_related("home_team").first()
    assert fixture is not None
    client.force_login(fixture.home_team.club.members.get())  # type: ignore[union-attr]
    page = client.get(reverse("tournaments:match", args=[competition.slug, fixture.pk])).content.decode()
    assert 'data-testid="no-cards"' in page
    assert 'name="home_yellow"' not in page and 'name="extra_time"' not in page and "pens" not in page
