"""The chances table and the coaches ranking in a real browser (chromium), with screenshots."""

from __future__ import annotations

import pytest

from chances import services
from chances.models import ChancesJob

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_chances_table_and_chart(page, live_server, cup, shot, monkeypatch) -> None:
    monkeypatch.setenv("CHANCES_ENGINE_SIMS", "1")
    job = services.chances_start(competition_id=cup.competition.id, runs=1000, seed=2026)
    assert ChancesJob.objects.get(id=job.id).status == ChancesJob.Status.DONE
    page.goto(f"{live_server.url}/c/{cup.competition.slug}/chances/")
    tables = page.locator("table.chances")
    assert tables.count() == 8
    assert page.locator('table.chances[data-group="A"] tbody tr').count() == 4
    assert "1000" in page.locator("#chances-meta").inner_text()
    # Group A is complete: its qualifiers are certain, the others out.
    qualify = page.locator('table.chances[data-group="A"] tbody tr td strong').all_inner_texts()
    assert sorted(qualify) == ["100%", "100%", "–", "–"]
    assert page.locator("svg.chart rect").count() > 32
    assert page.locator("#champion-chart rect").count() >= 8
    shot(page, "chances")
    # "How good are these numbers": the backtest's figures, folded until asked for
    quality = page.locator('[data-testid="forecast-quality"]')
    quality.locator("summary").click()
    assert quality.locator("table tbody tr").count() == 6
    quality.scroll_into_view_if_needed()
    shot(page, "chances-forecast-quality")


def test_coaches_ranking_and_history(page, live_server, cup, shot) -> None:
    page.goto(f"{live_server.url}/ratings/")
    rows = page.locator("#coach-ranking tbody tr")
    assert rows.count() >= 10  # the coaches of groups A, B and H (two matchdays)
    assert page.get_by_text("simulated and awarded results do not change ratings").is_visible()
    shot(page, "coach-ranking")
    rows.first.locator("a").click()
    page.wait_for_selector("#rating-history-fuba-3")
    assert page.locator("#rating-history-fuba-3 circle").count() >= 1
    assert "games-weighted mean" in page.locator('[data-testid="coach-combined"]').inner_text()
    shot(page, "coach-rating-history")
    page.get_by_role("link", name="Combined").first.click()
    page.wait_for_selector('[data-testid="combined-how"]')
    assert page.locator("#coach-ranking tbody tr").count() == rows.count()
    shot(page, "coach-ranking-combined")
