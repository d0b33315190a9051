"""Issue 32 item 2 through the API: an organiser lists, adds and removes co-organisers and
results-desk helpers; the same rule as the console's People page refuses everyone else."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import AdminFactory, UserFactory
from tournaments.models import Competition, CompetitionRole
from tournaments.services.competitions import competition_create

pytestmark = pytest.mark.django_db


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def people() -> dict[str, Any]:
    return {n: UserFactory(username=n, email=f"{n}@example.org") for n in ("olga", "colin", "desmond", "eve")}


@pytest.fixture
def cup(people) -> Competition:
    return competition_create(name="Roles Cup", slug="roles-cup", creator=people["olga"])


def test_an_organiser_adds_lists_and_removes_helpers_through_the_api(cup, people) -> None:
    olga = _api(people["olga"])
    url = f"/api/v1/competitions/{cup.slug}/roles"
    added = olga.post(url, {"user": "colin", "kind": "co_organiser"}, format="json")
    assert added.status_code == 201, added.json()
    by_mail = olga.post(url, {"user": "desmond@example.org", "kind": "results_desk"}, format="json")
    assert by_mail.status_code == 201
    listed = {r["user"]: (r["kind"], r["added_by"]) for r in olga.get(url).json()}
    assert listed == {
        "olga": ("organiser", "olga"),
        "colin": ("co_organiser", "olga"),
        "desmond": ("results_desk", "olga"),
    }
    # The co-organiser does what an organiser does, here too; the organiser's own role stays.
    desk_role = CompetitionRole.objects.get(competition=cup, user=people["desmond"])
    assert _api(people["colin"]).delete(f"{url}/{desk_role.pk}").status_code == 204
    organiser = CompetitionRole.objects.get(competition=cup, kind="organiser")
    kept = olga.delete(f"{url}/{organiser.pk}")
    assert kept.status_code == 409 and "stays its organiser" in kept.json()["error"]["message"]
    assert olga.delete(f"{url}/999999").status_code == 404


def test_the_results_desk_and_strangers_are_refused_the_roles_api(cup, people) -> None:
    url = f"/api/v1/competitions/{cup.slug}/roles"
    _api(people["olga"]).post(url, {"user": "desmond", "kind": "results_desk"}, format="json")
    desk = _api(people["desmond"])
    assert desk.get(url).status_code == 403
    refused = desk.post(url, {"user": "eve", "kind": "co_organiser"}, format="json")
    assert refused.status_code == 403 and not CompetitionRole.objects.filter(user=people["eve"]).exists()
    assert _api(people["eve"]).get(url).status_code == 403
    assert APIClient().get(url).status_code in (401, 403)
    staff = AdminFactory(is_superuser=True)
    assert _api(staff).get(url).status_code == 200  # the instance's administrators


def test_a_bad_role_or_an_unknown_person_is_named(cup, people) -> None:
    olga = _api(people["olga"])
    url = f"/api/v1/competitions/{cup.slug}/roles"
    unknown = olga.post(url, {"user": "nobody", "kind": "results_desk"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["error"]["details"] == {"field": "user"}
    organiser = olga.post(url, {"user": "eve", "kind": "organiser"}, format="json")
    assert organiser.status_code == 400 and "kind" in organiser.json()["error"]["details"]
