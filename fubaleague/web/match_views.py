"""The match page (result, cards, replay on a drawn pitch) and the clubs' result forms.

The forms post to thin views that validate input with Django forms and call matches.services;
a refused action (ApplicationError) is shown to the user as a message, never a 500.
"""

from __future__ import annotations

import json
import logging
from functools import partial
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from fubaleague.web import fragments
from fubaleague.web import selectors as ps
from fubaleague.web.page_cache import anonymous_page, personal
from fubaleague.web.pitch import pitch_html
from fubaleague.web.rating_bits import fixture_rating_html, match_rating_html
from fubaleague.web.views import _nav, fixture_or_404, match_url
from kernel.api_json import NOT_UTF8, unencodable_text
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError
from matches import forfeits, services
from matches.models import CardKind, Forfeit, ResultSubmission
from matches.replay import replay_frames, with_shootout
from matches.standings.cache import WHOLE
from ratings.models import PAGES_SCOPE
from scoring.selectors import active_session, fixture_side_branches
from tournaments.bracket import Score
from tournaments.game_systems import FUBA_3, GameSystemRules, game_system_rules, rules_of
from tournaments.models import Competition, Fixture
from tournaments.selectors import fixture_check_ins, round_clock_of, user_club_team_ids
from tournaments.services.venue import fixture_check_in

REPLAY_CACHE_SECONDS = 3600
# The frames' shape is part of the key: a deploy that changes it never serves frames cached by the
# one before to the new page script (v2: a frame's pitch in the engine snapshot's shape; v3: kept
# as the JSON sent, so a page miss neither unpickles nor encodes thousands of frame objects).
REPLAY_CACHE_KEY = "replay:v3:{}"
# Booked-player lines on a Soccer City result form: two send-offs end a match (seed 003), so a
# report rarely books more than a handful of players.
CARD_LINES = 8
logger = logging.getLogger(__name__)


class ResultForm(forms.Form):
    home_goals = forms.IntegerField(min_value=0, max_value=99)
    away_goals = forms.IntegerField(min_value=0, max_value=99)
    extra_time = forms.BooleanField(required=False)
    home_penalties = forms.IntegerField(min_value=0, max_value=99, required=False)
    away_penalties = forms.IntegerField(min_value=0, max_value=99, required=False)
    home_yellow = forms.IntegerField(
        min_value=0, max_value=11, required=False, initial=0, label="Home yellow cards"
    )
    away_yellow = forms.IntegerField(
        min_value=0, max_value=11, required=False, initial=0, label="Away yellow cards"
    )
    home_red = forms.IntegerField(min_value=0, max_value=5, required=False, initial=0, label="Home red cards")
    away_red = forms.IntegerField(min_value=0, max_value=5, required=False, initial=0, label="Away red cards")
    turn_log = forms.FileField(required=False, label="Turn log (fuba-log/1 JSON file)")

    def clean_turn_log(self) -> dict[str, Any] | None:
        """A fuba-log/1 file from the clubs' other tools; the services check it belongs to the fixture."""
        upload = self.cleaned_data.get("turn_log")
        if not upload:
            return None
        # No size check here: the request size limit bounds the upload, and the services
        # refuse a log over TURN_LOG_MAX_BYTES as compact JSON (matches/turn_logs.py).
        try:
            data = json.loads(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise forms.ValidationError(f"the turn log file is not JSON ({exc}).") from None
        if not isinstance(data, dict):
            raise forms.ValidationError("the turn log must be a JSON object.")
        bad_text = unencodable_text(data)
        if bad_text is not None:
            raise forms.ValidationError(f"the turn log: {NOT_UTF8} (at {bad_text[0] or 'the top'})")
        return data

    def __init__(
        self,
        *args: Any,
        game: GameSystemRules | None = None,
        sides: tuple[str, str] = ("Home", "Away"),
        **kwargs: Any,
    ) -> None:
        """The fields the game system has (``tournaments.game_systems``): team card counts for FUBA,
        a line per booked player (team, shirt number, card) for Soccer City, no cards for Super
        Team; extra time and a shoot-out only where the game plays them."""
        super().__init__(*args, **kwargs)
        self.game = game or game_system_rules(FUBA_3)
        cards = self.game.cards
        if not cards.allowed or cards.per_player:
            for side in ("home", "away"):
                del self.fields[f"{side}_yellow"], self.fields[f"{side}_red"]
        if not self.game.extra_time:
            del self.fields["extra_time"]
        if self.game.shootout is None:
            del self.fields["home_penalties"], self.fields["away_penalties"]
        if cards.per_player:
            teams = [("", "—"), ("home", sides[0]), ("away", sides[1])]
            shirts = [("", "—"), *((n, f"#{n}") for n in cards.shirt_numbers)]
            kinds = [("", "—"), *((k, CardKind(k).label) for k in cards.kinds)]
            for i in range(1, CARD_LINES + 1):
                self.fields[f"card_{i}_team"] = forms.ChoiceField(choices=teams, required=False, label="Team")
                self.fields[f"card_{i}_shirt"] = forms.TypedChoiceField(
                    choices=shirts, coerce=int, empty_value=None, required=False, label="Shirt"
                )
                self.fields[f"card_{i}_kind"] = forms.ChoiceField(choices=kinds, required=False, label="Card")

    def card_lines(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        """The booked-player lines (team, shirt, card) of a game that books players."""
        if not self.game.cards.per_player:
            return []
        return [
            (self[f"card_{i}_team"], self[f"card_{i}_shirt"], self[f"card_{i}_kind"])
            for i in range(1, CARD_LINES + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (data.get("home_penalties") is None) != (data.get("away_penalties") is None):
            raise forms.ValidationError("Give both shoot-out scores or neither.")
        for i in range(1, CARD_LINES + 1 if self.game.cards.per_player else 1):
            parts = [data.get(f"card_{i}_{part}") for part in ("team", "shirt", "kind")]
            if any(p not in (None, "") for p in parts) and any(p in (None, "") for p in parts):
                raise forms.ValidationError(f"Card line {i}: give the team, the shirt number and the card.")
        return data

    def cards(self) -> list[dict[str, Any]]:
        d = self.cleaned_data
        cards: list[dict[str, Any]] = []
        if self.game.cards.per_player:
            for i in range(1, CARD_LINES + 1):
                if d.get(f"card_{i}_team"):
                    cards.append(
                        {
                            "team": d[f"card_{i}_team"],
                            "kind": d[f"card_{i}_kind"],
                            "shirt_number": d[f"card_{i}_shirt"],
                        }
                    )
            return cards
        for side in ("home", "away"):
            cards += [{"team": side, "kind": CardKind.YELLOW}] * (d.get(f"{side}_yellow") or 0)
            cards += [{"team": side, "kind": CardKind.RED}] * (d.get(f"{side}_red") or 0)
        return cards


def result_form(fixture: Fixture, *args: Any) -> ResultForm:
    """The club's result form for this fixture's game system."""
    row = ps.fixture_row(fixture)
    return ResultForm(*args, game=rules_of(fixture.competition), sides=(row.home, row.away))


class DisputeForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea, max_length=2000)
    # The card lines the opponent says are wrong (indexes into the submission's cards).
    card = forms.TypedMultipleChoiceField(coerce=int, required=False, choices=())

    def __init__(self, *args: Any, card_count: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["card"].choices = [(i, str(i)) for i in range(card_count)]  # type: ignore[attr-defined]


def submission_card_lines(fixture: Fixture, submission: ResultSubmission | None) -> list[dict[str, Any]]:
    """The reported cards as numbered lines, so the opponent can see and dispute each one."""
    if submission is None:
        return []
    labels = dict(CardKind.choices)
    names = {"home": ps.fixture_row(fixture).home, "away": ps.fixture_row(fixture).away}
    disputed = set(submission.disputed_cards or [])
    return [
        {
            "index": i,
            "team": names.get(c.get("team"), c.get("team")),
            "side": c.get("team"),
            "kind": c.get("kind"),
            "label": labels.get(c.get("kind"), c.get("kind")),
            "shirt_number": c.get("shirt_number"),
            "disputed": i in disputed,
        }
        for i, c in enumerate(submission.cards or [])
    ]


def _competition(slug: str) -> Competition:
    return get_object_or_404(Competition, slug=slug)


def _can_confirm(
    fixture: Fixture, submission: ResultSubmission | None, my_sides: set[int], user_pk: int | None
) -> bool:
    """Whether the user's club may confirm (or dispute) the open report: it is the opponent's."""
    return bool(
        submission is not None
        and submission.status == ResultSubmission.Status.OPEN
        and fixture.status == Fixture.Status.SUBMITTED
        and submission.submitted_by_id != user_pk
        and (
            (fixture.away_team_id if submission.team_id == fixture.home_team_id else fixture.home_team_id)
            in my_sides
        )
    )


def _earlier_reports(fixture: Fixture, submission: ResultSubmission | None) -> list[ResultSubmission]:
    """The fixture's reports before the latest one, newest first."""
    if submission is None:
        return []
    return list(
        fixture.submissions.exclude(pk=submission.pk).select_related("team").order_by("-created_at", "-id")
    )


def _match_parts(slug: str, fixture_id: int) -> tuple[str, ...]:
    """What a match's page shows: its fragments' parts (below), so that a result elsewhere in the
    competition leaves the page kept; () for no such match (the view answers 404)."""
    stage_id = ps.fixture_stage_id(slug=slug, fixture_id=fixture_id)
    return () if stage_id is None else (WHOLE, f"s{stage_id}", f"f{fixture_id}", "x")


@require_GET
@anonymous_page(live=True, shows=(PAGES_SCOPE,), parts=_match_parts)
def match(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    if personal(request):
        context = _match_context(request, slug, fixture_id)
        context["match_rating"] = mark_safe(match_rating_html(context["fixture"]))  # noqa: S308
        return render(request, "tournaments/match.html", context)
    stage_id = ps.fixture_stage_id(slug=slug, fixture_id=fixture_id)
    if stage_id is None:
        raise Http404("No such match in this competition.")

    def page() -> fragments.Html:
        context = _match_context(request, slug, fixture_id)
        context["match_rating"] = fragments.slot("rating")
        fixture = context["fixture"]
        # "Overdue" shows from the deadline on: the kept page is stale then.
        due = fixture.deadline if fixture.status == Fixture.Status.SCHEDULED else None
        until = due.timestamp() if due is not None and due > timezone.now() else None
        return fragments.Html(render_to_string("tournaments/match.html", context, request), until)

    # The page shows the fixture (its result, cards, log, forfeit, audit), the round's clock
    # (its stage) and the live marks; its ratings' bit (rating_bits) the coaches' ratings, which
    # move with any rated result, and the chances' model ("x"). (_match_parts: all of them.)
    kept = fragments.Fragment(
        f"match:{fixture_id}", (WHOLE, f"s{stage_id}", f"f{fixture_id}"), page, live=True
    )
    rating = fragments.Fragment(
        f"match:{fixture_id}:rating",
        (WHOLE, f"f{fixture_id}", "x"),
        partial(fixture_rating_html, fixture_id),
        scopes=(PAGES_SCOPE,),
    )
    fetched = fragments.fetch(slug, [kept, rating])
    assert fetched is not None  # (not laid out by an outline: never None)
    return HttpResponse(fragments.filled(fetched.html[kept.name], {"rating": fetched.html[rating.name]}))


def _match_context(request: HttpRequest, slug: str, fixture_id: int) -> dict[str, Any]:
    competition = _competition(slug)
    fixture = fixture_or_404(competition, fixture_id)
    result = ps.counted_result(fixture)
    my_sides = (
        user_club_team_ids(user=signed_in_user(request.user), fixture=fixture)
        if request.user.is_authenticated
        else set()
    )
    log = ps.replay_log(fixture, full=bool(my_sides or request.user.is_staff), data=False)
    submission = ps.latest_submission(fixture) if (my_sides or request.user.is_staff) else None
    can_confirm = _can_confirm(fixture, submission, my_sides, request.user.pk)
    live_session = active_session(fixture_id=fixture.pk)
    # While the match is scored live its result comes from the session: the page links to it
    # instead of offering the hand-typed report (which the service would refuse anyway).
    can_submit = bool(
        my_sides
        and fixture.is_resolved
        and fixture.status in (Fixture.Status.SCHEDULED, Fixture.Status.SUBMITTED)
        and not can_confirm
        and live_session is None
    )
    # The club's own open report: a new one is an explicit "replace my report".
    replacing = bool(
        can_submit
        and submission is not None
        and submission.status == ResultSubmission.Status.OPEN
        and submission.team_id in my_sides
    )
    history = _earlier_reports(fixture, submission)
    context = _nav(competition, "fixtures")
    row = ps.fixture_row(fixture)
    game = rules_of(competition)
    context.update(
        {
            "fixture": fixture,
            "row": row,
            "result": result,
            "cards": ps.match_cards(result),
            "log": log,
            "pitch": pitch_html(row.home, row.away, "replay-pitch") if log is not None else None,
            "submission": submission,
            "submission_cards": submission_card_lines(fixture, submission),
            "can_submit": can_submit,
            "replacing": replacing,
            "history": history,
            "can_confirm": can_confirm,
            "live_session": live_session,
            "is_club_member": bool(my_sides),
            # Taps a phone recorded that another phone's stretch left unused: the two clubs' to read.
            "side_branches": fixture_side_branches(fixture_id=fixture.pk)
            if my_sides or request.user.is_staff
            else [],
            # One story: a match being scored live, or with a report waiting, is not late.
            "overdue": fixture.is_overdue and live_session is None,
            "live_pitch": pitch_html(row.home, row.away, "live-pitch") if live_session is not None else None,
            "can_score": bool(
                my_sides
                and live_session is None
                and fixture.status == Fixture.Status.SCHEDULED
                and game.engine_backed  # the live scorer plays the engine's games (FUBA 3, FUBA 2)
            ),
            "game": game,
            "form": result_form(fixture),
            "dispute_form": DisputeForm(),
            "is_knockout": fixture.stage.kind == "knockout",
            "void_note": ps.void_note(fixture) if fixture.status == Fixture.Status.VOID else "",
        }
    )
    context.update(_outcome(fixture, simulated=row.simulated))
    context.update(_venue(fixture, my_sides))
    return context


def _outcome(fixture: Fixture, *, simulated: bool) -> dict[str, Any]:
    """The forfeit behind a simulated or awarded match."""
    return {
        "forfeit": Forfeit.objects.filter(fixture=fixture).select_related("forfeiting_team").first()
        if simulated or fixture.status in (Fixture.Status.SIMULATING, Fixture.Status.AWARDED)
        else None,
    }


def _venue(fixture: Fixture, my_sides: set[int]) -> dict[str, Any]:
    """A venue round's part of the page: the round's countdown, and for the clubs' members of a
    fixture still to play, their team's check-in (a button until it is done)."""
    clock = round_clock_of(fixture=fixture)
    check_in = []
    if clock is not None and my_sides and fixture.status == Fixture.Status.SCHEDULED and fixture.is_resolved:
        done = fixture_check_ins(fixture=fixture)
        check_in = [
            (team, done.get(team.pk))
            for team in (fixture.home_team, fixture.away_team)
            if team is not None and team.pk in my_sides
        ]
    return {"round_clock": clock, "check_in": check_in}


class _Unkept(Exception):
    """An answer that is not the page (an error): sent, never kept."""

    def __init__(self, response: HttpResponse) -> None:
        self.response = response


@require_GET
def replay_json(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    # Not a page kept under the competition's version (page_cache): that copy of the document
    # was stored anew after any change in the competition, while its fragment below, the same
    # bytes, is kept under what it shows; a reader is served the fragment itself.
    if personal(request):
        response = _replay(request, slug, fixture_id)
        patch_cache_control(response, private=True)
        return response
    if ps.fixture_stage_id(slug=slug, fixture_id=fixture_id) is None:
        raise Http404("No such match in this competition.")

    def answer() -> str:
        response = _replay(request, slug, fixture_id)
        if response.status_code != 200:
            raise _Unkept(response)
        return response.content.decode()

    # The frames are the fixture's log's; the shoot-out its result's; the teams' names "c".
    kept = fragments.Fragment(f"replay:{fixture_id}", (WHOLE, f"f{fixture_id}"), answer)
    try:
        body = fragments.whole_bytes(slug, kept)
    except _Unkept as unkept:
        return unkept.response
    return HttpResponse(body, content_type="application/json")


def _replay(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    competition = _competition(slug)
    fixture = fixture_or_404(competition, fixture_id)
    full = request.user.is_authenticated and bool(
        request.user.is_staff or user_club_team_ids(user=signed_in_user(request.user), fixture=fixture)
    )
    log = ps.replay_log(fixture, full=full)
    if log is None:
        return JsonResponse(
            {
                "error": {
                    "code": "not_found",
                    "message": "This match has no turn log to replay.",
                    "details": {},
                }
            },
            status=404,
        )
    # A stored log never changes, so its frames are cached by log id, as the JSON sent.
    key = REPLAY_CACHE_KEY.format(log.pk)
    encoded = cache.get(key)
    if encoded is None:
        try:
            frames = replay_frames(log.data)
        except Exception:
            # An engine failure on a stored log is a bug to fix, but the match page stays usable.
            logger.exception("Replay of match log %s failed", log.pk)
            error = {"code": "replay_failed", "message": "The replay could not be computed.", "details": {}}
            return JsonResponse({"error": error}, status=500)
        encoded = json.dumps(frames, cls=DjangoJSONEncoder).encode()
        cache.set(key, encoded, REPLAY_CACHE_SECONDS)
    shootout = ps.log_shootout(fixture, log)
    if shootout is not None:
        data = json.loads(encoded)
        if data.get("teams"):
            names = {side: str(data["teams"][side]["name"]) for side in ("home", "away")}
            return JsonResponse(with_shootout(data, home=shootout[0], away=shootout[1], names=names))
    return HttpResponse(encoded, content_type="application/json")


@require_GET
def log_download(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """The turn log (fuba-log/1) of a result that counts, as a file to keep or to load in another
    tool; like the public replay, nothing of a result that does not count yet."""
    competition = _competition(slug)
    fixture = fixture_or_404(competition, fixture_id)
    log = ps.replay_log(fixture, full=False)
    if log is None:
        error = {
            "code": "not_found",
            "message": "This match has no turn log of a counted result to download.",
            "details": {},
        }
        return JsonResponse({"error": error}, status=404)
    body = json.dumps(log.data, ensure_ascii=False, indent=1).encode()
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    name = f"fuba-log-{competition.slug}-match-{fixture.pk}{'-simulated' if log.is_simulated else ''}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _after(request: HttpRequest, fixture: Fixture, ok: str) -> HttpResponse:
    messages.success(request, ok)
    return redirect(match_url(fixture))


@login_required(login_url="tournaments:login")
@require_POST
def submit_result(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    fixture = fixture_or_404(_competition(slug), fixture_id)
    form = result_form(fixture, request.POST, request.FILES)
    if not form.is_valid():
        errors = "; ".join(
            f"{k}: {' '.join(map(str, v))}" if k != "__all__" else " ".join(map(str, v))
            for k, v in form.errors.items()
        )
        messages.error(request, f"The result was not submitted: {errors}")
        return redirect(match_url(fixture))
    d = form.cleaned_data
    replaced = request.POST.get("replace") == "1"
    try:
        services.result_submit(
            fixture_id=fixture.pk,
            user=signed_in_user(request.user),
            score=Score(
                d["home_goals"],
                d["away_goals"],
                extra_time=bool(d.get("extra_time")),
                home_penalties=d.get("home_penalties"),
                away_penalties=d.get("away_penalties"),
            ),
            cards=form.cards(),
            turn_log=d.get("turn_log"),
            replace=replaced,
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect(match_url(fixture))
    return _after(
        request,
        fixture,
        (
            "Your report was replaced (the earlier one stays in the history). "
            if replaced
            else "Result submitted. "
        )
        + "The opponent now confirms or disputes it.",
    )


@login_required(login_url="tournaments:login")
@require_POST
def confirm_result(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    fixture = fixture_or_404(_competition(slug), fixture_id)
    try:
        services.result_confirm(fixture_id=fixture.pk, user=signed_in_user(request.user))
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect(match_url(fixture))
    return _after(request, fixture, "Result confirmed. It now counts in the standings.")


@login_required(login_url="tournaments:login")
@require_POST
def dispute_result(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    fixture = fixture_or_404(_competition(slug), fixture_id)
    submission = ps.latest_submission(fixture)
    form = DisputeForm(request.POST, card_count=len(submission.cards) if submission is not None else 0)
    if not form.is_valid():
        messages.error(request, "Say why the result is wrong (and tick only cards that were reported).")
        return redirect(match_url(fixture))
    try:
        services.result_dispute(
            fixture_id=fixture.pk,
            user=signed_in_user(request.user),
            reason=form.cleaned_data["reason"],
            cards=form.cleaned_data["card"],
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect(match_url(fixture))
    return _after(request, fixture, "Result disputed. An administrator will resolve it.")


@login_required(login_url="tournaments:login")
@require_POST
def cannot_play(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """A club says it cannot play: a declared forfeit, decided by the competition's forfeit policy."""
    fixture = fixture_or_404(_competition(slug), fixture_id)
    team = request.POST.get("team_id")
    try:
        forfeits.forfeit_declare(
            fixture_id=fixture.pk,
            user=signed_in_user(request.user),
            team_id=int(team) if team and team.isdigit() else None,
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect(match_url(fixture))
    return _after(
        request,
        fixture,
        "Noted: your club cannot play. The match is decided by the competition's forfeit policy.",
    )


@login_required(login_url="tournaments:login")
@require_POST
def check_in(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """A club checks its team in at the venue before the round (docs/venue.md)."""
    fixture = fixture_or_404(_competition(slug), fixture_id)
    team = request.POST.get("team_id", "")
    try:
        done = fixture_check_in(
            fixture_id=fixture.pk,
            user=signed_in_user(request.user),
            team_id=int(team) if team.isdigit() else None,
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect(match_url(fixture))
    return _after(request, fixture, f"{done.team.name} is checked in.")
