"""Fixtures shared by the API and page tests (their conftest files import them)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.demo_data import light_world_cup
from tournaments import demo
from tournaments.standings import cache as standings_cache


@pytest.fixture(autouse=True)
def fast_hashing_and_clean_cache(settings):
    # Password hashing is slow on purpose; the tests create 33 accounts.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    demo._HASHES.clear()
    cache.clear()
    standings_cache.clear_local()
    yield
    cache.clear()
    standings_cache.clear_local()


@pytest.fixture
def cup(db) -> demo.Demo:
    return light_world_cup()
