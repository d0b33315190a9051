"""Every URL pattern with an unknown id answers its HTTP code, never a 500.

The walk takes every pattern of the URL configuration that has a parameter (pages, the API, the
admin, the scorer), fills each parameter with an id or slug that names nothing, and requests it
with GET and POST as an anonymous visitor, a club member, staff without permissions and a
superuser. A page that let the domain error (ApplicationError) escape answered 500: the pages
map it to 404/403/409 in one place (kernel/page_errors.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

from kernel.errors import Conflict, NotFound
from kernel.errors import PermissionDenied as AppPermissionDenied
from tests.factories import AdminFactory

pytestmark = pytest.mark.django_db

UNKNOWN_ID = "987654"
UNKNOWN_SLUG = "no-such-competition"
# The value of a parameter by its converter (route patterns) or group name (the API router's regexes).
BY_CONVERTER = {"int": UNKNOWN_ID, "path": UNKNOWN_ID, "slug": UNKNOWN_SLUG, "str": "unknown"}
BY_GROUP = {"pk": UNKNOWN_ID, "slug": UNKNOWN_SLUG, "format": "json"}
_ROUTE_PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
_REGEX_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>[^)]*\)")


def _route_path(route: str, values: dict[str, str]) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match["name"]
        return values.get(name) or BY_CONVERTER.get(match["converter"] or "str", "unknown")

    return _ROUTE_PARAM.sub(fill, route)


def _regex_path(regex: str, values: dict[str, str]) -> str | None:
    text = _REGEX_GROUP.sub(lambda m: values.get(m["name"]) or BY_GROUP.get(m["name"], UNKNOWN_ID), regex)
    text = text.replace("^", "").replace("$", "").replace("\\Z", "").replace("/?", "/").replace("\\", "")
    return text if re.fullmatch(regex.lstrip("^"), text) or "?" not in text else None


def parameterised_paths(values: dict[str, str] | None = None) -> Iterator[tuple[str, str]]:
    """(path, view) of every URL pattern that takes a parameter, the parameters filled in."""

    def walk(patterns: list[Any], prefix: str, has_param: bool) -> Iterator[tuple[str, str]]:
        for entry in patterns:
            pattern = entry.pattern
            if isinstance(pattern, RoutePattern):
                part, param = _route_path(str(pattern), values or {}), bool(pattern.converters)
            elif isinstance(pattern, RegexPattern):
                filled = _regex_path(str(pattern), values or {})
                if filled is None:
                    continue
                part, param = filled, bool(pattern.regex.groupindex)
            else:  # pragma: no cover - Django has only these two
                raise AssertionError(type(pattern))
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, prefix + part, has_param or param)
            elif isinstance(entry, URLPattern) and (has_param or param):
                yield "/" + prefix + part, entry.lookup_str

    return walk(get_resolver().url_patterns, "", False)


def _clients(cup) -> dict[str, Client]:
    clients = {"anonymous": Client(raise_request_exception=False)}
    for name, user in (
        ("club member", cup.users["Brazil"]),
        ("staff without permissions", AdminFactory()),
        ("superuser", cup.admin),
    ):
        clients[name] = Client(raise_request_exception=False)
        clients[name].force_login(user)
    return clients


def _server_errors(clients: dict[str, Client], paths: list[tuple[str, str]]) -> list[str]:
    failures = []
    for who, client in clients.items():
        for path, view in paths:
            for method in ("get", "post"):
                response = getattr(client, method)(path)
                if response.status_code >= 500:
                    failures.append(f"{method.upper()} {path} as {who} ({view}): {response.status_code}")
    return failures


def test_every_pattern_with_unknown_ids_answers_without_a_server_error(cup) -> None:
    paths = sorted(set(parameterised_paths()))
    # The walk reaches every part of the site: pages, scorer, ratings, chances, API and admin.
    views = {view for _, view in paths}
    for expected in (
        "scoring.views.scorer",
        "fubaleague.web.match_views.replay_json",
        "ratings.views.coach_history",
        "chances.views.chances_page",
        "league.api.result_views.FixtureViewSet",
        "scoring.api.views.ScoringSessionViewSet",
        "django.contrib.admin.options.ModelAdmin.change_view",
    ):
        assert expected in views, expected
    assert _server_errors(_clients(cup), paths) == []


def test_unknown_ids_in_a_known_competition_answer_404(cup) -> None:
    paths = [
        (path, view)
        for path, view in parameterised_paths({"slug": cup.competition.slug})
        if UNKNOWN_ID in path and not path.startswith("/admin/")
    ]
    assert _server_errors(_clients(cup), paths) == []
    client = Client()
    for path, view in paths:
        response = client.get(path)
        # Actions refuse GET (405) or ask to sign in (302, 401, 403) before they look anything up.
        assert response.status_code in (404, 405, 302, 401, 403), (path, view, response.status_code)
    for path in (f"/score/{UNKNOWN_ID}/", f"/c/{cup.competition.slug}/matches/{UNKNOWN_ID}/replay.json"):
        assert client.get(path).status_code == 404, path


@pytest.mark.parametrize(
    "error, status",
    [
        (NotFound("No scoring session 5."), 404),
        (AppPermissionDenied("Not your fixture."), 403),
        (Conflict("The result is already confirmed."), 409),
    ],
)
def test_a_page_maps_the_domain_error_to_its_status(error, status, monkeypatch) -> None:
    from scoring import selectors

    def raise_error(**kwargs: object) -> None:
        raise error

    monkeypatch.setattr(selectors, "session_get", raise_error)
    response = Client(raise_request_exception=False).get("/score/5/")
    assert response.status_code == status
    if status == 409:
        assert error.message in response.content.decode()
