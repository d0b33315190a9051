"""Issue 32 item 4: a team is changed or removed in the console after pasting, through the team
services; once it is in the fixtures it is not removed."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory
from tournaments.models import Team
from tournaments.services.roles import role_grant
from tournaments.services.scheduling import fixture_generate
from tournaments.shapes import Shape, competition_create_from_shape

pytestmark = pytest.mark.django_db


def test_a_team_is_edited_and_removed_until_it_is_in_the_fixtures() -> None:
    olga, desk = UserFactory(username="olga"), UserFactory(username="desk")
    teams = [{"name": f"T{i}", "country": f"C{i}"} for i in range(5)]
    cup = competition_create_from_shape(
        name="Edit Cup", slug="edit-cup", shape=Shape("league", 5), teams=teams, creator=olga
    )
    role_grant(competition=cup, user=desk, kind="results_desk", by=olga)
    client = Client()
    client.force_login(olga)
    t0, t1, t4 = (Team.objects.get(competition=cup, name=n) for n in ("T0", "T1", "T4"))
    assert f"/console/c/edit-cup/teams/{t0.pk}/" in client.get("/console/c/edit-cup/teams/").content.decode()
    body = {
        "name": "Wolves",
        "country": "Wales",
        "confederation": "UEFA",
        "seed": 1,
        "default_formation": "4-4-2",
    }
    assert client.post(f"/console/c/edit-cup/teams/{t0.pk}/", body).status_code == 302
    t0.refresh_from_db()
    assert (t0.name, t0.country, t0.confederation, t0.seed) == ("Wolves", "Wales", "UEFA", 1)
    taken = client.post(f"/console/c/edit-cup/teams/{t1.pk}/", body | {"seed": 2})
    assert "already has a team named" in taken.content.decode()
    bad = client.post(
        f"/console/c/edit-cup/teams/{t1.pk}/", body | {"name": "T1", "default_formation": "9-9"}
    )
    assert bad.status_code == 200 and Team.objects.get(pk=t1.pk).default_formation != "9-9"
    assert client.post(f"/console/c/edit-cup/teams/{t4.pk}/", {"remove": "1"}).status_code == 302
    assert not Team.objects.filter(pk=t4.pk).exists()
    desk_client = Client()
    desk_client.force_login(desk)
    assert desk_client.post(f"/console/c/edit-cup/teams/{t1.pk}/", {"remove": "1"}).status_code == 403
    fixture_generate(stage=cup.stages.get())
    kept = client.post(f"/console/c/edit-cup/teams/{t1.pk}/", {"remove": "1"}, follow=True)
    assert "withdraw it instead" in kept.content.decode() and Team.objects.filter(pk=t1.pk).exists()
