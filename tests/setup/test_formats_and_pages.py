"""Competition formats (admin wizard and API), the admin's branding, deadlines on the pages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import AdminFactory
from tournaments.models import Competition, Draw, Stage
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser():
    return AdminFactory(is_superuser=True)


@pytest.fixture
def staff(client: Client, superuser) -> Client:
    client.force_login(superuser)
    return client


def test_wizard_creates_a_world_cup_with_its_stage_chain_and_draw(staff) -> None:
    teams = "\n".join(f"Team {i}, Country {i % 8}, Club {i}" for i in range(1, 33))
    url = reverse("admin:tournaments_competition_wizard")
    assert (
        "New competition (wizard)"
        in staff.get(reverse("admin:tournaments_competition_changelist")).content.decode()
    )
    response = staff.post(
        url, {"name": "FUBA World Cup", "slug": "wc", "format": "world_cup_32", "teams": teams, "seed": 8}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    competition = Competition.objects.get(slug="wc")
    assert competition.is_world_cup
    stages = list(competition.stages.order_by("order").values_list("name", "kind", "knockout_rounds"))
    assert stages == [
        ("Group stage", "groups", 0),
        ("Round of 16", "knockout", 1),
        ("Quarter-finals", "knockout", 1),
        ("Semi-finals", "knockout", 1),
        ("Third place and final", "knockout", 0),
    ]
    groups = competition.stages.get(kind="groups").groups.all()
    assert len(groups) == 8 and all(g.teams.count() == 4 for g in groups)
    assert Draw.objects.get(stage__competition=competition).seed == 8
    # The wrong number of teams is refused with what to fix; nothing is created.
    response = staff.post(url, {"name": "Small", "slug": "small", "format": "world_cup_32", "teams": "A\nB"})
    assert response.status_code == 200 and "needs 32 teams" in response.content.decode()
    assert not Competition.objects.filter(slug="small").exists()


@pytest.mark.parametrize(
    ("fmt", "n", "stages"),
    [
        ("league", 6, [("League", "round_robin")]),
        ("swiss", 10, [("Swiss rounds", "swiss")]),
        ("euro_24", 24, [("Group stage", "groups"), ("Knockout stage", "knockout")]),
        (
            "champions_league",
            32,
            [("Group stage", "groups"), ("Knockout ties", "knockout"), ("Final", "knockout")],
        ),
    ],
)
def test_formats_through_the_api(superuser, fmt, n, stages) -> None:
    api = APIClient()
    api.force_authenticate(superuser)
    teams = [{"name": f"T{i}", "country": f"C{i % 6}"} for i in range(n)]
    response = api.post(
        "/api/v1/competitions/from-format",
        {"name": fmt, "slug": fmt.replace("_", "-"), "format": fmt, "teams": teams},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert [(s["name"], s["kind"]) for s in response.json()["stages"]] == stages
    for stage in Stage.objects.filter(competition__slug=fmt.replace("_", "-")).order_by("order"):
        generated = api.post(f"/api/v1/stages/{stage.pk}/generate-fixtures", {}, format="json")
        assert generated.status_code == 201, generated.json()


def test_admin_is_branded_and_beat_internals_are_out_of_the_index(staff) -> None:
    page = staff.get(reverse("admin:index")).content.decode()
    assert "FUBA League administration" in page
    assert "Periodic tasks" not in page and "Competitions" in page
    assert staff.get("/admin/django_celery_beat/periodictask/").status_code == 200


def test_deadlines_and_overdue_marks_on_the_public_pages(client: Client) -> None:
    competition = competition_create(name="League", slug="league")
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(4)]
    stage = stage_create(competition=competition, name="L", kind="round_robin", teams=teams)
    start = datetime.now(UTC) - timedelta(days=20)
    fixtures = fixture_generate(
        stage=stage, start=start, interval=timedelta(days=14), deadline_after=timedelta(days=7)
    )
    overdue = next(f for f in fixtures if f.round == 1)
    page = client.get(reverse("tournaments:competition", args=["league"])).content.decode()
    assert 'data-testid="overdue"' in page and "due <time" in page
    match = client.get(reverse("tournaments:match", args=["league", overdue.pk])).content.decode()
    assert 'data-testid="overdue"' in match and "Result due by" in match and "will be simulated" in match
    not_yet = next(f for f in fixtures if f.round == 3)
    match = client.get(reverse("tournaments:match", args=["league", not_yet.pk])).content.decode()
    assert "Result due by" in match and 'data-testid="overdue"' not in match
