"""What a rule module sees of a match: :class:`MatchContext`.

The rules are generator functions that take the match as ``m``; they read and
change ``m.st`` and build their requests with ``ask`` / ``ask_yes_no`` /
``roll``, report refusals with ``illegal`` and record notable happenings with
``note``.  :class:`~rules_engine.machine.Match` extends this class with the
driving API (``pending`` / ``apply``); keeping the rule modules' view here
lets them import it at the top without importing the machine that imports
them.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Final

from . import board as B
from . import decisions as D
from .errors import IllegalEventError
from .events import Event, Pending, answer_choice
from .state import Header, MatchState, new_state

_TEAM_NAMES: Final = B.TEAM_NAMES


def _yes_no() -> tuple[Any, ...]:
    return ("yes", "no")


_YES_NO: Final = _yes_no


SetupAt = tuple[list[int], int]  # players per area, the goalkeeper's area


class MatchContext:
    """The state of one match and the means to ask for its next event."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.st: MatchState = new_state(header)
        self.log: list[dict[str, Any]] = []  # notable happenings (goals, cards, injuries)
        # optional prompts passed over since the last event: (name, actor, default answer)
        self.skipped: list[tuple[str, str, Any]] = []
        # each team's last set-up of each kind: (team, kind) -> (players per area, goalkeeper's
        # area); offered again as a preset while it is legal (tables set up as they did before,
        # and a set-up made on the board costs a tap per player moved)
        self.setups: dict[tuple[int, str], tuple[list[int], int]] = {}
        # what the ruleset's flow keeps besides ``st`` (FUBA 2: ``fuba2.turnstate.F2``), for
        # the pages and the tests; None for FUBA 3
        self.extra: Any = None

    def ask(
        self,
        name: str,
        actor: int,
        rule: str,
        options: Callable[[], tuple[Any, ...]],
        verify: Callable[[Any], None] | None = None,
        prompt: str = "",
        open_choice: bool = False,
        default: Any = None,
        check: Callable[[Any], str | None] | None = None,
    ) -> Pending:
        """A decision of team ``actor``; ``options`` lists the legal answers,
        ``verify`` (when given) checks one answer without listing them all, ``check``
        (when given) says why an answer is illegal without raising (``Pending.check_fn``)."""
        st = self.st
        return Pending(
            "decision",
            name,
            _TEAM_NAMES[actor],
            st.turn,
            st.stage,
            rule,
            prompt,
            0,
            6,
            open_choice,
            options,
            verify,
            default,
            False,
            check,
        )

    def ask_yes_no(self, name: str, actor: int, rule: str, prompt: str = "", moot: bool = False) -> Pending:
        """A yes/no decision whose answer a log may leave out ("no"); ``moot`` when "yes"
        would change nothing in play (Pending.moot)."""
        if moot:
            st = self.st
            return Pending(
                "decision",
                name,
                _TEAM_NAMES[actor],
                st.turn,
                st.stage,
                rule,
                prompt,
                0,
                6,
                False,
                _YES_NO,
                None,
                "no",
                True,
            )
        return self.ask(name, actor, rule, _YES_NO, None, prompt, False, "no")

    def skip(self, name: str, actor: int, default: Any) -> None:
        """Pass over an optional prompt that has no real choice (its default is the only
        answer). A log written when the prompt was still asked may answer it here with its
        default: ``Match.apply`` takes that answer as read, so such logs still replay."""
        self.skipped.append((name, _TEAM_NAMES[actor], default))

    def roll(
        self, name: str, actor: int | None, n: int, rule: str, prompt: str = "", sides: int = 6
    ) -> Pending:
        """A roll of ``n`` dice by team ``actor`` (None: both teams, one die each)."""
        st = self.st
        who = "both" if actor is None else _TEAM_NAMES[actor]
        return Pending("roll", name, who, st.turn, st.stage, rule, prompt, n, sides, False, None, None, None)

    def illegal(self, reason: str, rule: str) -> IllegalEventError:
        """The error that refuses an event, located at the current turn and stage."""
        return IllegalEventError(reason, rule=rule, turn=self.st.turn, stage=self.st.stage)

    def note(self, kind: str, **data: Any) -> None:
        """Record a notable happening (goal, card, injury...) for the result."""
        data["kind"] = kind
        data["turn"] = self.st.turn
        data["minute"] = self.st.minute_label()
        self.log.append(data)

    def ask_setup(
        self,
        team: int,
        rule: str,
        prompt: str,
        parse: Callable[[Any], SetupAt],
        problem: Callable[[list[int], int], tuple[str, str] | None],
        suggest: Callable[[], tuple[Any, ...]],
    ) -> Generator[Pending, Event, SetupAt]:
        """One team's set-up, asked, checked and placed: shared by both rulebooks' set pieces,
        each supplying its parse, its placement rules (``problem``: rule and reason) and presets."""

        # the answer verify parsed, kept for the flow: the match hands the verified choice on
        # at once, and a set-up is the dearest answer to parse
        seen: list[Any] = [None, None]

        def verify(c: Any) -> None:
            at = parse(c)
            why = problem(at[0], at[1])
            if why is not None:
                raise IllegalEventError(f"illegal set-up: {why[1]}", rule=why[0])
            seen[0] = c
            seen[1] = at

        ev = yield self.ask(D.SETUP, team, rule, suggest, verify, prompt, True)
        c = answer_choice(ev)
        field, gk = seen[1] if seen[0] is c and c is not None else parse(c)
        ts = self.st.teams[team]
        ts.field[:] = field
        ts.gk = gk
        return field, gk
