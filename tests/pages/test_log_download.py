"""The public replay of a counted match offers its turn log for download (issue 33, item 7); a
log whose result does not count yet is nobody's to download but the clubs' (who have it)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from matches.models import MatchLog
from matches.services import result_confirm
from scoring import services
from tests.scoring.helpers import level_knockout_at_full_time
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def test_the_turn_log_of_a_counted_match_downloads_as_a_file(client: Client, cup) -> None:
    log = (
        MatchLog.objects.filter(
            fixture__competition=cup.competition, fixture__status__in=Fixture.COUNTED_STATUSES
        )
        .select_related("fixture")
        .first()
    )
    fixture = log.fixture
    page = client.get(f"/c/{cup.competition.slug}/matches/{fixture.pk}/").content.decode()
    url = f"/c/{cup.competition.slug}/matches/{fixture.pk}/log.json"
    assert f'href="{url}"' in page
    r = client.get(url)
    assert r.status_code == 200
    assert r["Content-Disposition"].startswith(
        f'attachment; filename="fuba-log-{cup.competition.slug}-match-'
    )
    assert json.loads(r.content) == log.data


def test_no_download_of_a_log_until_its_result_counts(client: Client) -> None:
    # a match scored live by one club: its confirmation submits the result with the log
    session, users = level_knockout_at_full_time(sides=("home",))
    services.session_confirm(session_id=session.id, user=users["home"], home_penalties=4, away_penalties=3)
    fixture = Fixture.objects.get(id=session.fixture_id)
    assert fixture.status == Fixture.Status.SUBMITTED and MatchLog.objects.filter(fixture=fixture).exists()
    url = f"/c/{fixture.competition.slug}/matches/{fixture.pk}/log.json"
    r = client.get(url)
    assert r.status_code == 404
    assert r.json()["error"]["message"] == "This match has no turn log of a counted result to download."
    assert (
        "log-download"
        not in client.get(f"/c/{fixture.competition.slug}/matches/{fixture.pk}/").content.decode()
    )
    result_confirm(fixture_id=fixture.id, user=users["away"])
    r = client.get(url)
    assert r.status_code == 200
    assert json.loads(r.content)["events"]
