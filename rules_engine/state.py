"""Match state (plain mutable data; all rule logic lives elsewhere)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, Final

from . import board as B

ADVANCED_RULES: Final = ("A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A13")
# A12 is referenced by 4.2.1 but has no section in the text (interpretation I-12):
# it is accepted in headers as an alias of A13.
ADVANCED_ALIASES: Final = {"A12": "A13"}


@dataclass(frozen=True, slots=True)
class Roles:
    """Advanced formation player roles (A2)."""

    attacking_midfielders: int = 0
    defending_midfielders: int = 0
    attacking_centre_back: int = 0
    withdrawn_striker: int = 0
    offensive_wing_backs: int = 0


@dataclass(frozen=True, slots=True)
class TeamSpec:
    name: str
    formation: tuple[int, int, int]
    roles: Roles = Roles()
    skills: tuple[str, ...] = ()
    players_short: int = 0
    # FUBA 2 (rulebook 2.0, A6): the playing style of each line (defence, midfield, forward)
    styles: tuple[str, str, str] = ("normal", "normal", "normal")

    @property
    def formation_text(self) -> str:
        return "-".join(str(x) for x in self.formation)


# the minute each half starts at: halves 1 and 2, then the two halves of extra time (I-38)
_HALF_START: Final[tuple[int, ...]] = (0, 0, 45, 90, 105)


@dataclass(frozen=True, slots=True)
class Header:
    teams: tuple[TeamSpec, TeamSpec]
    advanced: frozenset[str] = frozenset()
    # the competition plays extra time when the 90 minutes leave the tie level (I-38)
    extra_time: bool = False
    ruleset: str = "fuba-3"
    format: str = "fuba-log/1"
    extra: dict[str, Any] = dc_field(default_factory=dict, compare=False)

    def uses(self, rule: str) -> bool:
        return rule in self.advanced


@dataclass(slots=True)
class TeamState:
    spec: TeamSpec
    formation: list[int]
    field: list[int] = dc_field(default_factory=lambda: [0] * B.N_LOC)
    gk: int = -1  # location of the goalkeeper, -1 = not on the pitch
    yellows: int = 0
    reds: list[str] = dc_field(default_factory=list)  # "second_yellow" | "direct"
    cp: list[int] = dc_field(default_factory=lambda: [0, 0, 0])
    cp_initial: int = 0
    tired: bool = False
    subs_used: int = 0
    skills: list[str] = dc_field(default_factory=list)
    skills_lost: list[str] = dc_field(default_factory=list)
    skills_gained: list[str] = dc_field(default_factory=list)
    goals: int = 0
    attempt_bonus_for_opponent: int = 0  # A4 injured goalkeeper
    injured_out: list[tuple[int, int]] = dc_field(default_factory=list)  # (return abs minute, count)
    injuries: list[dict[str, Any]] = dc_field(default_factory=list)
    off_pieces: int = 0  # removed (red cards, permanent injuries not replaced)
    coach_sent_off: bool = False
    used_once: set[str] = dc_field(default_factory=set)

    def count(self, area: int) -> int:
        """Players of the team in `area`, goalkeeper included, capped at six (1.4.1)."""
        n = self.field[area] + (1 if self.gk == area else 0)
        return 6 if n > 6 else n

    def raw(self, area: int) -> int:
        return self.field[area] + (1 if self.gk == area else 0)

    def has(self, area: int) -> bool:
        return self.field[area] > 0 or self.gk == area

    def areas(self) -> list[int]:
        return [a for a in range(B.N_LOC) if self.field[a] > 0 or self.gk == a]

    def outfield(self) -> int:
        return sum(self.field)

    def cp_total(self) -> int:
        return sum(self.cp)


class TurnFlags:
    """Per-turn bookkeeping (reset at the start of every turn).

    A plain class with its own ``__init__`` rather than a dataclass: one is made
    every turn, and mypyc compiles this ``__init__`` while a dataclass's
    generated one stays interpreted (ten times slower)."""

    __slots__ = (
        "aggressive_striker",
        "attempt_bonus",
        "charge",
        "ct_at_start",
        "extra_free_move_used",
        "forced_first",
        "free_cp",
        "had_player_in_target",
        "long_pass",
        "momentum",
        "moved_turn",
        "no_free_moves",
        "offside_risk",
        "quick_free_kick",
        "regista",
        "restart",
        "shot_stopper",
        "skills_used",
        "skip_actions",
        "start",
        "target",
        "target_man",
    )

    def __init__(self) -> None:
        self.start: int = B.CENTRE
        self.target: int = B.CENTRE
        self.ct_at_start: int = 0
        self.restart: str = ""  # kick_off | free_kick | corner | goal_kick | penalty | ""
        self.charge: bool = False
        self.attempt_bonus: list[int] = [0, 0]
        self.no_free_moves: set[int] = set()
        self.momentum: int = -1
        self.free_cp: int = -1  # team that may use a free condition point (terrace chant)
        self.skip_actions: bool = False
        self.moved_turn: list[list[int]] = [[0] * B.N_LOC, [0] * B.N_LOC]
        self.had_player_in_target: tuple[bool, ...] = (False, False)
        self.long_pass: int = 0
        self.offside_risk: bool = False
        self.quick_free_kick: bool = False
        self.shot_stopper: bool = False
        self.aggressive_striker: bool = False
        self.skills_used: set[str] = set()
        self.forced_first: str = ""  # goal poacher: the first action must be a goal attempt
        self.target_man: int = -1  # team whose target man counts as three players in the target area
        self.regista: int = -1  # team that played regista: no free moves of either team into the target area
        self.extra_free_move_used: set[str] = set()


@dataclass(slots=True)
class MatchState:
    header: Header
    # always two (home, away); typed as a variable-length tuple because the compiled engine
    # keeps a fixed pair unboxed and builds a new tuple object for every ``teams[i]`` read
    # with a computed index (most reads), where it indexes a tuple object directly
    teams: tuple[TeamState, ...]
    half: int = 1
    clock: int = 0  # minutes of the current half on the time track (0..45)
    stoppage: int = 0  # 0 or the stoppage square +1..+5 (4.2.1.2)
    turn: int = 0
    stage: int | str = "setup"
    ball: int = B.CENTRE
    value: int = 2
    ct: int = 0
    first_half_starter: int = 0
    turns_per_half: list[int] = dc_field(default_factory=lambda: [0, 0])
    weather: str = ""
    over: bool = False
    half_over_at_turn_end: bool = False
    flags: TurnFlags = dc_field(default_factory=TurnFlags)
    next_restart: str = ""  # how the next turn starts (kick_off, free_kick, corner, goal_kick)
    next_free_kick_attempt: bool = False  # 5.2.2 direct goal attempt chosen
    pending_restart: tuple[str, int, int] | None = None  # (kind, team, area) at the end of the turn
    half_over: bool = False  # the half ended immediately (4.2.1.2)
    half_length: int = 45  # minutes on the time track: 45, or 15 in extra time (I-38)
    extra_time_played: bool = False
    score_after_90: tuple[int, int] | None = None
    history: list[dict[str, Any]] = dc_field(default_factory=list)
    # the advanced rules in force, read by uses() hundreds of times per match
    advanced: frozenset[str] = dc_field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.advanced = self.header.advanced

    def uses(self, rule: str) -> bool:
        """Is the advanced rule in force?"""
        return rule in self.advanced

    @property
    def dt(self) -> int:
        return 1 - self.ct

    def minute(self) -> int:
        """Absolute game minute (the second half continues from 45, extra time from 90)."""
        return _HALF_START[self.half] + self.clock + self.stoppage

    def minute_label(self) -> str:
        start = _HALF_START[self.half]
        if self.stoppage:
            return f"{start + self.half_length}+{self.stoppage}"
        return str(start + self.clock)

    def half_ends_with_turn(self) -> bool:
        """The clock ran out in this turn: the half ends and no pending restart is taken.

        Shared by both rulebooks' end of turn (FUBA 3 flow.py, FUBA 2 fuba2/flow.py)."""
        if not self.half_over_at_turn_end:
            return False
        self.half_over = True
        self.pending_restart = None
        return True

    def take_restart(self) -> tuple[str, int, int] | None:
        """The restart set up at the end of the turn (kind, team, area), now being taken, or None."""
        pr = self.pending_restart
        if pr is not None:
            self.pending_restart = None
            self.stage = "restart"
        return pr

    def score(self) -> list[int]:
        return [self.teams[0].goals, self.teams[1].goals]

    def digest(self) -> str:
        """Short fingerprint of the whole match state (``check.digest`` of a log)."""
        parts: list[object] = [
            self.half,
            self.clock,
            self.stoppage,
            self.turn,
            self.ball,
            self.value,
            self.ct,
        ]
        for t in self.teams:
            parts += [
                t.field,
                t.gk,
                t.goals,
                t.yellows,
                t.reds,
                t.cp,
                t.tired,
                t.subs_used,
                t.skills,
                t.formation,
                t.injured_out,
            ]
        return hashlib.sha1(repr(parts).encode(), usedforsecurity=False).hexdigest()[:12]


def new_state(header: Header) -> MatchState:
    teams = []
    for spec in header.teams:
        ts = TeamState(spec=spec, formation=list(spec.formation), skills=list(spec.skills))
        d, m, f = spec.formation
        r = spec.roles
        if header.uses("A2"):
            m -= r.attacking_midfielders + r.defending_midfielders
            f += r.attacking_midfielders
            d += r.defending_midfielders
            d -= r.attacking_centre_back + r.offensive_wing_backs
            m += r.attacking_centre_back + r.withdrawn_striker
            f -= r.withdrawn_striker
            f += r.offensive_wing_backs
        ts.cp = [max(0, d), max(0, m), max(0, f)]
        ts.cp_initial = sum(ts.cp)
        teams.append(ts)
    return MatchState(header=header, teams=(teams[0], teams[1]))
