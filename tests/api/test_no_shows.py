"""No-shows: a club says it cannot play from the match page; staff award the match to a side."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from matches.models import Forfeit, ResultAudit
from tournaments.models import Competition, Fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture_c(cup) -> Fixture:
    return (
        Fixture.objects.filter(group__name="C", round=1)
        .select_related("home_team", "away_team", "competition")
        .order_by("match_number")
        .first()
    )


def test_staff_award_the_match_to_a_side_with_the_policy_score(cup, fixture_c) -> None:
    Competition.objects.filter(pk=fixture_c.competition_id).update(award_goals_for=3, award_goals_against=0)
    staff = APIClient()
    staff.force_authenticate(cup.admin)
    url = f"/api/v1/fixtures/{fixture_c.pk}/award"
    wrong = staff.post(url, {"team_id": 999999, "note": "x"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "validation_error"
    response = staff.post(
        url, {"team_id": fixture_c.away_team_id, "note": "home did not show"}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "awarded"
    assert (body["result"]["home_goals"], body["result"]["away_goals"], body["result"]["source"]) == (
        0,
        3,
        "awarded",
    )
    entry = ResultAudit.objects.filter(fixture=fixture_c).latest("id")
    assert entry.action == "award" and entry.actor == cup.admin and "did not show" in entry.note
    page = APIClient().get(reverse("tournaments:match", args=[fixture_c.competition.slug, fixture_c.pk]))
    assert 'data-testid="awarded"' in page.content.decode()
    tables = APIClient().get(f"/api/v1/competitions/{fixture_c.competition.slug}/standings").json()
    group_c = next(t for t in tables if t["group"] == "C")
    assert group_c["rows"][0]["team"] == fixture_c.away_team.name


def test_a_club_says_it_cannot_play_from_the_match_page(cup, fixture_c, client) -> None:
    client.force_login(cup.users[fixture_c.home_team.name])
    match_url = reverse("tournaments:match", args=[fixture_c.competition.slug, fixture_c.pk])
    assert 'data-testid="cannot-play"' in client.get(match_url).content.decode()
    client.post(reverse("tournaments:cannot_play", args=[fixture_c.competition.slug, fixture_c.pk]))
    forfeit = Forfeit.objects.get(fixture=fixture_c)
    assert forfeit.reason == Forfeit.Reason.DECLARED and forfeit.forfeiting_team == fixture_c.home_team
    # The task deciding it (simulate or award, the competition's policy) is queued on commit.
    assert forfeit.state == Forfeit.State.QUEUED


def test_staff_award_through_the_admin_action(cup, fixture_c, client) -> None:
    client.force_login(cup.admin)
    changelist = reverse("admin:tournaments_fixture_changelist")
    redirect = client.post(changelist, {"action": "award_match", "_selected_action": [fixture_c.pk]})
    award_url = reverse("admin:tournaments_fixture_award", args=[fixture_c.pk])
    assert redirect.status_code == 302 and redirect["Location"] == award_url
    refused = client.post(award_url, {"winner": "home", "note": ""})
    assert refused.status_code == 200 and Fixture.objects.get(pk=fixture_c.pk).status != "awarded"
    done = client.post(award_url, {"winner": "home", "note": "the away side did not show"})
    assert done.status_code == 302
    fixture_c.refresh_from_db()
    competition = fixture_c.competition
    assert fixture_c.status == Fixture.Status.AWARDED
    assert (fixture_c.result.home_goals, fixture_c.result.away_goals) == (
        competition.award_goals_for,
        competition.award_goals_against,
    )
    entry = ResultAudit.objects.filter(fixture=fixture_c).latest("id")
    assert entry.action == "award" and entry.actor == cup.admin and "did not show" in entry.note
