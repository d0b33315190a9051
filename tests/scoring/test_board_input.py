"""The scorer on the board: the pending question carries what a tap on the pitch answers, the
state carries the named areas, and a set-up is checked for the board editor without storing it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import ScoringEvent
from tests.scoring.helpers import make_fixture

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _post(client: APIClient, sid: int, seq: int, event: dict[str, object]) -> dict[str, object]:
    head = "" if seq == 1 else f"e{seq - 1}"
    body = {
        "tap_id": f"t{seq}",
        "after": head,
        "after_seq": seq - 1,
        "events": [{"client_id": f"e{seq}", "event": event}],
    }
    r = client.post(f"/api/v1/scoring-sessions/{sid}/events", body, format="json")
    assert r.status_code == 201, r.json()
    return r.json()["state"]


def test_the_setup_check_answers_for_the_pending_setup_and_stores_nothing() -> None:
    s = make_fixture()
    client = api(s.home_user)
    state = client.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json").json()
    sid = state["session"]
    home, away = state["teams"]["home"]["name"], state["teams"]["away"]["name"]
    assert [a["name"] for a in state["areas"]][:2] == [f"{home} box", f"{home} left wing"]
    # not at a set-up yet: 422 with the reason
    r = client.post(f"/api/v1/scoring-sessions/{sid}/setup-check", {"choice": {}}, format="json")
    assert r.status_code == 422 and r.json()["error"]["code"] == "illegal_event"
    state = _post(client, sid, 1, {"roll": "kick_off", "by": "both", "dice": [6, 1]})
    state = _post(client, sid, 2, {"decide": "kick_off_team", "by": "home", "choice": "home"})
    pending = state["pending"]
    assert pending["name"] == "setup" and pending["board"]["kind"] == "setup"
    assert pending["board"]["outfield"] == 10
    wrong = {"gk": "H-PEN", "players": {"CENTRE": 1, "H-LM": 5, "A-LM": 1}}
    r = client.post(f"/api/v1/scoring-sessions/{sid}/setup-check", {"choice": wrong}, format="json")
    assert r.status_code == 200, r.json()
    check = r.json()
    assert check["ok"] is False and check["seq"] == 2 and check["placed"] == 7
    text = " | ".join(check["problems"])
    assert f"the {away} left midfield is not at least partly in" in text
    assert "two players in the centre" in text and "A-LM" not in text
    # each problem also in a few words with its chapter, for the set-up editor's one line
    assert f"{away} left midfield: not in own half (3.3.1)" in check["short"]
    assert len(check["short"]) == len(check["problems"]) and max(map(len, check["short"])) <= 48
    legal = pending["options"][0]["value"]
    r = client.post(f"/api/v1/scoring-sessions/{sid}/setup-check", {"choice": legal}, format="json")
    assert r.json() == {"seq": 2, "ok": True, "problems": [], "short": [], "placed": 10, "outfield": 10}
    assert ScoringEvent.objects.filter(session_id=sid).count() == 2
    # any legal set-up is stored as the same setup decision, not only the presets
    own = {"gk": "H-PEN", "players": {"CENTRE": 2, "H-LM": 3, "H-RM": 3, "H-FRONT": 2}}
    assert own not in [o["value"] for o in pending["options"]]
    assert client.post(f"/api/v1/scoring-sessions/{sid}/setup-check", {"choice": own}, format="json").json()[
        "ok"
    ]
    state = _post(client, sid, 3, {"decide": "setup", "by": "home", "choice": own})
    assert state["state"]["teams"]["home"]["on"] == {
        "H-PEN": 1,
        "CENTRE": 2,
        "H-LM": 3,
        "H-RM": 3,
        "H-FRONT": 2,
    }
    assert state["state"]["last"]["kind"] == "setup"


def test_a_move_question_carries_its_sources_destinations_and_reasons() -> None:
    s = make_fixture()
    client = api(s.home_user)
    sid = client.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json").json()["session"]
    _post(client, sid, 1, {"roll": "kick_off", "by": "both", "dice": [6, 1]})
    state = _post(client, sid, 2, {"decide": "kick_off_team", "by": "home", "choice": "home"})
    for seq, side in ((3, "home"), (4, "away")):
        state = _post(
            client,
            sid,
            seq,
            {"decide": "setup", "by": side, "choice": state["pending"]["options"][0]["value"]},
        )
    pending = state["pending"]
    assert pending["name"] == "setup_adjust" and pending["only_answer"] is False
    board = pending["board"]
    assert board["kind"] == "move" and board["done"] is True
    moves = {f"{a}>{b}" for a, bs in board["sources"].items() for b in bs}
    assert moves == {o["value"] for o in pending["options"]} - {"done"}
    home = state["teams"]["home"]["name"]
    assert board["why_not"]["A-PEN"] == f"no {home} player there"
