"""What the competition services share: the refusal naming the field to fix, whether fixtures have been
played, the next free match numbers of a competition.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Max, Model

from kernel.errors import ApplicationError
from tournaments.models import (
    Competition,
    Fixture,
)

# FUBA rulebook 3, advanced rules A1–A13 (A12 is referred to but missing from the text; the
# engine accepts it as another name of A13).


def invalid(message: str, field: str) -> ApplicationError:
    """A refusal that names the field to fix (the API puts it in `details.field`)."""
    return ApplicationError(message, code="invalid", details={"field": field})


def text_check(value: object, *, model: type[Model], column: str, field: str) -> str:
    """Text typed into a form that goes to ``model.column``: within its length and without a NUL
    character (PostgreSQL refuses one), else a refusal naming ``field``, not a database error."""
    text = str(value)
    if "\x00" in text:
        raise invalid(f"{field}: contains a NUL character.", field)
    limit = getattr(model._meta.get_field(column), "max_length", None)
    if limit is not None and len(text) > limit:
        raise invalid(f"{field}: at most {limit} characters, not {len(text)}.", field)
    return text


def any_played(fixtures: Any) -> bool:
    """Whether any of these fixtures has a result (counted or on its way)."""
    return bool(fixtures.exclude(status=Fixture.Status.SCHEDULED).exists())


class MatchNumbering:
    def __init__(self, competition: Competition) -> None:
        self.next = (competition.fixtures.aggregate(m=Max("match_number"))["m"] or 0) + 1

    def take(self) -> int:
        number = self.next
        self.next += 1
        return number
