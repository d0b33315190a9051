"""Card entry for staff forms (the admin's result desks and the organiser console): one row per
card with the team by name, the player's shirt from the game system's numbers and the kind in
words, as the game system allows (matches' rules in tournaments.game_systems)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from matches.models import CardKind
from tournaments.game_systems import rules_of
from tournaments.models import Fixture

CARD_WORDS = dict(CardKind.choices)
CARD_ROWS = 4


def card_text(fixture: Fixture, card: Mapping[str, Any]) -> str:
    """ "Yellow card, Australia #7"."""
    team = fixture.home_team if card.get("team") == "home" else fixture.away_team
    shirt = f" #{card['shirt_number']}" if card.get("shirt_number") else ""
    return f"{CARD_WORDS.get(card.get('kind', ''), card.get('kind', ''))}, {team or card.get('team')}{shirt}"


def add_card_rows(form: forms.Form, fixture: Fixture, rows: int = CARD_ROWS) -> int:
    """Add the card rows to `form` (none for a game without cards); returns how many."""
    rules = rules_of(fixture.competition).cards
    if not rules.kinds:
        return 0
    home, away = str(fixture.home_team or "Home side"), str(fixture.away_team or "Away side")
    shirts = [("", "—")] + [(str(n), f"#{n}") for n in rules.shirt_numbers] if rules.per_player else []
    for i in range(rows):
        form.fields[f"card_{i}_team"] = forms.ChoiceField(
            required=False, choices=[("", "—"), ("home", home), ("away", away)], label=f"Card {i + 1}: team"
        )
        if shirts:
            form.fields[f"card_{i}_shirt"] = forms.ChoiceField(required=False, choices=shirts, label="Player")
        form.fields[f"card_{i}_kind"] = forms.ChoiceField(
            required=False,
            choices=[("", "—")] + [(k, CARD_WORDS.get(k, k)) for k in rules.kinds],
            label="Card",
        )
    return rows


def card_rows_initial(cards: Sequence[Mapping[str, Any]], rows: int = CARD_ROWS) -> dict[str, Any]:
    """A result's or a report's cards as the rows' initial values."""
    initial: dict[str, Any] = {}
    for i, card in enumerate(list(cards)[:rows]):
        initial[f"card_{i}_team"] = card.get("team")
        initial[f"card_{i}_kind"] = card.get("kind")
        if card.get("shirt_number"):
            initial[f"card_{i}_shirt"] = str(card["shirt_number"])
    return initial


def cards_from_rows(data: Mapping[str, Any], rows: int) -> list[dict[str, Any]]:
    """The filled rows as the results services' card input (they check kinds and numbers)."""
    cards = []
    for i in range(rows):
        team, kind = data.get(f"card_{i}_team"), data.get(f"card_{i}_kind")
        if team and kind:
            shirt = data.get(f"card_{i}_shirt")
            cards.append({"team": team, "kind": kind, "shirt_number": int(shirt) if shirt else None})
        elif team or kind:
            raise forms.ValidationError(f"Card {i + 1}: choose both the team and the card.")
    return cards
