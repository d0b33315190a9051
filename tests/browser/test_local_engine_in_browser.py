"""The rules engine on the phone: Pyodide in the scorer's Web Worker runs the server's own engine
sources (the bundle of scoring/web_engine.py) and agrees with the server's CPython engine on
simulated matches: the same pending question after every event, the same final view. One browser
page and one worker serve the whole module (Pyodide takes seconds to start)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

from matchplay import scorer_local
from rules_engine.api import play_random
from scoring import services, session_engine, web_engine
from scoring.selectors import session_get, session_state
from tests.scoring.helpers import knockout_final
from tests.scoring.test_extra_time import _events_to_a_level_extra_time_question, _post

pytestmark = pytest.mark.browser

FORMATIONS = ("4-4-2", "3-5-2", "4-3-3", "5-3-2", "4-5-1")
START = """async (cfg) => {
  const m = await import(cfg.module);
  try {
    window.__engine = await m.startEngine(cfg, {timeoutMs: cfg.timeout});
    return {ok: true, info: window.__engine.info};
  } catch (e) { return {ok: false, error: String(e.message || e)}; }
}"""
REPLAY = """async (matches) => {
  const out = [];
  for (const m of matches) out.push(await window.__engine.call("replay_digest", m));
  return out;
}"""


def simulated(n: int, first_seed: int = 1) -> list[dict[str, Any]]:
    """``n`` random-legal matches with varied formations and advanced rules, as the worker gets them."""
    out = []
    for seed in range(first_seed, first_seed + n):
        header = {
            "advanced_rules": "all" if seed % 3 else [],
            "teams": {
                "home": {"name": f"Home {seed}", "formation": FORMATIONS[seed % len(FORMATIONS)]},
                "away": {"name": f"Away {seed}", "formation": FORMATIONS[(seed * 7 + 2) % len(FORMATIONS)]},
            },
        }
        log = play_random(header, seed).to_log()
        events = log.pop("events")
        names = {side: log["teams"][side]["name"] for side in ("home", "away")}
        out.append({"header": log, "names": names, "events": events})
    return out


def engine_config(live_server: Any) -> dict[str, Any]:
    manifest = web_engine.current()
    assert manifest is not None, "the engine bundle was just built"
    return {
        "module": f"{live_server.url}{settings.STATIC_URL}scoring/js/local-engine.js",
        "worker": f"{settings.STATIC_URL}scoring/local/engine-worker.js",
        "pyodide": f"{settings.STATIC_URL}{settings.PYODIDE_STATIC_PREFIX}/",
        "bundle": reverse("scoring:engine_bundle", args=[manifest["file"]]),
        "digest": manifest["digest"],
        "stdlib": reverse("scoring:engine_bundle", args=[manifest["stdlib"]]),
        "timeout": 60000,
    }


@pytest.fixture(scope="module")
def bundle() -> Iterator[None]:
    web_engine.build()
    web_engine.current.cache_clear()
    yield
    web_engine.current.cache_clear()


@pytest.fixture(scope="module")
def engine_page(browser: Any, live_server: Any, bundle: None) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(120000)
    page.goto(f"{live_server.url}{settings.STATIC_URL}fubaleague/site.css")
    started = page.evaluate(START, engine_config(live_server))
    assert started["ok"], started
    try:
        yield page
    finally:
        context.close()


def _agree(page: Any, matches: list[dict[str, Any]]) -> None:
    local = page.evaluate(REPLAY, matches)
    for match, phone in zip(matches, local, strict=True):
        server = json.loads(scorer_local.replay_digest(json.dumps(match)))
        assert phone == server, f"{match['names']}: phone {phone} != server {server}"


def test_the_worker_runs_the_servers_engine_sources(engine_page: Any) -> None:
    info = engine_page.evaluate("() => window.__engine.info")
    assert info["digest"] == web_engine.digest()
    assert info["python"].startswith("3.")
    # The standard library precompiled by build_engine_bundle (scripts/pyodide-stdlib.mjs), not
    # Pyodide's sources compiled at every start.
    assert info["stdlib"].endswith("json/__init__.pyc"), info["stdlib"]


def test_phone_and_server_agree_on_6_simulated_matches(engine_page: Any) -> None:
    # Seeds 1-6 give each of the five formations to both sides and play with the advanced rules on
    # and off; the default run keeps these, the 1,000 matches below are the long run (`slow`).
    _agree(engine_page, simulated(6))


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_phone_and_server_agree_on_1000_simulated_matches(engine_page: Any) -> None:
    for first in range(1, 1001, 50):
        _agree(engine_page, simulated(50, first))


def test_an_illegal_event_is_refused_with_the_rule(engine_page: Any) -> None:
    match = simulated(1, 7)[0]
    opened = engine_page.evaluate(
        "async (m) => window.__engine.open(m.header, m.names, m.events.slice(0, 5))", match
    )
    assert opened["ok"] and opened["seq"] == 5
    pending = opened["view"]["pending"]
    wrong = {"decide": "not_asked_here", "by": "home", "choice": "x"}
    if pending["kind"] == "decision":
        wrong = {"roll": "situation", "by": pending["actor"], "dice": [9, 9]}
    refused = engine_page.evaluate("async (e) => window.__engine.apply(e)", wrong)
    assert refused["ok"] is False
    assert refused["error"]["reason"]
    again = engine_page.evaluate("async () => window.__engine.call('view')")
    assert again["seq"] == 5 and again["view"] == opened["view"]


def test_the_engine_failing_to_load_is_reported(browser: Any, live_server: Any, bundle: None) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        page.route("**/pyodide.js", lambda route: route.abort())
        page.goto(f"{live_server.url}{settings.STATIC_URL}fubaleague/site.css")
        cfg = {**engine_config(live_server), "timeout": 30000}
        started = page.evaluate(START, cfg)
        assert started["ok"] is False
        assert started["error"]
    finally:
        context.close()


def test_a_second_start_restores_the_snapshot_and_agrees(
    browser: Any, live_server: Any, engine_page: Any
) -> None:
    """The first start took a memory snapshot (engine-snapshot.js); a page of the same browser
    starts from it, and that engine answers as the server's."""
    page = engine_page.context.new_page()
    try:
        page.set_default_timeout(120000)
        page.goto(f"{live_server.url}{settings.STATIC_URL}fubaleague/site.css")
        started = page.evaluate(START, engine_config(live_server))
        assert started["ok"], started
        assert started["info"]["restored"] is True and "restore" in started["info"]["phases"]
        _agree(page, simulated(5, 101))
    finally:
        page.close()


# A snapshot of the right key that no interpreter can restore from: 24 MiB of zeros.
SPOIL = """async (cfg) => {
  const s = await import(cfg.module.replace("local-engine.js", "engine-snapshot.js"));
  const pyodide = new URL(cfg.pyodide, location.href).href;
  await s.saveSnapshot(pyodide, cfg.digest, new Uint8Array(24 << 20));
  return (await s.loadSnapshot(pyodide, cfg.digest)).size;
}"""
KEPT = """async (cfg) => {
  const s = await import(cfg.module.replace("local-engine.js", "engine-snapshot.js"));
  const kept = await s.loadSnapshot(new URL(cfg.pyodide, location.href).href, cfg.digest);
  const head = kept ? new Uint8Array(await kept.slice(0, 1 << 16).arrayBuffer()) : [];
  return {size: kept ? kept.size : 0, zeros: head.every((b) => b === 0)};
}"""


def test_a_snapshot_that_cannot_be_restored_is_dropped_and_the_engine_starts(
    browser: Any, live_server: Any, bundle: None
) -> None:
    """The worker reads the snapshot's Blob itself (engine-snapshot.js): one it cannot restore
    from fails the start from it, is dropped, and the engine starts without it and keeps a new one."""
    context = browser.new_context()
    page = context.new_page()
    try:
        page.set_default_timeout(120000)
        page.goto(f"{live_server.url}{settings.STATIC_URL}fubaleague/site.css")
        cfg = engine_config(live_server)
        assert page.evaluate(SPOIL, cfg) == 24 << 20
        started = page.evaluate(START, cfg)
        assert started["ok"], started
        assert started["info"]["restored"] is False and "pyodide" in started["info"]["phases"]
        _agree(page, simulated(2, 201))
        # the new snapshot is saved after the start resolves (local-engine.js, not waited for)
        for _ in range(100):
            kept = page.evaluate(KEPT, cfg)
            if kept["size"] and not kept["zeros"]:
                break
            page.wait_for_timeout(200)
        assert kept["size"] > 0 and kept["zeros"] is False, kept
    finally:
        context.close()


@pytest.mark.django_db
def test_phone_and_server_offer_the_same_answers_at_a_level_knockouts_extra_time(engine_page: Any) -> None:
    """I-38 lives in the engine: at the extra-time question of a level knockout tie the phone's
    engine, given the tie from the server's state, offers only "yes" and refuses "no" as the
    server does."""
    fixture, users = knockout_final()
    session = services.session_start(fixture_id=fixture.id, user=users["home"])
    events = _events_to_a_level_extra_time_question(session.header)
    for seq, event in enumerate(events, start=1):
        session = _post(session.id, users[event["by"] if event["by"] != "both" else "home"], seq, event)
    state = session_state(session_get(session_id=session.id))
    assert state["pending"]["name"] == "extra_time" and state["tie"] == {
        "legs": 1,
        "first_leg": None,
        "away_goals": False,
    }
    names = {side: team["name"] for side, team in state["teams"].items()}
    phone = engine_page.evaluate(
        "async (a) => window.__engine.open(a.header, a.names, a.events, a.tie)",
        {"header": session.header, "names": names, "events": events, "tie": state["tie"]},
    )
    assert phone["ok"] and phone["view"]["pending"] == state["pending"]
    assert [o["value"] for o in phone["view"]["pending"]["options"]] == ["yes"]
    no = {"decide": "extra_time", "by": "home", "choice": "no"}
    refused = engine_page.evaluate("async (e) => window.__engine.apply(e)", no)
    with pytest.raises(session_engine.IllegalEvent) as server:
        _post(session.id, users["home"], state["seq"] + 1, no)
    assert refused["ok"] is False and refused["error"]["rule"] == server.value.details["rule"] == "I-38"
    # The same refusal in words; the server's names where in the tap it stands ("events[0] (id): ").
    assert server.value.message.startswith("events[0] (")
    assert server.value.message.endswith("): " + refused["error"]["message"])
