"""Issue 32 item 4: a draw made elsewhere entered by hand in the console — each team placed in a
group and a pot — checked by the service (every team once, one a pot in a group, sizes even),
recorded as a draw naming who entered it and their role."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments.models import Draw, Team
from tournaments.services.roles import role_grant
from tournaments.shapes import SHAPE_PRESETS, competition_create_from_shape

pytestmark = pytest.mark.django_db


def test_a_draw_made_elsewhere_is_entered_by_group_and_pot() -> None:
    olga, colin = UserFactory(username="olga"), UserFactory(username="colin")
    teams = [{"name": f"T{i}", "country": f"C{i}"} for i in range(8)]
    cup = competition_create_from_shape(
        name="Hand Cup", slug="hand-cup", shape=SHAPE_PRESETS["cup_8"][1], teams=teams, creator=olga
    )
    role_grant(competition=cup, user=colin, kind="co_organiser", by=olga)
    client = Client()
    client.force_login(colin)
    assert "/console/c/hand-cup/draw/by-hand/" in client.get("/console/c/hand-cup/draw/").content.decode()
    t = {team.name: team.pk for team in Team.objects.filter(competition=cup)}
    # Group A: T7 (pot 1), T0, T5, T2; group B: T1 (pot 1), T6, T3, T4 — not the pasted order.
    places = {"A": ["T7", "T0", "T5", "T2"], "B": ["T1", "T6", "T3", "T4"]}
    body = {}
    for group, names in places.items():
        for pot, name in enumerate(names, start=1):
            body |= {f"group_{t[name]}": group, f"pot_{t[name]}": pot}
    url = "/console/c/hand-cup/draw/by-hand/"
    clash = client.post(url, body | {f"pot_{t['T0']}": 1})  # T7 and T0 both in pot 1 of group A
    assert "Group A, pot 1: T0 and T7 are both placed there" in clash.content.decode()
    uneven = client.post(url, body | {f"group_{t['T4']}": "A", f"pot_{t['T4']}": 4} | {f"pot_{t['T2']}": 3})
    assert uneven.status_code == 200 and not Draw.objects.exists()
    assert client.post(url, body).status_code == 302
    stage = cup.stages.get(kind="groups")
    for group in stage.groups.all():
        assert sorted(group.teams.values_list("name", flat=True)) == sorted(places[group.name])
    draw = Draw.objects.get(stage=stage)
    assert draw.kind == "entered" and draw.result["A"] == [t[n] for n in places["A"]]
    assert draw.pots[0] == [t["T7"], t["T1"]]  # pot 1 as entered
    assert (draw.drawn_by.username, draw.drawn_by_role) == ("colin", "co-organiser")
    page = client.get("/console/c/hand-cup/draw/").content.decode()
    assert "entered by hand" in page and "Drawn by colin (co-organiser)" in page
    api = APIClient()
    api.force_authenticate(olga)
    assert api.get(f"/api/v1/stages/{stage.pk}/draws").json()[0]["kind"] == "entered"


def test_the_setup_api_enters_a_draw_made_elsewhere_and_refuses_the_results_desk() -> None:
    olga, desk = UserFactory(username="olga"), UserFactory(username="desk")
    teams = [{"name": f"T{i}", "country": f"C{i}"} for i in range(8)]
    cup = competition_create_from_shape(
        name="Api Hand Cup", slug="api-hand-cup", shape=SHAPE_PRESETS["cup_8"][1], teams=teams, creator=olga
    )
    role_grant(competition=cup, user=desk, kind="results_desk", by=olga)
    stage = cup.stages.get(kind="groups")
    ids = {team.name: team.pk for team in Team.objects.filter(competition=cup)}
    groups = {
        "A": [ids[n] for n in ("T4", "T5", "T6", "T7")],
        "B": [ids[n] for n in ("T0", "T1", "T2", "T3")],
    }
    url = f"/api/v1/stages/{stage.pk}/enter-groups"
    refused = APIClient()
    refused.force_authenticate(desk)
    assert refused.post(url, {"groups": groups}, format="json").status_code == 403
    api = APIClient()
    api.force_authenticate(olga)
    missing = api.post(url, {"groups": {"A": groups["A"], "B": groups["B"][:3]}}, format="json")
    assert missing.status_code == 400 and "T3 not placed in a group" in missing.json()["error"]["message"]
    made = api.post(url, {"groups": groups}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["kind"] == "entered" and made.json()["drawn_by_role"] == "organiser"
    assert list(stage.groups.get(name="A").teams.order_by("name").values_list("name", flat=True)) == [
        "T4",
        "T5",
        "T6",
        "T7",
    ]
