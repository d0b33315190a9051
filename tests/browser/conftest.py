"""Playwright (sync API) against pytest-django's live_server, driving Debian's chromium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import TestCase

from league import demo
from matches.standings import cache as standings_cache
from tests.web_fixtures import FAST_HASHERS, built_once_per_state

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


# The light cup as built in this test process, per state of the database it was built on (see cup).
_CUPS: dict[str, tuple[demo.Demo, dict[str, bytes]]] = {}


def _committed_light_cup() -> demo.Demo:
    """The light World Cup with what its commits would start (on_commit work) run, as the live
    server's committed build runs it."""
    from tests.demo_data import light_world_cup

    with TestCase.captureOnCommitCallbacks(execute=True):
        return light_world_cup()


@pytest.fixture
def cup(transactional_db: None, settings: Any) -> demo.Demo:
    """The light World Cup, committed for the live server.

    Building it takes seconds (~3,000 queries), so it is built once per test process and each
    later test writes its rows back with COPY, same ids (tests.web_fixtures.built_once_per_state:
    built again on a database in another state). It is built here, after transactional_db has
    restored the serialized tables, not in a session fixture: that runs before the restore, on
    whatever the last transactional test left (an emptied database under --dist load), and its
    rows then clashed with or missed the restored ones."""
    settings.PASSWORD_HASHERS = FAST_HASHERS
    demo._HASHES.clear()
    built = built_once_per_state(_CUPS, _committed_light_cup)
    demo._HASHES.clear()
    # What the build mailed belongs to no test (only the first test of a process saw it built).
    if hasattr(mail, "outbox"):
        mail.outbox.clear()
    cache.clear()
    standings_cache.clear_local()
    return built


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
