"""The scorer API's token check (kernel/token_auth.py) answers as DRF's TokenAuthentication: the
same user and token for a good key, the same refusals for an unknown key or an inactive user."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from kernel.token_auth import TokenSQLAuthentication
from scoring import services
from tests.scoring.helpers import make_fixture

pytestmark = pytest.mark.django_db


def test_a_good_key_gives_the_user_and_token_drf_gives() -> None:
    user = User.objects.create_user("scorer", password="x", first_name="Ana")
    token = Token.objects.create(user=user)
    ours = TokenSQLAuthentication().authenticate_credentials(token.key)
    drfs = TokenAuthentication().authenticate_credentials(token.key)
    assert ours[0] == drfs[0] and ours[1] == drfs[1] == token
    for name in ("username", "first_name", "is_active", "is_staff", "password", "date_joined"):
        assert getattr(ours[0], name) == getattr(drfs[0], name), name
    assert ours[1].created == token.created and ours[1].user is ours[0]
    assert not ours[0]._state.adding  # a stored row, as the ORM reads it


@pytest.mark.parametrize("active", [True, False])
def test_an_unknown_key_or_an_inactive_user_is_refused_as_drf_refuses(active: bool) -> None:
    user = User.objects.create_user("scorer", password="x", is_active=active)
    key = Token.objects.create(user=user).key if not active else "0" * 40
    for check in (TokenSQLAuthentication(), TokenAuthentication()):
        with pytest.raises(exceptions.AuthenticationFailed) as refused:
            check.authenticate_credentials(key)
        message = "Invalid token." if active else "User inactive or deleted."
        assert str(refused.value.detail) == message


def test_the_scorer_api_refuses_a_post_with_a_bad_token_and_takes_a_good_one() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "f" * 40)
    url = f"/api/v1/scoring-sessions/{session.id}"
    refused = client.post(f"{url}/abandon", {}, format="json")
    assert refused.status_code == 403, refused.content  # as DRF answers with session auth first
    assert "Invalid token" in refused.content.decode()
    session.refresh_from_db()
    assert session.status == session.Status.LIVE
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=s.home_user).key}")
    assert client.get(url).status_code == 200
    assert client.post(f"{url}/events", {"after": ""}, format="json").status_code == 400
