"""Turn-by-turn replay of a match log for the match page: one frame per event, computed by the engine.

The rules engine replays the log (``parse`` and ``Match`` of matchplay.engine_door); after each event
we take the engine's snapshot (matchplay.engine_door.snapshot) of what the page draws: pieces per area,
the ball's area and value, score, minute, turn and stage, the last action, and what just happened
in words. ``areas`` lists the area codes in board order (the index of ``home``/``away``/``gk``),
``board`` the same areas with the names people read. The page's script only steps through these
frames, so no rule logic lives in JavaScript.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matchplay.engine_door import (
    Decision,
    Event,
    IllegalEventError,
    Match,
    area_name,
    board_areas,
    clock,
    event_to_dict,
    parse,
    snapshot,
)
from matchplay.engine_door import board as B

# One plain-language renderer for the scorer, the live page and the replay (pure functions over
# the log's JSON form).
from matchplay.match_feed import key_moments, turn_feed
from matchplay.narrate import event_detail, event_text, note_text, setup_occasion

# Frames of very long logs are thinned to every n-th event so the page stays light; goals,
# cards and turn starts are always kept.
MAX_FRAMES = 4000


# the longest team name an area's label prints in full (an area is 90 units wide); the whole
# name stays in the area's title or aria-label
PITCH_TEAM_CHARS = 13


# The moments the replay's slider marks: a tap on one goes there.
MARK_KINDS = ("goal", "yellow", "red", "goal_attempt", "half_time", "extra_time")


def _pitch_label(area: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, str]:
    """What a drawn pitch prints in an area, from the one vocabulary (rules_engine.areas): ``team``
    (the side whose half it lies in, shortened to fit; "" for the centre circle) in that side's
    colour (``end``) over the area's ``words`` ("Peru" / "left wing"), so that the two halves'
    areas read apart; ``label`` the whole name ("Peru left wing")."""
    end = str(area["end"] or "")
    team = names.get(end, "") if end else ""
    if len(team) > PITCH_TEAM_CHARS:
        team = team[: PITCH_TEAM_CHARS - 1].rstrip() + "…"
    return {"words": str(area["words"]), "end": end, "team": team, "label": str(area["name"])}


def pitch_geometry(
    cell_w: float = 90.0,
    row_h: float = 34.0,
    margin: float = 14.0,
    names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Rectangles of the 13 areas and the 4 corner spots, away goal at the top; with the teams'
    ``names`` each area carries its label (_pitch_label: ``team``, ``end``, ``words``, ``label``)."""
    areas = []
    for i, name in enumerate(B.NAMES):
        col, lo, hi = B.COL[i], B.LO[i], B.HI[i]
        if i >= B.N_AREAS:
            # Corner-kick spots: small circles at the pitch corners, just outside the corner area.
            cx = margin + (0 if col == 0 else 3 * cell_w)
            cy = margin + (12 * row_h if lo == 0 else 0)
            areas.append({"name": name, "spot": True, "cx": cx, "cy": cy, "r": 9, "index": i})
            continue
        x = margin + col * cell_w
        y = margin + (11 - hi) * row_h
        h = (hi - lo + 1) * row_h
        areas.append(
            {
                "name": name,
                "spot": False,
                "x": x,
                "y": y,
                "w": cell_w,
                "h": h,
                "cx": x + cell_w / 2,
                "cy": y + h / 2,
                "index": i,
            }
        )
    if names is not None:
        named = {str(a["code"]): a for a in board_areas(names.get("home", "home"), names.get("away", "away"))}
        for a in areas:
            a.update(_pitch_label(named[str(a["name"])], names))
    width = 3 * cell_w + 2 * margin
    height = 12 * row_h + 2 * margin
    return {
        "width": width,
        "height": height,
        "margin": margin,
        "halfway_y": margin + 6 * row_h,
        "areas": areas,
        "goal_w": cell_w * 0.5,
        "goal_x": margin + 1.25 * cell_w,
    }


def _occasion(m: Match, ev: Event) -> str | None:
    """What a set-up about to be applied is for ("the corner"), from the question it answers."""
    if not isinstance(ev, Decision) or ev.name != "setup":
        return None
    pending = m.pending()
    return setup_occasion(pending.describe() if pending is not None else None)


def _frame(
    m: Match,
    index: int,
    text: str,
    notes: list[dict[str, Any]],
    names: dict[str, str],
    detail: str | None = None,
) -> dict[str, Any]:
    """One frame from the engine's snapshot: what the pitch draws in the snapshot's own shape
    (``teams.home``/``away`` with ``pieces`` in board order and ``gk``, the goalkeeper's area or
    None; ``ball``, ``value``, ``last``: the session state's ``state`` has the same, so one
    renderer, static/fubaleague/pitch.js, draws the scorer, the live panel and the replay), the
    ball's area by name, what happened in one line (``text``) and what that line leaves out
    (``detail``: a set-up's placement)."""
    snap = snapshot(m)
    return {
        "i": index,
        "turn": snap.turn,
        "stage": snap.stage,
        "half": snap.half,
        "minute": snap.minute,
        "score": list(snap.score),
        "ball": snap.ball,
        "ball_name": area_name(snap.ball, names["home"], names["away"]) if snap.ball else None,
        "value": snap.value,
        "control": snap.control,
        "teams": {
            side: {"pieces": list(t.pieces), "gk": t.gk}
            for side, t in (("home", snap.home), ("away", snap.away))
        },
        "last": snap.last.to_dict() if snap.last is not None else None,
        "text": text,
        "detail": detail,
        "notes": notes,
    }


def _notes(m: Match, since: int, names: dict[str, str]) -> list[dict[str, Any]]:
    """The engine's notes from index ``since`` as JSON, each with its ``text`` (or None)."""
    notes = [
        {
            k: list(v) if isinstance(v, tuple | list) else v
            for k, v in n.items()
            if isinstance(v, str | int | float | bool | tuple | list) or v is None
        }
        for n in m.log[since:]
    ]
    goal = any(n.get("kind") == "goal" for n in notes)
    for note, raw in zip(notes, m.log[since:], strict=True):
        # a shot that scored is said by its goal's line: no "— no goal" beside "GOAL"
        note["text"] = None if goal and raw.get("kind") == "goal_attempt" else note_text(raw, names)
    return notes


def match_story(log: Mapping[str, Any]) -> dict[str, Any]:
    """The feed by turn, the key moments and the goal and card marks of a log, without frames:
    what the live panel lists while the match is scored (``i`` counts events, not frames)."""
    story = replay_frames(log, with_frames=False)
    return {k: story.get(k) for k in ("feed", "moments", "marks", "error", "events")}


def with_shootout(
    story: Mapping[str, Any], *, home: int, away: int, names: Mapping[str, str]
) -> dict[str, Any]:
    """The story (replay_frames or match_story) with the shoot-out as its last key moment and
    slider mark. The turn log ends at the final whistle: rulebook 3 has no shoot-out of its own
    (docs/rules-interpretations.md), so its score comes with the result, not with an event."""
    feed = story.get("feed") or []
    last = feed[-1] if feed else {}
    frames = story.get("frames") or []
    i = len(frames) - 1 if frames else int(story.get("events") or 0)
    if home == away:  # a shoot-out ends with a winner: a level pair says nothing to mark
        return dict(story)
    winner = names["home"] if home > away else names["away"]
    text = f"Penalty shoot-out: {names['home']} {home}–{away} {names['away']}; {winner} go through"
    moment = {
        "turn": last.get("turn"),
        "minute": last.get("minute"),
        "kind": "shootout",
        "text": text,
        "i": i,
    }
    return {
        **story,
        "moments": [*(story.get("moments") or []), moment],
        "marks": [*(story.get("marks") or []), {"i": i, "kind": "shootout", "text": text}],
    }


def replay_frames(log: Mapping[str, Any], *, with_frames: bool = True) -> dict[str, Any]:
    """Frames of the replay; an invalid log yields the frames up to the first error and that error.
    ``with_frames=False`` computes only the story (match_story)."""
    draw = with_frames
    header, events, errors = parse(log)
    if header is None or errors:
        return {
            "teams": None,
            "areas": list(B.NAMES),
            "frames": [],
            "error": errors[0].to_dict() if errors else {"message": "unreadable log"},
        }
    m = Match(header)
    names = {"home": header.teams[0].name, "away": header.teams[1].name}
    frames: list[dict[str, Any]] = [_frame(m, 0, "Kick-off set-up", [], names)] if draw else []
    # What the turn feed and the key moments are made of (matchplay.narrate): each event with
    # the notes it produced and the frame a click on its line shows.
    entries: list[dict[str, Any]] = []
    error = None
    step = max(1, len(events) // MAX_FRAMES + (1 if len(events) % MAX_FRAMES else 0))
    last_turn = 0
    for i, ev in enumerate(events, start=1):
        seen = len(m.log)
        occasion = _occasion(m, ev) if draw else None
        try:
            m.apply(ev)
        except IllegalEventError as exc:
            error = exc.to_dict()
            break
        notes = _notes(m, seen, names)
        turn, minute = clock(m)
        keep = draw and (step == 1 or notes or turn != last_turn or i == len(events) or i % step == 0)
        last_turn = turn
        data = event_to_dict(ev)
        if keep:
            text = event_text(data, names, occasion=occasion)
            frames.append(_frame(m, i, text, notes, names, event_detail(data, names)))
        entries.append(
            {
                "turn": turn,
                "minute": minute,
                "event": data,
                "notes": notes,
                # a thinned-out event shows the next frame that is kept
                "i": (len(frames) - 1 if keep else len(frames)) if draw else i,
            }
        )
    if draw:
        for entry in entries:
            entry["i"] = min(entry["i"], len(frames) - 1)
    moments = key_moments(entries, names)
    return {
        "teams": {
            "home": {"name": header.teams[0].name, "formation": header.teams[0].formation_text},
            "away": {"name": header.teams[1].name, "formation": header.teams[1].formation_text},
        },
        "areas": list(B.NAMES),
        "board": board_areas(names["home"], names["away"]),
        "advanced_rules": sorted(header.advanced, key=lambda r: int(r[1:])),
        "events": len(events),
        "frames": frames,
        "feed": turn_feed(entries, names),
        "moments": moments,
        # goals, cards, shots, half time and extra time marked on the slider, by frame
        "marks": [
            {"i": mo["i"], "kind": mo["kind"], "text": mo["text"]}
            for mo in moments
            if mo["kind"] in MARK_KINDS
        ],
        "error": error,
        "finished": m.finished,
    }


def is_decision(ev: Event) -> bool:
    return isinstance(ev, Decision)
