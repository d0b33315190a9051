"""Issue 32 item 4 in the console: points for a win, draw and loss; a custom tie-break order
built from the criteria by name with up/down buttons, saved and refused as the API does; away
goals per two-legged knockout stage, and not once results count."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches import services as results
from tests.factories import AdminFactory
from tournaments.bracket import Score
from tournaments.models import Competition, Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.shapes import Shape, competition_create_from_shape

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return AdminFactory(is_superuser=True)


@pytest.fixture
def console(client: Client, organiser) -> Client:
    client.force_login(organiser)
    return client


def _cup(shape: Shape, slug: str = "rules-cup") -> Competition:
    teams = [{"name": f"T{i}", "country": f"C{i}"} for i in range(shape.teams)]
    return competition_create_from_shape(name=slug.title(), slug=slug, shape=shape, teams=teams)


def test_points_for_a_win_draw_and_loss_are_set_and_frozen_once_results_count(console, organiser) -> None:
    cup = _cup(Shape("league", 4))
    url = f"/console/c/{cup.slug}/rules/"
    body = {"save_points": "1", "points_win": 2, "points_draw": 1, "points_loss": 0}
    assert console.post(url, body).status_code == 302
    cup.refresh_from_db()
    assert (cup.points_win, cup.points_draw, cup.points_loss) == (2, 1, 0)
    refused = console.post(url, body | {"points_win": 1})
    assert "win &gt; draw &gt;= loss" in refused.content.decode()
    fixture_generate(stage=cup.stages.get())
    played = Fixture.objects.filter(competition=cup).first()
    results.result_override(fixture_id=played.pk, user=organiser, score=Score(1, 0), note="played")
    assert "results already count" in console.post(url, body | {"points_win": 3}).content.decode()


def test_a_custom_tie_break_order_is_built_by_name_with_buttons_and_saved(console) -> None:
    cup = _cup(Shape("league", 4))
    url = f"/console/c/{cup.slug}/rules/"
    start = console.get(url)
    assert "goal difference" in start.content.decode()  # criteria in words, not keys
    body = {"tiebreak_preset": "custom", "tiebreak_order": "points,goal_difference,goals_for"}
    moved = console.post(url, body | {"tb": "up:2"})
    assert moved.context["tiebreak"]["tiebreak_order"].value() == "points,goals_for,goal_difference"
    added = console.post(url, body | {"tb": "add", "add": "lots"})
    assert added.context["tiebreak"]["tiebreak_order"].value().endswith(",lots")
    dropped = console.post(url, body | {"tb": "drop:1"})
    assert dropped.context["tiebreak"]["tiebreak_order"].value() == "points,goals_for"
    cup.refresh_from_db()
    assert cup.tiebreak_preset == "fifa_world_cup"  # the buttons save nothing
    order = "points,head_to_head,goal_difference,lots"
    assert console.post(url, body | {"tiebreak_order": order, "save_tiebreak": "1"}).status_code == 302
    cup.refresh_from_db()
    assert (cup.tiebreak_preset, cup.tiebreak_order) == ("custom", order.split(","))


def test_the_console_refuses_a_tie_break_order_with_the_api_s_words(console, organiser) -> None:
    cup = _cup(Shape("league", 4))
    body = {"tiebreak_preset": "custom", "tiebreak_order": "goal_difference,points", "save_tiebreak": "1"}
    page = console.post(f"/console/c/{cup.slug}/rules/", body)
    api = APIClient()
    api.force_authenticate(organiser)
    refused = api.post(
        f"/api/v1/competitions/{cup.slug}/tiebreak",
        {"tiebreak_preset": "custom", "tiebreak_order": ["goal_difference", "points"]},
        format="json",
    )
    assert refused.status_code == 400
    message = refused.json()["error"]["message"]
    assert message == "Tie-break order: the tie-break order must start with 'points'."
    assert message.replace("'", "&#x27;") in page.content.decode()


def test_away_goals_are_switched_per_two_legged_stage_until_results_count(console, organiser) -> None:
    cup = _cup(Shape("knockout", 4, knockout_legs=2))
    stage = cup.stages.get(kind=Stage.Kind.KNOCKOUT)
    url = f"/console/c/{cup.slug}/rules/"
    wanted = not stage.away_goals_rule
    body = {"save_away_goals": "1", **({"away_goals": str(stage.pk)} if wanted else {})}
    assert console.post(url, body).status_code == 302
    stage.refresh_from_db()
    assert stage.away_goals_rule is wanted
    change = stage.changes.get()  # on the stage trail, naming the organiser
    assert change.changes == {"away_goals_rule": [not wanted, wanted]} and change.changed_by == organiser
    fixture_generate(stage=stage)
    first = Fixture.objects.filter(stage=stage, leg=1).first()
    results.result_override(fixture_id=first.pk, user=organiser, score=Score(1, 0), note="played")
    back = {"save_away_goals": "1", **({} if wanted else {"away_goals": str(stage.pk)})}
    assert "away goals cannot be switched now" in console.post(url, back).content.decode()


def test_a_single_leg_stage_refuses_away_goals_through_the_api(organiser) -> None:
    cup = _cup(Shape("knockout", 4), slug="one-leg")
    stage = cup.stages.get()
    api = APIClient()
    api.force_authenticate(organiser)
    refused = api.patch(f"/api/v1/stages/{stage.pk}", {"away_goals_rule": True}, format="json")
    assert refused.status_code == 400, refused.json()
    assert "two-legged knockout ties" in refused.json()["error"]["message"]


def test_the_new_competition_form_no_longer_offers_a_custom_order_it_cannot_save(console) -> None:
    form = console.get("/console/new/").context["form"]
    assert "custom" not in dict(form.fields["tiebreak_preset"].choices)
    assert "Rules step" in form.fields["tiebreak_preset"].help_text
