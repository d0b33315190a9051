"""Issue 32 item 4 in the console: a knockout after a league by table places — the shape makes the
play-off and the bracket, the Stages page adds one (a bad band refused on its field), waits for the
final table, then makes them from it once; a results-desk helper may not."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.services import result_override
from tests.factories import UserFactory
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.services.roles import role_grant
from tournaments.shapes import SHAPE_PRESETS, Shape, competition_create_from_shape, shape_preview

pytestmark = pytest.mark.django_db


def test_the_champions_league_preset_previews_the_play_off_and_the_round_of_16() -> None:
    preview = shape_preview(SHAPE_PRESETS["league_phase_36"][1])
    assert preview.rounds == ["Play-off", "Round of 16", "Quarter-finals", "Semi-finals", "Final"]
    assert "Places 9–24 play a play-off (9 v 24 …)" in preview.notes[-1]
    assert "1 v the winner of 16 v 17" in preview.notes[-1]
    with pytest.raises(Exception, match="not a knockout of 2, 4, 8"):
        shape_preview(Shape("league_phase", 36, direct_places=8, playoff_places=12))
    with pytest.raises(Exception, match="does not exist in a table of 20"):
        shape_preview(Shape("league", 20, direct_places=8, playoff_places=16))


def test_a_league_feeds_its_play_off_and_semi_finals_from_the_console() -> None:
    olga, desk = UserFactory(username="olga"), UserFactory(username="desk")
    league = competition_create_from_shape(
        name="Table Cup",
        slug="table-cup",
        shape=Shape("league", 8, direct_places=2, playoff_places=4),
        teams=[{"name": f"T{i}"} for i in range(1, 9)],
        creator=olga,
    )
    role_grant(competition=league, user=desk, kind="results_desk", by=olga)
    table, playoff, bracket = league.stages.order_by("order")
    assert (playoff.feed_places_from, playoff.feed_places_to, playoff.knockout_rounds) == (3, 6, 1)
    assert (bracket.feed_places_from, bracket.feed_places_to, bracket.feed_playoff) == (1, 2, playoff)
    helper = Client()
    helper.force_login(desk)
    assert helper.get("/console/c/table-cup/stages/").status_code == 403
    assert helper.post("/console/c/table-cup/stages/", {"fill": table.pk}).status_code == 403
    client = Client()
    client.force_login(olga)
    schedule = {
        "start_date": "2027-09-07",
        "kickoff_time": "18:00",
        "days_between_rounds": 7,
        "deadline_days": 2,
    }
    response = client.post("/console/c/table-cup/schedule/", schedule | {"generate": "1"}, follow=True)
    assert "Knockout play-off and the stages after it wait: League is not final" in response.content.decode()
    assert table.fixtures.count() == 28 and not playoff.fixtures.exists()
    page = client.get("/console/c/table-cup/stages/").content.decode()
    assert 'data-testid="table-waiting"' in page and "Places 3–6 of League" in page
    bad = {"add": "1", "name": "Top 9", "legs": 1, "knockout_rounds": 0, "feeder": table.pk}
    refused = client.post("/console/c/table-cup/stages/", bad | {"feed_places_from": 1, "feed_places_to": 9})
    assert "place 9 does not exist in a table of 8 teams" in refused.content.decode()
    assert league.stages.count() == 3
    seed = {t.pk: int(t.name[1:]) for t in league.teams.all()}
    for fixture in table.fixtures.all():
        home, away = seed[fixture.home_team_id], seed[fixture.away_team_id]
        score = Score(2, 0) if home < away else Score(0, 2)
        result_override(fixture_id=fixture.pk, user=olga, score=score, note="played")
    page = client.get("/console/c/table-cup/stages/").content.decode()
    assert 'data-testid="fill-from-table"' in page
    made = client.post("/console/c/table-cup/stages/", {"fill": table.pk}, follow=True).content.decode()
    assert "fixtures made from the final table of League" in made
    assert "T3 (3rd) v T6 (6th)" in made and "T4 (4th) v T5 (5th)" in made  # seeded by place
    assert (
        "T1 (1st) v Winner 4th/5th" in made
        and "T2 (2nd) v Winner 3rd/6th" in made
        and 'data-testid="table-filled"' in made
    )
    count = Fixture.objects.filter(stage__kind=Stage.Kind.KNOCKOUT).count()
    assert count == 2 + 3  # two play-off ties, two semi-finals and the final
    client.post("/console/c/table-cup/stages/", {"fill": table.pk})
    assert Fixture.objects.filter(stage__kind=Stage.Kind.KNOCKOUT).count() == count
