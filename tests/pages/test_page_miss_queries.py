"""What an anonymous public page costs on a cache miss, in queries (issue 35: misses cheap too).

Each page is asked once (the standings it reads and its other kept parts stored), its kept entry
is then made stale as any change to the competition makes it (a team's or a match's page, kept
under the parts it shows, which such a change leaves as they were: dropped, as when it expires),
and the next request renders it again: that rendering must not take more queries than below.
A page that starts to query per fixture, per team or per row fails here before it shows in
bench/bench_web.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from fubaleague.web.page_cache import live_marks
from league import demo
from matches.standings import cache as page_versions
from ratings.models import PAGES_SCOPE

# Queries of one page rendered on a miss, on the light World Cup (tests/demo_data.py). The pages
# assembled from kept fragments (fubaleague/web/fragments.py) read none when nothing they show
# changed, but the matches scored live (once a second at most).
MAX_QUERIES = {
    "competition home": 1,
    "standings": 0,
    "fixtures": 1,
    "fixtures of a team": 1,
    "bracket": 0,
    "team": 10,
    "match": 9,
    "replay": 3,
    "live centre": 3,
    "coach ratings": 1,
}


def _pages(cup: demo.Demo) -> dict[str, str]:
    slug = cup.competition.slug
    simulated = cup.simulated[0]
    team = cup.teams[next(iter(cup.teams))]
    return {
        "competition home": f"/c/{slug}/",
        "standings": f"/c/{slug}/standings/",
        "fixtures": f"/c/{slug}/fixtures/",
        "fixtures of a team": f"/c/{slug}/fixtures/?team={team.pk}",
        "bracket": f"/c/{slug}/bracket/",
        "team": f"/c/{slug}/teams/{team.pk}/",
        "match": f"/c/{slug}/matches/{simulated}/",
        "replay": f"/c/{slug}/matches/{simulated}/replay.json",
        "live centre": f"/c/{slug}/live/",
        "coach ratings": "/ratings/",
    }


@pytest.mark.parametrize("page", sorted(MAX_QUERIES))
def test_a_public_page_on_a_miss_takes_a_bounded_number_of_queries(
    client: Client, cup: demo.Demo, page: str, django_assert_max_num_queries: Any
) -> None:
    path = _pages(cup)[page]
    scope = PAGES_SCOPE if path.startswith("/ratings/") else cup.competition.slug
    assert client.get(path).status_code == 200
    if page in ("team", "match"):
        live = f":live:{live_marks(cup.competition.slug)}" if page == "match" else ""
        page_versions.clear_local()
        cache.delete(f"standings:s:{cup.competition.slug}:page:{path}?{live}")
    else:
        page_versions.invalidate_scope(scope)
    with django_assert_max_num_queries(MAX_QUERIES[page]):
        response = client.get(path)
    assert response.status_code == 200
    # The standings page keeps its entry itself, without the header; the others say so.
    assert response.get("X-Page-Cache", "miss") == "miss"
