"""The OpenAPI schema says what the API really answers (found by a schemathesis run against a live server).

- Nullable relations (a fixture's group and undecided knockout teams, an unserved suspension, a
  team's coach and club, ...) were documented as never null.
- The fixture audit trail and the standings, plain lists, were documented as paginated pages with
  the list filters as parameters (and the audit action applied those filters to its fixture lookup).
- Public reads were documented as needing a token or a session.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from matches.models import ResultAudit
from tournaments.models import Fixture, Suspension

pytestmark = pytest.mark.django_db


def _nullable_to_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's `nullable: true` spelled as JSON Schema, so jsonschema can judge a body."""
    if isinstance(node, list):
        return [_nullable_to_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _nullable_to_json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False):
        return {"anyOf": [node, {"type": "null"}]}
    return node


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    return copy.deepcopy(SchemaGenerator().get_schema(request=None, public=True))


def assert_matches_schema(openapi: dict[str, Any], template: str, body: Any, method: str = "get") -> None:
    operation = openapi["paths"][template][method]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    document = _nullable_to_json_schema({**schema, "components": openapi["components"]})
    jsonschema.validate(body, document)


def test_responses_with_null_relations_match_the_schema(cup, openapi) -> None:
    client = APIClient()
    # The data has what used to break the schema: fixtures outside a group and knockout slots not
    # yet decided, and suspensions not yet served.
    assert Fixture.objects.filter(group__isnull=True).exists()
    assert Fixture.objects.filter(away_team__isnull=True).exists()
    assert Suspension.objects.filter(served_in__isnull=True).exists()
    for template, url in [
        ("/api/v1/fixtures", f"/api/v1/fixtures?stage={cup.knockout.pk}"),
        ("/api/v1/matches", f"/api/v1/matches?stage={cup.knockout.pk}"),
        ("/api/v1/suspensions", "/api/v1/suspensions?served=false"),
        ("/api/v1/teams", "/api/v1/teams"),
        ("/api/v1/coaches", "/api/v1/coaches"),
        ("/api/v1/submissions", "/api/v1/submissions"),
    ]:
        if template == "/api/v1/submissions":
            client.force_authenticate(cup.admin)
        response = client.get(url)
        assert response.status_code == 200, url
        assert_matches_schema(openapi, template, response.json())
    knockout = Fixture.objects.filter(away_team__isnull=True).first()
    assert_matches_schema(
        openapi, "/api/v1/fixtures/{id}", client.get(f"/api/v1/fixtures/{knockout.pk}").json()
    )


def test_audit_and_standings_are_documented_as_the_plain_lists_they_are(cup, openapi) -> None:
    client = APIClient()
    fixture = ResultAudit.objects.values_list("fixture_id", flat=True).first()
    audit = client.get(f"/api/v1/fixtures/{fixture}/audit")
    assert audit.status_code == 200 and isinstance(audit.json(), list) and audit.json()
    assert_matches_schema(openapi, "/api/v1/fixtures/{id}/audit", audit.json())
    standings = client.get(f"/api/v1/competitions/{cup.competition.slug}/standings")
    assert_matches_schema(openapi, "/api/v1/competitions/{slug}/standings", standings.json())
    for template in ("/api/v1/fixtures/{id}/audit", "/api/v1/competitions/{slug}/standings"):
        names = {p["name"] for p in openapi["paths"][template]["get"].get("parameters", [])}
        assert names <= {"id", "slug"}, (template, names)
    # The list filters were applied to the fixture lookup: a filter that the fixture did not match
    # answered 404 for a fixture that exists.
    other_status = "awarded" if Fixture.objects.get(pk=fixture).status != "awarded" else "scheduled"
    assert client.get(f"/api/v1/fixtures/{fixture}/audit?status={other_status}").status_code == 200


def test_public_reads_are_documented_as_open_to_anonymous_clients(openapi) -> None:
    # They were documented as needing a token or a session (ReadOnlyOrStaff was unknown to the schema).
    for template in (
        "/api/v1/fixtures",
        "/api/v1/fixtures/{id}",
        "/api/v1/teams",
        "/api/v1/competitions/{slug}",
    ):
        assert {} in openapi["paths"][template]["get"]["security"], template
    for template, method in [
        ("/api/v1/submissions", "get"),
        ("/api/v1/fixtures/{id}/confirm", "post"),
        ("/api/v1/competitions/{slug}/recompute-standings", "post"),
        ("/api/v1/turn-logs/validate", "post"),
    ]:
        assert {} not in openapi["paths"][template][method]["security"], template


def test_staff_actions_on_one_object_take_no_list_parameters(openapi) -> None:
    # They answer plain lists, but were documented with ?page= and the list filters, which also
    # narrowed their object lookup.
    for template in (
        "/api/v1/competitions/{slug}/recompute-standings",
        "/api/v1/stages/{id}/generate-fixtures",
        "/api/v1/stages/{id}/next-swiss-round",
    ):
        parameters = openapi["paths"][template]["post"].get("parameters", [])
        assert not [p["name"] for p in parameters if p["in"] == "query"], template


def test_a_stray_list_filter_does_not_hide_the_stage(db) -> None:
    from django.contrib.auth import get_user_model

    from tournaments.services.clubs import team_create
    from tournaments.services.competitions import competition_create
    from tournaments.services.stages import stage_create

    competition = competition_create(name="Stray Cup", slug="stray-cup")
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(4)]
    stage = stage_create(competition=competition, name="League", kind="round_robin", teams=teams)
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("boss", is_staff=True, is_superuser=True))
    response = client.post(f"/api/v1/stages/{stage.pk}/generate-fixtures?kind=knockout", {}, format="json")
    assert response.status_code == 201, response.content[:300]


def test_id_filters_document_the_range_they_accept(openapi) -> None:
    # Out of range is a 400 (tests/api/test_fuzz_regressions.py), so the schema says where the range ends.
    parameters = {p["name"]: p for p in openapi["paths"]["/api/v1/fixtures"]["get"]["parameters"]}
    assert parameters["team"]["schema"]["maximum"] == 2**63 - 1
    assert parameters["team"]["schema"]["minimum"] == -(2**63)
    assert parameters["team"]["description"] == "Team id, home or away"
