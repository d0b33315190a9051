"""One snapshot of a match: what a page draws of the state, typed and JSON-ready.

The scorer, the live panel and the replay all draw the same things (pieces per area, the ball,
its value, who controls it, clock, score, cards, condition points, injuries, substitutions,
skills, weather) and the last action to mark on the pitch; :func:`snapshot` reads them from the
engine's state once, here, so that no caller reads the state's internals. ``to_dict()`` gives
the JSON form documented in docs/scorer-internals.md (the session API).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from . import board as B
from . import decisions as D
from .events import Decision, Roll
from .machine import Match
from .state import TeamState

CP_ZONES: Final = B.ZONE_NAMES
# the decisions whose answer is one player's move ("FROM>TO", "GK>TO", "FROM>TO+ball")
_MOVES: Final = D.MOVE_DECISIONS | frozenset({D.CLOSEST_PLAYER})


@dataclass(frozen=True, slots=True)
class Injury:
    """One injury of A4 as the engine noted it."""

    minute: str
    permanent: bool
    out_minutes: int | None
    why: str
    goalkeeper: bool
    substituted: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "minute": self.minute,
            "permanent": self.permanent,
            "out_minutes": self.out_minutes,
            "why": self.why,
            "goalkeeper": self.goalkeeper,
            "substituted": self.substituted,
        }


@dataclass(frozen=True, slots=True)
class TeamSnapshot:
    side: str  # "home" | "away"
    name: str
    formation: str  # as it stands now ("4-4-2"; formation changes of A3/A11 move it)
    pieces: tuple[int, ...]  # players per area in board order, goalkeeper included
    gk: str | None  # the goalkeeper's area, None when he is off the pitch
    goals: int
    yellow_cards: int
    red_cards: tuple[str, ...]  # "second_yellow" | "direct", in order (5.6)
    condition_points: tuple[int, int, int]  # defence, midfield, forward (A1)
    tired: bool
    substitutions: int
    injuries: tuple[Injury, ...]
    players_off: int  # sent off or injured, now or for a while
    skills: tuple[str, ...]  # still to play
    skills_used: tuple[str, ...]
    skills_lost: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "name": self.name,
            "formation": self.formation,
            "pieces": list(self.pieces),
            "on": {B.NAMES[a]: n for a, n in enumerate(self.pieces) if n},
            "gk": self.gk,
            "goals": self.goals,
            "yellow_cards": self.yellow_cards,
            "red_cards": len(self.red_cards),
            "red_cards_detail": list(self.red_cards),
            "condition_points": dict(zip(CP_ZONES, self.condition_points, strict=True)),
            "tired": self.tired,
            "substitutions": self.substitutions,
            "injuries": [i.to_dict() for i in self.injuries],
            "players_off": self.players_off,
            "skills": list(self.skills),
            "skills_used": list(self.skills_used),
            "skills_lost": list(self.skills_lost),
        }


@dataclass(frozen=True, slots=True)
class LastAction:
    """The last event and the areas it concerns, for the pitch to mark (an arrow from ``src`` to
    ``dst`` when both are known). ``kind``: move, dribble, pass, shot, setup, choice or roll."""

    kind: str
    name: str  # the decision or roll name of the log
    team: str  # "home" | "away" | "both"
    src: str | None
    dst: str | None
    areas: tuple[str, ...]
    choice: Any  # the decision's answer, or the dice of a roll

    def to_dict(self) -> dict[str, Any]:
        choice = self.choice
        return {
            "kind": self.kind,
            "name": self.name,
            "team": self.team,
            "from": self.src,
            "to": self.dst,
            "areas": list(self.areas),
            "choice": list(choice) if isinstance(choice, tuple) else choice,
        }


@dataclass(frozen=True, slots=True)
class MatchSnapshot:
    turn: int
    half: int  # 1, 2; 3 and 4 in extra time
    stage: int | str  # 1, 2, 3 or a name ("setup", "end_of_turn", "restart", "over", ...)
    minute: str  # as the clock shows it: "37", "45+2"
    clock: int  # minutes of this half on the time track
    stoppage: int
    score: tuple[int, int]
    ball: str | None
    value: int
    control: str  # "home" | "away"
    weather: str | None
    finished: bool
    extra_time_played: bool
    home: TeamSnapshot
    away: TeamSnapshot
    last: LastAction | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "half": self.half,
            "stage": self.stage,
            "minute": self.minute,
            "clock": self.clock,
            "stoppage": self.stoppage,
            "score": list(self.score),
            "ball": self.ball,
            "value": self.value,
            "control": self.control,
            "weather": self.weather,
            "finished": self.finished,
            "extra_time_played": self.extra_time_played,
            "teams": {"home": self.home.to_dict(), "away": self.away.to_dict()},
            "last": self.last.to_dict() if self.last is not None else None,
        }


def _code(area: int) -> str | None:
    return B.NAMES[area] if 0 <= area < B.N_LOC else None


def _injury(record: dict[str, Any]) -> Injury:
    out = record.get("out_minutes")
    return Injury(
        minute=str(record.get("minute", "")),
        permanent=bool(record.get("permanent")),
        out_minutes=out if type(out) is int else None,
        why=str(record.get("why") or ""),
        goalkeeper=bool(record.get("goalkeeper")),
        substituted=bool(record.get("substituted")),
    )


def _team(ts: TeamState, side: str) -> TeamSnapshot:
    cp = ts.cp
    return TeamSnapshot(
        side=side,
        name=ts.spec.name,
        formation="-".join(str(x) for x in ts.formation),
        pieces=tuple(ts.raw(a) for a in range(B.N_LOC)),
        gk=_code(ts.gk),
        goals=ts.goals,
        yellow_cards=ts.yellows,
        red_cards=tuple(ts.reds),
        condition_points=(cp[0], cp[1], cp[2]),
        tired=ts.tired,
        substitutions=ts.subs_used,
        injuries=tuple(_injury(r) for r in ts.injuries),
        players_off=ts.off_pieces + sum(n for _, n in ts.injured_out),
        skills=tuple(s for s in ts.skills if s not in ts.used_once),
        skills_used=tuple(sorted(s for s in ts.used_once if s in ts.skills)),
        skills_lost=tuple(ts.skills_lost),
    )


def _move_areas(m: Match, choice: str) -> tuple[str | None, str | None, bool]:
    """(from, to, with the ball) of a move answer; the goalkeeper's start is not in the log."""
    src, _, dst = choice.partition(">")
    ball = dst.endswith("+ball")
    dst = dst.removesuffix("+ball")
    if src == "GK":
        return None, dst if dst in B.INDEX else None, False
    if not dst:  # a closest-player answer names the area the player left; he went to the ball
        return (src if src in B.INDEX else None), _code(m.st.ball), False
    return (src if src in B.INDEX else None), (dst if dst in B.INDEX else None), ball


def last_action(m: Match) -> LastAction | None:
    """The last event applied and the areas it concerns."""
    if not m.events:
        return None
    ev = m.events[-1]
    st = m.st
    if isinstance(ev, Roll):  # (a roll moves nothing by itself: the decision before it did)
        return LastAction("roll", ev.name, ev.by, None, None, (), ev.dice)
    assert isinstance(ev, Decision)
    name, choice = ev.name, ev.choice
    if name in _MOVES and isinstance(choice, str) and choice != D.DONE:
        src, dst, ball = _move_areas(m, choice)
        kind = "dribble" if ball else "move"
        return LastAction(kind, name, ev.by, src, dst, tuple(a for a in (src, dst) if a), choice)
    if name == D.TARGET_AREA and isinstance(choice, str):
        src = _code(st.flags.start)
        return LastAction("pass", name, ev.by, src, choice, tuple(a for a in (src, choice) if a), choice)
    if name == D.ACTION and choice == "goal_attempt":
        side = B.TEAM_NAMES.index(ev.by) if ev.by in B.TEAM_NAMES else st.ct
        src, goal = _code(st.ball), B.NAMES[B.PEN[1 - side]]
        return LastAction("shot", name, ev.by, src, goal, tuple(a for a in (src, goal) if a), choice)
    if name == D.SETUP and ev.by in B.TEAM_NAMES:
        ts = st.teams[B.TEAM_NAMES.index(ev.by)]
        return LastAction("setup", name, ev.by, None, None, tuple(B.NAMES[a] for a in ts.areas()), choice)
    area = choice if isinstance(choice, str) and choice in B.INDEX else None
    return LastAction("choice", name, ev.by, None, area, (area,) if area else (), choice)


def clock(m: Match) -> tuple[int, str]:
    """The turn and the minute as the clock shows it ("45+2"): what a feed line needs of every
    event, without the whole snapshot."""
    return m.st.turn, m.st.minute_label()


def snapshot(m: Match) -> MatchSnapshot:
    """The state of ``m`` as the pages draw it."""
    st = m.st
    score = st.score()
    return MatchSnapshot(
        turn=st.turn,
        half=st.half,
        stage=st.stage,
        minute=st.minute_label(),
        clock=st.clock,
        stoppage=st.stoppage,
        score=(score[0], score[1]),
        ball=_code(st.ball),
        value=st.value,
        control=B.TEAM_NAMES[st.ct],
        weather=st.weather or None,
        finished=m.finished,
        extra_time_played=st.extra_time_played,
        home=_team(st.teams[0], "home"),
        away=_team(st.teams[1], "away"),
        last=last_action(m),
    )
