"""Property tests (hypothesis): random legal play never reaches an illegal
state; corrupting a single die or decision of a recorded log is detected."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_engine
from rules_engine import board as B
from rules_engine.api import Decision, FubaError, Match, Roll, event_from_dict, new_match, validate_log
from rules_engine.autoplay import play_random
from rules_engine.rng import Dice
from rules_engine.skills import SKILL_NAMES

FORMATIONS = ("4-4-2", "3-5-2", "4-5-1", "5-3-2", "4-3-3", "3-4-3", "2-3-5", "4-6-0")
RULES = ("A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A13")


@st.composite
def headers(draw: st.DrawFn) -> dict[str, Any]:
    adv = draw(st.sets(st.sampled_from(RULES)))
    teams = {}
    n_skills = draw(st.integers(0, 3)) if "A11" in adv else 0
    cheap = [s for s in SKILL_NAMES if s not in ("fanatic_fans", "shot_stopper", "clinical_finisher")]
    for side in ("home", "away"):
        t: dict[str, Any] = {"name": side, "formation": draw(st.sampled_from(FORMATIONS))}
        if n_skills:
            t["skills"] = draw(
                st.lists(st.sampled_from(cheap), min_size=n_skills, max_size=n_skills, unique=True)
            )
        if draw(st.booleans()) and draw(st.booleans()):
            t["players_short"] = 1
        if "A2" in adv and t["formation"] == "4-4-2":
            t["roles"] = {"attacking_midfielders": 1, "offensive_wing_backs": 1}
        teams[side] = t
    return {"advanced_rules": sorted(adv), "teams": teams}


def check_invariants(m: Match) -> None:
    st_ = m.st
    assert 1 <= st_.value <= 6
    assert 0 <= st_.clock <= 45 and 0 <= st_.stoppage <= 5
    for t in st_.teams:
        assert all(n >= 0 for n in t.field)
        on_pitch = t.outfield() + sum(n for _, n in t.injured_out)
        assert on_pitch == 10 - t.spec.players_short - t.off_pieces
        assert 0 <= t.gk < B.N_AREAS or st_.turn == 0
        assert all(0 <= c <= 10 for c in t.cp) and t.cp_total() <= max(10, t.cp_initial)
        assert t.subs_used <= 3 and t.yellows >= 0
    p = m.pending()
    if p is not None and p.kind == "decision" and p.name == "action":
        ct = st_.teams[st_.ct]
        assert ct.has(st_.ball), "4.5.3: the controlling team has a player with the ball"
        assert st_.ball < B.N_AREAS
        assert p.options, "an acting team always has an action"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hdr=headers(), seed=st.integers(0, 10**9))
def test_random_legal_play_never_reaches_an_illegal_state(hdr: dict[str, Any], seed: int) -> None:
    m = new_match(hdr)
    dice = Dice(seed)
    steps = 0
    while (p := m.pending()) is not None:
        if p.kind == "roll":
            m.apply(dice.roll_for(p))
        else:
            opts = p.options
            assert opts, f"no legal option for {p.describe()}"
            m.apply(Decision(p.name, p.actor, dice.choice(opts)))
        check_invariants(m)
        steps += 1
        assert steps < 20000
    assert m.st.over and m.st.half == 2
    assert m.st.minute_label().startswith("90")
    # the log written by the engine replays to the same result
    r = validate_log(m.to_log())
    assert r.valid, [e.message for e in r.errors]
    assert r.result == m.result()


def _replay_digests(events: list[dict[str, Any]], hdr: dict[str, Any]) -> list[str] | None:
    """Independent replay (no validator): the state digest after every event, None if illegal."""
    m = new_match({k: hdr[k] for k in ("advanced_rules", "teams")})
    out = []
    try:
        for e in events:
            m.apply(event_from_dict({k: v for k, v in e.items() if k != "check"}))
            out.append(m.st.digest())
    except FubaError:
        return None
    if m.pending() is not None:
        return None
    return out


_LOGS: dict[int, dict[str, Any]] = {}


def _annotated_log(seed: int) -> dict[str, Any]:
    if seed not in _LOGS:
        hdr = {
            "advanced_rules": "all",
            "teams": {
                "home": {"name": "Blue", "formation": "4-4-2", "skills": ["runner", "stopper"]},
                "away": {"name": "Yellow", "formation": "3-5-2", "skills": ["tackler", "crossing"]},
            },
        }
        _LOGS[seed] = play_random(hdr, seed, annotate=True).to_log()
    return _LOGS[seed]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), where=st.floats(0, 1, exclude_max=True), new=st.integers(1, 6))
def test_corrupting_a_single_die_is_detected(seed: int, where: float, new: int) -> None:
    log = _annotated_log(seed)
    rolls = [i for i, e in enumerate(log["events"]) if "roll" in e]
    i = rolls[int(where * len(rolls))]
    ev = log["events"][i]
    j = 0 if new % 2 else len(ev["dice"]) - 1
    sides = 6
    if ev["dice"][j] == (new - 1) % sides + 1:
        new += 1
    bad = copy.deepcopy(log)
    bad["events"][i]["dice"][j] = (new - 1) % sides + 1
    report = validate_log(bad)
    original = _replay_digests(log["events"], log)
    corrupted = _replay_digests(bad["events"], bad)
    no_effect = corrupted is not None and corrupted == original
    # detected exactly when the change has any effect on the match
    assert report.valid is no_effect
    if not report.valid:
        e = report.errors[0]
        assert e.turn is not None and e.rule and e.path and e.path.startswith("$.events[")
        assert int(e.path[len("$.events[") :].split("]")[0]) >= i  # found at or after the change


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), where=st.floats(0, 1, exclude_max=True), pick=st.integers(0, 10**6))
def test_corrupting_a_single_decision_is_detected(seed: int, where: float, pick: int) -> None:
    log = _annotated_log(seed)
    decisions = [i for i, e in enumerate(log["events"]) if "decide" in e]
    i = decisions[int(where * len(decisions))]
    # the options the rules offered at that point
    m = new_match({k: log[k] for k in ("advanced_rules", "teams")})
    for e in log["events"][:i]:
        m.apply(event_from_dict({k: v for k, v in e.items() if k != "check"}))
    p = m.pending()
    assert p is not None and p.kind == "decision"
    others = [o for o in p.options if o != log["events"][i]["choice"]]
    bad = copy.deepcopy(log)
    if others:
        bad["events"][i]["choice"] = others[pick % len(others)]
    else:
        bad["events"][i]["choice"] = "no-such-choice"
    report = validate_log(bad)
    original = _replay_digests(log["events"], log)
    corrupted = _replay_digests(bad["events"], bad)
    no_effect = corrupted is not None and corrupted == original
    assert report.valid is no_effect
    assert not report.valid or no_effect


def test_situation_die_corruption_always_detected_with_minute_annotations() -> None:
    """With only human-style written-down minutes (no digest): outside stoppage
    time, changing one situation die by one pip always changes the time
    (the difference changes parity).  In stoppage time the marker moves one
    square whatever the difference (4.2.1.2), so such a change can be invisible."""
    log = _annotated_log(0)
    for e in log["events"]:
        if "check" in e:
            e["check"] = {"minute": e["check"]["minute"]}
    idx = [
        i
        for i, e in enumerate(log["events"])
        if e.get("roll") == "situation" and "+" not in e["check"]["minute"] and e["check"]["minute"] != "45"
    ]
    assert len(idx) > 20
    for i in idx[::5]:
        bad = copy.deepcopy(log)
        d = bad["events"][i]["dice"]
        d[0] = d[0] + 1 if d[0] < 6 else 5
        assert not validate_log(bad).valid


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hdr=headers(), seed=st.integers(0, 10**9))
def test_random_legal_play_long_run(hdr: dict[str, Any], seed: int) -> None:
    test_random_legal_play_never_reaches_an_illegal_state.hypothesis.inner_test(hdr, seed)  # type: ignore[attr-defined]


@pytest.mark.skipif(
    not rules_engine.NATIVE, reason="plain Python: read-only through Final, which mypy checks"
)
def test_roll_and_decision_events_are_frozen() -> None:
    r = Roll("situation", "home", (1, 2))
    with pytest.raises(AttributeError):
        r.dice = (3, 3)  # type: ignore[misc]
    d = Decision("action", "home", "movement")
    with pytest.raises(AttributeError):
        d.choice = "positioning"  # type: ignore[misc]


def test_events_compare_and_hash_by_name_team_and_value_not_check() -> None:
    a = Roll("situation", "home", (1, 2), {"score": "0-0"})
    assert a == Roll("situation", "home", (1, 2)) and hash(a) == hash(Roll("situation", "home", (1, 2)))
    assert a != Roll("situation", "away", (1, 2)) and a != Roll("situation", "home", (2, 1))
    d = Decision("action", "home", "movement")
    assert d == Decision("action", "home", "movement", {"ball": 3})
    assert d != Decision("action", "home", "pressing")
    assert d != Roll("action", "home", (1,)) and Roll("action", "home", (1,)) != d
    assert len({d, Decision("action", "home", "movement")}) == 1
