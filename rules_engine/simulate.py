"""Match simulator: two AI coaches play a whole match through the
engine's state machine with seeded dice; the result is a fuba-log/1 document.

    from rules_engine.simulate import TeamSetup, SimulationOptions, simulate_match
    log = simulate_match(TeamSetup("Blues", "4-4-2"), TeamSetup("Yellows", "3-5-2"),
                         SimulationOptions(advanced_rules="all"), seed=7)

Deterministic for a seed: the dice come from ``Dice(seed)`` and each coach gets
its own ``random.Random`` derived from the seed; nothing touches the global
``random`` state.  Pure Python, no Django.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from . import decisions as D
from .coaches import Coach, Fuba2HeuristicCoach, HeuristicCoach, make_coach
from .errors import IllegalEventError, SimulationError, SimulationLimitError
from .events import Decision, Event
from .logformat import RULESET, RULESET_FUBA2, header_from_dict
from .machine import Match
from .rng import Dice

__all__ = [
    "COACH_KINDS",
    "SimulationError",
    "SimulationLimitError",
    "SimulationOptions",
    "SimulationStats",
    "TeamSetup",
    "header_for",
    "log_of",
    "play_match",
    "play_with_stats",
    "simulate_match",
]

COACH_KINDS: Final[tuple[str, ...]] = ("heuristic", "random")


@dataclass(frozen=True, slots=True)
class TeamSetup:
    """A team as registered for a match (the ``teams.*`` part of a log header).

    ``formation`` is ``"D-M-F"``; ``roles`` maps A2 role names to counts
    (e.g. ``(("attacking_midfielders", 2),)`` or a dict; FUBA 2 names them
    in the singular); ``skills`` are A11 skill names; ``players_short`` is 0
    or 1 (a suspended player); ``styles`` the A6 playing styles of rulebook
    2.0 per line (``(("midfield", "aggressive"),)``; FUBA 2 only)."""

    name: str
    formation: str = "4-4-2"
    roles: tuple[tuple[str, int], ...] = ()
    skills: tuple[str, ...] = ()
    players_short: int = 0
    styles: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TeamSetup:
        """Build from the fuba-log/1 team object."""
        roles = data.get("roles") or {}
        return cls(
            name=str(data.get("name", "")),
            formation=str(data.get("formation", "4-4-2")),
            roles=tuple(sorted((str(k), int(v)) for k, v in roles.items())),
            skills=tuple(data.get("skills") or ()),
            players_short=int(data.get("players_short", 0)),
            styles=tuple(sorted((str(k), str(v)) for k, v in (data.get("styles") or {}).items())),
        )

    def to_dict(self) -> dict[str, Any]:
        """The fuba-log/1 team object."""
        out: dict[str, Any] = {"name": self.name, "formation": self.formation}
        roles = {k: v for k, v in self.roles if v}
        if roles:
            out["roles"] = roles
        if self.skills:
            out["skills"] = list(self.skills)
        if self.players_short:
            out["players_short"] = int(self.players_short)
        if self.styles:
            out["styles"] = dict(self.styles)
        return out


@dataclass(frozen=True, slots=True)
class SimulationOptions:
    """``advanced_rules``: ``"all"``, ``"none"`` or a tuple of rule ids
    (``"A1"``...); ``home_coach``/``away_coach``: ``"heuristic"`` or
    ``"random"``; ``max_events`` bounds the loop; ``strict``: raise on an
    illegal coach answer instead of falling back to the first legal option;
    ``meta``: copied into the log header; ``extra_time``: the competition's
    rule, given the 90-minute score (home, away), says whether extra time is
    played (a second leg counts the first; I-38); None: no extra time;
    ``ruleset``: ``"fuba-3"`` or ``"fuba-2"`` (rulebook 2.0), which the
    header names and so which flow the match plays (docs/fuba2-engine.md)."""

    advanced_rules: str | tuple[str, ...] | list[str] = "all"
    home_coach: str = "heuristic"
    away_coach: str = "heuristic"
    max_events: int = 20_000
    strict: bool = True
    compact_log: bool = False
    meta: tuple[tuple[str, str], ...] = field(default=())
    extra_time: Callable[[int, int], bool] | None = None
    ruleset: str = RULESET

    def __post_init__(self) -> None:
        for kind in (self.home_coach, self.away_coach):
            if kind not in COACH_KINDS:
                raise ValueError(f"unknown coach kind {kind!r}; known: {', '.join(COACH_KINDS)}")
        if self.max_events < 1:
            raise ValueError("max_events must be positive")


def header_for(home: TeamSetup, away: TeamSetup, options: SimulationOptions) -> dict[str, Any]:
    """The fuba-log/1 header of a simulated match.  Player roles (A2) and skills
    (A11) are left out when the match does not use those advanced rules."""
    rules: str | list[str]
    if isinstance(options.advanced_rules, str):
        rules = [] if options.advanced_rules in ("", "none") else options.advanced_rules
    else:
        rules = list(options.advanced_rules)
    uses = set(rules) if isinstance(rules, list) else {"A2", "A6", "A11"}
    teams = {}
    for side, team in (("home", home), ("away", away)):
        data = team.to_dict()
        # a registered set-up may name roles/skills the competition does not play
        if "A2" not in uses:
            data.pop("roles", None)
        if "A11" not in uses:
            data.pop("skills", None)
        if "A6" not in uses or options.ruleset != RULESET_FUBA2:
            data.pop("styles", None)  # the playing styles are rulebook 2.0's A6
        teams[side] = data
    header: dict[str, Any] = {
        "format": "fuba-log/1",
        "ruleset": options.ruleset,
        "advanced_rules": rules,
        "teams": teams,
    }
    if options.extra_time is not None:
        header["extra_time"] = True
    if options.meta:
        header["meta"] = dict(options.meta)
    return header


def play_match(
    home: TeamSetup,
    away: TeamSetup,
    options: SimulationOptions | None = None,
    seed: int | str = 0,
    dice: Dice | None = None,
    coaches: tuple[Coach, Coach] | None = None,
    observer: Callable[[Match, Event], None] | None = None,
) -> Match:
    """Play a whole match and return the finished :class:`Match`.

    ``dice`` (default ``Dice(seed)``) is the injected seeded RNG for every roll;
    ``coaches`` (default: built from ``options`` with RNGs derived from ``seed``)
    answer the decisions of home and away; ``observer(match, event)`` is called
    before each event is applied (progress, statistics; in non-strict mode it
    also sees a refused coach answer, then the first legal option taken instead)."""
    opts = options or SimulationOptions()
    match = Match(header_from_dict(header_for(home, away, opts)))
    dice = dice if dice is not None else Dice(f"dice:{seed}")
    _play(match, opts, dice, coaches or _coaches(match, home, away, opts, seed), observer, None)
    return match


def _coaches(
    match: Match, home: TeamSetup, away: TeamSetup, opts: SimulationOptions, seed: int | str
) -> tuple[Coach, Coach]:
    """The coaches of ``opts`` for the match's ruleset, their RNGs derived from ``seed``."""
    ruleset = match.st.header.ruleset
    return (
        make_coach(opts.home_coach, random.Random(f"home:{seed}"), home, ruleset),
        make_coach(opts.away_coach, random.Random(f"away:{seed}"), away, ruleset),
    )


def _play(
    match: Match,
    opts: SimulationOptions,
    dice: Dice,
    coaches: tuple[Coach, Coach],
    observer: Callable[[Match, Event], None] | None,
    reached: list[int] | None,
) -> None:
    """Play ``match`` to its end (see ``play_match``). ``reached``: the largest minute of each
    half seen before an event is applied, kept here (``play_with_stats``) rather than by an
    observer: a call per event through a function object costs more than the two reads."""
    home, away = coaches
    home_choose, away_choose = home.choose, away.choose
    limit = opts.max_events
    strict = opts.strict
    n = 0
    # (match.pending() and match.apply() called as methods, not through bound-method locals: the
    # compiled engine calls a native method directly, a local bound method generically)
    while True:
        p = match.pending()
        if p is None:
            return
        n += 1
        if n > limit:
            raise SimulationLimitError(
                f"the match did not end within {limit} events (turn {p.turn}, minute "
                f"{match.st.minute_label()}, waiting for {p.kind} {p.name} by {p.actor})"
            )
        if reached is not None:
            s = match.st
            minute = s.clock + s.stoppage
            if minute > reached[s.half - 1]:
                reached[s.half - 1] = minute
        if p.kind == "roll":
            roll = dice.roll_for(p)
            if observer is not None:
                observer(match, roll)
            match.apply(roll)
            continue
        actor = p.actor
        if p.name == D.EXTRA_TIME and opts.extra_time is not None:
            # not a coaching decision: the competition's rule answers it (I-38)
            h, a = match.st.teams[0].goals, match.st.teams[1].goals
            choice: Any = "yes" if opts.extra_time(h, a) else "no"
        else:
            coach = home if actor == "home" else away
            # (compiled: the simulator's own coaches called directly, not through a method object)
            if type(coach) is HeuristicCoach:  # noqa: SIM114 (one type per branch: a direct call each)
                choice = coach.choose(match, p)
            elif type(coach) is Fuba2HeuristicCoach:
                choice = coach.choose(match, p)
            else:
                choice = (home_choose if actor == "home" else away_choose)(match, p)
        decision = Decision(p.name, actor, choice)
        if observer is not None:
            observer(match, decision)
        try:
            match.apply(decision)
        except IllegalEventError as e:
            if strict:
                raise SimulationError(f"the {p.actor} coach answered {p.name} illegally: {e}") from e
            fallback = Decision(p.name, p.actor, p.options[0])
            if observer is not None:
                observer(match, fallback)
            match.apply(fallback)


def simulate_match(
    home: TeamSetup,
    away: TeamSetup,
    options: SimulationOptions | None = None,
    seed: int | str = 0,
) -> dict[str, Any]:
    """Simulate a match; returns its fuba-log/1 document (accepted by
    ``validate_log``).  Deterministic for ``seed``."""
    opts = options or SimulationOptions()
    return log_of(play_match(home, away, opts, seed), compact=opts.compact_log)


def log_of(match: Match, compact: bool = False) -> dict[str, Any]:
    """The fuba-log/1 document of a played match (full unless ``compact``)."""
    return match.to_log(compact=compact)


# ------------------------------------------------------------- statistics


@dataclass(slots=True)
class SimulationStats:
    """Plausibility figures over a series of simulated matches."""

    matches: int = 0
    turns: list[int] = field(default_factory=list)  # turns of every half
    half_minutes: list[int] = field(default_factory=list)  # minutes reached in every half
    goals: list[int] = field(default_factory=list)  # goals of every match
    draws: int = 0
    home_wins: int = 0
    away_wins: int = 0
    events: int = 0

    @property
    def turns_per_half(self) -> float:
        return sum(self.turns) / len(self.turns) if self.turns else 0.0

    @property
    def goals_per_match(self) -> float:
        return sum(self.goals) / self.matches if self.matches else 0.0

    @property
    def draw_share(self) -> float:
        return self.draws / self.matches if self.matches else 0.0

    @property
    def shortest_half(self) -> int:
        return min(self.half_minutes) if self.half_minutes else 0

    def add(self, match: Match, half_minutes: tuple[int, int]) -> None:
        result = match.result()
        self.matches += 1
        self.events += len(match.events)
        self.turns.extend(result.turns_per_half[:2])  # the 45-minute halves (no extra time)
        self.half_minutes.extend(half_minutes)
        h, a = result.score
        self.goals.append(h + a)
        if h == a:
            self.draws += 1
        elif h > a:
            self.home_wins += 1
        else:
            self.away_wins += 1


def play_with_stats(
    home: TeamSetup,
    away: TeamSetup,
    options: SimulationOptions | None,
    seed: int | str,
    stats: SimulationStats,
) -> Match:
    """Play a match and add it to ``stats`` (minutes reached per half included:
    the largest minute of each half, counted from the half's kick-off)."""
    reached = [0, 0, 0, 0]  # (two more halves with extra time)
    opts = options or SimulationOptions()
    match = Match(header_from_dict(header_for(home, away, opts)))
    _play(match, opts, Dice(f"dice:{seed}"), _coaches(match, home, away, opts, seed), None, reached)
    s = match.st
    last = s.clock + s.stoppage  # the last half's final state
    reached[s.half - 1] = max(reached[s.half - 1], last)
    stats.add(match, (reached[0], reached[1]))
    return match


def versus_random(pairs: Sequence[tuple[TeamSetup, TeamSetup]], n: int, seed0: int) -> tuple[int, int, int]:
    """(heuristic wins, draws, losses) over ``n`` matches of the heuristic coach
    against the random coach; the heuristic plays home and away in turn and the
    pairs of teams are cycled."""
    wins = draws = losses = 0
    for i, (home, away) in zip(range(n), itertools.cycle(pairs)):
        heuristic_home = i % 2 == 0
        opts = SimulationOptions(
            home_coach="heuristic" if heuristic_home else "random",
            away_coach="random" if heuristic_home else "heuristic",
        )
        stats = SimulationStats()
        play_with_stats(home, away, opts, seed0 + i, stats)
        if stats.draws:
            draws += 1
        elif (stats.home_wins == 1) == heuristic_home:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses
