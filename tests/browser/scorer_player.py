"""A scripted player of the scorer page: it answers every question through the page as a table
would and counts what that costs (taps, the text read per question, whether the question fits the
screen with the pitch in view).

It chooses like the engine's heuristic coach, not the first option: the coach reads the match the
server holds (rebuilt here from the session's stored events) and the player enters its answer with
the page's own controls: a drag for a move (one tap), a tap on an area for a place, a chip, the
dock's usual answer, the set-up editor (a preset, then area by area), one tap per die face with
typed dice (an answer followed at once by its roll entered with that roll's faces on its row) or
"Roll" with app dice. What the page answers itself (one legal answer, rolls that
follow a roll with app dice) costs no tap. Used by tests/browser/test_scorer_taps.py (a few turns
in the default run, whole matches under the slow marker for `make bench`)."""

from __future__ import annotations

import json
import random
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from matchplay.engine_door import (
    Dice,
    Match,
    after_default,
    event_from_dict,
    new_match,
    pitch_input,
    rolls_after,
    snapshot,
)
from rules_engine.api import HeuristicCoach
from scoring.models import ScoringEvent, ScoringSession
from tests.scoring.helpers import make_fixture

PHONE = {"width": 390, "height": 844}
PASSWORD = "scorer-player-password"

# What the page shows for the open question, read in one round trip: the question, the text
# options (chips and the dock's answer), where the pitch and the controls are on the screen.
READ = """() => {
  const root = document.getElementById("scorer");
  const q = (s) => Array.from(root.querySelectorAll(s)).filter((e) => e.offsetParent !== null);
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  const pitch = root.querySelector("[data-pitch]");
  const dock = root.querySelector('[data-testid="sc-dock"]');
  const controls = q('.chip, [data-testid="sc-dock-answer"] button, .face');
  return {
    seq: +root.dataset.seq, queue: root.dataset.queue, status: root.dataset.status,
    question: [root.querySelector('[data-testid="sc-question"]'), ...q('[data-testid="sc-then"]')]
      .map((e) => e.textContent).join(" "),
    auto: +root.dataset.auto || 0,
    chips: q('[data-testid="sc-option"]').map((e) => e.textContent),
    dock: q('[data-testid="sc-dock-answer"] button').map((e) => e.textContent),
    scrollY: window.scrollY, height: window.innerHeight,
    pitch: pitch ? box(pitch) : null, dockTop: dock ? dock.getBoundingClientRect().top : null,
    controls: controls.map(box),
  };
}"""


# a chip of the open question (not one of the next decision's, pending.then)
CHIP = "[data-testid=sc-option]:not([data-then])"
# a move's answer: FROM>TO between area codes (GK: the keeper), +ball for a dribble
MOVE = re.compile(r"^(?:[HA]-[A-Z]+|CENTRE|GK)>(?:[HA]-[A-Z]+|CENTRE)(?:\+ball)?$")


@dataclass
class Tally:
    """What a run cost: taps, the text of each question, the fit on the screen."""

    taps: int = 0
    turns: int = 0
    questions: int = 0
    answered_by_page: int = 0
    chars: list[int] = field(default_factory=list)
    text_options: list[int] = field(default_factory=list)
    fits: list[bool] = field(default_factory=list)
    misfits: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    taps_by_question: Counter[str] = field(default_factory=Counter)
    taps_by_answer: Counter[str] = field(default_factory=Counter)  # "free_move: done+action"...
    events: int = 0

    def summary(self) -> dict[str, Any]:
        turns = max(self.turns, 1)
        return {
            "taps": self.taps,
            "turns": self.turns,
            "taps_per_turn": round(self.taps / turns, 2),
            "questions": self.questions,
            "answered_by_page": self.answered_by_page,
            "median_chars": statistics.median(self.chars) if self.chars else 0,
            "max_text_options": max(self.text_options, default=0),
            "fit_share": round(sum(self.fits) / len(self.fits), 3) if self.fits else 1.0,
            "misfits": self.misfits[:5],
            "events": self.events,
            "taps_by_question": dict(self.taps_by_question.most_common()),
            "taps_by_answer": dict(self.taps_by_answer.most_common()),
        }


class Player:
    def __init__(
        self, page: Any, session_id: int, *, app_dice: bool, seed: int = 1, shots: Any = None
    ) -> None:
        self.page = page
        self.shots = shots  # a folder: one screenshot of the first question of each kind
        self.shot_names: set[str] = set()
        self.session_id = session_id
        self.app_dice = app_dice
        self.dice = Dice(f"typed:{seed}")
        self.coaches = {side: HeuristicCoach(random.Random(f"{side}:{seed}")) for side in ("home", "away")}
        session = ScoringSession.objects.get(id=session_id)
        self.match: Match = new_match(dict(session.header))
        self.applied = 0
        self.tally = Tally()

    # ------------------------------------------------------------------ the server's match
    def _sync(self, seq: int) -> None:
        rows = ScoringEvent.objects.filter(
            session_id=self.session_id, undone_at__isnull=True, seq__gt=self.applied, seq__lte=seq
        ).order_by("seq")
        for row in rows.values_list("data", flat=True):
            self.match.apply(event_from_dict(dict(row)))
            self.applied += 1

    def _settled(self) -> dict[str, Any]:
        self.page.wait_for_function(
            "() => { const r = document.getElementById('scorer'); return r.dataset.queue === '0'; }"
        )
        return self.page.evaluate(READ)

    def _wait_past(self, seq: int) -> None:
        self.page.wait_for_function(
            "(s) => { const r = document.getElementById('scorer');"
            " return (+r.dataset.seq > s && r.dataset.queue === '0') || r.dataset.status !== 'live'; }",
            arg=seq,
        )

    # ------------------------------------------------------------------ gestures
    def _tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.tally.taps += 1

    def _centre(self, code: str) -> tuple[float, float]:
        area = self.page.locator(f'[data-area="{code}"]')
        area.scroll_into_view_if_needed()  # a question that did not fit may have scrolled it away
        b = area.bounding_box()
        assert b is not None, code
        return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2

    def _tap_area(self, code: str) -> None:
        x, y = self._centre(code)
        self.page.mouse.click(x, y)
        self.tally.taps += 1

    def _drag(self, src: str, dst: str) -> None:
        (x1, y1), (x2, y2) = self._centre(src), self._centre(dst)
        self.page.mouse.move(x1, y1)
        self.page.mouse.down()
        self.page.mouse.move(x2, y2, steps=3)
        self.page.mouse.up()
        self.tally.taps += 1  # a drag counts as one tap

    # ------------------------------------------------------------------ one question
    def _measure(self, shown: dict[str, Any]) -> None:
        text_options = [*shown["chips"], *shown["dock"]]
        self.tally.questions += 1
        self.tally.texts.append(" ".join([shown["question"], *text_options]))
        self.tally.chars.append(len(shown["question"]) + sum(len(t) for t in text_options))
        self.tally.text_options.append(len(text_options))
        height, dock_top = shown["height"], shown["dockTop"] or shown["height"]
        pitch = shown["pitch"]
        fits = (
            shown["scrollY"] == 0
            and pitch is not None
            and pitch[0] >= 0
            and pitch[1] <= dock_top + 1
            and all(c[0] >= 0 and c[1] <= height + 1 for c in shown["controls"])
        )
        self.tally.fits.append(fits)
        if not fits:
            self.tally.misfits.append(shown["question"])

    def _answer(self, p: Any, shown: dict[str, Any]) -> str:
        """Answer ``p`` through the page; says how (for the breakdown of taps by answer)."""
        if p.kind == "roll":
            if self.app_dice:
                self._tap('[data-testid="sc-roll-for-me"]')
                return "roll"
            for i, face in enumerate(self.dice.roll_for(p).dice):
                self._tap(f'[data-die="{i}"][data-face="{face}"]')
            return "dice"
        choice = self.coaches[p.actor].choose(self.match, p)
        if p.default is not None and choice == p.default:
            return self._default(p)
        if isinstance(choice, dict):
            self._setup(p, choice)
            return "set-up"
        if isinstance(choice, str) and MOVE.match(choice):
            src, dst = choice.removesuffix("+ball").split(">")
            if src == "GK":
                team = snapshot(self.match).home if p.actor == "home" else snapshot(self.match).away
                src = team.gk or src
            self._drag(src, dst)
            chip = self.page.locator(f"{CHIP}[data-choice='{json.dumps(choice)}']")
            if chip.count():  # one more question: with the ball or without
                chip.first.click()
                self.tally.taps += 1
            return "move"
        if isinstance(choice, str) and self.page.locator(f'[data-area="{choice}"].area--pick').count():
            self._tap_area(choice)
            return "area"
        if self._faces(self.match, choice, then=False):
            return "chip+dice"
        chip = f"{CHIP}[data-choice='{json.dumps(choice)}']"
        if not self.page.locator(chip).count():  # in a kind of answer (groups.js): the kind first
            kind = self.page.evaluate(
                "(v) => { const g = Array.from(document.querySelectorAll('[data-group]')).find((b) =>"
                " JSON.parse(b.dataset.choices).some((c) => JSON.stringify(c) === v));"
                " return g ? g.dataset.group : null; }",
                json.dumps(choice),
            )
            assert kind is not None, (p.name, choice)
            self._tap(f"[data-group={json.dumps(kind)}]")
        self._tap(chip)
        return "chip"

    def _faces(self, match: Match, choice: Any, *, then: bool) -> bool:
        """With typed dice, an answer the engine follows at once by a roll is entered with that
        roll's faces on the answer's row (the first face answers the question too): the dice the
        table rolls next, one tap per face. False when the page shows no such row."""
        key = ("then:" if then else "") + json.dumps(choice)
        row = self.page.locator(f"[data-act='{key}']")
        if self.app_dice or not row.count():
            return False
        fork = next((f for c, f in rolls_after(match) if c == choice), None)
        roll = fork.pending() if fork is not None else None
        assert roll is not None and roll.kind == "roll", (choice, roll)
        faces = self.dice.roll_for(roll).dice
        row.locator(f'[data-act-die="0"][data-face="{faces[0]}"]').click()
        self.tally.taps += 1
        for i, face in enumerate(faces[1:], start=1):
            self._tap(f'[data-act-die="{i}"][data-face="{face}"]')
        return True

    def _default(self, p: Any) -> str:
        """The usual answer ("done", "no"): when the page offers the answers of the decision that
        follows it (pending.then), the coach's answer to that one is tapped instead, one tap for
        both, as a table would; else the dock's button."""
        fork = after_default(self.match) if self.page.locator('[data-testid="sc-then"]').count() else None
        nxt = fork.pending() if fork is not None else None
        if nxt is not None:
            then = self.coaches[nxt.actor].choose(fork, nxt)
            if self._faces(fork, then, then=True):
                return f"{p.default}+{nxt.name}+dice"
            chip = self.page.locator(f"[data-then][data-choice='{json.dumps(then)}']")
            if chip.count():
                self._tap(f"[data-then][data-choice='{json.dumps(then)}']")
                return f"{p.default}+{nxt.name}"
            if isinstance(then, str) and self.page.locator(f'[data-area="{then}"].area--pick').count():
                self._tap_area(then)
                return f"{p.default}+{nxt.name}"
        self._tap('[data-testid="sc-default"]')
        return str(p.default)

    def _setup(self, p: Any, choice: dict[str, Any]) -> None:
        """From the closest preset: one drag per player moved, the keeper dragged too."""
        presets = [o for o in p.options if isinstance(o, dict)]

        def surplus(preset: dict[str, Any]) -> dict[str, int]:
            areas = set(preset["players"]) | set(choice["players"])
            return {a: preset["players"].get(a, 0) - choice["players"].get(a, 0) for a in areas}

        def cost(preset: dict[str, Any]) -> int:
            moved = sum(n for n in surplus(preset).values() if n > 0)
            return moved + 2 * (preset.get("gk") != choice.get("gk"))

        board = pitch_input(self.match)
        first = board.start if board is not None else 0  # where the editor starts
        best = min(range(len(presets)), key=lambda i: (cost(presets[i]) + (i != first), i != first))
        if best != first:
            self._tap(f'[data-testid="sc-setup-preset"] >> nth={best}')
        start = presets[best]
        if choice.get("gk") != start.get("gk"):
            self._tap_area(choice["gk"])
            self._tap('[data-testid="sc-setup-keeper"]')
        diff = surplus(start)
        sources = [a for a, n in sorted(diff.items()) for _ in range(n) if n > 0]
        targets = [a for a, n in sorted(diff.items()) for _ in range(-n) if n < 0]
        for src, dst in zip(sources, targets, strict=False):
            self._drag(src, dst)
        self.page.wait_for_selector('[data-testid="sc-setup-use"]:not([disabled])')
        self._tap('[data-testid="sc-setup-use"]')

    # ------------------------------------------------------------------ the loop
    def choose_dice(self) -> None:
        if self.app_dice:
            self._tap('[data-testid="sc-dice-app"]')
            self.page.wait_for_function(
                "() => document.querySelector('[data-testid=sc-dice-app]')"
                ".getAttribute('aria-pressed') === 'true'"
            )

    def step(self, *, turns: int | None = None) -> bool:
        """Answer the open question (or wait for the page to answer it); False at full time or
        once ``turns`` turns were played."""
        shown = self._settled()
        self._sync(shown["seq"])
        p = self.match.pending()
        st = snapshot(self.match)
        self.tally.turns = st.turn
        self.tally.events = shown["seq"]
        # what the page answered itself, as the page counts it (data-auto on the scorer's root)
        self.tally.answered_by_page = shown["auto"]
        if p is None or shown["status"] != "live" or (turns is not None and st.turn > turns):
            return False
        self._measure(shown)
        if self.shots is not None and p.name not in self.shot_names:
            self.shot_names.add(p.name)
            self.page.screenshot(path=str(self.shots / f"scorer-phone-q-{p.name}.png"))
        before = self.tally.taps
        how = self._answer(p, shown)
        self.tally.taps_by_question[p.name] += self.tally.taps - before
        self.tally.taps_by_answer[f"{p.name}: {how}"] += self.tally.taps - before
        self._wait_past(shown["seq"])
        return True

    def play(self, *, turns: int | None = None) -> Tally:
        """Answer questions until full time (or until ``turns`` turns were played)."""
        self.choose_dice()
        while self.step(turns=turns):
            pass
        return self.tally


def open_scorer(browser: Any, live_server: Any, settings: Any, *, advanced_rules: Any = None) -> Any:
    """A new fixture's scorer on a phone (390×844), opened by a member of the home club from the
    match page: (browser context, page, session)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = make_fixture(advanced_rules=advanced_rules or ["A1", "A11"], skills=1)
    s.home_user.set_password(PASSWORD)
    s.home_user.save()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("input[name=username]", s.home_user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/c/{s.fixture.competition.slug}/matches/{s.fixture.id}/")
    page.get_by_test_id("score-live").click()
    page.wait_for_url("**/score/*/")
    page.wait_for_selector("#scorer[data-ready='1']")
    session = ScoringSession.objects.get(fixture=s.fixture)
    return context, page, session
