"""Turn-by-turn replay of a match log for the match page: one frame per event, computed by the engine.

The rules engine replays the log (``parse`` and ``Match`` of matches.engine); after each event
we snapshot what the page draws: pieces per area, the ball's area and value, score, minute, turn
and stage, and what just happened. The page's script only steps through these frames, so no rule
logic lives in JavaScript.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matches.engine import Decision, Event, IllegalEventError, Match, event_to_dict, parse
from matches.engine import board as B

# One plain-language renderer for the scorer, the live page and the replay (pure functions over
# the log's JSON form).
from matches.narrate import event_text, note_text

# Frames of very long logs are thinned to every n-th event so the page stays light; goals,
# cards and turn starts are always kept.
MAX_FRAMES = 4000


def pitch_geometry(cell_w: float = 90.0, row_h: float = 34.0, margin: float = 14.0) -> dict[str, Any]:
    """Rectangles of the 13 areas and the 4 corner spots, away goal at the top."""
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


def _pieces(m: Match, team: int) -> list[int]:
    ts = m.st.teams[team]
    return [ts.raw(a) for a in range(B.N_LOC)]


def _describe(ev: Event, names: dict[str, str]) -> str:
    return event_text(event_to_dict(ev), names)


def _frame(m: Match, index: int, text: str, notes: list[dict[str, Any]]) -> dict[str, Any]:
    st = m.st
    return {
        "i": index,
        "turn": st.turn,
        "stage": st.stage,
        "half": st.half,
        "minute": st.minute_label(),
        "score": st.score(),
        "ball": B.NAMES[st.ball],
        "value": st.value,
        "control": B.TEAM_NAMES[st.ct],
        "home": _pieces(m, 0),
        "away": _pieces(m, 1),
        "gk": [st.teams[0].gk, st.teams[1].gk],
        "text": text,
        "notes": notes,
    }


def replay_frames(log: Mapping[str, Any]) -> dict[str, Any]:
    """Frames of the replay; an invalid log yields the frames up to the first error and that error."""
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
    frames = [_frame(m, 0, "Kick-off set-up", [])]
    error = None
    step = max(1, len(events) // MAX_FRAMES + (1 if len(events) % MAX_FRAMES else 0))
    last_turn = 0
    for i, ev in enumerate(events, start=1):
        seen = len(m.log)
        try:
            m.apply(ev)
        except IllegalEventError as exc:
            error = exc.to_dict()
            break
        notes = [
            {k: v for k, v in n.items() if isinstance(v, str | int | float | bool) or v is None}
            for n in m.log[seen:]
        ]
        for note, raw in zip(notes, m.log[seen:], strict=True):
            note["text"] = note_text(raw, names)
        keep = step == 1 or notes or m.st.turn != last_turn or i == len(events) or i % step == 0
        last_turn = m.st.turn
        if keep:
            frames.append(_frame(m, i, _describe(ev, names), notes))
    return {
        "teams": {
            "home": {"name": header.teams[0].name, "formation": header.teams[0].formation_text},
            "away": {"name": header.teams[1].name, "formation": header.teams[1].formation_text},
        },
        "areas": list(B.NAMES),
        "advanced_rules": sorted(header.advanced, key=lambda r: int(r[1:])),
        "events": len(events),
        "frames": frames,
        "error": error,
        "finished": m.finished,
    }


def is_decision(ev: Event) -> bool:
    return isinstance(ev, Decision)
