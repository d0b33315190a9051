"""Issue 32 item 6: words, not codes, on the new-competition page — only the chosen game system's
advanced rules, by name with the chapter as a hint; the address made from the name and editable
under "More"; no editor's notes in labels; an 8-team cup preset with semi-finals."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.factories import UserFactory
from tournaments.models import Competition
from tournaments.shapes import SHAPE_PRESETS, shape_preview

pytestmark = pytest.mark.django_db


@pytest.fixture
def console(client: Client) -> Client:
    client.force_login(UserFactory())
    return client


def _preview(**extra: Any) -> dict[str, Any]:
    body = _body(**extra)
    del body["create"]
    return body | {"preview": "1"}


def _body(**extra: Any) -> dict[str, Any]:
    shape = SHAPE_PRESETS["cup_8"][1]
    return {
        "name": "Spring Cup 2027",
        "game_system": "fuba-3",
        "structure": shape.structure,
        "teams": 8,
        "groups": 2,
        "advance_per_group": shape.advance_per_group,
        "best_thirds": 0,
        "thirds_placing": "euro_2024",
        "group_legs": 1,
        "knockout_legs": 1,
        "swiss_rounds": 0,
        "extra_time": "on",
        "penalties": "on",
        "tiebreak_preset": "fifa_world_cup",
        "team_list": "",
        "create": "1",
        **extra,
    }


def _fieldset(page: str, system: str) -> str:
    match = re.search(rf'<fieldset[^>]*data-rules-of="{system}"[^>]*>', page)
    assert match is not None
    return match.group(0)


def test_the_8_team_cup_preset_has_semi_finals() -> None:
    label, shape = SHAPE_PRESETS["cup_8"]
    assert "semi-finals" in label
    preview = shape_preview(shape)
    assert preview.rounds == ["Semi-finals", "Final"]
    assert preview.first_round[0] == ("Winner group A", "Runner-up group B")


def test_only_the_chosen_game_system_s_advanced_rules_show_by_name(console) -> None:
    page = console.get("/console/new/").content.decode()
    assert "hidden" not in _fieldset(page, "fuba-3") and "hidden" in _fieldset(page, "fuba-2")
    assert "Aggressive pressing · chapter A6" in page
    assert "missing" not in page and "read as" not in page  # no editor's notes in labels
    form = console.get("/console/new/").context["form"]
    assert "A12" not in dict(form.fields["advanced_rules"].choices)  # A13 under its own name
    fuba2 = console.post("/console/new/", _preview(game_system="fuba-2")).content.decode()
    assert "hidden" in _fieldset(fuba2, "fuba-3") and "hidden" not in _fieldset(fuba2, "fuba-2")
    city = console.post("/console/new/", _preview(game_system="soccer-city"))
    page = city.content.decode()
    assert "hidden" in _fieldset(page, "fuba-3") and "hidden" in _fieldset(page, "fuba-2")


def test_the_address_is_made_from_the_name_and_editable_under_more(console) -> None:
    page = console.get("/console/new/").content.decode()
    assert re.search(r"<details[^>]*>\s*<summary>More</summary>\s*<p><label for=\"id_slug\">Address", page)
    assert console.post("/console/new/", _body()).status_code == 302
    assert Competition.objects.filter(slug="spring-cup-2027").exists()
    assert console.post("/console/new/", _body(name="Autumn Cup", slug="autumn")).status_code == 302
    assert Competition.objects.filter(slug="autumn", name="Autumn Cup").exists()
    taken = console.post("/console/new/", _body())  # the same name again: its address is taken
    page = taken.content.decode()
    assert taken.status_code == 200 and "spring-cup-2027&#x27; already exists" in page
    assert '<details class="more" open>' in page  # opened where the error is
