"""JSON input the API can hold: not nested past MAX_DEPTH, and (in stored documents) no NUL character.

Python's json module decodes recursively: a body of a few thousand nested brackets raised RecursionError,
which neither DRF's parser nor its JSONField catches (a 500). The parser and the field here answer
with a 400 instead, and refuse anything nested deeper than any real document is (a turn log is a
handful of levels), so the code that walks a document later cannot hit the limit either.
PostgreSQL cannot store U+0000 in jsonb (a 500 when a turn log holding one was saved).
"""

from __future__ import annotations

from typing import Any

from rest_framework import parsers, serializers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 100


def _walk(value: Any) -> tuple[int, bool]:
    """(deepest nesting, whether any string or key holds a NUL), without recursion.

    Level by level, touching each value once: it runs on every turn log sent to the API (twice:
    parser and field), and the earlier stack of (value, depth) tuples cost more than replaying
    the match with the compiled engine.
    """
    deepest, nul = 0, False
    level = [value]
    while level and deepest <= MAX_DEPTH:
        below: list[Any] = []
        containers = False
        for item in level:
            if isinstance(item, str):
                nul = nul or "\x00" in item
            elif isinstance(item, dict):
                containers = True
                nul = nul or any("\x00" in str(key) for key in item)
                below.extend(item.values())
            elif isinstance(item, list):
                containers = True
                below.extend(item)
        if containers:
            deepest += 1
        level = below
    return deepest, nul


TOO_DEEP = f"JSON nested more than {MAX_DEPTH} levels deep is not accepted."


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - {TOO_DEEP}") from None
        if _walk(data)[0] > MAX_DEPTH:
            raise ParseError(f"JSON parse error - {TOO_DEEP}")
        return data


class JSONDocumentField(serializers.JSONField):
    """A JSON document (a turn log): bounded nesting and no NUL character, also when sent as form text."""

    default_error_messages = {
        "too_deep": TOO_DEEP,
        "nul": "Text in the document may not contain the NUL character (\\u0000).",
    }

    def to_internal_value(self, data: Any) -> Any:
        try:
            value = super().to_internal_value(data)
        except RecursionError:
            self.fail("too_deep")
        deepest, nul = _walk(value)
        if deepest > MAX_DEPTH:
            self.fail("too_deep")
        if nul:
            self.fail("nul")
        return value
