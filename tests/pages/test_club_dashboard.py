"""A club member's own page: lands there after sign-in; fixtures, results to confirm, disputes, bans."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from matches.services import result_submit
from scoring.services import session_start
from tournaments.bracket import Score
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def test_signing_in_lands_on_the_club_dashboard(cup, client) -> None:
    fixture = (
        Fixture.objects.filter(group__name="C", round=1).select_related("home_team", "away_team").first()
    )
    home_user = cup.users[fixture.home_team.name]
    away_user = cup.users[fixture.away_team.name]
    result_submit(
        fixture_id=fixture.pk,
        user=home_user,
        score=Score(1, 0),
        cards=[{"team": "away", "kind": "red"}],
    )
    away_user.set_password("a-long-password-1")
    away_user.save()
    response = client.post(
        reverse("tournaments:login"), {"username": away_user.username, "password": "a-long-password-1"}
    )
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:dashboard")
    page = client.get(response["Location"]).content.decode()
    awaiting = page.split('data-testid="awaiting"')[1].split("</section>")[0]
    assert fixture.home_team.name in awaiting and "1 card" in awaiting
    assert fixture.away_team.name in page.split('data-testid="next-fixtures"')[1]


def test_dashboard_needs_a_sign_in(client) -> None:
    response = client.get(reverse("tournaments:dashboard"))
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_password_reset_by_email_then_change(cup, client, mailoutbox) -> None:
    user = next(iter(cup.users.values()))
    user.email = "club@example.org"
    user.save()
    response = client.post(reverse("tournaments:password_reset"), {"email": "club@example.org"})
    assert response.status_code == 302
    (mail,) = mailoutbox
    link = re.search(r"https?://[^/]+(/password/reset/\S+)", mail.body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": "Zq8-new-secret", "new_password2": "Zq8-new-secret"}
    )
    assert done.status_code == 302
    assert client.login(username=user.username, password="Zq8-new-secret")
    changed = client.post(
        reverse("tournaments:password_change"),
        {
            "old_password": "Zq8-new-secret",
            "new_password1": "Zq8-other-secret",
            "new_password2": "Zq8-other-secret",
        },
    )
    assert changed.status_code == 302


def test_the_dashboard_lists_the_clubs_live_scoring_sessions(cup, client) -> None:
    fixture = (
        Fixture.objects.filter(
            status=Fixture.Status.SCHEDULED, home_team__isnull=False, away_team__isnull=False
        )
        .select_related("home_team", "away_team")
        .order_by("id")
        .first()
    )
    away_user = cup.users[fixture.away_team.name]
    client.force_login(away_user)
    empty = client.get(reverse("tournaments:dashboard")).content.decode()
    assert 'data-testid="live-session"' not in empty
    session = session_start(fixture_id=fixture.pk, user=cup.users[fixture.home_team.name])
    page = client.get(reverse("tournaments:dashboard")).content.decode()
    live = page.split('data-testid="live-sessions"')[1].split("</section>")[0]
    assert reverse("scoring:scorer", args=[session.pk]) in live
    assert fixture.home_team.name in live and "Live" in live
