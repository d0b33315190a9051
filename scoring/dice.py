"""How a session's dice are rolled, as the two clubs agreed it (docs/scorer.md, "App dice").

The session keeps every word the clubs said about the dice, in order, in ``dice_record``: who
(club and member), when, at which event, and what. This module reads that record (what stands
now: whose choice, whether the other club agreed, a change asked for) and decides what a club's
word does, as plain functions over the record; scoring.services stores the result under the
session's lock.

The rules, as a table of two clubs would expect them with the fewest taps:
- Dice typed in (rolled at the table) are the default and need nobody's agreement: nobody has
  to trust a phone.
- Before the first event one club's choice of app dice stands at once (play may start), and the
  other club answers with one tap: it agrees, or says "we type our dice", which turns app dice
  off on its own. Either club may go back to typed dice then.
- From the first event the mode changes only with both clubs: a club's word for the other mode
  is a request, and the change is made (from the next roll) when the other club says the same.
  The other club may also decline it; a late "agree" is recorded and changes nothing.
- A club that scored alone, without the other club ever answering, is recorded as such when the
  result is submitted: its choice stands alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

Entry = Mapping[str, Any]

# what an entry says: "chose" (a club set the mode before the first event, ``app_dice``),
# "refused" (the other club said no to app dice before the first event), "agreed", "asked"
# (a change asked for after the first event), "declined" (the other club said no to it),
# "changed" (both clubs: the change asked for is made), "alone" (submitted without an answer)
SETS_MODE = ("chose", "refused")


def entry(what: str, app_dice: bool, side: str, user: Any, *, seq: int, at: datetime) -> dict[str, Any]:
    """A record entry: what was said, the mode it names, the club, its member (None: the app)."""
    return {
        "what": what,
        "app_dice": app_dice,
        "side": side,
        "user": user.get_username() if user is not None else "",
        "user_id": user.pk if user is not None else None,
        "seq": seq,
        "at": at.isoformat(),
    }


@dataclass(frozen=True)
class Standing:
    """What stands now: the entry whose choice the mode is (None: the default, typed dice), the
    other club's agreement to it, and a change asked for and not yet answered."""

    chosen: Entry | None
    agreed: Entry | None
    request: Entry | None


def standing(record: Sequence[Entry]) -> Standing:
    chosen: Entry | None = None
    agreed: Entry | None = None
    request: Entry | None = None
    for entry in record:
        what = entry["what"]
        if what in SETS_MODE:
            chosen, agreed, request = entry, None, None
        elif what == "agreed":
            agreed = entry
        elif what == "asked":
            request = entry
        elif what == "declined":
            request = None
        elif what == "changed":
            chosen, agreed, request = request, entry, None
    return Standing(chosen, agreed, request)


def decide(
    record: Sequence[Entry], *, app_dice: bool, seq: int, side: str, want: bool
) -> tuple[str, bool] | None:
    """What a club's word ``want`` (app dice or not) does: (what is recorded, the mode after), or
    None when it changes nothing (a repeat, or typed dice asked for while they are the mode)."""
    now = standing(record)
    theirs = now.chosen is not None and now.chosen["side"] != side
    if seq == 0:
        if want and app_dice:
            return ("agreed", True) if theirs and now.agreed is None else None
        if want:
            return "chose", True
        if app_dice:
            return ("refused", False) if theirs else ("chose", False)
        return None
    request = now.request
    if want == app_dice:
        if request is not None and request["side"] != side:
            return "declined", app_dice
        if app_dice and theirs and now.agreed is None:
            return "agreed", app_dice
        return None
    if request is not None and request["side"] != side:
        return "changed", want
    if request is not None:
        return None
    return "asked", app_dice


def unanswered(record: Sequence[Entry], *, app_dice: bool) -> bool:
    """App dice stand on one club's word: the other club never agreed."""
    now = standing(record)
    return app_dice and now.chosen is not None and now.agreed is None


def public(record: Sequence[Entry]) -> list[Entry]:
    """The record without the members' names (what the public state and the log carry)."""
    return [{k: v for k, v in entry.items() if k not in ("user", "user_id")} for entry in record]


def _who(entry: Entry, names: Mapping[str, str]) -> str:
    team = names.get(str(entry["side"]), "staff")
    return f"{team} ({entry['user']})" if entry.get("user") else team


def _mode(app_dice: bool) -> str:
    return "app dice" if app_dice else "dice rolled at the table"


def entry_words(entry: Entry, names: Mapping[str, str]) -> str:
    """One entry as a sentence: "Brazil (alice) chose app dice before the first event"."""
    who, mode = _who(entry, names), _mode(bool(entry["app_dice"]))
    at = f"at event {entry['seq']}" if entry["seq"] else "before the first event"
    what = entry["what"]
    if what == "chose":
        return f"{who} chose {mode} {at}"
    if what == "refused":
        return f"{who} refused app dice {at}: {mode}"
    if what == "agreed":
        return f"{who} agreed to {mode} {at}"
    if what == "asked":
        return f"{who} asked for {mode} {at}; the other club must agree"
    if what == "declined":
        return f"{who} declined the change {at}; the dice stay as they were"
    if what == "changed":
        return f"{who} agreed to the change {at}: {mode} from the next roll"
    if what == "alone":
        why = "scored too but never answered" if entry.get("others_scored") else "did not score"
        return f"{who}'s choice of app dice stands alone at submission: the other club {why}"
    return f"{who}: {what} {at}"


def summary(record: Sequence[Entry], *, app_dice: bool, names: Mapping[str, str]) -> str:
    """The mode and who stands behind it, in one line for the page, the admin and the log."""
    now = standing(record)
    if now.chosen is None:
        return "Dice rolled at the table (the default: no club chose app dice)"
    head = f"{_mode(app_dice).capitalize()}: chosen by {_who(now.chosen, names)}"
    if now.chosen["what"] == "refused":
        head = f"{_mode(app_dice).capitalize()}: {_who(now.chosen, names)} said no to app dice"
    if now.agreed is not None:
        head += f", agreed by {_who(now.agreed, names)}"
    elif app_dice and any(e["what"] == "alone" for e in record):
        head += " alone (the other club never answered)"
    elif app_dice:
        head += "; the other club has not answered yet"
    if now.request is not None:
        head += f"; {_who(now.request, names)} asks for {_mode(not app_dice)}"
    return head


def view(record: Sequence[Entry], *, app_dice: bool, names: Mapping[str, str]) -> dict[str, Any]:
    """The state's ``dice``: whose choice the mode is (side, team, at, seq), the other club's
    agreement, a change asked for, the one-line summary and the record in words. The state is
    public while the match is played, so it names clubs, not their members (the admin and the
    audit trail do)."""
    record = public(record)
    now = standing(record)

    def who(entry: Entry | None) -> dict[str, Any] | None:
        if entry is None:
            return None
        return {
            "side": entry["side"],
            "team": names.get(str(entry["side"]), ""),
            "at": entry["at"],
            "seq": entry["seq"],
        }

    request = who(now.request)
    if request is not None and now.request is not None:
        request["app_dice"] = not app_dice
    return {
        "app_dice": app_dice,
        "chosen_by": who(now.chosen),
        "agreed_by": who(now.agreed),
        "request": request,
        "summary": summary(record, app_dice=app_dice, names=names),
        "record": [{**dict(e), "text": entry_words(e, names)} for e in record],
    }
