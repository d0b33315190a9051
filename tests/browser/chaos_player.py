"""A chaos player of the scorer page (issue 31, item 9): it plays through the real page the way the
tap protocol broke, taking every shortcut as soon as it is offered (the next decision's chip
beside the usual answer, the first die of an answer's roll on its row), with no wait for the
server between taps (only for the page's next question), in random offline windows and reloads,
on one or two phones, with app or typed dice. It records every answer the server gave the pages
(status and body) so that a test can check what was refused and that no answer carries anything
that determines a roll.

Used by tests/browser/test_scorer_chaos.py (a short seeded run in the default suite, long ones
under ``slow``) and bench/bench_scorer_chaos.py (20 whole matches, a table)."""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import dataclass, field
from typing import Any

from matchplay.engine_door import Decision, Dice, new_match, snapshot
from scoring import services
from scoring.models import ScoringEvent, ScoringSession, ScoringSideBranch
from scoring.selectors import session_get, session_state
from tests.scoring.helpers import entry, make_fixture, tap

PHONE = {"width": 390, "height": 844}
PASSWORD = "chaos-player-password"

# One tap on the question on screen, chosen at random among what the page offers, shortcuts first
# when offered (a die of an answer's row enters the answer and its roll; a chip of the next
# decision enters the usual answer and that one). Waits only for the page to show something new
# (data-seq or the controls change), never for the server. Returns what it did.
TAP = """async ([seed]) => {
  const root = document.getElementById("scorer");
  let a = seed >>> 0;
  const rnd = () => { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; };
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const vis = (sel) => Array.from(root.querySelectorAll(sel))
    .filter((e) => e.offsetParent !== null && !e.disabled);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const tapArea = (el) => {
    const r = el.getBoundingClientRect();
    const at = { clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, bubbles: true, pointerId: 1 };
    el.dispatchEvent(new PointerEvent("pointerdown", at));
    el.dispatchEvent(new PointerEvent("pointerup", at));
  };
  const faces = (die) => vis('[data-testid="sc-act-face"][data-act-die="' + die + '"]');
  const use = () => vis('[data-testid="sc-setup-use"]');
  for (let t = 0; t < 600; t++) {
    if (root.dataset.status !== "live") return { did: "status:" + root.dataset.status };
    if (root.classList.contains("is-editing")) {  // a set-up: a preset as it is, or the one shown
      if (!use().length && vis('[data-testid="sc-setup-preset"]').length) {
        pick(vis('[data-testid="sc-setup-preset"]')).click();
        await sleep(0);
      }
      if (use().length) { use()[0].click(); return { did: "setup" }; }
    }
    const rows = faces(0);
    const then = vis("[data-then]");
    const options = {
      row: rows, then: then, chip: vis('[data-testid="sc-option"]:not([data-then])'),
      group: vis("[data-group]"), def: vis('[data-testid="sc-default"]'),
      die: vis("[data-die]"), roll: vis('[data-testid="sc-roll-for-me"]'),
      setup: vis('[data-testid="sc-setup-use"]'), area: vis("[data-area].area--pick"),
    };
    // shortcuts whenever offered, else any answer on screen
    const kinds = ["row", "then"].filter((k) => options[k].length);
    const any = kinds.length && rnd() < 0.8 ? kinds
      : Object.keys(options).filter((k) => options[k].length && k !== "die");
    if (options.die.length && !any.length) any.push("die");
    if (!any.length) { await sleep(5); continue; }
    const kind = pick(any);
    if (kind === "row") {
      pick(options.row).click();
      for (let i = 1; faces(i).length; i++) pick(faces(i)).click();
    } else if (kind === "die" || (options.die.length && kind === "roll" && rnd() < 0.5)) {
      const dice = new Set(options.die.map((f) => f.dataset.die));
      for (const i of dice) pick(vis('[data-die="' + i + '"]')).click();
    } else if (kind === "group") {
      pick(options.group).click();
      const chips = vis('[data-testid="sc-option"]:not([data-then])');
      if (chips.length) pick(chips).click();
    } else if (kind === "area") {
      tapArea(pick(options.area));
      await sleep(0);
      const to = vis("[data-area].area--target");
      if (to.length) tapArea(pick(to));
    } else {
      pick(options[kind]).click();
    }
    return { did: kind };
  }
  return { did: "nothing to tap" };
}"""

# Waits until the page shows something new after a tap (not for the server).
SETTLE = """async ([seq, html]) => {
  const root = document.getElementById("scorer");
  const box = () => (root.querySelector('[data-testid="sc-answer"]') || {}).innerHTML + "|" +
    (root.querySelector('[data-testid="sc-dock-answer"]') || {}).innerHTML;
  for (let t = 0; t < 2000; t++) {
    if (root.dataset.seq !== seq || root.dataset.status !== "live" || box() !== html) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const error = root.querySelector('[data-testid="sc-error"]');
  return { seq: root.dataset.seq, error: error && !error.hidden ? error.textContent : "" };
}"""

SNAPSHOT = """() => { const root = document.getElementById("scorer");
  return [root.dataset.seq, (root.querySelector('[data-testid="sc-answer"]') || {}).innerHTML + "|" +
    (root.querySelector('[data-testid="sc-dock-answer"]') || {}).innerHTML]; }"""

TRACE = bool(os.environ.get("CHAOS_TRACE"))
POST_LOG = os.environ.get("CHAOS_POST_LOG", "")


def _short(event: Any) -> str:
    if not isinstance(event, dict):
        return str(event)
    what = event.get("decide") or event.get("roll")
    return f"{what}:{event.get('by')}:{event.get('choice', event.get('dice'))}"


def post_line(phone: str, url: str, sent: Any, status: int, body: Any) -> dict[str, Any]:
    """A post of a phone in one line: what it built on, what it sent, what the server answered
    (a 409 with the stored head it did not extend). Kept for every run: the bench's row carries
    the posts around each 409, so that a refusal is explained by its evidence."""
    try:
        req = json.loads(sent or "{}")
    except ValueError:
        req = {}
    err = (body.get("error") or {}) if isinstance(body, dict) else {}
    details = err.get("details") or {}
    return {
        "phone": phone, "path": url.rsplit("/", 1)[-1], "status": status,
        "after_seq": req.get("after_seq", req.get("from_seq")), "after": str(req.get("after") or "")[:6],
        "ids": [str(e.get("client_id"))[:6] for e in req.get("events", [])],
        "events": [_short(e.get("event") or "roll_for_me") for e in req.get("events", [])][:12],
        "seq": body.get("seq") if isinstance(body, dict) else None,
        "head_seq": details.get("seq"), "head": str(details.get("head") or "")[:6],
    }  # fmt: skip


# taps in a row that change nothing on the page (the same question, sequence and queue): stuck
STILL_TAPS = 12
STATE = """() => { const r = document.getElementById("scorer");
  const text = (id) => document.querySelector("[data-testid=" + id + "]").textContent;
  return [r.dataset.seq, r.dataset.queue, r.dataset.status, text("sc-question"), text("sc-net")]; }"""

PHONE_RECORD = """async (session) => {
  const done = (r) => new Promise((ok, ko) => { r.onsuccess = () => ok(r.result); r.onerror = ko; });
  const db = await done(indexedDB.open("fuba-scorer", 1));
  const match = await done(db.transaction("matches").objectStore("matches").get(session));
  const range = IDBKeyRange.bound([session, 0], [session, Number.MAX_SAFE_INTEGER]);
  const ops = await done(db.transaction("ops").objectStore("ops").getAll(range));
  return { match, ops };
}"""


def seeds_in(value: Any) -> list[str]:
    """Every key of a JSON answer that could determine a roll (a seed, in any spelling)."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, v in value.items():
            if "seed" in str(key).lower():
                found.append(str(key))
            found += seeds_in(v)
    elif isinstance(value, list):
        for v in value:
            found += seeds_in(v)
    return found


@dataclass
class Phone:
    """One phone: its browser context and page, the answers it got, what it tapped."""

    name: str
    context: Any
    page: Any
    answers: list[tuple[str, int, Any]] = field(default_factory=list)
    taps: int = 0
    shortcuts: int = 0
    refusals: list[str] = field(default_factory=list)
    offline: bool = False
    # the posts of every phone of the run, in the order answered (one list shared by the phones)
    posts: list[dict[str, Any]] = field(default_factory=list)

    def listen(self) -> None:
        def on_response(response: Any) -> None:
            url = response.url
            if "/api/v1/scoring-sessions/" not in url and "live.json" not in url:
                return
            try:
                body = response.json() if response.status != 304 else None
            except Exception:  # noqa: BLE001 - an answer that is not JSON has no seed to look for
                body = None
            self.answers.append((url, response.status, body))
            if response.request.method == "POST":
                line = post_line(self.name, url, response.request.post_data, response.status, body)
                self.posts.append(line)
                if POST_LOG:
                    with open(POST_LOG, "a") as out:
                        out.write(json.dumps(line) + "\n")

        self.page.on("response", on_response)

    def statuses(self, path: str) -> list[int]:
        return [status for url, status, _ in self.answers if url.endswith(path)]

    def record(self, session_id: int) -> dict[str, Any]:
        return dict(self.page.evaluate(PHONE_RECORD, session_id))

    def tap(self, rng: random.Random) -> str:
        seq, html = self.page.evaluate(SNAPSHOT)
        did = self.page.evaluate(TAP, [rng.randrange(2**31)])["did"]
        if did.startswith("status:") or did == "nothing to tap":
            return did
        self.taps += 1 + (did == "area")
        self.shortcuts += did in ("row", "then")
        after = self.page.evaluate(SETTLE, [seq, html])
        if after["error"] and after["seq"] == seq:
            self.refusals.append(after["error"])
        return did

    def set_offline(self, offline: bool) -> None:
        self.offline = offline
        self.context.set_offline(offline)

    def wait_sent(self, timeout: float = 60000) -> None:
        self.page.wait_for_function(
            "() => { const r = document.getElementById('scorer');"
            " return r.dataset.queue === '0' && r.dataset.judging !== '1' && r.dataset.engine === 'local'; }",
            timeout=timeout,
        )


def login(browser: Any, live_server: Any, user: Any, name: str) -> Phone:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(60000)
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state()
    phone = Phone(name, context, page)
    phone.listen()
    return phone


OPENED = """() => { const r = document.getElementById('scorer'); return r && r.dataset.engine === 'local'
  && document.querySelector('[data-testid=sc-question]').textContent !== 'Loading the match…'; }"""
SHOWN = """() => { const r = document.getElementById('scorer'); const t = (id) =>
  (document.querySelector('[data-testid=' + id + ']') || {}).textContent;
  return r ? { engine: r.dataset.engine, question: t('sc-question'), error: t('sc-error'), net: t('sc-net'),
    mode: t('sc-mode') }
    : document.body.innerText.slice(0, 300); }"""


def open_scorer(phone: Phone, url: str) -> None:
    phone.page.goto(url)
    try:
        phone.page.wait_for_function(OPENED, timeout=90000)
    except Exception as exc:
        raise AssertionError(f"{phone.name}: the scorer did not open: {phone.page.evaluate(SHOWN)}") from exc


def play_until_minute(session_id: int, users: dict[str, Any], minute: int, *, seed: int) -> int:
    """The match stored through the server's services up to ``minute`` (the usual answer, else a
    seeded option; rolls rolled offline by a seeded die, as a phone without connection would):
    a chaos run starts late in a match so that a short run still reaches full time."""
    session = session_get(session_id=session_id)
    rng = random.Random(seed)
    dice = Dice(f"chaos:{seed}")
    match = new_match(dict(session.header))
    while (p := match.pending()) is not None:
        if _minute(snapshot(match).minute) >= minute:
            break
        if p.kind == "roll":
            event = dice.roll_for(p)
            item = entry({"event": {"roll": p.name, "by": p.actor, "dice": list(event.dice)}})
            item["rolled_offline"] = True
        else:
            choice = p.default if p.default is not None and rng.random() < 0.7 else rng.choice(p.options)
            event = Decision(p.name, p.actor, choice)
            item = entry({"event": {"decide": p.name, "by": p.actor, "choice": choice}})
        match.apply(event)
        tap(session_id, users["away" if p.actor == "away" else "home"], item)
    return ScoringSession.objects.get(id=session_id).seq


def _minute(text: Any) -> int:
    head = str(text or "0").split("+")[0]
    return int(head) if head.isdigit() else 0


@dataclass
class Outcome:
    """What a chaos run found, for a test's checks and the bench's table."""

    taps: int
    shortcuts: int
    events: int
    refusals_409: int
    refusals_422: int
    side_branches: int
    retaps: int
    retap_texts: list[str]
    seeds: list[str]
    same_events: bool
    status: str
    turns: int = 0
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    # each 409 with the three posts before it and the one after (post_line)
    refused_posts: list[list[dict[str, Any]]] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        row = self.__dict__.copy()
        row["conflicts"] = sum(c["conflict"] for c in self.conflicts)
        row["said"] = [c["said"][:120] for c in self.conflicts if c["conflict"]]
        return row


def outcome(session_id: int, phones: list[Phone], *, turns: int, conflicts: list[dict[str, Any]]) -> Outcome:
    session = ScoringSession.objects.get(id=session_id)
    stored = list(
        ScoringEvent.objects.filter(session=session, undone_at__isnull=True)
        .order_by("seq")
        .values_list("client_id", flat=True)
    )
    same = all([r["client_id"] for r in p.record(session_id)["match"]["base"]] == stored for p in phones)
    seeds: list[str] = []
    for p in phones:
        for _, _, body in p.answers:
            seeds += seeds_in(body)
    return Outcome(
        taps=sum(p.taps for p in phones),
        shortcuts=sum(p.shortcuts for p in phones),
        events=len(stored),
        refused_posts=around_409(phones[0].posts),
        refusals_409=sum(p.statuses("/events").count(409) + p.statuses("/undo").count(409) for p in phones),
        refusals_422=sum(p.statuses("/events").count(422) for p in phones),
        side_branches=ScoringSideBranch.objects.filter(session=session).count(),
        retaps=sum(len(p.refusals) for p in phones),
        retap_texts=sorted({text for p in phones for text in p.refusals})[:5],
        seeds=sorted(set(seeds)),
        same_events=same,
        status=session.status,
        turns=turns,
        conflicts=conflicts,
    )


def around_409(posts: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    return [posts[max(0, i - 3) : i + 2] for i, p in enumerate(posts) if p["status"] == 409]


def json_line(o: Outcome) -> str:
    return json.dumps(o.row(), sort_keys=True)


@dataclass
class Plan:
    """One chaos run: the dice, one or two phones, from which minute the page plays, how often a
    tap is preceded by a change of connection or a reload, and how many taps at most."""

    seed: int
    app_dice: bool = True
    phones: int = 1
    from_minute: int = 84
    offline_share: float = 0.08
    reload_share: float = 0.03
    long_offline: bool = False
    max_taps: int = 2000
    # two phones: both offline over the same stretch of this many taps each, from the
    # ``stretch_at``-th tap of the run (0: never)
    same_stretch: int = 0
    stretch_at: int = 20


def run(browser: Any, live_server: Any, settings: Any, plan: Plan) -> tuple[Outcome, int]:
    """Play ``plan`` through the page to full time and confirm the result: (outcome, session id)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = make_fixture()
    for user in (s.home_user, s.away_user):
        user.set_password(PASSWORD)
        user.save()
    users = {"home": s.home_user, "away": s.away_user}
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user, app_dice=plan.app_dice)
    # the clubs that entered events confirm: a lone phone's club entered the whole start
    writers = users if plan.phones == 2 else {"home": s.home_user, "away": s.home_user}
    play_until_minute(session.id, writers, plan.from_minute, seed=plan.seed)
    first_turn = _turn(session.id)
    conflicts: list[dict[str, Any]] = []
    url = f"{live_server.url}/score/{session.id}/"
    phones = [login(browser, live_server, users[side], side) for side in ("home", "away")[: plan.phones]]
    for phone in phones[1:]:
        phone.posts = phones[0].posts
    try:
        for phone in phones:
            open_scorer(phone, url)
            # a reload offline needs the service worker and the cached shell
            phone.page.wait_for_selector('#scorer[data-offline="ready"]', state="attached", timeout=90000)
        try:
            _play(phones, plan, url, session.id, conflicts)
        except Exception as exc:
            refused = [
                (p.name, url, status, body)
                for p in phones
                for url, status, body in p.answers
                if status in (409, 422)
            ]
            raise AssertionError(f"{exc}; refusals on the way: {json.dumps(refused)[:3000]}") from exc
        for phone in phones:
            phone.set_offline(False)
        for phone in phones:
            phone.wait_sent(120000)
        for i, phone in enumerate(phones):
            _confirm(phone, last=i == len(phones) - 1)
        return outcome(
            session.id, phones, turns=_turn(session.id) - first_turn, conflicts=conflicts
        ), session.id
    finally:
        for phone in phones:
            phone.context.close()


def _turn(session_id: int) -> int:
    return int(session_state(ScoringSession.objects.get(id=session_id))["state"].get("turn") or 0)


def _play(
    phones: list[Phone], plan: Plan, url: str, session_id: int, conflicts: list[dict[str, Any]]
) -> None:
    rng = random.Random(plan.seed)
    active = phones[0]
    still, last = 0, None
    for i in range(plan.max_taps):
        if len(phones) == 2 and plan.same_stretch and i == plan.stretch_at:
            conflicts.append(_same_stretch(phones, plan, rng, session_id))
            active = phones[0]
        now = active.page.evaluate(STATE)
        still = still + 1 if now == last else 0
        last = now
        assert still < STILL_TAPS, f"{active.name}: {STILL_TAPS} taps changed nothing on the page: {now}"
        roll = rng.random()
        if roll < plan.offline_share:
            active.set_offline(not active.offline if not plan.long_offline else rng.random() < 0.8)
        elif roll < plan.offline_share + plan.reload_share:
            active.page.reload()
            open_scorer(active, url)
        elif len(phones) == 2 and roll > 0.9:
            active = _switch(phones, active, session_id)
        did = active.tap(rng)
        if TRACE:
            print(active.name, did, active.offline, active.page.evaluate(STATE), flush=True)
        if did == "nothing to tap":  # dice the server is to roll for a post it may hold: back online
            active.set_offline(False)
            active.wait_sent()
        elif did.startswith("status:"):
            return
    raise AssertionError(f"no full time within {plan.max_taps} taps")


def _switch(phones: list[Phone], active: Phone, session_id: int) -> Phone:
    """The other phone takes over once both show the match as stored (both online), as at a
    table where the clubs take turns; an offline phone keeps its taps until it is back. (Its
    sequence alone is not enough: it counts the phone's own automatic answer, still queued, and
    a tap on that stale view is a real conflict.)"""
    other = phones[1] if active is phones[0] else phones[0]
    if active.offline or other.offline:
        return active
    _together(active, other, session_id)
    return other


def _confirm(phone: Phone, *, last: bool) -> None:
    page = phone.page
    done = '#scorer[data-status="submitted"]'
    page.wait_for_selector(f'[data-testid="sc-confirm"]:visible, {done}', timeout=60000)
    if page.locator(done).count():
        return
    if page.locator('[data-testid="sc-shootout"]:visible').count():
        page.fill('[data-pen="home"]', "5")
        page.fill('[data-pen="away"]', "4")
    page.get_by_test_id("sc-confirm").click()
    if last:  # the result is submitted once every club that scored confirmed
        page.wait_for_function(
            "() => document.getElementById('scorer').dataset.status === 'submitted'", timeout=60000
        )
    else:
        page.wait_for_selector('[data-testid="sc-confirm"]', state="hidden", timeout=60000)


# Settled at the stored seq: nothing queued and no tap still being judged by the phone's engine
# (data-judging). A tap is an op only once judged, so an empty queue alone let the player hand
# over while the last tap (an area move whose first tap already changed the page, so SETTLE
# returned) was still on its way: it was posted on the seq both phones showed, and the other
# phone's next tap, on that same seq, was a real second conflict (typed dice: match 18, 2026-11-29).
AT_SEQ = """(s) => { const r = document.getElementById('scorer');
  return r.dataset.queue === '0' && r.dataset.judging !== '1'
    && (r.dataset.seq === s || r.dataset.status !== 'live'); }"""


def _together(first: Phone, second: Phone, session_id: int) -> None:
    """Both phones online, idle and showing the match as stored. A phone that takes in the
    other's events may answer the next question by itself (a question with one answer), which
    the server stores: then both wait for that."""
    for p in (first, second):
        p.set_offline(False)
    for _ in range(20):
        first.wait_sent()
        second.wait_sent()
        seq = str(ScoringSession.objects.get(id=session_id).seq)
        if _both_at(first, second, seq) and str(ScoringSession.objects.get(id=session_id).seq) == seq:
            return
    shown = {p.name: p.page.evaluate(STATE) for p in (first, second)}
    raise AssertionError(f"the phones do not agree with the server ({seq}): {shown}")


def _both_at(first: Phone, second: Phone, seq: str) -> bool:
    """Whether both phones come to show ``seq`` (false: the server moved on meanwhile)."""
    try:
        for p in (first, second):
            p.page.wait_for_function(AT_SEQ, arg=seq, timeout=20000)
    except Exception:  # noqa: BLE001 - Playwright's timeout: the caller reads the new head
        return False
    return True


def _bare(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "note"}


def _same_stretch(phones: list[Phone], plan: Plan, rng: random.Random, session_id: int) -> dict[str, Any]:
    """Both phones offline over the same stretch, each entering its own taps; the first syncs,
    then the second. Unless the second's events are all the ones the first stored there, the
    second's taps not used make one side branch and its line says how many and from which minute.
    Returns what was expected and what was said, for the test's checks."""
    first, second = phones
    _together(first, second, session_id)
    base = ScoringSession.objects.get(id=session_id).seq
    for p in phones:
        p.set_offline(True)
    for p in phones:
        for _ in range(plan.same_stretch):
            did = p.tap(rng)
            if did.startswith("status:") or did == "nothing to tap":
                break
    first.set_offline(False)
    first.wait_sent()
    # read once the first synced and the second judged its last tap and its page's own answers
    second.page.wait_for_function("() => document.getElementById('scorer').dataset.judging !== '1'")
    ops = [op for op in second.record(session_id)["ops"] if op["kind"] == "tap"]
    stored = list(
        ScoringEvent.objects.filter(session_id=session_id, undone_at__isnull=True, seq__gt=base)
        .order_by("seq")
        .values_list("data", flat=True)
    )
    mine = [(op, it) for op in ops for it in op["items"]]
    same, both = 0, min(len(mine), len(stored))
    while same < both and _bare(mine[same][1].get("event") or {}) == _bare(stored[same]):
        same += 1
    conflict = same < both
    unused_ops = {id(op) for op, _ in mine[same:]} if conflict else set()
    expected = {
        "conflict": conflict,
        "from_seq": base + same + 1,
        "client_ids": [it["client_id"] for _, it in mine[same:]] if conflict else [],
        "taps": sum(op["taps"] for op in ops if id(op) in unused_ops),
        "minute": next((str(op["minute"]) for op, _ in mine[same:]), ""),
        "said": "",
    }
    second.set_offline(False)
    if conflict:
        note = second.page.get_by_test_id("sc-conflict")
        note.wait_for(state="visible", timeout=60000)
        second.page.wait_for_function(
            "() => / not used/.test(document.querySelector('[data-testid=sc-conflict]').textContent)"
        )
        expected["said"] = note.inner_text()
        second.page.get_by_test_id("sc-conflict-ok").click()
    _together(first, second, session_id)
    return expected


def said_taps(text: str) -> tuple[int, str]:
    """The taps and minute a conflict line names: "Your 12 taps from 63' were not used: …"."""
    found = re.search(r"Your (\d+) taps?(?: from ([^']+)')? (?:was|were) not used", text)
    assert found, text
    return int(found.group(1)), found.group(2) or ""
