"""Plain-language text of a FUBA match for people at the table and the public.

One renderer for the scorer, the live page and the replay: team names instead of home/away,
football words instead of engine names, never a Python repr. Pure functions over the JSON forms
(fuba-log/1 events, ``Pending.describe()`` dicts, the engine's notes) plus the two team names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matches.engine import area_name, area_place, in_words

Names = Mapping[str, str]  # {"home": "Brazil", "away": "Argentina"}

_ZONES = {"defence": "defence", "midfield": "midfield", "forward": "attack"}

# What is asked, as an instruction to the team named before it.
_DECISIONS = {
    "kick_off_team": "choose who starts with the ball",
    "setup": "set up the team",
    "setup_adjust": "move up to two players one area (or done)",
    "half_time_formation": "change the formation for the next half?",
    "extra_time": "is extra time played?",
    "target_area": "choose the target area",
    "goalkeeper_charge": "does the goalkeeper charge out?",
    "use_skill": "play a skill?",
    "easy_situation_move": "move one player (easy situation)",
    "closest_player": "which of the closest players moves?",
    "special_event_move": "move a player (special event)",
    "free_move": "free movement: move a player (or done)",
    "action": "choose the action",
    "move": "move players (or done)",
    "use_cp": "use a condition point for one more step?",
    "second_actions": "play second actions?",
    "corner_spot": "choose the corner spot",
    "quick_free_kick_move": "quick free kick: move a player (or done)",
    "goal_kick_move": "goal kick: move players (or done)",
    "free_kick_attempt": "shoot directly from the free kick?",
    "penalty_keeper": "keeper: choose a side (secretly)",
    "penalty_shot": "penalty taker: choose a side (secretly)",
    "slow_play": "slow down the restart?",
    "substitutions": "how many substitutions?",
    "substitution": "which substitution?",
    "injured_player": "which player is injured?",
    "injured_player_instead": "which outfield player goes off instead of the keeper?",
    "sent_off_player": "which player is sent off?",
    "injury_substitution": "substitute the injured player?",
    "skill_move": "skill: move a player (or done)",
    "skill_ball_area": "skill: choose the ball's area",
    "formation_change": "skill: change the formation",
    "gegenpressing_aggressive": "gegenpressing: press aggressively?",
}
_ROLLS = {
    "kick_off": "roll for kick-off",
    "weather_change": "roll for a change in the weather",
    "situation": "roll the two situation dice",
    "special_event": "roll for the special event",
    "head_collision": "roll for the head collision",
    "streaker": "roll for the streaker",
    "tiredness": "roll the tiredness test",
    "movement": "roll for the movement",
    "positioning": "roll for the positioning",
    "pressing": "roll for the pressing",
    "goal_attempt": "roll the shot",
    "difficult_goal_attempt": "roll the difficult shot",
    "rebound": "roll for the rebound",
    "penalty": "roll the penalty",
    "var": "roll for the V.A.R. check",
    "yellow_test": "roll the yellow card test",
    "red_test": "roll the red card test",
    "injury": "roll for the injury",
    "fresh_player": "roll for the fresh player",
    "slow_play": "roll for slow play",
    "fiery_coach": "roll for the fiery coach",
    "diver": "roll for the diver",
    "goal_poacher": "roll for the goal poacher",
    "fanatic_fans": "roll for the fanatic fans",
    "injured_star_player": "roll for the injured star player",
    "new_talent": "roll for the new talent",
}
_ACTIONS = {
    "goal_attempt": "a shot at goal",
    "movement": "movement",
    "positioning": "positioning",
    "pressing": "pressing",
    "aggressive_pressing": "aggressive pressing",
}


def words(code: str) -> str:
    """``great_condition`` -> ``great condition``."""
    return str(code).replace("_", " ")


def team(side: str, names: Names) -> str:
    if side == "both":
        return "Both teams"
    return names.get(side, side)


def area(code: str, names: Names) -> str:
    """An area as a place in a sentence: ``H-LM`` -> ``the Brazil left midfield``, ``CENTRE`` ->
    ``the centre circle`` (the names of rules_engine.areas, the one vocabulary of the pages)."""
    return area_place(code, names.get("home", "home"), names.get("away", "away"))


def area_label(code: str, names: Names) -> str:
    """An area as a label or chip: ``H-PEN`` -> ``Brazil box``; ``GK`` -> ``goalkeeper``."""
    return area_name(code, names.get("home", "home"), names.get("away", "away"))


def reason_text(reason: str, names: Names) -> str:
    """An engine message (refusals, reasons) with its area codes in words."""
    return in_words(reason, names.get("home", "home"), names.get("away", "away"))


def _move_label(choice: str, names: Names) -> str:
    """A move as a short label: ``Brazil left midfield → centre circle`` (places, never a team)."""
    src, _, dst = choice.partition(">")
    ball = dst.endswith("+ball")
    dst = dst.removesuffix("+ball")
    who = "goalkeeper" if src == "GK" else area_label(src, names)
    return f"{who} → {area_label(dst, names)}" + (" with the ball" if ball else "")


def _move(choice: str, names: Names) -> str:
    src, _, dst = choice.partition(">")
    ball = dst.endswith("+ball")
    dst = dst.removesuffix("+ball")
    who = "the goalkeeper" if src == "GK" else f"a player from {area(src, names)}"
    return f"{who} to {area(dst, names)}" + (" with the ball (dribbling)" if ball else "")


def choice_text(name: str, choice: Any, names: Names) -> str:
    """One option or answer of a decision in words (also the label of its button)."""
    if isinstance(choice, Mapping):  # a set-up: {"gk": AREA, "players": {AREA: n}}
        players = choice.get("players") or {}
        parts = (
            [f"{n} in {area(str(a), names)}" for a, n in players.items()]
            if isinstance(players, Mapping)
            else []
        )
        return f"goalkeeper in {area(str(choice.get('gk')), names)}; " + ", ".join(parts)
    if isinstance(choice, list | tuple):
        return ", ".join(choice_text(name, c, names) for c in choice)
    text = str(choice)
    if text == "done":
        return "done"
    if text in ("yes", "no"):
        return text
    if name in ("kick_off_team",):
        return f"{team(text, names)} starts with the ball"
    if name == "action":
        return _ACTIONS.get(text, words(text))
    if name in ("penalty_keeper", "penalty_shot"):
        return text
    if name == "substitutions":
        return "none" if text == "0" else f"{text} substitution{'s' if text != '1' else ''}"
    if name == "substitution":
        kind, _, rest = text.partition(":")
        if kind == "fresh":
            return f"a fresh player in {_ZONES.get(rest, rest)}"
        if kind == "yellow":
            return "replace a booked player" + (f" in {_ZONES.get(rest, rest)}" if rest else "")
        if kind == "formation":
            a, _, b = rest.partition(">")
            return f"a player from {_ZONES.get(a, a)} to {_ZONES.get(b, b)}"
    if name in ("half_time_formation", "formation_change"):
        if text == "none":
            return "no change"
        a, _, b = text.partition(">")
        return f"a player from {_ZONES.get(a, a)} to {_ZONES.get(b, b)}"
    if name == "use_skill":
        return words(text)
    if ">" in text:
        return _move_label(text, names)
    if text.startswith(("H-", "A-")) or text in ("CENTRE", "GK"):
        return area_label(text, names)
    return words(text)


def pending_text(pending: Mapping[str, Any] | None, names: Names) -> str:
    """The big question: who does what, e.g. "Brazil: choose the target area"."""
    if pending is None:
        return "Full time: the final whistle has gone."
    name = str(pending.get("name"))
    who = team(str(pending.get("actor")), names)
    if pending.get("kind") == "roll":
        what = _ROLLS.get(name, f"roll for {words(name)}")
        dice = int(pending.get("dice") or 1)
        sides = int(pending.get("sides") or 6)
        extra = f" ({dice} dice)" if dice > 1 and name not in ("situation",) else ""
        if sides != 6:
            extra += f" (a die of {sides} sides)"
        return f"{who}: {what}{extra}"
    what = _DECISIONS.get(name, words(name))
    return f"{who}: {what}"


def event_text(event: Mapping[str, Any], names: Names) -> str:
    """One fuba-log/1 event in words, e.g. "Brazil rolled the situation dice: 5 and 2"."""
    who = team(str(event.get("by")), names)
    if "roll" in event:
        dice = [str(d) for d in event.get("dice") or []]
        shown = " and ".join(dice) if len(dice) <= 2 else ", ".join(dice)
        what = _ROLLS.get(str(event["roll"]), f"roll for {words(str(event['roll']))}").removeprefix("roll ")
        return f"{who} rolled {what}: {shown}"
    name = str(event.get("decide"))
    choice = event.get("choice")
    if choice == "done":
        return f"{who}: no more moves"
    if name == "setup":
        return f"{who} set up: {choice_text(name, choice, names)}"
    if name in (
        "move",
        "free_move",
        "setup_adjust",
        "easy_situation_move",
        "special_event_move",
        "quick_free_kick_move",
        "goal_kick_move",
        "skill_move",
    ) and isinstance(choice, str):
        return f"{who} moved {_move(choice, names)}"  # fmt: skip
    if name == "action":
        return f"{who} chose {choice_text(name, choice, names)}"
    if name == "target_area":
        return f"{who} aimed for {area(str(choice), names)}"
    if name == "use_skill":
        return f"{who} played {words(str(choice))}" if choice != "no" else f"{who} kept their skills"
    if choice in ("yes", "no"):
        return f"{who} — {_DECISIONS.get(name, words(name)).rstrip('?')}: {choice}"
    return f"{who} — {_DECISIONS.get(name, words(name))}: {choice_text(name, choice, names)}"


def note_text(note: Mapping[str, Any], names: Names) -> str | None:
    """A notable happening from the engine (goal, card, injury, half time...), or None for the
    bookkeeping ones that are not worth a line."""
    kind = note.get("kind")
    minute = note.get("minute")
    at = f"{minute}'" if minute is not None else ""
    who = team(str(note.get("team")), names) if note.get("team") else ""
    score = note.get("score")
    score_text = (
        f"{names.get('home', 'Home')} {score[0]}–{score[1]} {names.get('away', 'Away')}"
        if isinstance(score, list | tuple) and len(score) == 2
        else ""
    )
    if kind == "goal":
        return f"{at} GOAL for {who}! {score_text}"
    if kind == "half_time":
        return f"Half time: {score_text}"
    if kind == "full_time":
        return f"Full time: {score_text}"
    if kind in ("yellow", "yellow_card"):
        why = f" ({note['why']})" if note.get("why") else ""
        return f"{at} Yellow card for {who}{why}"
    if kind in ("red", "red_card", "sent_off"):
        why = f" ({note['why']})" if note.get("why") else ""
        return f"{at} Red card for {who}{why}"
    if kind == "injury":
        length = (
            "for the rest of the match" if note.get("permanent") else f"for {note.get('out_minutes')} minutes"
        )
        return f"{at} {who} player injured, out {length}"
    if kind == "substitution":
        return f"{at} {who} substitution: {choice_text('substitution', note.get('type', ''), names)}"
    if kind == "goal_attempt":
        return f"{at} {who} shot from {area(str(note.get('area')), names)} — no goal"
    if kind == "special_event":
        return f"{at} Special event: {words(str(note.get('event', '')))}"
    if kind == "pressing_won":
        return f"{at} {who} won the ball by pressing in {area(str(note.get('area')), names)}"
    if kind == "extra_time":
        return "Extra time"
    if isinstance(kind, str):
        details = ", ".join(
            f"{words(k)} {area(str(v), names) if k == 'area' else v}"
            for k, v in note.items()
            if k not in ("kind", "turn", "minute", "team") and isinstance(v, str | int)
        )
        return (
            f"{at} {who + ': ' if who else ''}{words(kind)}{' (' + details + ')' if details else ''}".strip()
        )
    return None
