"""Staff void a match: not played, it counts for nothing, for either side; shown as void everywhere."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from rest_framework.test import APIClient

from matches.models import Result, ResultAudit
from matches.standings.services import standings_compute
from tournaments.models import Fixture, Stage, Suspension

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def played(fixture: Fixture, team_id: int) -> int:
    rows = standings_compute(stage=fixture.stage, group=fixture.group)
    return next(r.played for r in rows if r.team == team_id)


@pytest.fixture
def fixture_h(cup) -> Fixture:
    """A counted group H match (group H is not finished: no knockout tie depends on it yet)."""
    return (
        Fixture.objects.filter(group__name="H", status=Fixture.Status.CONFIRMED)
        .select_related("stage", "group", "competition", "home_team", "away_team")
        .order_by("id")
        .first()
    )


def test_a_voided_match_counts_for_nothing_and_is_shown_as_void(cup, fixture_h) -> None:
    staff = client_for(cup.admin)
    red = {"home_goals": 2, "away_goals": 1, "cards": [{"team": "away", "kind": "red"}], "note": "sheet"}
    assert staff.post(f"/api/v1/fixtures/{fixture_h.pk}/override", red, format="json").status_code == 200
    assert Suspension.objects.filter(source_fixture=fixture_h).exists()
    before = played(fixture_h, fixture_h.home_team_id)

    no_note = staff.post(f"/api/v1/fixtures/{fixture_h.pk}/void", {"note": ""}, format="json")
    assert no_note.status_code == 400 and no_note.json()["error"]["code"] == "validation_error"
    club = client_for(cup.users[fixture_h.home_team.name])
    assert club.post(f"/api/v1/fixtures/{fixture_h.pk}/void", {"note": "x"}, format="json").status_code == 403

    response = staff.post(
        f"/api/v1/fixtures/{fixture_h.pk}/void",
        {"note": "the match was played with the wrong teams"},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "void" and response.json()["result"] is None
    assert not Result.objects.filter(fixture=fixture_h).exists()
    assert played(fixture_h, fixture_h.home_team_id) == before - 1
    assert not Suspension.objects.filter(source_fixture=fixture_h).exists(), "its cards went with it"
    entry = ResultAudit.objects.filter(fixture=fixture_h).latest("id")
    assert entry.action == "void" and entry.actor == cup.admin and "wrong teams" in entry.note
    assert entry.before["result"]["home_goals"] == 2

    slug = fixture_h.competition.slug
    page = APIClient().get(reverse("tournaments:match", args=[slug, fixture_h.pk])).content.decode()
    assert 'data-testid="void"' in page and "wrong teams" in page
    listing = APIClient().get(reverse("tournaments:fixtures", args=[slug])).content.decode()
    assert "badge--void" in listing
    # a void match takes no result, until staff put it back on the schedule
    refused = club.post(
        f"/api/v1/fixtures/{fixture_h.pk}/submit-result", {"home_goals": 1, "away_goals": 0}, format="json"
    )
    assert refused.status_code == 409 and "voided" in refused.json()["error"]["message"]
    again = staff.post(f"/api/v1/fixtures/{fixture_h.pk}/void", {"note": "twice"}, format="json")
    assert again.status_code == 409
    cleared = staff.post(f"/api/v1/fixtures/{fixture_h.pk}/clear", {"note": "replay it"}, format="json")
    assert cleared.status_code == 200 and cleared.json()["status"] == "scheduled"


def test_a_knockout_match_cannot_be_void(cup) -> None:
    tie = Fixture.objects.filter(stage__kind=Stage.Kind.KNOCKOUT, status=Fixture.Status.CONFIRMED).first()
    response = client_for(cup.admin).post(f"/api/v1/fixtures/{tie.pk}/void", {"note": "x"}, format="json")
    assert response.status_code == 409
    assert "award" in response.json()["error"]["message"]
    assert Fixture.objects.get(pk=tie.pk).status == Fixture.Status.CONFIRMED


def test_voiding_a_match_a_later_tie_depended_on_is_refused_then_reopens(cup) -> None:
    first = Fixture.objects.filter(group__name="A").select_related("stage", "group").first()
    order = [row.team for row in standings_compute(stage=first.stage, group=first.group)]
    tie = Fixture.objects.get(away_source__type="group", away_source__group="A", away_source__rank=2)
    # the runner-up's win over the bottom side: without it, the runner-up may drop to third
    candidates = Fixture.objects.filter(group__name="A", status__in=Fixture.COUNTED_STATUSES).select_related(
        "result"
    )
    staff = client_for(cup.admin)
    for fixture in candidates:
        answer = staff.post(f"/api/v1/fixtures/{fixture.pk}/void", {"note": "void"}, format="json")
        if answer.status_code == 409:
            fixtures = answer.json()["error"]["details"]["fixtures"]
            assert tie.pk in [f["id"] for f in fixtures]
            assert Fixture.objects.get(pk=fixture.pk).status in Fixture.COUNTED_STATUSES, (
                "nothing half-written"
            )
            reopened = staff.post(
                f"/api/v1/fixtures/{fixture.pk}/void", {"note": "void", "reopen": True}, format="json"
            )
            assert reopened.status_code == 200, reopened.content
            assert Fixture.objects.get(pk=tie.pk).status == Fixture.Status.SCHEDULED
            assert "Reopened" in ResultAudit.objects.filter(fixture=fixture).latest("id").note
            return
        assert answer.status_code == 200, answer.content
        # this one left the qualifiers unchanged: put it back and try the next
        staff.post(f"/api/v1/fixtures/{fixture.pk}/clear", {"note": "undo"}, format="json")
    pytest.fail(f"no group A match changed who finished second (order {order})")


def test_staff_void_through_the_admin_action(cup, fixture_h, client) -> None:
    client.force_login(cup.admin)
    changelist = reverse("admin:tournaments_fixture_changelist")
    redirect = client.post(changelist, {"action": "void_match", "_selected_action": [fixture_h.pk]})
    void_url = reverse("admin:tournaments_fixture_void", args=[fixture_h.pk])
    assert redirect.status_code == 302 and redirect["Location"] == void_url
    assert "Void the match" in client.get(void_url).content.decode()
    response = client.post(void_url, {"note": "abandoned at half time, not to be replayed"})
    assert response.status_code == 302
    fixture_h.refresh_from_db()
    assert fixture_h.status == Fixture.Status.VOID
    assert ResultAudit.objects.filter(fixture=fixture_h, action="void", actor=cup.admin).exists()


def test_the_admin_void_needs_the_change_permission(cup, fixture_h, client, django_user_model) -> None:
    clerk = django_user_model.objects.create_user("clerk", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_fixture"))
    client.force_login(clerk)
    client.post(reverse("admin:tournaments_fixture_void", args=[fixture_h.pk]), {"note": "x"})
    assert Fixture.objects.get(pk=fixture_h.pk).status == Fixture.Status.CONFIRMED
