"""The admin's clubs and coaches save and delete through their services; the records the services
derive (skills, byes, skills lost, used and held) are read-only there (issue 32)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from league import admin_clubs
from tests.factories import AdminFactory, ClubFactory, CoachFactory, TeamFactory, UserFactory
from tournaments.models import Club, Coach, Skill, TeamSkill
from tournaments.services import clubs as club_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    client.force_login(AdminFactory(is_superuser=True))
    return client


def _spy(monkeypatch, name: str) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    real = getattr(club_services, name)

    def spy(**kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(admin_clubs, name, spy)
    return calls


def test_a_club_is_added_and_its_members_changed_by_the_services(staff, monkeypatch) -> None:
    created, members = _spy(monkeypatch, "club_create"), _spy(monkeypatch, "club_members_set")
    mia, leo = UserFactory(username="mia"), UserFactory(username="leo")
    response = staff.post(
        "/admin/tournaments/club/add/", {"name": "Wolves FC", "country": "Wales", "members": [mia.pk]}
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    club = Club.objects.get(name="Wolves FC")
    assert list(club.members.all()) == [mia] and len(created) == 2  # the dry run, then the save
    url = f"/admin/tournaments/club/{club.pk}/change/"
    assert staff.post(url, {"name": "Wolves FC", "country": "Wales", "members": [leo.pk]}).status_code == 302
    assert list(club.members.all()) == [leo] and members and members[-1]["club"] == club


def test_the_club_admin_shows_the_services_refusals(staff) -> None:
    club = ClubFactory(name="Hawks FC")
    page = staff.post("/admin/tournaments/club/add/", {"name": "  ", "country": ""}).content.decode()
    assert "This field is required" in page or "A club needs a name" in page
    TeamFactory(club=club)
    page = staff.get(f"/admin/tournaments/club/{club.pk}/delete/").content.decode()
    assert "has teams in competitions; it cannot be deleted" in page
    staff.post(f"/admin/tournaments/club/{club.pk}/delete/", {"post": "yes"})
    assert Club.objects.filter(pk=club.pk).exists()


def test_a_coach_is_saved_by_the_services_and_their_refusal_shows(staff, monkeypatch) -> None:
    updated = _spy(monkeypatch, "coach_update")
    CoachFactory(name="First", ranking_id="R-1")
    body = {"name": "Second", "country": "Wales", "ranking_id": "R-1"}
    page = staff.post("/admin/tournaments/coach/add/", body).content.decode()
    assert "Another coach has the ranking id &#x27;R-1&#x27;." in page
    assert not Coach.objects.filter(name="Second").exists()
    coach = CoachFactory(name="Third", ranking_id="R-3")
    url = f"/admin/tournaments/coach/{coach.pk}/change/"
    assert staff.post(url, {"name": "Third", "country": "Scotland", "ranking_id": "R-3"}).status_code == 302
    coach.refresh_from_db()
    assert coach.country == "Scotland" and updated[-1]["country"] == "Scotland" and "name" not in updated[-1]


@pytest.mark.parametrize(
    "model",
    [
        "skill",
        "bye",
        "skillloss",
        "matchskill",
        "teamskill",
        "competitionrole",
        "invitation",
        "clubapplication",
    ],
)
def test_records_the_services_keep_are_read_only_in_the_admin(staff, model: str) -> None:
    assert staff.get(f"/admin/tournaments/{model}/").status_code == 200
    assert staff.get(f"/admin/tournaments/{model}/add/").status_code == 403


def test_a_team_skill_cannot_be_changed_or_deleted_around_the_services(staff) -> None:
    team = TeamFactory()
    held = TeamSkill.objects.create(team=team, skill=Skill.objects.first(), source=TeamSkill.Source.CHOSEN)
    url = f"/admin/tournaments/teamskill/{held.pk}/change/"
    page = staff.get(url).content.decode()
    assert 'name="_save"' not in page
    assert staff.post(url, {"team": team.pk, "skill": held.skill_id, "source": "gained"}).status_code == 403
    assert staff.post(f"/admin/tournaments/teamskill/{held.pk}/delete/", {"post": "yes"}).status_code == 403
    held.refresh_from_db()
    assert held.source == TeamSkill.Source.CHOSEN


def test_the_invitation_admin_never_shows_the_token_hash(staff) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tests.factories import CompetitionFactory
    from tournaments.models import Invitation

    invitation = Invitation.objects.create(
        competition=CompetitionFactory(),
        username="wolfie",
        email="wolf@example.org",
        token_hash="f" * 64,
        expires_at=timezone.now() + timedelta(days=1),
    )
    page = staff.get(f"/admin/tournaments/invitation/{invitation.pk}/change/").content.decode()
    assert "wolf@example.org" in page and "f" * 64 not in page
