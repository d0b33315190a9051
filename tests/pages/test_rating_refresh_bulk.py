"""The ratings' refresh (fubaleague/web/refresh.py, ``rating_pages``) after a rated result reads
each competition's rating data at once (ratings/bulk.py): its queries do not grow with the
competition's team and match pages (before: about 250 for the demo cup's 96), and the pages it
keeps are those a reader's miss renders, a page at a time."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fubaleague.web import refresh
from league import demo
from matches import services
from matches.standings.cache import invalidate_scope
from ratings.models import PAGES_SCOPE, RatingHistory, system_part
from tests.pages.kept import forget_all, served
from tournaments.bracket import Score
from tournaments.game_systems import rules_of
from tournaments.models import Competition, Fixture, Team

# The competition's outline, teams and fixtures (their ids, then with their coaches), its rated
# matches and their points, the coaches' ratings and the ranking, the chances' latest job, the
# live marks: none of them once a page.
QUERIES_MAX = 15


@pytest.mark.django_db
def test_a_rating_refresh_reads_each_competition_at_once(
    cup: demo.Demo, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PAGES_REFRESH = False
    Competition.objects.filter(pk=cup.competition.pk).update(status=Competition.Status.ACTIVE)
    slug = cup.competition.slug
    fixtures = (
        Fixture.objects.filter(stage=cup.groups_stage, status=Fixture.Status.SCHEDULED)
        .exclude(home_team__isnull=True)
        .exclude(away_team__isnull=True)
        .order_by("round", "id")
    )
    for fixture in fixtures[:2]:
        with django_capture_on_commit_callbacks(execute=True):
            services.result_override(fixture_id=fixture.pk, user=cup.admin, score=Score(2, 1), note="m")
    assert RatingHistory.objects.exists()
    urls = {
        f"team {t}": f"/c/{slug}/teams/{t}/"
        for t in Team.objects.filter(competition=cup.competition).values_list("id", flat=True)
    }
    urls |= {
        f"match {f}": f"/c/{slug}/matches/{f}/"
        for f in Fixture.objects.filter(competition=cup.competition).values_list("id", flat=True)
    }
    served(urls)
    invalidate_scope(PAGES_SCOPE)  # (a rated result's bump: every rating bit is stale)

    with CaptureQueriesContext(connection) as queries:
        refresh.rating_pages([system_part(rules_of(cup.competition).rating_pool)])
    assert len(queries) <= QUERIES_MAX, [q["sql"][:80] for q in queries]

    with CaptureQueriesContext(connection) as reads:
        kept = served(urls)
    assert len(reads) == 0  # (all kept by the task)
    forget_all()
    assert kept == served(urls)
    assert any('data-testid="match-rating"' in page for page in kept.values())
    assert any("rank " in page for page in kept.values())
    assert any('data-testid="match-prediction"' in page for page in kept.values())
