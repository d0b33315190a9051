"""The rules engine packaged for the phone (scoring/web_engine.py) and the entry points its worker
calls (matchplay/scorer_local.py), checked under CPython; tests/browser/test_local_engine_in_browser.py
runs the same bundle in Pyodide."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from whitenoise.middleware import WhiteNoiseMiddleware

from fubaleague.static_cache import immutable_file
from matchplay import scorer_local
from scoring import selectors, services, web_engine
from scoring.selectors import session_get, session_state
from tests.scoring.helpers import make_fixture, play


def _copy_sources(tmp_path: Path) -> Path:
    root = tmp_path / "src"
    for name in web_engine.sources():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(web_engine.ROOT / name, root / name)
    return root


def test_the_bundle_holds_the_servers_sources_and_is_reproducible() -> None:
    data = web_engine.bundle_bytes()
    assert data == web_engine.bundle_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        assert (
            zf.read("matchplay/scorer_view.py") == (web_engine.ROOT / "matchplay/scorer_view.py").read_bytes()
        )
    assert "rules_engine/api.py" in names and "rules_engine/coaches/heuristic.py" in names
    assert not [
        n for n in names if "__pycache__" in n or n.startswith(("scoring/", "tournaments/", "matches/"))
    ]


def test_the_entry_module_imports_every_packaged_module(tmp_path: Path) -> None:
    """A start from this phone's snapshot neither reads nor unpacks the bundle (engine-worker.js):
    the snapshot, taken once the entry module is imported, must hold every module of it."""
    with zipfile.ZipFile(io.BytesIO(web_engine.bundle_bytes())) as zf:
        zf.extractall(tmp_path)
        packaged = {
            n.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            for n in zf.namelist()
            if n.endswith(".py")
        }
    # a fresh interpreter over the unpacked bundle alone, as the worker's (no site, no checkout)
    code = f"import json, sys; import {web_engine.ENTRY_MODULE}; print(json.dumps(sorted(sys.modules)))"
    env = {"FUBA_ENGINE": "pure", "PATH": os.environ.get("PATH", "")}
    done = subprocess.run(
        [sys.executable, "-S", "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
    )
    assert sorted(packaged - set(json.loads(done.stdout))) == []


def test_the_bundle_holds_the_league_modules_the_scorer_imports_and_no_other() -> None:
    """The league files are derived from the entry module's imports: the same set as the modules a
    fresh interpreter has loaded from this checkout once it imports the entry module."""
    code = f"import json, sys; import {web_engine.ENTRY_MODULE}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=web_engine.ROOT,
        env={"FUBA_ENGINE": "pure", "PATH": os.environ.get("PATH", "")},
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = {
        m.replace(".", "/") + ("/__init__.py" if m == "matchplay" else ".py")
        for m in json.loads(done.stdout)
        if m.split(".")[0] == "matchplay"
    }
    assert web_engine.league_files() == sorted(loaded)
    assert not [n for n in web_engine.sources() if not n.startswith(("rules_engine/", "matchplay/"))]


def test_a_new_module_the_scorer_imports_is_packaged_and_a_django_import_refused(tmp_path: Path) -> None:
    root = _copy_sources(tmp_path)
    (root / "matchplay/extra_time.py").write_text("from . import narrate\n\nLENGTH = 10\n")
    view = root / "matchplay/scorer_view.py"
    view.write_text(
        view.read_text()
        + "\n\ndef _later() -> int:\n    from matchplay.extra_time import LENGTH\n\n    return LENGTH\n"
    )
    assert "matchplay/extra_time.py" in web_engine.sources(root)
    assert "matchplay/extra_time.py" not in web_engine.sources()

    (root / "matchplay/extra_time.py").write_text("from django.conf import settings\n")
    with pytest.raises(web_engine.BundleError, match=r"matchplay/extra_time\.py:1 imports django\.conf"):
        web_engine.sources(root)
    # a league module that is a Django app's is followed to its Django import, and refused too
    (root / "scoring").mkdir()
    (root / "scoring/__init__.py").write_text("")
    (root / "scoring/models.py").write_text("from django.db import models\n")
    (root / "matchplay/extra_time.py").write_text("from scoring.models import models\n")
    with pytest.raises(web_engine.BundleError, match=r"scoring/models\.py:1 imports django\.db"):
        web_engine.sources(root)


def test_any_edit_of_a_packaged_file_changes_the_digest(tmp_path: Path) -> None:
    root = _copy_sources(tmp_path)
    before = web_engine.digest(root)
    assert before == web_engine.digest()
    narrate = root / "matchplay/narrate.py"
    narrate.write_text(narrate.read_text() + "\n# edited\n")
    assert web_engine.digest(root) != before
    (root / "rules_engine/extra.py").write_text("X = 1\n")
    assert web_engine.digest(root) not in (before, web_engine.digest())


def test_a_stale_or_missing_bundle_is_not_offered(tmp_path: Path) -> None:
    out = tmp_path / "out"
    web_engine.current.cache_clear()
    try:
        assert web_engine.current(out) is None
        manifest = web_engine.build(out)
        web_engine.current.cache_clear()  # read once per process
        assert web_engine.current(out) == manifest
        assert web_engine.bundle_path(manifest["file"], out) == out / manifest["file"]
        assert web_engine.bundle_path("engine-0000.zip", out) is None
        (out / web_engine.MANIFEST).write_text(json.dumps({**manifest, "digest": "0" * 64}))
        web_engine.current.cache_clear()
        assert web_engine.current(out) is None
    finally:
        web_engine.current.cache_clear()


def test_the_bundle_is_checked_in_a_request_without_parsing_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # CPython 3.11's ast.parse can fail in a server's thread (python/cpython#106905: a
    # "recursion depth mismatch" SystemError took the engine bundle down in a browser test), so
    # the request's check reads the league's files from the manifest the build wrote.
    out = tmp_path / "out"
    manifest = web_engine.build(out)
    assert manifest["league_files"] == web_engine.league_files()

    def no_parsing(*args: object, **kwargs: object) -> None:
        raise AssertionError("ast.parse in a request")

    monkeypatch.setattr(web_engine.ast, "parse", no_parsing)
    web_engine.current.cache_clear()
    try:
        assert web_engine.current(out) == manifest
        # a manifest without the list (an older build) or naming a file that is gone: stale
        for league in (None, [*manifest["league_files"], "matchplay/gone.py"]):
            (out / web_engine.MANIFEST).write_text(json.dumps({**manifest, "league_files": league}))
            web_engine.current.cache_clear()
            assert web_engine.current(out) is None
    finally:
        web_engine.current.cache_clear()


@pytest.mark.django_db
def test_the_scorer_page_offers_the_current_bundle_for_a_year(client, settings) -> None:
    web_engine.build()
    web_engine.current.cache_clear()
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    client.force_login(s.home_user)
    response = client.get(f"/score/{session.id}/")
    page = response.content.decode()
    # the engine's worker is made from a blob and compiles WebAssembly: on the scorer page only
    assert "'wasm-unsafe-eval' blob:" in response["Content-Security-Policy"]
    assert "wasm" not in client.get("/").get("Content-Security-Policy", "")
    manifest = web_engine.current()
    assert manifest is not None
    url = f"/score/engine/{manifest['file']}"
    assert f'data-engine-bundle="{url}"' in page and manifest["digest"] in page
    r = client.get(url)
    assert r.status_code == 200 and r["Cache-Control"] == "public, max-age=31536000, immutable"
    assert b"".join(r.streaming_content) == (web_engine.OUT / manifest["file"]).read_bytes()
    assert client.get("/score/engine/engine-00000000000000000000.zip").status_code == 404
    stdlib = f"/score/engine/{manifest['stdlib']}"
    assert f'data-engine-stdlib="{stdlib}"' in page
    r = client.get(stdlib)
    assert r.status_code == 200 and r["Cache-Control"] == "public, max-age=31536000, immutable"
    settings.SCORER_LOCAL_ENGINE = False
    assert "data-engine-bundle" not in client.get(f"/score/{session.id}/").content.decode()
    settings.SCORER_LOCAL_ENGINE = True
    client.logout()
    assert "data-engine-bundle" not in client.get(f"/score/{session.id}/").content.decode()
    sw = client.get("/score/sw.js")
    assert sw["Content-Type"] == "application/javascript" and b"caches.match" in sw.content


def test_the_phones_stdlib_is_precompiled_and_holds_what_the_engine_imports() -> None:
    manifest = web_engine.build()
    web_engine.current.cache_clear()
    with zipfile.ZipFile(web_engine.OUT / manifest["stdlib"]) as zf:
        names = set(zf.namelist())
    # compiled once by Pyodide's own CPython (scripts/pyodide-stdlib.mjs), no source compiled at a start
    assert names and all(n.endswith(".pyc") for n in names)
    assert {"json/__init__.pyc", "dataclasses.pyc", "random.pyc", "encodings/utf_8.pyc"} <= names
    # trimmed to what is used: nothing of the mail, XML or test packages
    assert not [n for n in names if n.startswith(("email/", "xml/", "unittest/"))]


@pytest.mark.django_db
def test_the_local_scorer_shows_what_the_server_shows(django_capture_on_commit_callbacks) -> None:
    s = make_fixture(advanced_rules=["A1", "A2"])
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    with django_capture_on_commit_callbacks(execute=True):
        server = play(session.id, {"home": s.home_user, "away": s.away_user}, until=40)
    session = session_get(session_id=session.id)
    events = [e.data for e in session.events.filter(undone_at__isnull=True).order_by("seq")]
    names = {side: server["teams"][side]["name"] for side in ("home", "away")}
    opened = {"header": session.header, "names": names, "events": []}
    local = json.loads(scorer_local.open_match(json.dumps(opened)))
    for event in events:
        local = json.loads(scorer_local.apply(json.dumps({"events": [{"client_id": "", "event": event}]})))
        assert local["ok"], local
    for key in ("state", "pending", "question", "moments", "result"):
        assert local["view"][key] == session_state(session)[key], key
    log = json.loads(scorer_local.log())
    # The server notes its own "roll for me" rolls; the phone's events are the events as posted.
    assert log["events"] == [{k: v for k, v in e.items() if k != "note"} for e in events]
    assert log["teams"] == session.header["teams"]
    undone = json.loads(scorer_local.undo())
    assert undone["seq"] == len(events) - 1


def test_pyodide_and_hashed_files_are_cached_for_a_year(settings) -> None:
    prefix = f"/static/{settings.PYODIDE_STATIC_PREFIX}/"
    assert immutable_file("", prefix + "pyodide.asm.wasm")
    assert immutable_file("", "/static/scoring/scorer.0123456789ab.js")
    assert not immutable_file("", "/static/scoring/scorer.js")
    assert not immutable_file("", "/static/pyodide/other/pyodide.js")
    # and whitenoise asks that test (a dotted path in the setting was taken for a regex: max-age=60)
    middleware = WhiteNoiseMiddleware(lambda request: None)
    assert middleware.immutable_file_test("", prefix + "pyodide.asm.wasm")
    assert middleware.immutable_file_test("", "/static/scoring/scorer.0123456789ab.js")


@pytest.mark.django_db
def test_the_phone_checks_a_set_up_as_the_server_does(django_capture_on_commit_callbacks) -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    users = {"home": s.home_user, "away": s.away_user}
    state = session_state(session)
    with django_capture_on_commit_callbacks(execute=True):
        while state["pending"]["name"] != "setup":
            state = play(session.id, users, until=state["seq"] + 1)
    session = session_get(session_id=session.id)
    events = [e.data for e in session.events.filter(undone_at__isnull=True).order_by("seq")]
    names = {side: state["teams"][side]["name"] for side in ("home", "away")}
    scorer_local.open_match(json.dumps({"header": session.header, "names": names, "events": events}))
    legal = state["pending"]["options"][0]["value"]
    for choice in (legal, {"gk": legal["gk"], "players": {}}):
        local = json.loads(scorer_local.setup_check(json.dumps(choice)))
        assert local["ok"] and local["check"] == selectors.setup_check(session_id=session.id, choice=choice)


def test_the_phone_knows_a_level_knockout_tie_at_full_time_offline() -> None:
    """Issue 31, item 6: a knockout finished offline asks for the shoot-out on the phone as online.
    The example match ends 0-2: level on aggregate after a first leg won 2-0 by this match's home
    team, so the phone's engine says shootout; the same score in a one-match tie does not."""
    example = json.loads(
        (Path(__file__).resolve().parents[2] / "docs/examples/example-match.json").read_text()
    )
    header = {k: v for k, v in example.items() if k != "events"}
    names = {"home": "Otto's Blues", "away": "Santeri's Yellows"}

    def at_full_time(tie: dict[str, object] | None) -> dict[str, object]:
        opened = {"header": header, "names": names, "events": example["events"], "tie": tie}
        return json.loads(scorer_local.open_match(json.dumps(opened)))

    second_leg = at_full_time({"legs": 2, "first_leg": [2, 0], "away_goals": False})
    assert second_leg["view"]["pending"] is None and second_leg["shootout"] is True
    assert at_full_time({"legs": 1, "first_leg": None, "away_goals": False})["shootout"] is False
    assert at_full_time(None)["shootout"] is False
    # before full time nothing is asked
    early = {"header": header, "names": names, "events": example["events"][:40], "tie": None}
    assert json.loads(scorer_local.open_match(json.dumps(early)))["shootout"] is False
