"""What the scorer shows of a match: the pending question with its answers in words, the state
(score, clock, ball, pieces, cards, condition points, injuries, skills) and the key moments.

Pure Python over the engine (through matchplay.engine_door) and the plain-language renderer
(matchplay.narrate): nothing of Django. The server's session state (scoring.selectors) and the
phone's local engine (the Pyodide worker of the scorer page, which runs these very files packaged
by scoring.web_engine) both build their view with :func:`match_view`, so the two cannot drift.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from matchplay import match_feed, narrate
from matchplay.engine_door import (
    Copies,
    Match,
    Pending,
    Tie,
    after_default,
    auto_answer,
    board_areas,
    extra_time_answers,
    only_answer,
    pitch_input,
    rolls_after,
    snapshot,
)

MOMENTS_SHOWN = 30
# Issue 20: no question shows more than 8 text options; a question of more is shown in two steps
# (the kind of answer, then its detail), see _GROUPERS.
MAX_TEXT_OPTIONS = 8


def pending_dict(match: Match, tie: Tie | None = None, copies: Copies | None = None) -> dict[str, Any] | None:
    """The pending request as JSON, with ``board`` (what a tap on the pitch may answer, the
    engine's pitch_input), ``only_answer`` (True when exactly one answer is legal) and
    ``auto_answer`` (the answer a page posts without asking: the one legal answer, or the default
    of a moot prompt; None when the player chooses) and ``then`` (the decision asked right after
    the usual answer, with its own ``board``, when a page may offer its answers beside these: one
    tap answers both, rules_engine.lookahead; else None) and ``rolls`` (the answers that the roll
    in each ``roll`` follows at once: with typed dice a page may offer that roll's dice beside
    them, the first face answering the question too). At the extra-time question of a knockout
    ``tie`` only the answers the engine leaves for it are offered, with no default (I-38). ``copies``
    of the match made ahead make the forks of ``then`` and ``rolls`` cheap (the phone's engine)."""
    p: Pending | None = match.pending()
    if p is None:
        return None
    out: dict[str, Any] = _jsonable(p.describe())
    board = pitch_input(match)
    out["board"] = board.to_dict() if board is not None else None
    out["only_answer"] = only_answer(p)[0]
    auto, answer = auto_answer(p)
    out["auto_answer"] = answer if auto else None
    fork = after_default(match, copies) if not auto else None
    out["then"] = pending_dict(fork, copies=copies) if fork is not None else None
    # chips only: an answer on the pitch is a tap there, not a face
    follow = rolls_after(match, copies) if board is None and not auto else []
    out["rolls"] = [{"choice": _jsonable(c), "roll": pending_dict(f, copies=copies)} for c, f in follow]
    answers = list(extra_time_answers(match, tie))
    if answers and answers != out.get("options"):
        out["options"] = answers
        out["default"] = None
        out["then"] = None  # what follows the default, which is no longer offered
        out["rolls"] = []
        out["only_answer"] = len(answers) == 1
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def state(match: Match) -> dict[str, Any]:
    """What the scorer and the live page show: the engine's snapshot of the match (score, clock,
    ball, pieces, cards, condition points, injuries, skills, the last action) as JSON."""
    return snapshot(match).to_dict()


def areas(names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The board's areas named for these teams (the page's script takes them from here)."""
    return board_areas(names.get("home", "home"), names.get("away", "away"))


def notes(match: Match, since: int = 0) -> list[dict[str, Any]]:
    """The engine's notable happenings (goals, cards, injuries, half time) from index ``since``."""
    return [
        {k: _jsonable(v) for k, v in n.items() if isinstance(v, str | int | float | bool | list) or v is None}
        for n in match.log[since:]
    ]


def narrated_pending(
    pending: dict[str, Any] | None, names: narrate.Names, formations: Mapping[str, str] | None = None
) -> dict[str, Any] | None:
    """The pending question with its text and every option's label in words; with the teams'
    ``formations`` ({"home": "4-4-2", ...}) a change of formation reads as the one it gives; the
    options of a question of more than MAX_TEXT_OPTIONS are grouped by kind (_GROUPERS)."""
    if pending is None:
        return None
    name = pending["name"]
    formation = (formations or {}).get(str(pending.get("actor")))
    options = pending.pop("options", None)
    if options is not None:
        pending["options"] = [
            {"value": o, "label": narrate.choice_text(name, o, names, formation=formation)} for o in options
        ]
        _group_options(name, pending["options"], formation)
    if pending.get("default") is not None:
        pending["default_label"] = narrate.choice_text(name, pending["default"], names, formation=formation)
    pending["text"] = narrate.pending_text(pending, names)
    pending["hint"] = narrate.pending_hint(pending)
    if pending.get("then") is not None:
        pending["then"] = narrated_pending(pending["then"], names, formations)
    for follow in pending.get("rolls") or ():
        follow["roll"] = narrated_pending(follow["roll"], names, formations)
    return pending


def _substitution_group(value: str, formation: str | None) -> tuple[str, str]:
    """An A3 substitution (rules_engine.substitutions, I-13, I-32) as its kind and the detail
    chosen within it: ("fresh player", "midfield"), ("formation", "3-5-2"); "done" has none."""
    kind, _, rest = value.partition(":")
    if kind == "fresh":
        return "fresh player", narrate.zone_words(rest)
    if kind == "yellow":
        return "replace a booked player", narrate.zone_words(rest)
    if kind == "formation":
        after = narrate.formation_after(formation, rest) if formation else None
        return "formation", after or narrate.choice_text("half_time_formation", rest, {})
    return "", ""


# The questions whose options fall into kinds. With more than MAX_TEXT_OPTIONS options, each
# option of a kind holding two or more gets ``group`` (the kind, one chip) and ``short`` (its
# label among the kind's options): the page shows the kinds, then the tapped kind's options. The
# values, so the log, stay the engine's.
_GROUPERS: dict[str, Callable[[str, str | None], tuple[str, str]]] = {"substitution": _substitution_group}


def _group_options(name: str, options: list[dict[str, Any]], formation: str | None) -> None:
    grouper = _GROUPERS.get(name)
    if grouper is None or len(options) <= MAX_TEXT_OPTIONS:
        return
    kinds = [grouper(str(o["value"]), formation) for o in options]
    sizes = Counter(kind for kind, _ in kinds if kind)
    for option, (kind, short) in zip(options, kinds, strict=True):
        if kind and sizes[kind] > 1:
            option["group"] = kind
            option["short"] = short


# The set-up editor's one line (rulebook 3, 3.3.1, 5.2.1, 5.3.1, 5.5.1): each problem the engine's
# set-up check words in full, in a few words that fit a phone's line, with its chapter. The full
# sentence stays a tap away; a problem of no pattern here is shown in full.
_RULE = r" \((?P<rule>[^()]+)\)$"
_SETUP_SHORT = tuple(
    (re.compile(pattern + _RULE), short)
    for pattern, short in (
        (r"^(?:the )?.+ corner flag is not at least partly in .+ own half", "no player on a corner spot"),
        (r"^(?:the )?(?P<area>.+) is not at least partly in .+ own half", "{area}: not in own half"),
        (r"^no player can be set up on the corner spot .+", "no player on a corner spot"),
        (r"^only the goalkeeper can be set up in (?:the )?(?P<area>.+)", "{area}: the keeper only"),
        (r"^the goalkeeper cannot be set up on a corner spot", "keeper not on a corner spot"),
        (r"^the goalkeeper must be placed in .+ own penalty area", "keeper in own box"),
        (
            r"^the controlling team must place two players in the centre area",
            "two players in the centre circle",
        ),
        (r"^at least one player must be set up in the free kick area .+", "a player in the free kick area"),
        (r"^exactly one player takes the corner from .+", "one player on the corner spot"),
        (r"^exactly one player \(the penalty taker\) is set up in .+", "one penalty taker in the box"),
        (
            r"^the set-up places (?P<n>\d+) outfield players but the team has (?P<m>\d+) on the pitch",
            "place {m} players, not {n}",
        ),
        (r"^the goalkeeper's area .* is not an area", "no keeper placed"),
    )
)


def setup_problem_short(problem: str) -> str:
    """A set-up problem as the engine's check words it, in a few words with its chapter:
    "the Peru box is not at least partly in Canada's own half (3.3.1)" -> "Peru box: not in own
    half (3.3.1)"."""
    for pattern, short in _SETUP_SHORT:
        found = pattern.match(problem)
        if found is not None:
            fields = found.groupdict()
            return f"{short.format(**fields)} ({fields['rule']})"
    return problem


def checked_setup(check: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's set-up check (``ok``, ``problems``, ``placed``, ``outfield``) with ``short``:
    each problem in a few words with its chapter, for the editor's one line."""
    return {**check, "short": [setup_problem_short(str(p)) for p in check["problems"]]}


def match_view(
    match: Match, names: narrate.Names, tie: Tie | None = None, copies: Copies | None = None
) -> dict[str, Any]:
    """The part of the scorer's state that follows from the match and its knockout ``tie`` alone:
    ``pending`` (narrated), ``question``, ``state``, ``moments`` (the latest 30) and ``result``
    (at full time). ``copies``: see pending_dict."""
    shown = state(match)
    formations = {side: str(shown["teams"][side]["formation"]) for side in ("home", "away")}
    pending = narrated_pending(pending_dict(match, tie, copies), names, formations)
    # Shots (with what the notes say of their outcome), goals, cards, injuries, substitutions,
    # V.A.R. checks: the spectators' feed by turn is built from the whole log (scoring's story).
    entries = [
        {"turn": n.get("turn"), "minute": n.get("minute"), "event": None, "notes": [n]} for n in notes(match)
    ]
    moments = match_feed.key_moments(entries, names)
    derived = match.result().to_dict() if pending is None else None
    return {
        "state": shown,
        "pending": pending,
        "question": narrate.pending_text(pending, names),
        "moments": moments[-MOMENTS_SHOWN:],
        "result": {
            "score": derived["score"],
            "extra_time": derived.get("extra_time"),
            "final_minute": derived.get("final_minute"),
        }
        if derived
        else None,
    }


def event_lines(rows: list[Mapping[str, Any]], names: narrate.Names) -> list[dict[str, Any]]:
    """Events in words, in the order given; each row has ``seq``, ``data`` (the fuba-log/1 event),
    ``side`` and ``rolled_by_app``."""
    return [
        {
            "seq": r["seq"],
            "text": narrate.event_text(r["data"], names),
            "side": r["side"],
            "rolled_by_app": r["rolled_by_app"],
        }
        for r in rows
    ]
