"""The engine's errors for what the pure rules of rulebook 2.0 refuse: every refusal is written
"chapter: reason" and raised as the engine's error with that chapter (``errors``), never as a
bare ValueError, so a caller (the flow, a page, a test) reads turn, stage and rule alike."""

from __future__ import annotations

from ..errors import HeaderError, IllegalEventError


def _split(problem: str) -> tuple[str, str]:
    rule, _, reason = problem.partition(": ")
    return (rule, reason) if reason else ("", problem)


def illegal(problem: str) -> IllegalEventError:
    """An event or a computation the rules do not allow here ("4.8.1: why")."""
    rule, reason = _split(problem)
    return IllegalEventError(reason, rule=rule)


def bad_header(problem: str) -> HeaderError:
    """A team sheet rulebook 2.0 does not allow (2.1 formations, A2 roles, A6 styles)."""
    rule, reason = _split(problem)
    return HeaderError(reason, rule=rule)
