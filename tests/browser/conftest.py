"""Playwright (sync API) against pytest-django's live_server, driving Debian's chromium."""

from __future__ import annotations

import copy
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.test import TestCase, override_settings

from league import demo
from matches.standings import cache as standings_cache
from tests.web_fixtures import FAST_HASHERS, rows_added_by, write_rows

# Playwright's sync API runs an event loop in this thread; Django refuses ORM calls from a thread
# with a running loop unless told the calls are safe (they are: the loop never awaits ORM work).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} missing: apt-get install chromium (`make test` installs it).")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def shot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture(autouse=True)
def plain_static_files(settings) -> None:
    # The live server finds static files by their source names; the manifest storage of the
    # test settings would link hashed names that only exist after collectstatic in STATIC_ROOT.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(scope="session")
def _cup_rows(django_db_setup: None, django_db_blocker: Any) -> tuple[demo.Demo, dict[str, bytes]]:
    """The light World Cup built once per test process, kept as the rows it added
    (tests.web_fixtures.rows_added_by), what its commit would start (on_commit work) run as it is
    built. A browser test needs it committed for its live server; each used to build its own."""
    from tests.demo_data import light_world_cup

    def build() -> demo.Demo:
        with TestCase.captureOnCommitCallbacks(execute=True):
            return light_world_cup()

    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        demo._HASHES.clear()
        built = rows_added_by(build)
        demo._HASHES.clear()
    return built


@pytest.fixture
def cup(transactional_db: None, settings: Any, _cup_rows: tuple[demo.Demo, dict[str, bytes]]) -> demo.Demo:
    """The light World Cup, committed for the live server: _cup_rows' rows written back."""
    settings.PASSWORD_HASHERS = FAST_HASHERS
    built, rows = _cup_rows
    write_rows(rows)
    cache.clear()
    standings_cache.clear_local()
    return copy.deepcopy(built)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Every transactional browser test rolls back by serialization. A flush without it runs
    # post_migrate, which re-creates the content types under new ids; the next test that reloads
    # the serialized snapshot then collides with them (duplicate (app_label, model)) and errors.
    for item in items:
        if "tests/browser/" not in str(item.path).replace("\\", "/"):
            continue
        marker = item.get_closest_marker("django_db")
        kwargs = dict(marker.kwargs) if marker else {}
        transactional = kwargs.get("transaction") or "live_server" in getattr(item, "fixturenames", ())
        if transactional and not kwargs.get("serialized_rollback"):
            kwargs.update(transaction=True, serialized_rollback=True)
            item.add_marker(pytest.mark.django_db(**kwargs), append=False)
