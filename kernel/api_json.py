"""JSON input the API can hold: not nested past MAX_DEPTH, text that is UTF-8, and (in stored documents)
no NUL character.

Python's json module decodes recursively: a body of a few thousand nested brackets raised RecursionError,
which neither DRF's parser nor its JSONField catches (a 500). The parser and the field here answer
with a 400 instead, and refuse anything nested deeper than any real document is (a turn log is a
handful of levels), so the code that walks a document later cannot hit the limit either.
PostgreSQL cannot store U+0000 in jsonb (a 500 when a turn log holding one was saved).
A JSON escape can name half of a UTF-16 surrogate pair alone ("\\ud800"): Python decodes it into a
string that cannot be encoded as UTF-8, so PostgreSQL, the cache and the log writer all fail on
it, wherever it goes (a username, a reason, a turn log). The parser refuses it with a 400 naming
the field, before any view sees it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework import parsers, serializers
from rest_framework.exceptions import ParseError, ValidationError

MAX_DEPTH = 100


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _text_ok(text: str) -> bool:
    # isascii() is one C pass; only other text pays for the encoding.
    return text.isascii() or _utf8(text)


def _walk(value: Any) -> tuple[int, bool, bool]:
    """(deepest nesting, whether any string or key holds a NUL, whether any cannot be encoded as
    UTF-8), without recursion.

    Level by level, touching each value once: it runs on every turn log sent to the API (twice:
    parser and field), and the earlier stack of (value, depth) tuples cost more than replaying
    the match with the compiled engine.
    """
    deepest, nul, unencodable = 0, False, False
    level = [value]
    while level and deepest <= MAX_DEPTH:
        below: list[Any] = []
        containers = False
        for item in level:
            if isinstance(item, str):
                nul = nul or "\x00" in item
                unencodable = unencodable or not _text_ok(item)
            elif isinstance(item, dict):
                containers = True
                nul = nul or any("\x00" in str(key) for key in item)
                unencodable = unencodable or not all(_text_ok(str(key)) for key in item)
                below.extend(item.values())
            elif isinstance(item, list):
                containers = True
                below.extend(item)
        if containers:
            deepest += 1
        level = below
    return deepest, nul, unencodable


def unencodable_text(value: Any, path: str = "") -> tuple[str, str] | None:
    """(field path, the text) of the first string or key that cannot be encoded as UTF-8, or None.

    The path is spelled as the API's error details spell one (`events[3].note`); a bad key is
    named by its parent's path. Called only once _walk found one, on a document whose depth is
    already bounded.
    """
    return _first_text(value, lambda text: not _text_ok(text), path)


def nul_text(value: Any, path: str = "") -> tuple[str, str] | None:
    """(field path, the text) of the first string or key holding a NUL character, or None."""
    return _first_text(value, lambda text: "\x00" in text, path)


def _first_text(value: Any, bad: Callable[[str], bool], path: str = "") -> tuple[str, str] | None:
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            if bad(item):
                return where, item
        elif isinstance(item, dict):
            for key, child in reversed(item.items()):
                if bad(str(key)):
                    return where, str(key)
                stack.append((f"{where}.{key}" if where else str(key), child))
        elif isinstance(item, list):
            stack.extend((f"{where}[{index}]", child) for index, child in reversed(list(enumerate(item))))
    return None


TOO_DEEP = f"JSON nested more than {MAX_DEPTH} levels deep is not accepted."
NOT_UTF8 = (
    "Text must be valid Unicode: a lone UTF-16 surrogate (an escape such as \\ud800 without its pair) "
    "cannot be stored."
)


NUL = "Text may not contain the NUL character (\\u0000): PostgreSQL cannot store it."


def _refuse_unencodable(data: Any) -> None:
    found = unencodable_text(data)
    if found is not None:
        where, _text = found
        # The text itself is not echoed: it cannot be encoded into the response either.
        raise ValidationError({where or "non_field_errors": [NOT_UTF8]})


def _refuse_nul(data: Any) -> None:
    found = nul_text(data)
    if found is not None:
        raise ValidationError({found[0] or "non_field_errors": [NUL]})


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - {TOO_DEEP}") from None
        deepest, nul, unencodable = _walk(data)
        if deepest > MAX_DEPTH:
            raise ParseError(f"JSON parse error - {TOO_DEEP}")
        if unencodable:
            _refuse_unencodable(data)
        if nul:
            # Any text field: a slug or name holding one reached a query (a 500 from PostgreSQL).
            _refuse_nul(data)
        return data


def _refuse_nul_fields(data: Any) -> None:
    for key, values in data.lists():
        if "\x00" in key or any("\x00" in value for value in values):
            raise ValidationError({key.replace("\x00", "") or "non_field_errors": [NUL]})


class FormParser(parsers.FormParser):
    """Form bodies: no NUL character either (%00 decodes to one)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        _refuse_nul_fields(data)
        return data


class MultiPartParser(parsers.MultiPartParser):
    """Multipart bodies: the same for their fields (files are read as files)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        _refuse_nul_fields(parsed.data)
        return parsed


class JSONDocumentField(serializers.JSONField):
    """A JSON document (a turn log): bounded nesting and no NUL character, also when sent as form text."""

    default_error_messages = {
        "too_deep": TOO_DEEP,
        "nul": "Text in the document may not contain the NUL character (\\u0000).",
        "not_utf8": NOT_UTF8,
    }

    def to_internal_value(self, data: Any) -> Any:
        try:
            value = super().to_internal_value(data)
        except RecursionError:
            self.fail("too_deep")
        deepest, nul, unencodable = _walk(value)
        if deepest > MAX_DEPTH:
            self.fail("too_deep")
        if nul:
            self.fail("nul")
        if unencodable:
            where, _text = unencodable_text(value) or ("", "")
            raise ValidationError(f"{NOT_UTF8} (at {where or 'the top'})")
        return value
