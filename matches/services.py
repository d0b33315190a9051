"""The results workflow: submit → (log validated) → confirm or dispute → admin resolve / override.

Every service locks the fixture row first (SELECT … FOR UPDATE), so two clubs acting on one fixture
at the same moment are serialised; the OneToOne from Result to Fixture is the last line of defence:
two results for one fixture cannot exist. Every change is written to ResultAudit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from kernel.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from matches.holds import hold_of
from matches.log_fixture import check_log_fixture
from matches.models import Card, CardKind, MatchLog, Result, ResultAudit, ResultSubmission
from matches.progress import fixture_result_changed
from matches.turn_logs import turn_log_size_check

# Imported here (not lazily) so a worker that loads the services registers the task as well.
from matches.validation_tasks import enqueue_validation
from tournaments.bracket import Score
from tournaments.game_systems import SENT_OFF_KINDS, rules_of, send_off_loss
from tournaments.knockout import knockout_score_check
from tournaments.models import Fixture, Skill, SkillLoss, Stage, Team, TeamSkill
from tournaments.selectors import fixture_banned_shirts, fixture_first_leg, user_club_team_ids
from tournaments.skills import skill_gain_record, skill_loss_record

FUBA_3_LOG_FORMAT = "fuba-log/1"


class LogQuotaExceeded(ApplicationError):
    status_code = 429
    code = "storage_quota_exceeded"


@dataclass(frozen=True)
class CardInput:
    side: str  # "home" or "away"
    kind: str
    shirt_number: int | None = None


def _lock_fixture(fixture_id: int) -> Fixture:
    try:
        return (
            Fixture.objects.select_for_update(of=("self",))
            .select_related(
                "competition", "stage", "home_team", "away_team", "home_team__club", "away_team__club"
            )
            .get(id=fixture_id)
        )
    except Fixture.DoesNotExist:
        raise NotFound(f"No fixture {fixture_id}.") from None


def _check_goals(fixture: Fixture, **values: Any) -> None:
    for name, value in values.items():
        if value is None and "penalties" in name:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > 99:
            raise ApplicationError(f"{fixture}: {name} must be a whole number from 0 to 99, not {value!r}.")


def _parse_cards(fixture: Fixture, cards: Sequence[Mapping[str, Any] | CardInput]) -> list[CardInput]:
    rules = rules_of(fixture.competition).cards
    if cards and not rules.allowed:
        game = rules_of(fixture.competition)
        raise ApplicationError(f"{fixture}: {game.name} has no cards ({game.rulebook}); report none.")
    players = rules.per_player
    parsed: list[CardInput] = []
    seen: set[tuple[str, int]] = set()
    for i, raw in enumerate(cards):
        item = raw if isinstance(raw, CardInput) else None
        if item is None:
            if not isinstance(raw, Mapping):
                raise ApplicationError(f"{fixture}: card {i + 1} must be an object with 'team' and 'kind'.")
            item = CardInput(raw.get("team") or raw.get("side"), raw.get("kind"), raw.get("shirt_number"))  # type: ignore[arg-type]
        if item.side not in ("home", "away"):
            raise ApplicationError(f"{fixture}: card {i + 1}: 'team' must be 'home' or 'away'.")
        if item.kind not in rules.kinds:
            raise ApplicationError(
                f"{fixture}: card {i + 1}: kind must be one of {', '.join(rules.kinds)}, not {item.kind!r}."
            )
        if players:
            number = item.shirt_number
            if isinstance(number, bool) or not isinstance(number, int) or number not in rules.shirt_numbers:
                raise ApplicationError(
                    f"{fixture}: card {i + 1}: a Soccer City card needs the booked player's shirt number, "
                    f"{rules.shirt_range_text()} (Soccer City, Starting Line up"
                    f"{'' if 12 in rules.shirt_numbers else ': 12 and 14 only in Cup mode'}); got {number!r}."
                )
            if (item.side, number) in seen:
                raise ApplicationError(
                    f"{fixture}: card {i + 1}: #{number} of the {item.side} side is booked twice; "
                    "record the player's final outcome once (e.g. second_yellow)."
                )
            seen.add((item.side, number))
        elif item.shirt_number is not None and (
            isinstance(item.shirt_number, bool) or not isinstance(item.shirt_number, int)
        ):
            raise ApplicationError(f"{fixture}: card {i + 1}: shirt_number must be a whole number.")
        parsed.append(item)
    limit = rules.send_offs_lose
    if limit is not None and all(_sent_off(parsed, side) >= limit for side in ("home", "away")):
        raise ApplicationError(
            f"{fixture}: both sides cannot have {limit} players sent off: the side whose {limit}nd player "
            "was sent off lost the match there (Soccer City, Red card)."
        )
    if players:
        for side, team in (("home", fixture.home_team), ("away", fixture.away_team)):
            banned = fixture_banned_shirts(fixture=fixture, team=team)  # type: ignore[arg-type]
            played = sorted(c.shirt_number for c in parsed if c.side == side and c.shirt_number in banned)
            if played:
                raise ApplicationError(
                    f"{fixture}: {team} #{', #'.join(map(str, played))} is suspended for this fixture "
                    "and cannot have been booked in it."
                )
    return parsed


def _sent_off(cards: Sequence[CardInput], side: str) -> int:
    return sum(1 for c in cards if c.side == side and c.kind in SENT_OFF_KINDS)


def _checked_result(
    fixture: Fixture, score: Score, cards: Sequence[Mapping[str, Any] | CardInput], *, awarded: bool = False
) -> tuple[Score, list[CardInput]]:
    """The cards and the score as they count, checked against the game system's rules.

    Soccer City: "Two players sent off from the same side ends the match with a 5-0 loss for the
    team" (seed 003, Red card): whatever the score was then, the result is that loss.
    """
    parsed = _parse_cards(fixture, cards)
    imposed = send_off_loss(
        rules_of(fixture.competition),
        home_sent_off=_sent_off(parsed, "home"),
        away_sent_off=_sent_off(parsed, "away"),
    )
    if imposed is not None:
        score = Score(*imposed)
    _check_score(fixture, score, awarded=awarded)
    return score, parsed


def _first_leg(fixture: Fixture) -> Fixture | None:
    return fixture_first_leg(fixture=fixture)


def _check_score(fixture: Fixture, score: Score, *, awarded: bool = False) -> None:
    _check_goals(
        fixture,
        home_goals=score.home_goals,
        away_goals=score.away_goals,
        home_penalties=score.home_penalties,
        away_penalties=score.away_penalties,
    )
    if fixture.stage.kind == Stage.Kind.KNOCKOUT and awarded:
        if score.home_goals == score.away_goals:
            raise ApplicationError(f"{fixture}: an awarded knockout match must have a winner.")
    elif fixture.stage.kind == Stage.Kind.KNOCKOUT:
        knockout_score_check(fixture=fixture, score=score, first_leg=_first_leg(fixture))
    elif score.extra_time or score.home_penalties is not None or score.away_penalties is not None:
        raise ApplicationError(f"{fixture}: extra time and shoot-outs are for knockout ties only.")


def _snapshot(fixture: Fixture) -> dict[str, Any] | None:
    result = Result.objects.filter(fixture=fixture).first()
    if result is None:
        return {"status": fixture.status, "result": None}
    return {
        "status": fixture.status,
        "result": {
            "home_goals": result.home_goals,
            "away_goals": result.away_goals,
            "extra_time": result.extra_time,
            "home_penalties": result.home_penalties,
            "away_penalties": result.away_penalties,
            "source": result.source,
            "cards": [
                {
                    "team": "home" if c.team_id == fixture.home_team_id else "away",
                    "kind": c.kind,
                    "shirt_number": c.shirt_number,
                }
                for c in result.cards.all()
            ],
        },
    }


def _submission_snapshot(sub: ResultSubmission) -> dict[str, Any]:
    return {
        "submission": sub.id,
        "status": sub.status,
        "home_goals": sub.home_goals,
        "away_goals": sub.away_goals,
        "extra_time": sub.extra_time,
        "home_penalties": sub.home_penalties,
        "away_penalties": sub.away_penalties,
        "cards": sub.cards,
        "disputed_cards": sub.disputed_cards,
        "validation_status": sub.validation_status,
    }


def _audit(
    fixture: Fixture,
    action: str,
    actor: User | None,
    before: Any,
    after: Any,
    note: str = "",
) -> None:
    ResultAudit.objects.create(
        fixture=fixture,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        before=before,
        after=after,
        note=note,
    )


def _write_result(
    fixture: Fixture,
    *,
    score: Score,
    cards: Sequence[CardInput],
    source: str,
    status: str,
    actor: User | None,
    submission: ResultSubmission | None = None,
    cascade: list[dict[str, Any]] | None = None,
) -> Result:
    fields = {
        "home_goals": score.home_goals,
        "away_goals": score.away_goals,
        "extra_time": score.extra_time,
        "home_penalties": score.home_penalties,
        "away_penalties": score.away_penalties,
        "source": source,
        "submission": submission,
        "confirmed_by": actor if actor is not None and actor.is_authenticated else None,
    }
    try:
        with transaction.atomic():
            result, _ = Result.objects.update_or_create(fixture=fixture, defaults=fields)
    except IntegrityError:
        raise Conflict(f"{fixture}: another result was recorded at the same moment.") from None
    result.cards.all().delete()
    Card.objects.bulk_create(
        [
            Card(
                result=result,
                team=fixture.home_team if c.side == "home" else fixture.away_team,
                kind=c.kind,
                shirt_number=c.shirt_number,
                sequence=i,
            )
            for i, c in enumerate(cards)
        ]
    )
    fixture.status = status
    fixture.save(update_fields=["status", "updated_at"])
    if cascade is None:
        fixture_result_changed(fixture=fixture)
    else:
        _recount(fixture, actor=actor, cascade=cascade)
    return result


def _recount(fixture: Fixture, *, actor: User | None, cascade: list[dict[str, Any]]) -> None:
    """What follows from a corrected result, reopening the later fixtures that used the old one.

    Every fixture reopened (its result cleared, recursively further down the bracket) is added to
    ``cascade`` as it was before; the caller refuses the whole change unless reopening was asked for.
    """
    blocked: list[Fixture] = []
    fixture_result_changed(fixture=fixture, blocked=blocked)
    if not blocked:
        return
    for dependent in blocked:
        cascade.append({"id": dependent.pk, "fixture": str(dependent), "status": dependent.status})
        _clear(
            dependent,
            actor=actor,
            action=ResultAudit.Action.REOPEN,
            note=f"{fixture} was corrected: who plays this fixture changed.",
            cascade=cascade,
        )
    fixture_result_changed(fixture=fixture)


def _clear(
    fixture: Fixture,
    *,
    actor: User | None,
    action: str,
    note: str,
    cascade: list[dict[str, Any]],
    status: str = Fixture.Status.SCHEDULED,
) -> None:
    """The fixture goes back to scheduled (or to ``status``): no result, no live submission, no
    skills from it."""
    before = _snapshot(fixture)
    Result.objects.filter(fixture=fixture).delete()
    ResultSubmission.objects.filter(
        fixture=fixture, status__in=[ResultSubmission.Status.OPEN, ResultSubmission.Status.DISPUTED]
    ).update(status=ResultSubmission.Status.SUPERSEDED)
    # A13 skills lost or gained in this match no longer happened.
    SkillLoss.objects.filter(lost_in=fixture).delete()
    TeamSkill.objects.filter(gained_in=fixture, source=TeamSkill.Source.GAINED).delete()
    fixture.status = status
    fixture.save(update_fields=["status", "updated_at"])
    _recount(fixture, actor=actor, cascade=cascade)
    _audit(fixture, action, actor, before, _snapshot(fixture), note=note)


def _refuse_unless_reopened(fixture: Fixture, cascade: list[dict[str, Any]], reopen: bool) -> None:
    if cascade and not reopen:
        listed = "; ".join(f"{c['fixture']} ({c['status']})" for c in cascade)
        raise Conflict(
            f"{fixture}: later fixtures were played with the old outcome: {listed}. "
            "Correct with reopen to clear them as well.",
            details={"fixtures": cascade},
        )


def _is_admin(user: User | None) -> bool:
    return bool(user is not None and user.is_authenticated and getattr(user, "is_staff", False))


def _open_submission(fixture: Fixture) -> ResultSubmission | None:
    return ResultSubmission.objects.filter(fixture=fixture, status=ResultSubmission.Status.OPEN).first()


def _cards_as_json(cards: Sequence[CardInput]) -> list[dict[str, Any]]:
    return [{"team": c.side, "kind": c.kind, "shirt_number": c.shirt_number} for c in cards]


def _cards_from_json(data: Sequence[Mapping[str, Any]]) -> list[CardInput]:
    return [CardInput(c["team"], c["kind"], c.get("shirt_number")) for c in data]


def cards_from_derived(derived: Mapping[str, Any]) -> list[dict[str, Any]]:
    """FUBA team cards from the rules engine's derived result.

    The engine's red-card test tells a red after a second yellow from a direct red
    (``red_cards_detail``); the two yellows behind a second-yellow red are not counted again.
    """
    cards: list[dict[str, Any]] = []
    for side in ("home", "away"):
        team = (derived.get("teams") or {}).get(side) or {}
        reds = list(team.get("red_cards_detail") or [])
        second = reds.count("second_yellow")
        yellows = max(0, int(team.get("yellow_cards") or 0) - 2 * second)
        cards += [{"team": side, "kind": CardKind.YELLOW, "shirt_number": None}] * yellows
        cards += [{"team": side, "kind": CardKind.SECOND_YELLOW, "shirt_number": None}] * second
        cards += [{"team": side, "kind": CardKind.RED, "shirt_number": None}] * reds.count("direct")
    return cards


def _apply_skill_changes(fixture: Fixture, derived: Mapping[str, Any] | None) -> None:
    """A13 Injured star player / New talent carry over to the team's next matches."""
    if not derived:
        return
    by_code = {s.code: s for s in Skill.objects.all()}
    for side, team in (("home", fixture.home_team), ("away", fixture.away_team)):
        data = (derived.get("teams") or {}).get(side) or {}
        for code in data.get("skills_lost") or []:
            if code in by_code:
                skill_loss_record(team=team, skill=by_code[code], fixture=fixture)  # type: ignore[arg-type]
        for code in data.get("skills_gained") or []:
            if code in by_code:
                skill_gain_record(team=team, skill=by_code[code], fixture=fixture)  # type: ignore[arg-type]


def _reporting_sides(fixture: Fixture, user: User, hold_key: str) -> set[int]:
    """The user's teams in the fixture, once the fixture is one that takes a club's report now."""
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams must be known before a result can be submitted.")
    sides = user_club_team_ids(user=user, fixture=fixture)
    if not sides:
        raise PermissionDenied(f"{fixture}: only a member of one of the two clubs can submit its result.")
    hold = hold_of(fixture.id)
    if hold is not None and hold.key != hold_key:
        raise Conflict(f"{fixture}: {hold.message}", details=dict(hold.details))
    if fixture.status in Fixture.COUNTED_STATUSES:
        raise Conflict(f"{fixture}: the result already counts ({fixture.get_status_display()}).")
    if fixture.status == Fixture.Status.SIMULATING:
        raise Conflict(f"{fixture}: the match is being simulated after its deadline.")
    if fixture.status == Fixture.Status.DISPUTED:
        raise Conflict(f"{fixture}: the result is disputed; an administrator resolves it.")
    if fixture.status == Fixture.Status.VOID:
        raise Conflict(f"{fixture}: the organisers voided this match; it takes no result.")
    return sides


@dataclass
class Submitted:
    """What result_submit did: the submission, whether it was the same report sent again (the
    stored one is returned unchanged) and whether its log's validation was queued (None until the
    transaction commits; False: the task queue was down, the sweep queues it later)."""

    submission: ResultSubmission
    resent: bool = False
    validation_queued: bool | None = None


@transaction.atomic
def result_submit(
    *,
    fixture_id: int,
    user: User,
    home_goals: int,
    away_goals: int,
    cards: Sequence[Mapping[str, Any] | CardInput] = (),
    extra_time: bool = False,
    home_penalties: int | None = None,
    away_penalties: int | None = None,
    turn_log: Mapping[str, Any] | None = None,
    log_format: str = FUBA_3_LOG_FORMAT,
    replace: bool = False,
    hold_key: str = "",
) -> Submitted:
    """A club in the fixture reports its result; the opponent then confirms or disputes it.

    While its report waits for the opponent, the club may replace it, but only by saying so
    (``replace``): a second report by mistake is refused. The replaced report stays in the history.
    While the match is scored live, only the session reports it (it passes its ``hold_key``):
    a report typed by hand is refused (matches.holds).
    """
    fixture = _lock_fixture(fixture_id)
    sides = _reporting_sides(fixture, user, hold_key)
    score, parsed = _checked_result(
        fixture, Score(home_goals, away_goals, bool(extra_time), home_penalties, away_penalties), cards
    )
    if turn_log is not None and not isinstance(turn_log, Mapping):
        raise ApplicationError(f"{fixture}: the turn log must be a JSON object.")
    previous = _open_submission(fixture)
    team_id = next(iter(sides)) if len(sides) == 1 else fixture.home_team_id
    if team_id is None:
        raise Conflict(f"{fixture}: the teams of this fixture are not known yet.")
    team = fixture.home_team if team_id == fixture.home_team_id else fixture.away_team
    if team is None:
        raise Conflict(f"{fixture}: the teams of this fixture are not known yet.")
    if (
        previous is not None
        and not replace
        and previous.submitted_by_id == user.pk
        and _same_report(previous, score, parsed, turn_log)
    ):
        # The same report again: a client resending after a timeout (its first request may have
        # been stored, then the answer lost). It gets the stored report, not a 409.
        return Submitted(previous, resent=True)
    log_bytes = 0
    if turn_log is not None:
        log_bytes = turn_log_size_check(turn_log)
        _check_log_quota(fixture, club_id=team.club_id, log_bytes=log_bytes)
    if previous is not None:
        _supersede(
            fixture, previous, team_id=team_id, by_both_sides=len(sides) > 1, user=user, replace=replace
        )
    _drop_replaced_logs(fixture, team_id=team_id)
    return _submission_store(
        fixture, user, team, score, parsed, turn_log=turn_log, log_bytes=log_bytes, log_format=log_format
    )


def _submission_store(
    fixture: Fixture,
    user: User,
    team: Team,
    score: Score,
    parsed: Sequence[CardInput],
    *,
    turn_log: Mapping[str, Any] | None,
    log_bytes: int,
    log_format: str,
) -> Submitted:
    """Store the report (its log checked against the fixture when the engine validates it), queue
    the validation after commit and mark the fixture submitted, with the audit trail."""
    needs_validation = turn_log is not None and rules_of(fixture.competition).engine_backed
    if needs_validation:
        # the log must be a record of this fixture, whatever its source
        check_log_fixture(fixture, turn_log)
    submission = ResultSubmission.objects.create(
        fixture=fixture,
        submitted_by=user,
        club_id=team.club_id,
        team_id=team.pk,
        log_bytes=log_bytes,
        home_goals=score.home_goals,
        away_goals=score.away_goals,
        extra_time=bool(score.extra_time),
        home_penalties=score.home_penalties,
        away_penalties=score.away_penalties,
        cards=_cards_as_json(parsed),
        validation_status=(
            ResultSubmission.Validation.PENDING
            if needs_validation
            else ResultSubmission.Validation.NOT_REQUIRED
        ),
    )
    submitted = Submitted(submission)
    if needs_validation:
        _on_commit_enqueue_validation(submitted)
    if turn_log is not None:
        MatchLog.objects.create(
            fixture=fixture,
            submission=submission,
            format=str(turn_log.get("format") or log_format)[:40],
            data=dict(turn_log),
            is_simulated=False,
        )
    before = {"status": fixture.status}
    fixture.status = Fixture.Status.SUBMITTED
    fixture.save(update_fields=["status", "updated_at"])
    _audit(fixture, ResultAudit.Action.SUBMIT, user, before, _submission_snapshot(submission))
    return submitted


def _supersede(
    fixture: Fixture,
    previous: ResultSubmission,
    *,
    team_id: int,
    by_both_sides: bool,
    user: User,
    replace: bool,
) -> None:
    """The club's open report gives way to the new one, when the club asked for that (``replace``)."""
    if previous.team_id != team_id or (by_both_sides and previous.submitted_by_id != user.pk):
        raise Conflict(
            f"{fixture}: the other side already submitted {previous.home_goals}-{previous.away_goals}; "
            "confirm or dispute it."
        )
    if not replace:
        raise Conflict(
            f"{fixture}: your club already reported {previous.home_goals}-{previous.away_goals}, "
            "waiting for the opponent. Replace that report explicitly (replace: true; on the match "
            "page, “Replace my report”); the earlier one stays in the history.",
            details={"submission": previous.pk, "replace": ["required to replace your report"]},
        )
    previous.status = ResultSubmission.Status.SUPERSEDED
    previous.save(update_fields=["status", "updated_at"])


def _check_log_quota(fixture: Fixture, *, club_id: int | None, log_bytes: int) -> None:
    """A club stores at most CLUB_LOG_QUOTA_BYTES of turn logs per 24 hours."""
    if club_id is None:
        return  # a team without a club has no member who could submit
    since = timezone.now() - timedelta(hours=24)
    used = (
        ResultSubmission.objects.filter(club_id=club_id, created_at__gte=since).aggregate(
            total=Sum("log_bytes")
        )["total"]
        or 0
    )
    quota = settings.CLUB_LOG_QUOTA_BYTES
    if used + log_bytes > quota:
        raise LogQuotaExceeded(
            f"{fixture}: your club sent {used:,} bytes of turn logs in the last 24 hours; this log "
            f"({log_bytes:,} bytes) would pass the daily quota of {quota:,} bytes. Try again later, "
            "or submit the score without the log.",
            details={"field": "turn_log", "used_bytes": used, "bytes": log_bytes, "quota_bytes": quota},
        )


def _drop_replaced_logs(fixture: Fixture, *, team_id: int) -> None:
    """A new submission replaces the side's earlier ones: only the latest keeps its turn log.

    Their validation, if still to come, is moot (no log: ``not_required``); the scores, the
    verdicts already given and the audit trail stay.
    """
    replaced = ResultSubmission.objects.filter(
        fixture=fixture,
        team_id=team_id,
        status__in=[ResultSubmission.Status.SUPERSEDED, ResultSubmission.Status.REJECTED],
    )
    MatchLog.objects.filter(submission__in=replaced).delete()
    replaced.filter(
        validation_status__in=[ResultSubmission.Validation.PENDING, ResultSubmission.Validation.VALIDATING]
    ).update(validation_status=ResultSubmission.Validation.NOT_REQUIRED)


def _same_report(
    previous: ResultSubmission, score: Score, cards: Sequence[CardInput], turn_log: Mapping[str, Any] | None
) -> bool:
    """Whether a new report says exactly what the club's open one says: the score, and the turn
    log it sent (whose cards replace the typed ones once valid) or, without a log, the cards."""
    if (
        previous.home_goals,
        previous.away_goals,
        previous.extra_time,
        previous.home_penalties,
        previous.away_penalties,
    ) != (
        score.home_goals,
        score.away_goals,
        bool(score.extra_time),
        score.home_penalties,
        score.away_penalties,
    ):
        return False
    stored = MatchLog.objects.filter(submission=previous).values_list("data", flat=True).first()
    if turn_log is not None or stored is not None:
        return stored == (dict(turn_log) if turn_log is not None else None)
    return bool(previous.cards == _cards_as_json(cards))


def _on_commit_enqueue_validation(submitted: Submitted) -> None:
    """Queue the log's validation after commit, whatever other commit hooks do.

    Registered before the fixture is saved, so it runs before the standings-cache hooks that the
    save adds, and robust, so a failure of its own is logged and the hooks behind it still run.
    enqueue_validation never raises either: a broker that is down leaves the submission pending
    for the sweep (docs/reliability.md).
    """

    def enqueue() -> None:
        submitted.validation_queued = enqueue_validation(submitted.submission.id)

    transaction.on_commit(enqueue, robust=True)


@transaction.atomic
def result_confirm(*, fixture_id: int, user: User, note: str = "") -> Result:
    """The opponent accepts the submitted result; from now on it counts. ``note`` goes to the audit
    trail (e.g. the confirmation was given in the live scorer)."""
    fixture = _lock_fixture(fixture_id)
    if fixture.status == Fixture.Status.SIMULATING:
        # docs/forfeits.md: once a forfeit simulation holds the fixture, the clubs are told so.
        raise Conflict(f"{fixture}: the match is being simulated after its deadline or a forfeit.")
    submission = _open_submission(fixture)
    if submission is None or fixture.status != Fixture.Status.SUBMITTED:
        raise Conflict(f"{fixture}: there is no submitted result to confirm.")
    sides = user_club_team_ids(user=user, fixture=fixture)
    opponent = fixture.away_team_id if submission.team_id == fixture.home_team_id else fixture.home_team_id
    if opponent not in sides or submission.submitted_by_id == user.pk:
        raise PermissionDenied(f"{fixture}: only the opponent of the submitting club can confirm the result.")
    if submission.validation_status in (
        ResultSubmission.Validation.PENDING,
        ResultSubmission.Validation.VALIDATING,
    ):
        raise Conflict(f"{fixture}: the turn log is still being validated; try again shortly.")
    if submission.validation_status == ResultSubmission.Validation.INVALID:
        raise Conflict(f"{fixture}: the turn log was rejected by the rules engine; submit again.")
    before = _snapshot(fixture)
    submission.status = ResultSubmission.Status.ACCEPTED
    submission.save(update_fields=["status", "updated_at"])
    result = _write_result(
        fixture,
        score=Score(
            submission.home_goals,
            submission.away_goals,
            submission.extra_time,
            submission.home_penalties,
            submission.away_penalties,
        ),
        cards=_cards_from_json(submission.cards),
        source=Result.Source.CLUBS,
        status=Fixture.Status.CONFIRMED,
        actor=user,
        submission=submission,
    )
    _apply_skill_changes(fixture, submission.derived_result)
    _audit(fixture, ResultAudit.Action.CONFIRM, user, before, _snapshot(fixture), note=note)
    return result


@transaction.atomic
def result_dispute(
    *, fixture_id: int, user: User, reason: str, cards: Sequence[int] = ()
) -> ResultSubmission:
    """The opponent rejects the submitted result; an administrator will resolve it.

    ``cards`` names the reported card lines (indexes into the submission's cards) that are wrong.
    """
    fixture = _lock_fixture(fixture_id)
    submission = _open_submission(fixture)
    if submission is None or fixture.status != Fixture.Status.SUBMITTED:
        raise Conflict(f"{fixture}: there is no submitted result to dispute.")
    sides = user_club_team_ids(user=user, fixture=fixture)
    opponent = fixture.away_team_id if submission.team_id == fixture.home_team_id else fixture.home_team_id
    if opponent not in sides or submission.submitted_by_id == user.pk:
        raise PermissionDenied(f"{fixture}: only the opponent of the submitting club can dispute the result.")
    if not reason.strip():
        raise ApplicationError(f"{fixture}: say why the result is disputed.")
    lines = sorted(set(cards))
    for line in lines:
        if isinstance(line, bool) or not isinstance(line, int) or not 0 <= line < len(submission.cards):
            raise ApplicationError(
                f"{fixture}: card line {line!r} does not exist; the submission reports "
                f"{len(submission.cards)} card(s), numbered from 0.",
                details={"cards": [f"no card line {line!r}"]},
            )
    before = _submission_snapshot(submission)
    submission.status = ResultSubmission.Status.DISPUTED
    submission.dispute_reason = reason.strip()
    submission.disputed_cards = lines
    submission.disputed_by = user
    submission.save(update_fields=["status", "dispute_reason", "disputed_cards", "disputed_by", "updated_at"])
    fixture.status = Fixture.Status.DISPUTED
    fixture.save(update_fields=["status", "updated_at"])
    _audit(fixture, ResultAudit.Action.DISPUTE, user, before, _submission_snapshot(submission), note=reason)
    return submission


def _admin_set(
    *,
    fixture: Fixture,
    user: User,
    action: str,
    home_goals: int,
    away_goals: int,
    cards: Sequence[Mapping[str, Any] | CardInput],
    extra_time: bool,
    home_penalties: int | None,
    away_penalties: int | None,
    note: str,
    reopen: bool = False,
) -> Result:
    if not _is_admin(user):
        raise PermissionDenied(f"{fixture}: only an administrator can set a result.")
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams must be known before a result can be set.")
    if fixture.status == Fixture.Status.SIMULATING:
        raise Conflict(f"{fixture}: the match is being simulated; wait for it to finish.")
    score, parsed = _checked_result(
        fixture, Score(home_goals, away_goals, bool(extra_time), home_penalties, away_penalties), cards
    )
    before = _snapshot(fixture)
    cascade: list[dict[str, Any]] = []
    result = _write_result(
        fixture,
        score=score,
        cards=parsed,
        source=Result.Source.ADMIN,
        status=Fixture.Status.CONFIRMED,
        actor=user,
        cascade=cascade,
    )
    _refuse_unless_reopened(fixture, cascade, reopen)
    if cascade:
        note += "\nReopened: " + "; ".join(c["fixture"] for c in cascade)
    _audit(fixture, action, user, before, _snapshot(fixture), note=note)
    return result


@transaction.atomic
def result_resolve(
    *,
    fixture_id: int,
    user: User,
    home_goals: int,
    away_goals: int,
    cards: Sequence[Mapping[str, Any] | CardInput] = (),
    extra_time: bool = False,
    home_penalties: int | None = None,
    away_penalties: int | None = None,
    note: str = "",
) -> Result:
    """An administrator settles a disputed result."""
    fixture = _lock_fixture(fixture_id)
    if fixture.status != Fixture.Status.DISPUTED:
        raise Conflict(f"{fixture}: only a disputed result is resolved; use an override otherwise.")
    ResultSubmission.objects.filter(fixture=fixture, status=ResultSubmission.Status.DISPUTED).update(
        status=ResultSubmission.Status.SUPERSEDED
    )
    return _admin_set(
        fixture=fixture,
        user=user,
        action=ResultAudit.Action.RESOLVE,
        home_goals=home_goals,
        away_goals=away_goals,
        cards=cards,
        extra_time=extra_time,
        home_penalties=home_penalties,
        away_penalties=away_penalties,
        note=note,
    )


@transaction.atomic
def result_override(
    *,
    fixture_id: int,
    user: User,
    home_goals: int,
    away_goals: int,
    cards: Sequence[Mapping[str, Any] | CardInput] = (),
    extra_time: bool = False,
    home_penalties: int | None = None,
    away_penalties: int | None = None,
    note: str = "",
    reopen: bool = False,
) -> Result:
    """An administrator sets or corrects any fixture's result; standings, brackets and bans follow.

    Where a later fixture was already played with the old outcome (a knockout slot it filled), the
    correction is refused (Conflict, ``details.fixtures`` lists them all) unless ``reopen``: then
    those fixtures are cleared too, each with its own audit entry.
    """
    fixture = _lock_fixture(fixture_id)
    if not note.strip():
        raise ApplicationError(f"{fixture}: an override needs a note saying why.")
    ResultSubmission.objects.filter(
        fixture=fixture, status__in=[ResultSubmission.Status.OPEN, ResultSubmission.Status.DISPUTED]
    ).update(status=ResultSubmission.Status.SUPERSEDED)
    return _admin_set(
        fixture=fixture,
        user=user,
        action=ResultAudit.Action.OVERRIDE,
        home_goals=home_goals,
        away_goals=away_goals,
        cards=cards,
        extra_time=extra_time,
        home_penalties=home_penalties,
        away_penalties=away_penalties,
        note=note,
        reopen=reopen,
    )


@transaction.atomic
def result_award(*, fixture_id: int, user: User, team_id: int, note: str, reopen: bool = False) -> Result:
    """Staff award the match to one side (the other did not show): the competition's award score.

    Works on a fixture in any state but being simulated; replacing a counted result follows the
    corrections' rules (later fixtures played with the old outcome: refused, or reopened).
    """
    fixture = _lock_fixture(fixture_id)
    if not _is_admin(user):
        raise PermissionDenied(f"{fixture}: only an administrator can award a match.")
    if not note.strip():
        raise ApplicationError(f"{fixture}: an award needs a note saying why.")
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams must be known before the match can be awarded.")
    if fixture.status == Fixture.Status.SIMULATING:
        raise Conflict(f"{fixture}: the match is being simulated; wait for it to finish.")
    if team_id not in (fixture.home_team_id, fixture.away_team_id):
        raise ApplicationError(
            f"{fixture}: team {team_id} does not play this fixture.",
            details={"team_id": ["not in this fixture"]},
        )
    competition = fixture.competition
    won, lost = competition.award_goals_for, competition.award_goals_against
    home_wins = team_id == fixture.home_team_id
    score = Score(won if home_wins else lost, lost if home_wins else won)
    _check_score(fixture, score, awarded=True)
    before = _snapshot(fixture)
    ResultSubmission.objects.filter(
        fixture=fixture, status__in=[ResultSubmission.Status.OPEN, ResultSubmission.Status.DISPUTED]
    ).update(status=ResultSubmission.Status.SUPERSEDED)
    cascade: list[dict[str, Any]] = []
    result = _write_result(
        fixture,
        score=score,
        cards=[],
        source=Result.Source.AWARDED,
        status=Fixture.Status.AWARDED,
        actor=user,
        cascade=cascade,
    )
    _refuse_unless_reopened(fixture, cascade, reopen)
    winner = fixture.home_team if home_wins else fixture.away_team
    text = f"awarded {won}-{lost} to {winner}: {note.strip()}"
    if cascade:
        text += "\nReopened: " + "; ".join(c["fixture"] for c in cascade)
    _audit(fixture, ResultAudit.Action.AWARD, user, before, _snapshot(fixture), note=text)
    return result


@transaction.atomic
def result_clear(*, fixture_id: int, user: User, note: str, reopen: bool = False) -> list[dict[str, Any]]:
    """An administrator removes a fixture's result: it is scheduled again and counts for nothing.

    Standings, stage status, knockout slots, suspensions and A13 skills follow. Later fixtures that
    used the old outcome are refused or, with ``reopen``, cleared too; returns those fixtures.
    """
    fixture = _lock_fixture(fixture_id)
    if not _is_admin(user):
        raise PermissionDenied(f"{fixture}: only an administrator can clear a result.")
    if not note.strip():
        raise ApplicationError(f"{fixture}: clearing a result needs a note saying why.")
    if fixture.status == Fixture.Status.SIMULATING:
        raise Conflict(f"{fixture}: the match is being simulated; wait for it to finish.")
    clearable = (
        *Fixture.COUNTED_STATUSES,
        Fixture.Status.SUBMITTED,
        Fixture.Status.DISPUTED,
        Fixture.Status.VOID,
    )
    if fixture.status not in clearable:
        raise Conflict(f"{fixture}: there is no result to clear ({fixture.get_status_display()}).")
    return _clear_noted(fixture, user, ResultAudit.Action.CLEAR, note.strip(), reopen)


def _clear_noted(
    fixture: Fixture,
    user: User,
    action: str,
    note: str,
    reopen: bool,
    status: str = Fixture.Status.SCHEDULED,
) -> list[dict[str, Any]]:
    """Clear (or void) the fixture with the audit entry ``action``; later fixtures that used the
    old outcome are refused or, with ``reopen``, cleared and named in that entry's note."""
    cascade: list[dict[str, Any]] = []
    _clear(fixture, actor=user, action=action, note=note, cascade=cascade, status=status)
    _refuse_unless_reopened(fixture, cascade, reopen)
    if cascade:
        entry = ResultAudit.objects.filter(fixture=fixture, action=action).latest("id")
        entry.note = note + "\nReopened: " + "; ".join(c["fixture"] for c in cascade)
        entry.save(update_fields=["note"])
    return cascade


@transaction.atomic
def result_void(*, fixture_id: int, user: User, note: str, reopen: bool = False) -> list[dict[str, Any]]:
    """An administrator voids a match: not played, it counts for nothing, for either side.

    Whatever was reported or counted goes (the result, its cards, A13 skills lost or gained in it),
    and standings, stage status, suspensions and where they are served follow. A knockout tie needs
    a winner, so a knockout match is awarded or cleared instead. Later fixtures that used the old
    outcome are refused or, with ``reopen``, cleared; returns those fixtures. ``result_clear`` puts
    a void match back on the schedule.
    """
    fixture = _lock_fixture(fixture_id)
    if not _is_admin(user):
        raise PermissionDenied(f"{fixture}: only an administrator can void a match.")
    if not note.strip():
        raise ApplicationError(f"{fixture}: voiding a match needs a note saying why.")
    if fixture.stage.kind == Stage.Kind.KNOCKOUT:
        raise Conflict(
            f"{fixture}: a knockout tie needs a winner, so a knockout match cannot be void; "
            "award it to one side, or clear it to be played again."
        )
    if fixture.status == Fixture.Status.SIMULATING:
        raise Conflict(f"{fixture}: the match is being simulated; wait for it to finish.")
    if fixture.status == Fixture.Status.VOID:
        raise Conflict(f"{fixture}: the match is already void.")
    action, void = ResultAudit.Action.VOID, Fixture.Status.VOID
    return _clear_noted(fixture, user, action, note.strip(), reopen, status=void)


@transaction.atomic
def result_record_system(
    *,
    fixture_id: int,
    source: str,
    home_goals: int,
    away_goals: int,
    cards: Sequence[Mapping[str, Any] | CardInput] = (),
    extra_time: bool = False,
    home_penalties: int | None = None,
    away_penalties: int | None = None,
    match_log: Mapping[str, Any] | None = None,
    log_format: str = FUBA_3_LOG_FORMAT,
    seed: int | None = None,
    note: str = "",
    allowed_statuses: Sequence[str] = (Fixture.Status.SIMULATING,),
    derived: Mapping[str, Any] | None = None,
) -> Result:
    """Record a simulated or awarded result (forfeits after the deadline; called from Celery tasks).

    The fixture must be in one of ``allowed_statuses`` (by default: claimed for simulation), so a
    duplicate task, or one that lost the race with a club's confirmation, changes nothing.
    ``derived`` is the rules engine's result of ``match_log``: skills lost or gained in the
    simulated match carry over to the teams' next matches as in a played one (A13).
    """
    if source not in (Result.Source.SIMULATED, Result.Source.AWARDED):
        raise ApplicationError(f"Source must be '{Result.Source.SIMULATED}' or '{Result.Source.AWARDED}'.")
    fixture = _lock_fixture(fixture_id)
    if fixture.status not in allowed_statuses:
        raise Conflict(f"{fixture}: status is '{fixture.status}', expected one of {list(allowed_statuses)}.")
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams must be known before a result can be recorded.")
    score, parsed = _checked_result(
        fixture,
        Score(home_goals, away_goals, bool(extra_time), home_penalties, away_penalties),
        cards,
        awarded=source == Result.Source.AWARDED,
    )
    before = _snapshot(fixture)
    ResultSubmission.objects.filter(fixture=fixture, status=ResultSubmission.Status.OPEN).update(
        status=ResultSubmission.Status.SUPERSEDED
    )
    simulated = source == Result.Source.SIMULATED
    result = _write_result(
        fixture,
        score=score,
        cards=parsed,
        source=source,
        status=Fixture.Status.SIMULATED if simulated else Fixture.Status.AWARDED,
        actor=None,
    )
    if match_log is not None:
        MatchLog.objects.create(
            fixture=fixture, format=log_format, data=dict(match_log), is_simulated=simulated, seed=seed
        )
    _apply_skill_changes(fixture, derived)
    _audit(
        fixture,
        ResultAudit.Action.SIMULATE if simulated else ResultAudit.Action.AWARD,
        None,
        before,
        _snapshot(fixture),
        note=note,
    )
    return result


def _log_against_report(submission: ResultSubmission, derived: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Where a valid log disagrees with the report it came with: its final score, its extra time."""
    problems: list[dict[str, Any]] = []
    score = derived.get("final_score")
    if score is None:
        problems.append(
            {"turn": None, "stage": None, "rule": "result", "reason": "the log yields no final score"}
        )
    elif list(score) != [submission.home_goals, submission.away_goals]:
        problems.append(
            {
                "turn": None,
                "stage": None,
                "rule": "result",
                "reason": f"the log ends {score[0]}-{score[1]}, the submission says "
                f"{submission.home_goals}-{submission.away_goals}",
            }
        )
    if derived.get("extra_time") and not submission.extra_time:
        # (the other way round is allowed: logs of 90 minutes came before extra time could be logged)
        problems.append(
            {
                "turn": None,
                "stage": None,
                "rule": "I-38",
                "reason": "the log plays extra time, the submission says the match ended after 90 minutes",
            }
        )
    return problems


@transaction.atomic
def submission_validation_record(
    *,
    submission_id: int,
    engine_valid: bool,
    errors: Sequence[Mapping[str, Any]],
    derived: Mapping[str, Any] | None,
    task_id: str | None = None,
) -> ResultSubmission:
    """Store the rules engine's verdict; a log whose score differs from the submitted one is invalid.

    With ``task_id`` the verdict is stored only while that task holds the validation claim, so
    of two runs (a stale claim taken over) exactly one records it.
    """
    fixture_id = (
        ResultSubmission.objects.filter(id=submission_id).values_list("fixture_id", flat=True).first()
    )
    if fixture_id is None:
        raise NotFound(f"No result submission {submission_id}.")
    # Fixture first, then submission: the same lock order as every other service (no deadlock).
    fixture = _lock_fixture(fixture_id)
    submission = ResultSubmission.objects.select_for_update().get(id=submission_id)
    if submission.validation_status not in (
        ResultSubmission.Validation.PENDING,
        ResultSubmission.Validation.VALIDATING,
    ):
        return submission
    if task_id is not None and submission.validation_task_id != task_id:
        return submission  # another task took the claim over; it records the verdict
    problems = [dict(e) for e in errors]
    if engine_valid:
        problems += _log_against_report(submission, derived or {})
    valid = engine_valid and not problems
    before = _submission_snapshot(submission)
    submission.validation_status = (
        ResultSubmission.Validation.VALID if valid else ResultSubmission.Validation.INVALID
    )
    submission.validation_errors = problems
    submission.derived_result = dict(derived) if derived is not None else None
    fields = ["validation_status", "validation_errors", "derived_result", "updated_at"]
    if valid and derived is not None and derived.get("teams"):
        # The log is the record of the match: its cards replace the ones typed in.
        submission.cards = cards_from_derived(derived)
        fields.append("cards")
    if not valid and submission.status == ResultSubmission.Status.OPEN:
        submission.status = ResultSubmission.Status.REJECTED
        fields.append("status")
        if fixture.status == Fixture.Status.SUBMITTED:
            fixture.status = Fixture.Status.SCHEDULED
            fixture.save(update_fields=["status", "updated_at"])
    submission.save(update_fields=fields)
    _audit(
        fixture,
        ResultAudit.Action.VALIDATE,
        None,
        before,
        _submission_snapshot(submission),
        note="turn log valid" if valid else f"turn log rejected: {len(problems)} problem(s)",
    )
    return submission
