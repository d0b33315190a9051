"""Venue rounds (issue 33, item 6; docs/venue.md): a round's clock (start and length) sent as
absolute times with the server's now, table numbers on the fixture, the mails and the big
screen, and the clubs' check-in before the round with the console's list of who has not."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from kernel.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from league.demo import club_username
from matches.models import ResultSubmission
from matches.services import result_submit
from notifications import kinds
from notifications.messages import render
from notifications.models import Event
from tests.factories import UserFactory
from tournaments.bracket import Score
from tournaments.models import CheckIn, Fixture, Team
from tournaments.services.venue import (
    fixture_check_in,
    fixture_table_set,
    round_clock_clear,
    round_clock_set,
    round_tables_number,
)

pytestmark = pytest.mark.django_db


def club_user(team: Team):
    return get_user_model().objects.get(username=club_username(team.name))


def open_round(cup) -> tuple[Fixture, list[Fixture]]:
    """The last group round's matches still to play, in match order (the demo reported two of
    them: those reports are taken back here; four others of the round count already)."""
    stage = cup.groups_stage
    last = max(stage.fixtures.values_list("round", flat=True))
    reported = stage.fixtures.filter(round=last, status__in=("submitted", "disputed"))
    ResultSubmission.objects.filter(fixture__in=reported).delete()
    reported.update(status=Fixture.Status.SCHEDULED)
    fixtures = list(
        stage.fixtures.filter(round=last, status="scheduled")
        .select_related("home_team", "away_team", "stage")
        .order_by("match_number", "leg", "id")
    )
    return fixtures[0], fixtures


def at(minutes: int) -> datetime:
    return timezone.now().replace(microsecond=0) + timedelta(minutes=minutes)


def test_the_clock_document_gives_start_end_and_the_servers_now(client: Client, cup) -> None:
    fixture, _ = open_round(cup)
    url = f"/c/{cup.competition.slug}/clock.json"
    assert client.get(url).json()["rounds"] == []
    # each start read once: at() reads the clock, which may pass a second between two calls
    first_start, second_start = at(10), at(20)
    round_clock_set(stage=fixture.stage, round=fixture.round, starts_at=first_start, minutes=45)
    response = client.get(url)
    # The "now" is this answer's own: nothing in front of the app may keep it.
    assert response["Cache-Control"] == "no-store"
    doc = response.json()
    (clock,) = doc["rounds"]
    assert clock["stage"] == fixture.stage_id and clock["round"] == fixture.round
    assert clock["title"] == f"{fixture.stage.name} · Matchday {fixture.round}"
    starts, ends = datetime.fromisoformat(clock["starts_at"]), datetime.fromisoformat(clock["ends_at"])
    assert starts == first_start and ends - starts == timedelta(minutes=45)
    assert abs(datetime.fromisoformat(doc["now"]) - timezone.now()) < timedelta(seconds=5)
    # A change shows at once (the competition's version moved), and so does clearing it.
    round_clock_set(stage=fixture.stage, round=fixture.round, starts_at=second_start, minutes=30)
    assert datetime.fromisoformat(client.get(url).json()["rounds"][0]["starts_at"]) == second_start
    round_clock_clear(stage=fixture.stage, round=fixture.round)
    assert client.get(url).json()["rounds"] == []


def test_a_clock_for_a_round_that_is_not_there_or_out_of_range_is_refused(cup) -> None:
    fixture, _ = open_round(cup)
    with pytest.raises(NotFound) as missing:
        round_clock_set(stage=fixture.stage, round=99, starts_at=at(0), minutes=30)
    assert missing.value.details == {"field": "round"}
    for minutes in (0, 24 * 60 + 1):
        with pytest.raises(ApplicationError) as bad:
            round_clock_set(stage=fixture.stage, round=fixture.round, starts_at=at(0), minutes=minutes)
        assert bad.value.details == {"field": "minutes"}
    with pytest.raises(ApplicationError) as naive:
        round_clock_set(
            stage=fixture.stage, round=fixture.round, starts_at=datetime(2026, 6, 13, 10), minutes=30
        )
    assert naive.value.details == {"field": "starts_at"}
    with pytest.raises(NotFound):
        round_clock_clear(stage=fixture.stage, round=fixture.round)


def test_tables_are_numbered_in_match_order_and_shown_on_page_screen_and_mail(client: Client, cup) -> None:
    fixture, fixtures = open_round(cup)
    numbered = round_tables_number(stage=fixture.stage, round=fixture.round, first=3)
    assert [f.table_number for f in numbered] == list(range(3, 3 + len(fixtures)))
    first = Fixture.objects.select_related("home_team", "away_team").get(pk=fixtures[0].pk)
    page = client.get(f"/c/{cup.competition.slug}/matches/{first.pk}/").content.decode()
    assert 'data-testid="table">Table 3<' in page
    upcoming = client.get(f"/c/{cup.competition.slug}/screen.json").json()["upcoming"]
    assert {f["fixture"]: f["table"] for f in upcoming}[first.pk] == 3
    result_submit(fixture_id=first.pk, user=club_user(first.home_team), score=Score(1, 0))
    event = Event.objects.filter(kind=kinds.SCORE_REPORTED, fixture_id=first.pk).get()
    assert "table 3" in render(event).text


def test_two_matches_of_a_round_share_no_table(cup) -> None:
    fixture, fixtures = open_round(cup)
    fixture_table_set(fixture=fixtures[0], table=7)
    with pytest.raises(Conflict) as clash:
        fixture_table_set(fixture=fixtures[1], table=7)
    assert clash.value.details == {"field": "table"}
    assert Fixture.objects.get(pk=fixtures[1].pk).table_number is None
    with pytest.raises(ApplicationError) as bad:
        fixture_table_set(fixture=fixtures[1], table=0)
    assert bad.value.details == {"field": "table"}
    # Renumbering keeps clear of a table a played match was at.
    Fixture.objects.filter(pk=fixtures[0].pk).update(status=Fixture.Status.CONFIRMED)
    numbered = round_tables_number(stage=fixture.stage, round=fixture.round, first=6)
    assert [f.table_number for f in numbered][:2] == [6, 8]
    assert 7 not in [f.table_number for f in numbered]


def test_a_club_checks_in_once_from_its_fixture_page(client: Client, cup) -> None:
    fixture, _ = open_round(cup)
    fixture = Fixture.objects.select_related("home_team", "away_team").get(pk=fixture.pk)
    slug = cup.competition.slug
    member = club_user(fixture.home_team)
    client.force_login(member)
    page = f"/c/{slug}/matches/{fixture.pk}/"
    # No venue round, no check-in button: a league fixture at home has nothing to check in for.
    assert 'data-testid="check-in-button"' not in client.get(page).content.decode()
    round_clock_set(stage=fixture.stage, round=fixture.round, starts_at=at(30), minutes=40)
    html = client.get(page).content.decode()
    assert f"Check in {fixture.home_team.name}" in html and 'data-testid="round-clock"' in html
    response = client.post(f"{page}check-in", {"team_id": fixture.home_team_id}, follow=True)
    assert f"{fixture.home_team.name} is checked in." in response.content.decode()
    first = CheckIn.objects.get(fixture=fixture)
    assert first.team_id == fixture.home_team_id and first.checked_in_by == member
    assert first.checked_in_by_role == f"member of {fixture.home_team.club.name}"
    again = fixture_check_in(fixture_id=fixture.pk, user=member)
    assert again.pk == first.pk and CheckIn.objects.filter(fixture=fixture).count() == 1
    assert 'data-testid="checked-in"' in client.get(page).content.decode()


def test_only_the_two_clubs_check_in_and_only_for_a_match_still_to_play(cup) -> None:
    fixture, fixtures = open_round(cup)
    fixture = Fixture.objects.select_related("home_team", "away_team").get(pk=fixture.pk)
    with pytest.raises(PermissionDenied):
        fixture_check_in(fixture_id=fixture.pk, user=UserFactory())
    with pytest.raises(ApplicationError) as wrong:
        fixture_check_in(fixture_id=fixture.pk, user=cup.admin, team_id=fixtures[1].home_team_id)
    assert wrong.value.details == {"field": "team_id"}
    with pytest.raises(NotFound):
        fixture_check_in(fixture_id=0, user=club_user(fixture.home_team))
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.CONFIRMED)
    with pytest.raises(Conflict):
        fixture_check_in(fixture_id=fixture.pk, user=club_user(fixture.home_team))
    assert not CheckIn.objects.exists()


def test_the_console_lists_who_has_not_checked_in_with_the_no_show_desk(client: Client, cup) -> None:
    fixture, fixtures = open_round(cup)
    round_clock_set(stage=fixture.stage, round=fixture.round, starts_at=at(15), minutes=40)
    round_tables_number(stage=fixture.stage, round=fixture.round)
    here = fixtures[0]
    fixture_check_in(fixture_id=here.pk, user=club_user(here.home_team))
    client.force_login(cup.admin)
    html = client.get(f"/console/c/{cup.competition.slug}/venue/").content.decode()
    assert html.count('data-testid="checked"') == 1
    # Every side of the round without a check-in shows; the count is of the matches to play.
    played = fixture.stage.fixtures.filter(round=fixture.round).exclude(status="scheduled").count()
    assert html.count('data-testid="not-checked"') == 2 * (len(fixtures) + played) - 1
    assert html.count('data-testid="no-show"') == 2 * len(fixtures) - 1
    assert f"{2 * len(fixtures) - 1} not checked in" in html
    link = f"/console/c/{cup.competition.slug}/results/{here.pk}/?no_show=away"
    assert link in html
    desk = client.get(link).content.decode()
    # The organiser decides as for any no-show: the award to the side that came, to confirm.
    assert '<option value="award" selected>' in desk
    assert '<option value="home" selected>' in desk
    assert f"No-show: {here.away_team.name} did not check in" in desk


def test_the_console_sets_the_clock_and_the_tables(client: Client, cup) -> None:
    fixture, fixtures = open_round(cup)
    client.force_login(cup.admin)
    url = f"/console/c/{cup.competition.slug}/venue/"
    starts = timezone.localtime(at(60))
    form = {"stage": fixture.stage_id, "round": fixture.round, "minutes": 50}
    response = client.post(url, {**form, "starts_at": starts.strftime("%Y-%m-%dT%H:%M"), "clock": "1"})
    assert response.status_code == 302
    clock = fixture.stage.round_clocks.get(round=fixture.round)
    assert clock.starts_at == starts.replace(second=0) and clock.minutes == 50
    client.post(url, {"stage": fixture.stage_id, "round": fixture.round, "first": 1, "tables": "1"})
    assert [f.table_number for f in Fixture.objects.filter(pk__in=[f.pk for f in fixtures])] != [None]
    wrong = {**form, "round": 99, "starts_at": "2026-06-13T10:00", "clock": "1"}
    refused = client.post(url, wrong, follow=True)
    assert f"{fixture.stage.name} has no round 99." in refused.content.decode()
    # The results desk sees the list but does not set the clock.
    helper = UserFactory()
    cup.competition.roles.create(user=helper, kind="results_desk", added_by=cup.admin)
    client.force_login(helper)
    assert client.get(url).status_code == 200
    assert client.post(url, {**form, "starts_at": "2026-06-13T10:00", "clock": "1"}).status_code == 403


def test_the_setup_api_sets_clock_and_tables_and_clubs_check_in(client: Client, cup) -> None:
    fixture, fixtures = open_round(cup)
    stage_url = f"/api/v1/stages/{fixture.stage_id}"
    client.force_login(cup.admin)
    bad = client.post(f"{stage_url}/round-clock", {"round": fixture.round}, content_type="application/json")
    assert bad.status_code == 400 and "starts_at" in bad.json()["error"]["details"]
    starts = at(5)  # read once: the clock may pass a second before the answer is checked
    body = {"round": fixture.round, "starts_at": starts.isoformat(), "minutes": 25}
    done = client.post(f"{stage_url}/round-clock", body, content_type="application/json")
    assert done.status_code == 200, done.content
    assert datetime.fromisoformat(done.json()["ends_at"]) == starts + timedelta(minutes=25)
    one = {"round": fixture.round, "fixture": fixtures[1].pk, "table": 12}
    tables = client.post(f"{stage_url}/tables", one, content_type="application/json")
    assert {f["id"]: f["table_number"] for f in tables.json()}[fixtures[1].pk] == 12
    other = {**one, "fixture": fixtures[0].pk}
    assert client.post(f"{stage_url}/tables", other, content_type="application/json").status_code == 409
    home = fixtures[1].home_team
    client.force_login(club_user(home))
    assert client.post(f"{stage_url}/round-clock", body, content_type="application/json").status_code == 403
    checked = client.post(f"/api/v1/fixtures/{fixtures[1].pk}/check-in", {}, content_type="application/json")
    assert checked.status_code == 200 and checked.json()["team"] == home.pk
    client.force_login(UserFactory())
    refused = client.post(f"/api/v1/fixtures/{fixtures[1].pk}/check-in", {}, content_type="application/json")
    assert refused.status_code == 403
