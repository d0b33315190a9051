"""The pages work under their Content-Security-Policy in chromium, with no violation."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_no_csp_violation_on_the_pages(page, live_server, cup) -> None:
    violations: list[str] = []
    page.on(
        "console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.error("
        "'Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    slug = cup.competition.slug
    fixture_id = cup.simulated[0]
    for path in (
        "/",
        f"/c/{slug}/",
        f"/c/{slug}/standings/",
        f"/c/{slug}/bracket/",
        "/login/",
        "/api/v1/docs",
    ):
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.ok, path
        assert "default-src 'self'" in response.headers["content-security-policy"], path
        page.wait_for_load_state("networkidle")

    # The replay script runs (a static file under script-src 'self').
    page.goto(f"{live_server.url}/c/{slug}/matches/{fixture_id}/")
    page.wait_for_selector("#replay[data-ready=true]")
    page.click('[data-action="forward"]')
    assert page.locator('[data-testid="replay-position"]').inner_text().startswith("Event 2 of")

    # The team filter still submits itself on change, without the inline onchange it had.
    page.goto(f"{live_server.url}/c/{slug}/fixtures/")
    option = page.locator('select[name="team"] option').nth(1)
    team_id = option.get_attribute("value")
    with page.expect_navigation():
        page.select_option('select[name="team"]', team_id)
    assert f"team={team_id}" in page.url

    # Swagger UI starts (its start-up script is a file, not inline).
    page.goto(f"{live_server.url}/api/v1/docs")
    page.wait_for_selector(".swagger-ui .info", timeout=20000)
    assert violations == [], violations
