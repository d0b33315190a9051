"""Cards are part of the result: the opponent sees them, disputes lines, staff correct them, bans follow."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments.models import Fixture, Suspension

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def fixture_c(cup) -> Fixture:
    return (
        Fixture.objects.filter(group__name="C", round=1)
        .select_related("home_team", "away_team", "competition")
        .order_by("match_number")
        .first()
    )


def _suspensions(fixture: Fixture) -> list[str]:
    return list(
        Suspension.objects.filter(source_fixture=fixture).values_list("reason", flat=True).order_by("id")
    )


def test_disputed_red_card_resolved_as_a_yellow_leaves_no_suspension_api(cup, fixture_c) -> None:
    home = client_for(cup.users[fixture_c.home_team.name])
    away = client_for(cup.users[fixture_c.away_team.name])
    body = {
        "home_goals": 2,
        "away_goals": 0,
        "cards": [{"team": "home", "kind": "yellow"}, {"team": "away", "kind": "red"}],
    }
    assert home.post(f"/api/v1/fixtures/{fixture_c.pk}/submit-result", body, format="json").status_code == 201
    # The opponent sees the reported cards before deciding.
    seen = away.get("/api/v1/submissions", {"fixture": fixture_c.pk}).json()["results"][0]
    assert [(c["team"], c["kind"]) for c in seen["cards"]] == [("home", "yellow"), ("away", "red")]
    bad_line = away.post(
        f"/api/v1/fixtures/{fixture_c.pk}/dispute", {"reason": "x", "cards": [5]}, format="json"
    )
    assert bad_line.status_code == 400 and bad_line.json()["error"]["code"] == "validation_error"
    disputed = away.post(
        f"/api/v1/fixtures/{fixture_c.pk}/dispute",
        {"reason": "the card was a yellow", "cards": [1]},
        format="json",
    )
    assert disputed.status_code == 200, disputed.content
    assert disputed.json()["disputed_cards"] == [1]
    staff = client_for(cup.admin)
    resolved = staff.post(
        f"/api/v1/fixtures/{fixture_c.pk}/resolve",
        {
            "home_goals": 2,
            "away_goals": 0,
            "cards": [{"team": "home", "kind": "yellow"}, {"team": "away", "kind": "yellow"}],
            "note": "the card was a yellow",
        },
        format="json",
    )
    assert resolved.status_code == 200, resolved.content
    match = APIClient().get(f"/api/v1/matches/{fixture_c.pk}").json()
    assert [c["kind"] for c in match["full_result"]["cards"]] == ["yellow", "yellow"]
    assert _suspensions(fixture_c) == []
    trail = APIClient().get(f"/api/v1/fixtures/{fixture_c.pk}/audit").json()
    assert trail[-1]["action"] == "resolve"
    assert [c["kind"] for c in trail[-1]["after"]["result"]["cards"]] == ["yellow", "yellow"]


def test_override_turning_a_red_into_a_yellow_removes_the_suspension_at_once(cup, fixture_c) -> None:
    staff = client_for(cup.admin)
    red = {"home_goals": 1, "away_goals": 1, "cards": [{"team": "away", "kind": "red"}], "note": "sheet"}
    assert staff.post(f"/api/v1/fixtures/{fixture_c.pk}/override", red, format="json").status_code == 200
    assert _suspensions(fixture_c) == [Suspension.Reason.RED_CARD]
    yellow = {**red, "cards": [{"team": "away", "kind": "yellow"}], "note": "the card was a yellow"}
    assert staff.post(f"/api/v1/fixtures/{fixture_c.pk}/override", yellow, format="json").status_code == 200
    assert _suspensions(fixture_c) == []


def test_match_page_shows_cards_to_the_opponent_and_admin_resolves_the_card(cup, fixture_c, client) -> None:
    client.force_login(cup.users[fixture_c.home_team.name])
    match_url = reverse("tournaments:match", args=[fixture_c.competition.slug, fixture_c.pk])
    client.post(
        reverse("tournaments:submit_result", args=[fixture_c.competition.slug, fixture_c.pk]),
        {"home_goals": 1, "away_goals": 0, "home_yellow": 0, "away_red": 1},
    )
    client.force_login(cup.users[fixture_c.away_team.name])
    page = client.get(match_url).content.decode()
    assert 'data-testid="submission-card"' in page and "Direct red card" in page
    assert 'name="card" value="0"' in page
    client.post(
        reverse("tournaments:dispute_result", args=[fixture_c.competition.slug, fixture_c.pk]),
        {"reason": "the card was a yellow", "card": ["0"]},
    )
    assert Fixture.objects.get(pk=fixture_c.pk).status == Fixture.Status.DISPUTED
    client.force_login(cup.admin)
    resolve_url = reverse("admin:tournaments_fixture_resolve", args=[fixture_c.pk])
    form = client.get(resolve_url).content.decode()
    # The disputed card in words; the cards are picked by team and kind.
    assert "Direct red card" in form and "Card lines disputed" in form
    body = {
        "home_goals": 1,
        "away_goals": 0,
        "card_0_team": "away",
        "card_0_kind": "yellow",
        "note": "a yellow",
    }
    response = client.post(resolve_url, body)
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Fixture.objects.get(pk=fixture_c.pk).result.cards.get().kind == "yellow"
    assert _suspensions(fixture_c) == []
