"""Issue 32 item 4: a league phase in the console — the shape, the draw step (pots by seeding or by
hand, opponents, country cap, seed), each team's opponents per pot, no redraw once a result counts."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.services import result_override
from tests.factories import UserFactory
from tournaments.bracket import Score
from tournaments.models import Competition, Draw, Fixture, Stage, Team
from tournaments.services.roles import role_grant
from tournaments.shapes import SHAPE_PRESETS, Shape, competition_create_from_shape, shape_preview

pytestmark = pytest.mark.django_db


def test_the_shape_previews_and_refuses_pots_that_do_not_split() -> None:
    preview = shape_preview(SHAPE_PRESETS["league_phase_36"][1])
    assert "4 pots of 9" in preview.notes[0]
    with pytest.raises(Exception, match="do not split"):
        shape_preview(Shape("league_phase", 30, opponents=8))
    with pytest.raises(Exception, match="even number"):
        shape_preview(Shape("league_phase", 36, opponents=7))


def test_a_league_phase_drawn_in_the_console_with_pots_by_hand() -> None:
    olga = UserFactory(username="olga")
    teams = [
        {"name": f"T{i:02}", "country": ["ENG", "ESP", "ITA", "GER", "FRA", "POR"][i % 6]} for i in range(12)
    ]
    competition_create_from_shape(
        name="Small Phase",
        slug="small-phase",
        shape=Shape("league_phase", 12, opponents=4),
        teams=teams,
        creator=olga,
    )
    client = Client()
    client.force_login(olga)
    page = client.get("/console/c/small-phase/draw/").content.decode()
    assert 'data-testid="league-phase-form"' in page and 'data-testid="seeded-pots"' in page
    ids = {t.name: t.pk for t in Team.objects.filter(competition__slug="small-phase")}
    # By hand: the even-numbered teams in pot 1, the odd ones in pot 2.
    body = {"opponents": 4, "country_cap": 2, "seed": 11, "pots_by": "hand"}
    body |= {f"pot_{pk}": 1 + int(name[1:]) % 2 for name, pk in ids.items()}
    bad = client.post("/console/c/small-phase/draw/", body | {"opponents": 6})
    assert "every pot needs as many teams" in bad.content.decode()
    assert not Draw.objects.exists()
    assert client.post("/console/c/small-phase/draw/", body).status_code == 302
    draw = Draw.objects.get()
    assert draw.seed == 11 and sorted(draw.pots[0]) == sorted(
        pk for n, pk in ids.items() if int(n[1:]) % 2 == 0
    )
    page = client.get("/console/c/small-phase/draw/").content.decode()
    assert 'data-testid="opponents"' in page and "Pot 2: home · away" in page
    stage = Stage.objects.get(kind="league_phase")
    assert stage.fixtures.count() == 24  # 12 teams × 4 opponents / 2
    # The Schedule step dates the drawn matchdays: matchday n a week after matchday n - 1.
    schedule = {
        "start_date": "2027-09-07",
        "kickoff_time": "18:00",
        "days_between_rounds": 7,
        "deadline_days": 2,
    }
    assert client.post("/console/c/small-phase/schedule/", schedule | {"generate": "1"}).status_code == 302
    kickoffs = {f.round: f.kickoff.date().isoformat() for f in stage.fixtures.all() if f.kickoff}
    assert kickoffs == {1: "2027-09-07", 2: "2027-09-14", 3: "2027-09-21", 4: "2027-09-28"}
    fixture = Fixture.objects.filter(stage=stage).first()
    assert fixture is not None
    result_override(fixture_id=fixture.pk, user=olga, score=Score(2, 1), note="played")
    page = client.get("/console/c/small-phase/draw/").content.decode()
    assert 'data-testid="draw-frozen"' in page
    client.post("/console/c/small-phase/draw/", body | {"seed": 12})
    assert Draw.objects.count() == 1


def test_the_new_competition_page_offers_the_league_phase() -> None:
    olga = UserFactory(username="olga")
    client = Client()
    client.force_login(olga)
    page = client.get("/console/new/?preset=league_phase_36").content.decode()
    assert 'value="league_phase"' in page and 'name="opponents"' in page
    lines = "\n".join(f"Club {i}, C{i % 9}" for i in range(36))
    form = {
        "name": "Phase Cup",
        "game_system": "fuba-3",
        "structure": "league_phase",
        "teams": 36,
        "opponents": 8,
        "advance_per_group": 2,
        "thirds_placing": "euro_2024",
        "group_legs": 1,
        "knockout_legs": 1,
        "tiebreak_preset": "uefa",
        "team_list": lines,
        "create": "1",
    }
    response = client.post("/console/new/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    competition = Competition.objects.get(name="Phase Cup")
    assert competition.stages.get().kind == "league_phase"


def test_a_results_desk_helper_may_not_draw_the_league_phase() -> None:
    olga, desk = UserFactory(username="olga"), UserFactory(username="desk")
    teams = [{"name": f"T{i:02}", "country": f"C{i % 6}"} for i in range(12)]
    phase = competition_create_from_shape(
        name="Desk Phase",
        slug="desk-phase",
        shape=Shape("league_phase", 12, opponents=4),
        teams=teams,
        creator=olga,
    )
    role_grant(competition=phase, user=desk, kind="results_desk", by=olga)
    stage = Stage.objects.get(competition=phase)
    api = APIClient()
    api.force_authenticate(desk)
    response = api.post(f"/api/v1/stages/{stage.pk}/draw-league-phase", {"opponents": 4}, format="json")
    assert response.status_code == 403
    client = Client()
    client.force_login(desk)
    assert client.post("/console/c/desk-phase/draw/", {"opponents": 4, "country_cap": 2}).status_code == 403
    assert not Draw.objects.exists()
    api.force_authenticate(olga)
    assert (
        api.post(f"/api/v1/stages/{stage.pk}/draw-league-phase", {"opponents": 4}, format="json").status_code
        == 201
    )
