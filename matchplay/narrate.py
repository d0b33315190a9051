"""Plain-language text of a FUBA match for people at the table and the public.

One renderer for the scorer, the live page and the replay: team names instead of home/away,
football words instead of engine names, never a Python repr. Pure functions over the JSON forms
(fuba-log/1 events, ``Pending.describe()`` dicts, the engine's notes) plus the two team names.

Both rulesets share the vocabulary: FUBA 2 (rulebook 2.0) asks some of FUBA 3's questions under
their names and has names of its own (``turn_dice``, ``movement_option``, ``goalkeeper_position``...)
that FUBA 3 never uses, so no text needs to know which ruleset a match plays.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matchplay.engine_door import AREAS, area_name, area_place, in_words

Names = Mapping[str, str]  # {"home": "Brazil", "away": "Argentina"}

ZONES = {"defence": "defence", "midfield": "midfield", "forward": "attack"}

# What is asked, as an instruction to the team named before it.
_DECISIONS = {
    "kick_off_team": "choose who starts with the ball",
    "setup": "set up the team",
    "setup_adjust": "move up to two players one area (or done)",
    "half_time_formation": "change formation?",
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
    "use_cp": "use a condition point?",
    "second_actions": "play second actions?",
    "corner_spot": "choose the corner flag to kick from",
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
    # rulebook 2.0 (FUBA 2)
    "slow_goal_kick": "take the goal kick slowly (one extra movement each)?",
    "goal_attempt": "try a goal attempt?",
    "movement_option": "choose the movement: defence, midfield or forward",
    "pressing": "press for the ball?",
    "tiredness_zone": "which line loses the condition point?",
    "goalkeeper_position": "goalkeeper inside or outside the goal area?",
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
    # rulebook 2.0 (FUBA 2)
    "turn_dice": "roll each team's die",
    "yellow_card": "roll for a yellow card",
    "red_card": "roll the red card test",
    "condition_point": "roll for the condition point's moves",
    "difficult_attempt": "roll the difficult shot's second die",
}
# Rulebook 2.0's special event table (4.4.3) in words: {ct} the team in control, {pt} the other.
_SPECIAL_EVENTS_2 = {
    "pt_moves_two": "{pt} move two players",
    "failed_control_check": "{ct} lose control, the ball stays where it was",
    "pt_moves_one": "{pt} move a player",
    "ball_value_plus_one": "the ball value goes up by one",
    "free_kick_ct": "foul, free kick for {ct}",
    "action_stages_skipped": "play stops, no actions this turn",
    "free_kick_pt": "foul by {ct}, free kick for {pt}",
    "ball_value_minus_one": "the ball value goes down by one",
    "ct_moves_one": "{ct} move a player",
    "ball_value_minus_two": "the ball value goes down by two",
    "pt_no_defence_movement": "{pt} may not make a defence movement",
}
# Rulebook 3's special events (A13) in words; the engine's notes name no team for them, so the
# teams are said by their part: the team in control (CT) and the defending team (DT). A foul's
# name is also the reason a card or an injury note gives.
_SPECIAL_EVENTS_3 = {
    "excellent_attack_move": "excellent attacking move",
    "excellent_defence_move": "excellent defensive move",
    "fast_situation_ct": "fast situation for the team in control",
    "fast_situation_dt": "fast situation for the defending team",
    "ball_bounces_ct": "the ball bounces, its value goes down by two",
    "ball_bounces_dt": "the ball bounces, its value goes up by two",
    "lost_momentum": "lost momentum, no free moves for the team in control",
    "failed_man_marking": "failed man marking, no free moves for the defending team",
    "defenders_foul": "foul by the defending team",
    "attackers_foul": "foul by the team in control",
    "defenders_rude_foul": "rough foul by the defending team",
    "attackers_rude_foul": "rough foul by the team in control",
    "slow_play": "slow play",
    "ball_over_touchline": "ball over the touchline",
    "ball_over_goal_line": "ball over the goal line",
    "momentum": "momentum",
    "aggressive_defence": "aggressive defence",
    "high_ball_head_collision": "heads collide on a high ball",
    "failed_opening": "failed opening",
    "perfect_pass": "perfect pass",
    "behind_referees_back": "foul behind the referee's back",
    "streaker": "a streaker on the pitch",
    "out_of_position_goalkeeper": "goalkeepers out of position",
    "terrace_chant_ct": "terrace chants for the team in control",
    "terrace_chant_dt": "terrace chants for the defending team",
    "injured_star_player_ct": "the star player of the team in control injured",
    "injured_star_player_dt": "the star player of the defending team injured",
    "new_talent_ct": "a new talent for the team in control",
    "new_talent_dt": "a new talent for the defending team",
}
ACTIONS = {
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


# The end of the pitch each area lies in ("home" | "away" | "" for the centre circle): home defends
# the H end for the whole match, the ends are not changed at half time (I-50).
_AREA_END = {a.code: (a.end, a.words) for a in AREAS}


def place_of(code: str, side: str, names: Names) -> str:
    """An area as a place in a sentence about team ``side`` (its subject): an area of that team's
    own end reads "their own box", any other as area() does ("the Brazil box"). Areas are named
    after the team defending that end, so "Argentina aimed for the Argentina box" was a pass back
    into Argentina's own box that read as the wrong side's box."""
    end, place = _AREA_END.get(code, ("", ""))
    if end and end == side:
        return f"their own {place}"
    return area(code, names)


def zone_words(zone: str) -> str:
    """A line of the formation as players say it: ``forward`` -> ``attack``."""
    return ZONES.get(zone, zone)


def area_label(code: str, names: Names) -> str:
    """An area as a label or chip: ``H-PEN`` -> ``Brazil box``; ``GK`` -> ``goalkeeper``."""
    return area_name(code, names.get("home", "home"), names.get("away", "away"))


def why_words(why: str) -> str:
    """The reason a note gives (a card's, a free kick's): a special event's name said in words,
    else the engine's own sentence ("diver (A11)")."""
    return _SPECIAL_EVENTS_3.get(why, why)


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


def _move(choice: str, side: str, names: Names) -> str:
    """A move of team ``side``'s player, its own end said as such (place_of)."""
    src, _, dst = choice.partition(">")
    ball = dst.endswith("+ball")
    dst = dst.removesuffix("+ball")
    who = "the goalkeeper" if src == "GK" else f"a player from {place_of(src, side, names)}"
    return f"{who} to {place_of(dst, side, names)}" + (" with the ball (dribbling)" if ball else "")


# decisions that name a player by the area he stands in: the label says so ("the player in the
# Canada box"), so that an area never reads as a team's player
_PLAYER_IN_AREA = frozenset(
    {
        "closest_player",
        "injured_player",
        "injured_player_instead",
        "sent_off_player",
    }
)


def formation_after(formation: str, change: str) -> str | None:
    """The formation after one player changes line (2.2, A11): ``4-4-2`` with
    ``defence>midfield`` -> ``3-5-2``; None when either is not of that form."""
    lines = formation.split("-")
    a, _, b = change.partition(">")
    zones = tuple(ZONES)
    if len(lines) != 3 or not all(x.isdigit() for x in lines) or a not in zones or b not in zones:
        return None
    counts = [int(x) for x in lines]
    counts[zones.index(a)] -= 1
    counts[zones.index(b)] += 1
    return "-".join(str(n) for n in counts)


def _formation_text(name: str, text: str, formation: str | None) -> str:
    """A change of formation as a chip: the formation it gives (``3-5-2``, ``keep 4-4-2``) when
    the team's formation is known, else the change in words."""
    if formation:
        if text == "none":
            return f"keep {formation}"
        after = formation_after(formation, text)
        if after is not None:
            return after if name != "substitution" else f"formation {after}"
    if text == "none":
        return "no change"
    a, _, b = text.partition(">")
    return f"a player from {ZONES.get(a, a)} to {ZONES.get(b, b)}"


def choice_text(name: str, choice: Any, names: Names, *, formation: str | None = None) -> str:
    """One option or answer of a decision in words (also the label of its button); with the
    acting team's ``formation`` a change of formation reads as the formation it gives."""
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
        return ACTIONS.get(text, words(text))
    if name in ("penalty_keeper", "penalty_shot"):
        return text
    if name == "substitutions":
        return "none" if text == "0" else f"{text} substitution{'s' if text != '1' else ''}"
    if name == "substitution":
        kind, _, rest = text.partition(":")
        if kind == "fresh":
            return f"a fresh player in {zone_words(rest)}"
        if kind == "yellow":
            return "replace a booked player" + (f" in {zone_words(rest)}" if rest else "")
        if kind == "formation":
            return _formation_text(name, rest, formation)
    if name in ("half_time_formation", "formation_change"):
        return _formation_text(name, text, formation)
    if name == "use_skill":
        return words(text)
    if name == "movement_option":
        return f"{ZONES.get(text, text)} movement"
    if name == "goalkeeper_position":
        return f"goalkeeper {text} the goal area"
    if name in _PLAYER_IN_AREA and text != "GK":
        return f"the player in {area(text, names)}"
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


# What an advanced rule's prompt does, in a few words (the chapter is the pending's ``rule``, said
# with it): the prompt alone ("use a condition point?") does not say what the point buys.
_HINTS = {
    "second_actions": "Each team plays one more action this turn, not the one it just played",
    "play_fiery_coach": "Roll a die: 4-6 the condition point is not spent, 1 the coach is sent off",
    "gegenpressing_aggressive": "Counter-press as an aggressive pressing (A6): it costs a condition point",
}
_CP_HINTS = {
    "one more step": "Spend a condition point: the ball value moves one step more",
    "higher die": "Spend a condition point: move as many players as the higher die says",
}


def pending_hint(pending: Mapping[str, Any] | None) -> str | None:
    """What answering "yes" to an advanced rule's prompt does, with its chapter, e.g. "Spend a
    condition point: the ball value moves one step more (A1)"; None for the other questions."""
    if pending is None or pending.get("kind") != "decision":
        return None
    name = str(pending.get("name"))
    text = _HINTS.get(name)
    if name == "use_cp":
        prompt = str(pending.get("prompt") or "")
        text = next(
            (t for k, t in _CP_HINTS.items() if k in prompt), "Spend a condition point for a better result"
        )
    if text is None:
        return None
    rule = pending.get("rule")
    return f"{text} ({rule})" if rule else text


# The set-ups a prompt names ("kick_off set-up"; FUBA 2: "free kick set-up").
_SET_UPS = frozenset({"kick off", "free kick", "corner", "penalty"})
# The decisions whose answer is a move "FROM>TO" (or "done"): the scorer's line and the feed's.
MOVE_DECISIONS = frozenset(
    {
        "move",
        "free_move",
        "setup_adjust",
        "easy_situation_move",
        "special_event_move",
        "quick_free_kick_move",
        "goal_kick_move",
        "skill_move",
    }
)


def setup_occasion(pending: Mapping[str, Any] | None) -> str | None:
    """What a pending set-up is for ("the kick-off", "the corner"), or None for another question."""
    kind = str((pending or {}).get("prompt", "")).removesuffix(" set-up").replace("_", " ")
    if not pending or pending.get("name") != "setup" or kind not in _SET_UPS:
        return None
    return "the " + kind.replace("kick off", "kick-off")


def event_detail(event: Mapping[str, Any], names: Names) -> str | None:
    """What an event's one line leaves out, for a page that shows one event at a time: a set-up's
    whole placement ("goalkeeper in the Brazil box; 3 in the Brazil left wing, ..."), else None."""
    if event.get("decide") != "setup" or not isinstance(event.get("choice"), Mapping):
        return None
    return choice_text("setup", event["choice"], names)


def event_text(event: Mapping[str, Any], names: Names, *, occasion: str | None = None) -> str:
    """One fuba-log/1 event in words, e.g. "Brazil rolled the situation dice: 5 and 2"; a set-up
    in one short line, "Brazil set up for the kick-off: goalkeeper and 10 players" (``occasion``
    when the page knows it: setup_occasion; the placement is event_detail's)."""
    side = str(event.get("by"))
    who = team(side, names)
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
        players = choice.get("players") if isinstance(choice, Mapping) else None
        n = sum(v for v in players.values() if isinstance(v, int)) if isinstance(players, Mapping) else 0
        return (
            f"{who} set up{' for ' + occasion if occasion else ''}: goalkeeper and {n} player{'s' * (n != 1)}"
        )
    if name in MOVE_DECISIONS and isinstance(choice, str):
        return f"{who} moved {_move(choice, side, names)}"  # fmt: skip
    if name == "action":
        return f"{who} chose {choice_text(name, choice, names)}"
    if name == "half_time_formation":
        if choice == "none":
            return f"{who} kept the formation"
        return f"{who} changed formation: {choice_text(name, choice, names)}"
    if name == "target_area":
        # the box a team attacks is its opponent's; a target in its own end is no attack (a
        # pass back, or within its own end), said as such
        place = place_of(str(choice), side, names)
        if place.startswith("their own "):
            return f"{who} played the ball into {place}"
        return f"{who} aimed for {place}"
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
    side = str(note.get("team") or "")
    who = team(side, names) if side else ""
    score = note.get("score")
    score_text = (
        f"{names.get('home', 'Home')} {score[0]}–{score[1]} {names.get('away', 'Away')}"
        if isinstance(score, list | tuple) and len(score) == 2
        else ""
    )
    if kind == "goal":
        return f"{at} GOAL for {who}! {score_text}"
    if kind == "half_time":
        return f"Half time: {score_text}" if score_text else "Half time"
    if kind == "full_time":
        return f"Full time: {score_text}" if score_text else "Full time"
    if kind in ("yellow", "yellow_card"):
        why = f" ({why_words(str(note['why']))})" if note.get("why") else ""
        return f"{at} Yellow card for {who}{why}"
    if kind in ("red", "red_card", "sent_off"):
        why = f" ({why_words(str(note['why']))})" if note.get("why") else ""
        return f"{at} Red card for {who}{why}"
    if kind == "injury":
        if note.get("permanent"):
            return f"{at} {who} player injured, out for the rest of the match"
        if note.get("out_minutes") is None:  # rulebook 2.0 (A4) counts turns, not minutes
            return f"{at} {who} player injured"
        return f"{at} {who} player injured, out for {note.get('out_minutes')} minutes"
    if kind == "substitution":
        return f"{at} {who} substitution: {choice_text('substitution', note.get('type', ''), names)}"
    if kind == "goal_attempt":
        return f"{at} {who} shot from {place_of(str(note.get('area')), side, names)} — no goal"
    if kind == "special_event":
        return f"{at} Special event: {special_event_words(note, names)}"
    if kind == "free_kick":  # the team awarded it; a foul in its own end is in "their own" area
        why = f" ({why_words(str(note['why']))})" if note.get("why") else ""
        return f"{at} Free kick for {who} in {place_of(str(note.get('area')), side, names)}{why}".strip()
    if kind == "pressing_won":
        return f"{at} {who} won the ball by pressing in {place_of(str(note.get('area')), side, names)}"
    if kind == "extra_time":
        return f"Extra time: {score_text}" if score_text else "Extra time"
    if kind == "coach_sent_off":
        return f"{at} {who} coach sent off (fiery coach, A11)".strip()
    if isinstance(kind, str):
        details = ", ".join(
            f"{words(k)} {area(str(v), names) if k == 'area' else why_words(str(v)) if k == 'why' else v}"
            for k, v in note.items()
            # ``text`` is a page's own rendering of this very note (matches.replay): never repeated
            if k not in ("kind", "turn", "minute", "team", "text", "i") and isinstance(v, str | int)
        )
        return (
            f"{at} {who + ': ' if who else ''}{words(kind)}{' (' + details + ')' if details else ''}".strip()
        )
    return None


def special_event_words(note: Mapping[str, Any], names: Names) -> str:
    """A special event as people say it; rulebook 2.0's rows name the teams they are about."""
    event = str(note.get("event", ""))
    text = _SPECIAL_EVENTS_2.get(event)
    if text is None:
        return _SPECIAL_EVENTS_3.get(event) or words(event)
    ct = str(note.get("team") or "home")
    return text.format(ct=team(ct, names), pt=team("away" if ct == "home" else "home", names))


# ------------------------------------------------------------------ following a match, turn by turn
# An entry is one step of the match as a spectator's page has it: {"turn", "minute", "event" (a
# fuba-log/1 event, or None when only the engine's notes are known, as on the live panel), "notes"
# (the engine's notes it produced), "i" (where a page can jump to: the replay's frame)}.
