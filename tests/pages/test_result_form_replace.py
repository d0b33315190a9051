"""The result form: after submitting, the club sees what it reported; replacing it is explicit."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.models import ResultSubmission
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def test_second_report_is_an_explicit_replacement_kept_in_the_history(cup, client) -> None:
    fixture = (
        Fixture.objects.filter(group__name="C", round=1).select_related("home_team", "competition").first()
    )
    slug = fixture.competition.slug
    client.force_login(cup.users[fixture.home_team.name])
    submit = reverse("tournaments:submit_result", args=[slug, fixture.pk])
    match = reverse("tournaments:match", args=[slug, fixture.pk])
    client.post(submit, {"home_goals": 1, "away_goals": 0, "away_yellow": 1})
    page = client.get(match).content.decode()
    assert "1–0" in page.split('data-testid="submission"')[1][:400]
    assert "Awaiting the opponent" in page and 'data-testid="replace-report"' in page

    client.post(submit, {"home_goals": 2, "away_goals": 0})
    assert ResultSubmission.objects.filter(fixture=fixture).count() == 1, "no silent replacement"

    client.post(submit, {"home_goals": 2, "away_goals": 0, "replace": "1"})
    statuses = list(ResultSubmission.objects.filter(fixture=fixture).values_list("status", flat=True))
    assert statuses == ["open", "superseded"]
    page = client.get(match).content.decode()
    history = page.split('data-testid="history"')[1].split("</section>")[0]
    assert "1–0, 1 card" in history and "Superseded" in history
