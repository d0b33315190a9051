"""The result audit trail in words: card kinds by name, each audit entry as a sentence."""

from __future__ import annotations

from typing import Any

from matches.forms import CARD_WORDS
from matches.models import ResultAudit, ResultSubmission
from tournaments.models import Fixture


def score(data: dict[str, Any] | None) -> str:
    if not data:
        return "no result"
    text = f"{data.get('home_goals')}–{data.get('away_goals')}"
    if data.get("home_penalties") is not None:
        text += f" ({data['home_penalties']}–{data['away_penalties']} on penalties)"
    elif data.get("extra_time"):
        text += " after extra time"
    return text


def scoreline(fixture: Fixture, data: dict[str, Any] | None) -> str:
    """ "Australia 1–2 Serbia": the score with the team names, home first."""
    if not data:
        return "no result"
    return f"{_team_name(fixture, 'home')} {score(data)} {_team_name(fixture, 'away')}"


def _team_name(fixture: Fixture, side: str) -> str:
    team = fixture.home_team if side == "home" else fixture.away_team
    return team.name if team else side


def _card(fixture: Fixture, card: dict[str, Any]) -> str:
    kind = CARD_WORDS.get(card.get("kind", ""), card.get("kind", "")).lower()
    shirt = f" of #{card['shirt_number']}" if card.get("shirt_number") else ""
    return f"the {kind}{shirt} ({_team_name(fixture, card.get('team', ''))})"


def _result_of(entry: ResultAudit) -> dict[str, Any] | None:
    after = entry.after or {}
    return after.get("result", after) if isinstance(after, dict) else None


def _who(entry: ResultAudit) -> str:
    """The person and their standing when they acted: "mia (results desk)"."""
    if entry.actor is None:
        return ""
    return f"{entry.actor.username} ({entry.actor_role})" if entry.actor_role else entry.actor.username


def audit_sentences(fixture: Fixture) -> list[str]:
    """ "Serbia reported 2–1, by serbia (member of Belgrade FC)", "mia (results desk) resolved as
    2–1" ...: every entry names who acted and their role in the competition."""
    submissions = {s.id: s for s in ResultSubmission.objects.filter(fixture=fixture).select_related("team")}
    lines = []
    for entry in fixture.audit_entries.select_related("actor").order_by("created_at", "id"):
        after = entry.after if isinstance(entry.after, dict) else {}
        sub = submissions.get(int(after.get("submission") or 0))
        team = sub.team.name if sub is not None and sub.team else ""
        who = _who(entry)
        by = f", by {who}" if who else ""
        action = entry.action
        if action == ResultAudit.Action.SUBMIT:
            line = f"{team or who or 'staff'} reported {scoreline(fixture, after)}{by if team else ''}"
        elif action == ResultAudit.Action.DISPUTE and sub is not None:
            opponent = fixture.away_team if sub.team_id == fixture.home_team_id else fixture.home_team
            cards = [_card(fixture, sub.cards[i]) for i in (sub.disputed_cards or []) if i < len(sub.cards)]
            what = ", ".join(cards) if cards else f"the score {scoreline(fixture, after)}"
            line = f"{opponent.name if opponent else 'the opponent'} disputed {what}{by}"
        elif action == ResultAudit.Action.CONFIRM:
            line = f"the result was confirmed{by}"
        elif action == ResultAudit.Action.RESOLVE:
            line = f"{who or 'staff'} resolved as {scoreline(fixture, _result_of(entry))}"
        elif action == ResultAudit.Action.OVERRIDE:
            line = f"{who or 'staff'} set the result to {scoreline(fixture, _result_of(entry))}"
        else:
            line = f"{entry.get_action_display().lower()}{by}"
        if entry.note:
            line += f" (“{entry.note}”)"
        lines.append(line)
    return lines
