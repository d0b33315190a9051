"""Joining a competition (issue 32): an invitation link lands on "Join <club> in <competition>"
(a user name and password chosen there, or sign in; no password-reset wording), bulk invitations,
the sign-up page the organiser opens and approves, a club's members inviting and removing members,
and helpers invited to a role by e-mail."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from kernel.errors import PermissionDenied
from tests.factories import AdminFactory, CompetitionFactory, TeamFactory, UserFactory
from tournaments.models import ClubApplication, Competition, CompetitionRole, Invitation
from tournaments.services.roles import competition_organiser_set, role_grant
from tournaments.services.signups import application_decide

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-2027!"


@pytest.fixture(autouse=True)
def fast_hashing(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def cup() -> Competition:
    competition = CompetitionFactory(name="Spring Cup", slug="spring-cup")
    TeamFactory(competition=competition, name="Wolves")
    return competition


@pytest.fixture
def organiser(cup) -> Any:
    user = UserFactory(username="olga")
    competition_organiser_set(competition=cup, user=user)
    return user


@pytest.fixture
def console(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def _link(text: str) -> str:
    return re.search(r"https?://\S+/join/[\w-]+/", text).group(0)


def _invite(console: Client, club: str, username: str, email: str) -> None:
    body = {"invite": "1", "club": club, "username": username, "email": email}
    assert console.post("/console/c/spring-cup/teams/", body).status_code == 302


def test_an_invitation_link_lands_on_join_the_club_in_the_competition(console, mailoutbox) -> None:
    _invite(console, "Wolves FC", "wolfie", "wolf@example.org")
    (mail,) = mailoutbox
    assert mail.to == ["wolf@example.org"] and mail.subject == "Join Wolves FC in Spring Cup"
    assert "Your user name: wolfie" in mail.body and "Spring Cup" in mail.body
    assert "reset" not in (mail.subject + mail.body).lower()
    link = _link(mail.body)
    visitor = Client()
    page = visitor.get(link).content.decode()
    assert "Join Wolves FC in Spring Cup" in page and "reset" not in page.lower()
    assert 'value="wolfie"' in page  # the proposed user name, which they may change
    body = {"create": "1", "username": "wolf-2027", "password1": PASSWORD, "password2": PASSWORD}
    response = visitor.post(link, body)
    assert response.status_code == 302 and response.url == "/my-club/"
    member = get_user_model().objects.get(username="wolf-2027")
    assert member.email == "wolf@example.org" and member.fuba_clubs.get().name == "Wolves FC"
    assert visitor.get("/my-club/").status_code == 200  # signed in
    assert "has been used" in Client().get(link).content.decode()


def test_a_weak_password_or_a_taken_user_name_is_refused_on_the_join_page(console, mailoutbox) -> None:
    UserFactory(username="taken")
    _invite(console, "Hawks FC", "hawkie", "")
    page = console.get("/console/c/spring-cup/teams/").content.decode()
    link = re.search(r'data-testid="invite-link">([^<]+)<', page).group(1)
    # The link is shown once, on the page the invitation redirected to.
    assert 'data-testid="invite-link"' not in console.get("/console/c/spring-cup/teams/").content.decode()
    visitor = Client()
    taken = {"create": "1", "username": "Taken", "password1": PASSWORD, "password2": PASSWORD}
    assert "is taken" in visitor.post(link, taken).content.decode()
    weak = {"create": "1", "username": "hawkie", "password1": "123", "password2": "123"}
    assert "too short" in visitor.post(link, weak).content.decode()
    assert not get_user_model().objects.filter(username="hawkie").exists()
    assert Invitation.objects.get(username="hawkie").accepted_at is None


def test_someone_already_on_the_service_signs_in_and_joins(console, mailoutbox) -> None:
    _invite(console, "Wolves FC", "wolfie", "wolf@example.org")
    link = _link(mailoutbox[0].body)
    existing = UserFactory(username="old-hand")
    visitor = Client()
    assert "Sign in" in visitor.get(link).content.decode()
    visitor.force_login(existing)
    page = visitor.get(link).content.decode()
    assert "Join as old-hand" in page
    assert visitor.post(link, {"accept": "1"}).status_code == 302
    assert existing.fuba_clubs.get().name == "Wolves FC"


def test_an_expired_or_unknown_link_says_so(console, mailoutbox) -> None:
    _invite(console, "Wolves FC", "wolfie", "wolf@example.org")
    link = _link(mailoutbox[0].body)
    Invitation.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    assert "has expired" in Client().get(link).content.decode()
    response = Client().get("/join/not-a-token/")
    assert response.status_code == 410 and "not known" in response.content.decode()


def test_bulk_invitations_go_each_to_its_own_address_all_or_nothing(console, mailoutbox) -> None:
    url = "/console/c/spring-cup/teams/"
    bad = "Wolves FC, wolfie, wolf@example.org\nHawks FC, hawkie, not-an-address\n"
    page = console.post(url, {"bulk": "1", "invitations": bad}).content.decode()
    assert "Line 2 (Hawks FC, hawkie, not-an-address)" in page and "not an e-mail address" in page
    assert not Invitation.objects.exists() and not mailoutbox
    lines = "Wolves FC, wolfie, wolf@example.org\nHawks FC, hawkie, hawk@example.org\nBears FC, bear,\n"
    page = console.post(url, {"bulk": "1", "invitations": lines}, follow=True).content.decode()
    assert "3 members invited (2 by e-mail)" in page
    assert page.count('data-testid="invite-link"') == 3
    assert [m.to for m in mailoutbox] == [["wolf@example.org"], ["hawk@example.org"]]
    assert mailoutbox[1].subject == "Join Hawks FC in Spring Cup"
    assert {i.username: i.club.name for i in Invitation.objects.all()} == {
        "wolfie": "Wolves FC",
        "hawkie": "Hawks FC",
        "bear": "Bears FC",
    }


def test_the_sign_up_page_takes_clubs_the_organiser_approves(cup, console, organiser) -> None:
    visitor = Client()
    assert "is closed" in visitor.get("/c/spring-cup/sign-up/").content.decode()
    assert console.post("/console/c/spring-cup/teams/", {"signup": "open"}).status_code == 302
    cup.refresh_from_db()
    assert cup.signup_open
    body = {
        "club_name": "Foxes FC",
        "team_name": "Foxes",
        "country": "Wales",
        "username": "foxy",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    assert visitor.post("/c/spring-cup/sign-up/", body).status_code == 302
    application = ClubApplication.objects.get()
    assert application.status == "pending" and application.applicant.username == "foxy"
    assert "Waiting for the organiser" in visitor.get("/c/spring-cup/sign-up/").content.decode()
    taken = body | {"username": "other", "team_name": "Wolves"}
    assert "already has a team named" in Client().post("/c/spring-cup/sign-up/", taken).content.decode()
    # A results-desk helper may not approve; the organiser does, on the console.
    desk = UserFactory()
    role_grant(competition=cup, user=desk, kind=CompetitionRole.Kind.RESULTS_DESK, by=organiser)
    with pytest.raises(PermissionDenied):
        application_decide(application=application, approve=True, by=desk)
    page = console.get("/console/c/spring-cup/teams/").content.decode()
    assert "Foxes · Foxes FC · Wales · by foxy" in page
    assert console.post("/console/c/spring-cup/teams/", {"approve": application.pk}).status_code == 302
    team = cup.teams.get(name="Foxes")
    assert team.club.name == "Foxes FC" and list(team.club.members.values_list("username", flat=True)) == [
        "foxy"
    ]
    assert console.post("/console/c/spring-cup/teams/", {"signup": "close"}).status_code == 302
    assert "is closed" in Client().get("/c/spring-cup/sign-up/").content.decode()


def test_a_club_s_members_invite_and_remove_its_members(cup, mailoutbox) -> None:
    team = cup.teams.get()
    first, second = UserFactory(username="first"), UserFactory(username="second")
    team.club.members.add(first, second)
    member = Client()
    member.force_login(first)
    url = f"/my-club/{team.club_id}/members/"
    assert f"Members of {team.club.name}" in member.get("/my-club/").content.decode()
    body = {"invite": "1", "username": "third", "email": "third@example.org"}
    assert member.post(url, body).status_code == 302
    assert mailoutbox[0].to == ["third@example.org"]
    assert mailoutbox[0].subject == f"Join {team.club.name} in Spring Cup"
    assert member.post(url, {"remove": second.pk}).status_code == 302
    assert list(team.club.members.values_list("username", flat=True)) == ["first"]
    page = member.post(url, {"remove": first.pk}, follow=True).content.decode()
    assert "last member" in page
    outsider = Client()
    outsider.force_login(UserFactory())
    assert outsider.get(url).status_code == 404
    assert outsider.post(url, {"remove": first.pk}).status_code == 404


def test_a_helper_is_invited_to_a_role_by_e_mail(cup, console, mailoutbox) -> None:
    body = {"add": "1", "who": "desk@example.org", "kind": "results_desk"}
    assert console.post("/console/c/spring-cup/people/", body).status_code == 302
    (mail,) = mailoutbox
    assert mail.to == ["desk@example.org"] and mail.subject == "Help run Spring Cup"
    link = _link(mail.body)
    visitor = Client()
    assert "Join Spring Cup as results desk" in visitor.get(link).content.decode()
    created = {"create": "1", "username": "desk", "password1": PASSWORD, "password2": PASSWORD}
    response = visitor.post(link, created)
    assert response.url == "/console/c/spring-cup/"
    assert CompetitionRole.objects.get(user__username="desk").kind == "results_desk"
    assert visitor.get("/console/c/spring-cup/results/").status_code == 200
    assert visitor.get("/console/c/spring-cup/draw/").status_code == 403


def test_staff_keep_the_join_and_sign_up_pages_working_as_anyone(cup) -> None:
    staff = Client()
    staff.force_login(AdminFactory(is_superuser=True))
    assert staff.post("/console/c/spring-cup/teams/", {"signup": "open"}).status_code == 302
    body = {"club_name": "Staff FC", "team_name": "Staff"}
    assert staff.post("/c/spring-cup/sign-up/", body).status_code == 302
    assert ClubApplication.objects.get().club_name == "Staff FC"


def test_new_accounts_from_one_address_are_limited(cup, console, settings) -> None:
    settings.ACCOUNT_LIMIT_ADDRESS = "2/hour"
    console.post("/console/c/spring-cup/teams/", {"signup": "open"})
    statuses = []
    for n in range(3):
        body = {
            "club_name": f"Club {n}",
            "team_name": f"Team {n}",
            "username": f"applicant{n}",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
        response = Client().post("/c/spring-cup/sign-up/", body)
        statuses.append(response.status_code)
    assert statuses == [302, 302, 200]
    assert "Too many new accounts from this address" in response.content.decode()
    assert ClubApplication.objects.count() == 2
    assert not get_user_model().objects.filter(username="applicant2").exists()
