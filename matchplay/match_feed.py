"""The match as a feed for spectators: one line a turn (turn_feed) and the key moments
(key_moments), built from the whole log's entries with the words of matchplay.narrate.

Pure functions over the JSON forms, nothing of Django (packaged for the phone with narrate: the
scorer's key moments are built with them, matchplay.scorer_view).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matchplay.engine_door import towards_goal
from matchplay.narrate import (
    ACTIONS,
    MOVE_DECISIONS,
    ZONES,
    Names,
    note_text,
    place_of,
    special_event_words,
    team,
    words,
)

# The closest player's choice is an area too, so a spectator's feed counts it as a move.
_MOVE_DECISIONS = MOVE_DECISIONS | {"closest_player"}
_COUNT_WORDS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# The happenings a spectator looks for; a shot carries its outcome (shot_outcomes).
KEY_MOMENT_KINDS = frozenset(
    {
        "goal",
        "goal_attempt",
        "goal_denied",
        "var",
        "yellow",
        "red",
        "injury",
        "substitution",
        "penalty",
        "coach_sent_off",
        "special_event",
        "half_time",
        "full_time",
        "extra_time",
    }
)


def _players(n: int) -> str:
    count = _COUNT_WORDS[n] if 0 <= n < len(_COUNT_WORDS) else str(n)
    return f"{count} player{'s' if n != 1 else ''}"


def shot_outcomes(entries: Sequence[Mapping[str, Any]]) -> dict[tuple[int, int], str]:
    """The outcome of every shot, keyed by (entry index, note index) of its goal_attempt note:
    what followed it before the next shot or the next turn ("scored", "saved, corner"...).

    Without events (the live panel has only the engine's notes) a shot that led to neither a goal
    nor a corner reads "no goal": a rebound and a goal kick look alike in the notes."""
    outcomes: dict[tuple[int, int], str] = {}
    open_shot: tuple[int, int] | None = None
    rebound = False
    known_events = False

    def close(outcome: str | None = None) -> None:
        nonlocal open_shot, rebound
        if open_shot is not None:
            default = ("saved, rebound cleared" if rebound else "missed") if known_events else "no goal"
            outcomes[open_shot] = outcome or default
        open_shot, rebound = None, False

    turn: Any = None
    for i, entry in enumerate(entries):
        if entry.get("turn") != turn:
            close()
            turn = entry.get("turn")
        event = entry.get("event")
        if event is not None:
            known_events = True
            if open_shot is not None and event.get("roll") == "rebound":
                rebound = True
        for j, note in enumerate(entry.get("notes") or ()):
            kind = note.get("kind")
            if kind == "goal_attempt":
                close()
                open_shot = (i, j)
            elif kind == "goal":
                close("scored from the rebound" if rebound else "scored")
            elif kind == "goal_denied":
                close("scored, but ruled out by the V.A.R.")
            elif kind == "corner":
                close("saved, corner")
    close()
    return outcomes


def _phrase(event: Mapping[str, Any], names: Names) -> str | None:
    """What a decision or roll adds to the turn's line, or None when it is not worth saying."""
    name = event.get("decide")
    choice = event.get("choice")
    if name == "target_area":
        # a target in the team's own end reads "their own ..." (narrate.place_of)
        return f"ball to {place_of(str(choice), str(event.get('by')), names)}"
    if name == "use_skill" and choice not in (None, "no"):
        return f"skill: {words(str(choice))}"
    if name == "formation_change" and choice not in (None, "none"):
        return "formation changed"
    if name == "movement_option":
        return f"{ZONES.get(str(choice), str(choice))} movement"
    return None


def _note_phrase(note: Mapping[str, Any], outcome: str | None, names: Names) -> str | None:
    kind = note.get("kind")
    score = note.get("score")
    if kind == "goal_attempt":
        place = place_of(str(note.get("area")), str(note.get("team")), names)
        return f"shot from {place} — {outcome or 'no goal'}"
    if kind == "goal" and isinstance(score, list | tuple) and len(score) == 2:
        return f"GOAL, {score[0]}–{score[1]}"
    if kind in ("yellow", "red"):
        return f"{'yellow' if kind == 'yellow' else 'red'} card"
    if kind == "injury":
        return "a player injured"
    if kind == "substitution":
        return "substitution"
    if kind == "pressing_won":
        return "won the ball by pressing"
    if kind in ("free_kick", "penalty"):  # a corner is said with the shot it follows
        return words(str(kind))
    if kind == "special_event":
        return f"special event: {special_event_words(note, names)}"
    if kind == "coach_sent_off":
        return "coach sent off"
    return _WHISTLES.get(str(kind))


# The whistles of the whole match, said on the line of the turn they end, for no team.
_WHISTLES = {"half_time": "half time", "extra_time": "extra time", "full_time": "full time"}
EXTRA_HALF_TIME = "extra-time half time"


class _Line:
    """The phrases of one turn, grouped by the team they are about, in order."""

    def __init__(self, turn: Any, minute: Any, first: Any) -> None:
        self.turn, self.minute, self.first = turn, minute, first
        self.parts: list[tuple[str, list[str]]] = []
        self.moves: tuple[str, int, int] | None = None  # side, players moved, of them forward
        self.key = False

    def add(self, side: str, phrase: str) -> None:
        self.flush_moves()
        if self.parts and self.parts[-1][0] == side:
            self.parts[-1][1].append(phrase)
        else:
            self.parts.append((side, [phrase]))

    def move(self, side: str, forward: bool) -> None:
        if self.moves is not None and self.moves[0] != side:
            self.flush_moves()
        n, f = (self.moves[1], self.moves[2]) if self.moves else (0, 0)
        self.moves = (side, n + 1, f + forward)

    def flush_moves(self) -> None:
        if self.moves is not None:
            side, n, forward = self.moves
            self.moves = None
            if forward == n:
                self.add(side, f"{_players(n)} forward")
            elif forward:
                count = "one" if forward == 1 else _COUNT_WORDS[forward] if forward < 11 else str(forward)
                self.add(side, f"{_players(n)} moved, {count} forward")
            else:
                self.add(side, f"{_players(n)} moved")

    def text(self, names: Names) -> str:
        self.flush_moves()
        head = f"Turn {self.turn}" + (f" · {self.minute}'" if self.minute not in (None, "") else "")
        body = " · ".join(
            f"{team(side, names) + ': ' if side else ''}{', '.join(ph)}" for side, ph in self.parts
        )
        return f"{head} · {body}" if body else head


def turn_feed(entries: Sequence[Mapping[str, Any]], names: Names) -> list[dict[str, Any]]:
    """One line per turn, e.g. "Turn 8 · 27' · Canada: ball to the Brazil box, movement 3+6,
    two players forward, shot from the Brazil box — saved, corner"; ``key`` marks a turn with a
    goal, a card, an injury, a shot or a V.A.R. check; ``first`` is the first entry's ``i``."""
    outcomes = shot_outcomes(entries)
    lines: list[_Line] = []
    extra = False  # after the extra-time whistle, half time is extra time's
    action: dict[str, str] = {}  # the action each team just chose, until its roll
    for i, entry in enumerate(entries):
        if not lines or lines[-1].turn != entry.get("turn"):
            lines.append(_Line(entry.get("turn"), entry.get("minute"), entry.get("i", i)))
        line = lines[-1]
        event = entry.get("event")
        if event is not None:
            side = str(event.get("by"))
            name = event.get("decide")
            if name in _MOVE_DECISIONS and event.get("choice") != "done":
                src, _, dst = str(event.get("choice")).partition(">")
                line.move(side, towards_goal(src, dst.removesuffix("+ball"), side) > 0)
            elif name == "action":
                action[side] = ACTIONS.get(str(event.get("choice")), words(str(event.get("choice"))))
            elif name in ("goal_attempt", "pressing") and event.get("choice") == "yes":  # rulebook 2.0
                action[side] = ACTIONS[str(name)]
            elif event.get("roll") == "var":
                line.add(side, "V.A.R. check")
                line.key = True
            elif event.get("roll") in ACTIONS and side in action:
                what = action.pop(side)
                if event.get("roll") != "goal_attempt":  # a shot is said with its outcome (notes)
                    line.add(side, f"{what} {'+'.join(str(d) for d in event.get('dice') or [])}")
            elif (phrase := _phrase(event, names)) is not None:
                line.add(side, phrase)
        for j, note in enumerate(entry.get("notes") or ()):
            phrase = _note_phrase(note, outcomes.get((i, j)), names)
            kind = note.get("kind")
            extra = extra or kind == "extra_time"
            if phrase is None:
                continue
            if kind in _WHISTLES:
                line.add("", EXTRA_HALF_TIME if extra and kind == "half_time" else phrase)
                continue
            line.add(str(note.get("team") or (event or {}).get("by") or "both"), phrase)
            line.key = line.key or note.get("kind") in KEY_MOMENT_KINDS
    return [
        {"turn": ln.turn, "minute": ln.minute, "first": ln.first, "key": ln.key, "text": ln.text(names)}
        for ln in lines
    ]


def key_moments(entries: Sequence[Mapping[str, Any]], names: Names) -> list[dict[str, Any]]:
    """Goals, shots with their outcome, cards, injuries, substitutions, V.A.R. checks and the
    whistles, in order: {"turn", "minute", "kind", "text", "i"} (``i``: the entry's)."""
    outcomes = shot_outcomes(entries)
    moments: list[dict[str, Any]] = []
    extra = False
    for i, entry in enumerate(entries):
        event = entry.get("event") or {}
        if event.get("roll") == "var":
            later = [n.get("kind") for n in entry.get("notes") or ()]
            verdict = "goal ruled out" if "goal_denied" in later else "the goal stands"
            moments.append(_moment(entry, i, "var", f"{entry.get('minute')}' V.A.R. check: {verdict}"))
        for j, note in enumerate(entry.get("notes") or ()):
            kind = note.get("kind")
            extra = extra or kind == "extra_time"
            if kind not in KEY_MOMENT_KINDS or kind == "goal_denied":
                continue
            outcome = outcomes.get((i, j))
            if kind == "goal_attempt":
                if outcome and outcome.startswith("scored") and "ruled out" not in outcome:
                    continue  # the goal's own line follows
                side = str(note.get("team"))
                place = place_of(str(note.get("area")), side, names)
                text = f"{note.get('minute')}' {team(side, names)} shot from {place} — {outcome}"
            else:
                text = note_text(note, names) or ""
                if extra and kind == "half_time":  # the second half time said once, as extra time's
                    text = text.replace("Half time", "Extra time, half time", 1)
            if text:
                moments.append(_moment(entry, i, str(kind), text))
    return moments


def _moment(entry: Mapping[str, Any], i: int, kind: str, text: str) -> dict[str, Any]:
    return {
        "turn": entry.get("turn"),
        "minute": entry.get("minute"),
        "kind": kind,
        "text": text,
        "i": entry.get("i", i),
    }
