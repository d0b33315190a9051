"""Every write endpoint of the router refuses anonymous clients (401/403) and non-staff where staff-only."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from fubaleague.api_urls import router
from tournaments.models import Competition, Fixture, Stage

pytestmark = pytest.mark.django_db

WRITE_METHODS = {"post", "put", "patch", "delete"}
STAFF_ONLY_ACTIONS = {
    "resolve",
    "override",
    "generate_fixtures",
    "next_swiss_round",
    "recompute_standings",
}


def write_routes() -> list[tuple[str, str, str]]:
    """(method, url template, action) for every write route the router exposes."""
    routes = []
    for prefix, viewset, _basename in router.registry:
        for route in router.get_routes(viewset):
            # Only the methods the viewset really implements (DRF drops the others the same way).
            for method, action in router.get_method_map(viewset, route.mapping).items():
                if method not in WRITE_METHODS:
                    continue
                url = route.url.replace("{prefix}", prefix).replace("{trailing_slash}", "")
                url = url.replace("{lookup}", "<pk>").replace("{url_path}", "")
                url = url.lstrip("^").rstrip("$")
                routes.append((method, "/api/v1/" + url, action))
    return routes


def concrete(url: str, competition: Competition, stage: Stage, fixture: Fixture) -> str:
    # a nested id of an extra action (e.g. roles/(?P<role_id>…)): any number; the write is refused
    # before the object is looked up
    url = re.sub(r"\(\?P<\w+>[^)]*\)", "1", url)
    if url.startswith("/api/v1/competitions/"):
        return url.replace("<pk>", competition.slug)
    if url.startswith("/api/v1/stages/"):
        return url.replace("<pk>", str(stage.pk))
    return url.replace("<pk>", str(fixture.pk))


@pytest.fixture
def objects(db):
    from tournaments.services.clubs import team_create
    from tournaments.services.competitions import competition_create
    from tournaments.services.scheduling import fixture_generate
    from tournaments.services.stages import stage_create

    competition = competition_create(name="Perm Cup", slug="perm-cup")
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(4)]
    stage = stage_create(competition=competition, name="League", kind="round_robin", teams=teams)
    fixture_generate(stage=stage)
    return competition, stage, Fixture.objects.filter(stage=stage).first()


def test_the_router_has_write_routes() -> None:
    actions = {action for _, _, action in write_routes()}
    assert {"submit_result", "confirm", "dispute", "resolve", "override", "forfeit"} <= actions
    assert {"generate_fixtures", "recompute_standings", "create"} <= actions


def test_anonymous_client_gets_401_or_403_on_every_write_endpoint(objects) -> None:
    competition, stage, fixture = objects
    client = APIClient()
    checked = 0
    for method, url, _action in write_routes():
        response = getattr(client, method)(concrete(url, competition, stage, fixture), {}, format="json")
        assert response.status_code in (401, 403), (method, url, response.status_code)
        body = response.json()
        assert body["error"]["code"] in ("not_authenticated", "permission_denied"), body
        checked += 1
    assert checked >= 10


def test_plain_user_is_refused_on_staff_actions(objects) -> None:
    competition, stage, fixture = objects
    user = get_user_model().objects.create_user("someone", password="x-very-long-pass")
    client = APIClient()
    client.force_authenticate(user)
    for method, url, action in write_routes():
        if action not in STAFF_ONLY_ACTIONS:
            continue
        response = getattr(client, method)(concrete(url, competition, stage, fixture), {}, format="json")
        assert response.status_code == 403, (url, response.status_code)


def test_read_endpoints_are_public(objects) -> None:
    client = APIClient()
    for url in (
        "/api/v1/competitions",
        "/api/v1/fixtures",
        "/api/v1/teams",
        "/api/v1/skills",
        "/api/v1/stages",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "results" in response.json()  # paginated


def test_unknown_routes_and_methods_use_the_error_shape(objects) -> None:
    client = APIClient()
    response = client.get("/api/v1/fixtures/999999")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    response = client.delete("/api/v1/skills/1")
    assert response.status_code in (401, 403, 405)
    assert re.match(r"^[a-z_]+$", response.json()["error"]["code"])
