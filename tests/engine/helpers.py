"""Scenario helpers: start a match, put pieces where a rulebook example has them."""

from __future__ import annotations

from typing import Any

from rules_engine import board as B
from rules_engine.api import Decision, Match, Roll, new_match


def header(
    adv: Any = (),
    home: str = "4-4-2",
    away: str = "4-4-2",
    home_skills: tuple[str, ...] = (),
    away_skills: tuple[str, ...] = (),
    home_roles: dict[str, int] | None = None,
) -> dict[str, Any]:
    h: dict[str, Any] = {"name": "Otto", "formation": home}
    a: dict[str, Any] = {"name": "Santeri", "formation": away}
    if home_skills:
        h["skills"] = list(home_skills)
    if away_skills:
        a["skills"] = list(away_skills)
    if home_roles:
        h["roles"] = home_roles
    return {"advanced_rules": adv if isinstance(adv, str) else list(adv), "teams": {"home": h, "away": a}}


def _defaults(m: Match, name: str) -> None:
    """Take left-out default answers ("done"/"no") up to the named request, as a log replay does."""
    p = m.pending()
    while p is not None and p.default is not None and p.name != name:
        m.apply(Decision(p.name, p.actor, p.default))
        p = m.pending()


def roll(m: Match, name: str, *dice: int) -> None:
    _defaults(m, name)
    p = m.pending()
    assert p is not None and p.kind == "roll" and p.name == name, p
    m.apply(Roll(name, p.actor, tuple(dice)))


def dec(m: Match, name: str, choice: Any) -> None:
    _defaults(m, name)
    p = m.pending()
    assert p is not None and p.kind == "decision" and p.name == name, p
    m.apply(Decision(name, p.actor, choice))


def pend(m: Match, raw: bool = False) -> tuple[str, str, str]:
    """The next request that needs an answer (left-out defaults skipped unless ``raw``)."""
    p = m.pending()
    while not raw and p is not None and p.default is not None and len(p.options) == 1:
        m.apply(Decision(p.name, p.actor, p.default))  # only "done" is possible
        p = m.pending()
    assert p is not None
    return p.kind, p.name, p.actor


def start(hdr: dict[str, Any] | None = None, ct: str = "home") -> Match:
    """A match at the first target-area decision of turn 1 (``ct`` has the ball)."""
    m = new_match(hdr or header())
    roll(m, "kick_off", 6, 1)
    dec(m, "kick_off_team", ct)
    for _ in range(2):
        p = m.pending()
        assert p is not None and p.name == "setup"
        m.apply(Decision("setup", p.actor, p.options[0]))
    dec(m, "setup_adjust", "done")
    assert pend(m) == ("decision", "target_area", ct)
    return m


def put(m: Match, team: str, areas: dict[str, int], gk: str | None = None) -> None:
    """Replace the team's outfield players (keeping the total) and goalkeeper."""
    t = m.st.teams[B.TEAM_NAMES.index(team)]
    total = t.outfield()
    t.field[:] = [0] * B.N_LOC
    for a, n in areas.items():
        t.field[B.INDEX[a]] = n
    rest = total - sum(areas.values())
    assert rest >= 0, "more players than the team has"
    if rest:
        # park the remaining players out of the way, in the team's own goal-line corner
        park = B.INDEX["H-LC"] if team == "home" else B.INDEX["A-RC"]
        t.field[park] += rest
    if gk is not None:
        t.gk = B.INDEX[gk]


def put_exact(m: Match, team: str, areas: dict[str, int], gk: str) -> None:
    t = m.st.teams[B.TEAM_NAMES.index(team)]
    t.field[:] = [0] * B.N_LOC
    for a, n in areas.items():
        t.field[B.INDEX[a]] = n
    t.gk = B.INDEX[gk]


def ball(m: Match, area: str, value: int) -> None:
    """Ball in `area` with `value`, as the start area of the current turn."""
    m.st.ball = B.INDEX[area]
    m.st.value = value
    m.st.flags.start = B.INDEX[area]
    m.st.flags.target = B.INDEX[area]


def team_no(name: str) -> int:
    return B.TEAM_NAMES.index(name)


def skip_free_moves(m: Match) -> None:
    while m.pending() is not None and m.pending().name == "free_move":  # type: ignore[union-attr]
        dec(m, "free_move", "done")


def to_action(m: Match, team: str) -> None:
    """From a target-area decision: play within the ball area with dice that
    keep control and give the first action to ``team``."""
    st = m.st
    area = B.NAMES[st.ball]
    dec(m, "target_area", area)
    if pend(m)[1] == "goalkeeper_charge":
        dec(m, "goalkeeper_charge", "no")
    ct = B.TEAM_NAMES[st.ct]
    assert 2 <= st.value <= 5, "to_action needs a ball value of 2..5"
    if team == ct:
        roll(m, "situation", 6, 5)  # both dice >= ball value: CT acts first (4.2.4)
    else:
        roll(m, "situation", 5, 1)  # one die fails: control kept, DT acts first
    skip_free_moves(m)
    assert pend(m) == ("decision", "action", team), m.pending()


def team_state(m: Match, team: str) -> Any:
    """The engine's state of one team (yellow cards, skills, condition points ...)."""
    return m.st.teams[team_no(team)]


def controlling(m: Match) -> str:
    """The team in control of the ball now."""
    return B.TEAM_NAMES[m.st.ct]
