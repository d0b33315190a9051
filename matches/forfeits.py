"""Forfeits and missed deadlines: the competition goes on with a simulated (or awarded) result.

How a fixture gets here:
- a club declares that it forfeits (``forfeit_declare``);
- the beat job ``forfeits_sweep`` finds fixtures past their deadline with no result reported:
  a fixture whose report waits for the opponent, or that is being scored live (matches.holds),
  is left alone (the clubs are not late, the opponent or the final whistle is awaited);
- an administrator starts it (``forfeit_simulate_now``).

Each path records one ``Forfeit`` row and enqueues ``matches.tasks.forfeit_process`` with
``transaction.on_commit``. The task claims the fixture with a conditional UPDATE
(``status IN (scheduled, submitted) → simulating``). That makes it idempotent:

- a duplicate task (another task id) finds the claim held and does nothing;
- the same task redelivered after its worker died (acks_late) finds its own task id on the claim
  and carries on; a claim older than FORFEIT_CLAIM_TIMEOUT (longer than the hard time limit, so
  its holder cannot still be running) is taken over by whoever comes next, e.g. the sweep;
- the result is written only while the fixture is still ``simulating`` (``result_record_system``),
  so of two runs that both finished a simulation exactly one stores a result.

Clubs against the simulation (docs/forfeits.md): whatever counts first wins, and the loser is
told, never overwritten silently. A result confirmed before the claim makes the task skip; once
the fixture is claimed, club submissions and confirmations are refused with a 409 naming the
simulation, and an open submission is marked superseded in the audit trail. An administrator can
still override the simulated result afterwards.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from kernel.broker import publish
from kernel.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from matches.holds import hold_of, holds
from matches.knockout import tie_needs_decider
from matches.models import Forfeit, Result, ResultSubmission
from matches.services import result_record_system
from matches.simulation import (
    SimulatedMatch,
    cards_from_result,
    fixture_seed,
    fixture_simulate,
    shootout_simulate,
)
from matches.standings.signals import fixture_changed
from tournaments.bracket import Score
from tournaments.game_systems import GAME_SYSTEMS, rules_of
from tournaments.models import Competition, Fixture
from tournaments.selectors import fixture_first_leg, user_club_team_ids

logger = logging.getLogger(__name__)


def claim_timeout() -> timedelta:
    return timedelta(seconds=settings.FORFEIT_CLAIM_TIMEOUT)


def _enqueue(fixture_id: int) -> None:
    from matches.tasks import forfeit_process

    # Bounded and never an error for the request (kernel.broker); the sweep takes over a claim
    # whose task was not queued.
    transaction.on_commit(lambda: publish(forfeit_process, (fixture_id,)))


def _forfeit_open(
    *,
    fixture: Fixture,
    reason: str,
    forfeiting_team_id: int | None = None,
    user: User | None = None,
) -> Forfeit:
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams must be known before the match can be forfeited.")
    if fixture.status not in Fixture.OPEN_STATUSES:
        raise Conflict(
            f"{fixture}: a forfeit needs a fixture without a counted result; "
            f"its status is '{fixture.get_status_display()}'."
        )
    hold = hold_of(fixture.id) if reason != Forfeit.Reason.ADMIN else None
    if hold is not None:
        # A club gives up a match being scored live: the session is abandoned first, on purpose.
        raise Conflict(f"{fixture}: {hold.message}", details=dict(hold.details))
    forfeit, created = Forfeit.objects.get_or_create(
        fixture=fixture,
        defaults={
            "reason": reason,
            "forfeiting_team_id": forfeiting_team_id,
            "declared_by": user if user is not None and user.is_authenticated else None,
            "seed": fixture_seed(fixture),
        },
    )
    if not created:
        if forfeit.state in (Forfeit.State.QUEUED, Forfeit.State.RUNNING):
            raise Conflict(
                f"{fixture}: a forfeit is already being processed ({forfeit.get_reason_display()})."
            )
        # A failed or skipped earlier attempt: start again with the new reason.
        forfeit.reason = reason
        forfeit.forfeiting_team_id = forfeiting_team_id or forfeit.forfeiting_team_id
        forfeit.state = Forfeit.State.QUEUED
        forfeit.error = ""
        forfeit.save(update_fields=["reason", "forfeiting_team", "state", "error"])
    _enqueue(fixture.id)
    return forfeit


def _lock(fixture_id: int) -> Fixture:
    try:
        return (
            Fixture.objects.select_for_update(of=("self",))
            .select_related("competition", "home_team", "away_team")
            .get(id=fixture_id)
        )
    except Fixture.DoesNotExist:
        raise NotFound(f"No fixture {fixture_id}.") from None


@transaction.atomic
def forfeit_declare(*, fixture_id: int, user: User, team_id: int | None = None) -> Forfeit:
    """A club gives the fixture up; by default the competition simulates it (forfeit policy)."""
    fixture = _lock(fixture_id)
    sides = user_club_team_ids(user=user, fixture=fixture)
    if not sides:
        raise PermissionDenied(f"{fixture}: only a member of one of the two clubs can declare a forfeit.")
    if team_id is None:
        if len(sides) > 1:
            raise ApplicationError(
                f"{fixture}: your club plays on both sides; say which team forfeits (team_id).",
                details={"field": "team_id"},
            )
        team_id = next(iter(sides))
    if team_id not in sides:
        raise PermissionDenied(f"{fixture}: team {team_id} is not a team of your club in this fixture.")
    return _forfeit_open(
        fixture=fixture, reason=Forfeit.Reason.DECLARED, forfeiting_team_id=team_id, user=user
    )


@transaction.atomic
def forfeit_simulate_now(*, fixture_id: int, user: User | None = None) -> Forfeit:
    """An administrator has the fixture simulated now, deadline or not."""
    if user is not None and not getattr(user, "is_staff", False):
        raise PermissionDenied("Only staff can start a simulation.")
    return _forfeit_open(fixture=_lock(fixture_id), reason=Forfeit.Reason.ADMIN, user=user)


def forfeits_sweep(*, now: datetime | None = None) -> list[int]:
    """The beat job: open forfeits for fixtures past their deadline; re-enqueue stale claims."""
    now = now or timezone.now()
    queued: list[int] = []
    due = Fixture.objects.filter(
        deadline__lt=now,
        status=Fixture.Status.SCHEDULED,
        home_team__isnull=False,
        away_team__isnull=False,
    ).filter(
        Q(forfeit__isnull=True)
        | Q(forfeit__state=Forfeit.State.FAILED)
        # Skipped while a session ran or a report waited: due again once that is gone.
        | Q(forfeit__state=Forfeit.State.SKIPPED, forfeit__reason=Forfeit.Reason.DEADLINE)
    )
    # A fixture no engine may simulate and no side can be awarded waits for an administrator.
    no_engine = [code for code, game in GAME_SYSTEMS.items() if not game.engine_backed]
    due = due.exclude(forfeit__state=Forfeit.State.FAILED, competition__game_system__in=no_engine)
    due_ids = list(due.values_list("id", flat=True))
    held = holds(due_ids)
    for fixture_id in due_ids:
        if fixture_id in held:
            continue  # being scored live: the final whistle decides it
        with transaction.atomic():
            fixture = _lock(fixture_id)
            if fixture.status != Fixture.Status.SCHEDULED:
                continue  # a club reported (or its result counted) in the meantime
            try:
                _forfeit_open(fixture=fixture, reason=Forfeit.Reason.DEADLINE)
            except Conflict:
                continue
            queued.append(fixture_id)
    # A claim whose worker died and whose message was lost is taken over after the timeout.
    stale = Forfeit.objects.filter(
        Q(state=Forfeit.State.RUNNING, claimed_at__lt=now - claim_timeout())
        | Q(state=Forfeit.State.QUEUED, created_at__lt=now - claim_timeout())
    ).values_list("fixture_id", flat=True)
    for fixture_id in stale:
        with transaction.atomic():
            _enqueue(fixture_id)
        queued.append(fixture_id)
    if queued:
        logger.info("forfeit sweep queued fixtures %s", queued)
    return queued


def _claim(*, fixture_id: int, task_id: str, now: datetime) -> Forfeit | None:
    """Take the fixture for this task, or return None when there is nothing for it to do."""
    with transaction.atomic():
        forfeit = Forfeit.objects.select_for_update().filter(fixture_id=fixture_id).first()
        if forfeit is None or forfeit.state in (Forfeit.State.DONE, Forfeit.State.SKIPPED):
            return None
        previous = Fixture.objects.filter(id=fixture_id).values_list("status", flat=True).first()
        claimable: tuple[str, ...] = Fixture.OPEN_STATUSES
        if forfeit.reason == Forfeit.Reason.DEADLINE:
            # Queued before a club reported or started scoring live: the clubs are not late now.
            claimable = (Fixture.Status.SCHEDULED,)
            if previous in claimable and hold_of(fixture_id) is not None:
                claimable = ()
        claimed = Fixture.objects.filter(id=fixture_id, status__in=claimable).update(
            status=Fixture.Status.SIMULATING, updated_at=now
        )
        if claimed:
            fixture_changed(fixture_id)
        if claimed:
            forfeit.claimed_from_status = previous or Fixture.Status.SCHEDULED
        elif previous == Fixture.Status.SIMULATING:
            own = bool(task_id) and forfeit.claim_task_id == task_id
            stale = forfeit.claimed_at is None or forfeit.claimed_at < now - claim_timeout()
            if not (own or stale):
                return None  # another live task holds the claim
        else:
            # The clubs' (or an admin's) result counts already, or for a missed deadline a report
            # waits for the opponent or the match is being scored live: the forfeit is moot.
            forfeit.state = Forfeit.State.SKIPPED
            forfeit.finished_at = now
            forfeit.save(update_fields=["state", "finished_at"])
            return None
        forfeit.claim_task_id = task_id
        forfeit.claimed_at = now
        forfeit.state = Forfeit.State.RUNNING
        forfeit.attempts += 1
        forfeit.save(
            update_fields=["claim_task_id", "claimed_at", "state", "attempts", "claimed_from_status"]
        )
        return forfeit


def _award(forfeit: Forfeit, fixture: Fixture) -> Result:
    competition = fixture.competition
    winner_is_home = forfeit.forfeiting_team_id == fixture.away_team_id
    goals_for, goals_against = competition.award_goals_for, competition.award_goals_against
    return result_record_system(
        fixture_id=fixture.id,
        source=Result.Source.AWARDED,
        score=Score(
            goals_for if winner_is_home else goals_against, goals_against if winner_is_home else goals_for
        ),
        note=f"awarded {goals_for}-{goals_against} after {forfeit.fixture} was forfeited",
    )


def forfeit_process(*, fixture_id: int, task_id: str = "") -> str:
    """Decide one forfeited fixture. Safe to call any number of times for the same fixture."""
    now = timezone.now()
    forfeit = _claim(fixture_id=fixture_id, task_id=task_id, now=now)
    if forfeit is None:
        return "nothing to do"
    fixture = Fixture.objects.select_related("competition", "home_team", "away_team").get(id=fixture_id)
    policy = fixture.competition.forfeit_policy
    try:
        game = rules_of(fixture.competition)
        # "Award" needs a side to award against; a deadline both sides missed is simulated instead,
        # but only by the game's own engine: another game's engine would invent a result of a
        # different game, so there the side that did not report loses, or an administrator decides.
        if policy == Competition.ForfeitPolicy.AWARD and forfeit.forfeiting_team_id is not None:
            _award(forfeit, fixture)
            outcome = "awarded"
        elif not game.engine_backed:
            loser = forfeit.forfeiting_team_id or _side_not_reported(fixture)
            if loser is None:
                raise NoAward(
                    f"{fixture}: both sides missed the deadline and {game.name} matches are not "
                    "simulated (no rules engine plays them): an administrator sets the result."
                )
            forfeit.forfeiting_team_id = loser
            forfeit.save(update_fields=["forfeiting_team"])
            _award(forfeit, fixture)
            outcome = "awarded"
        else:
            # The CPU-heavy part runs outside any transaction; the claim keeps others away.
            sim = fixture_simulate(fixture=fixture, seed=forfeit.seed)
            home, away = sim.score
            decider = _knockout_decider(fixture, sim)
            result_record_system(
                fixture_id=fixture_id,
                source=Result.Source.SIMULATED,
                score=Score(home, away, **decider),
                cards=cards_from_result(sim.result),
                match_log=sim.log,
                log_format=str(sim.log.get("format", "fuba-log/1")),
                seed=sim.seed,
                derived=sim.result,
                note=f"simulated ({forfeit.get_reason_display()}), seed {sim.seed}",
            )
            outcome = f"simulated {home}-{away}"
            if decider.get("extra_time"):
                outcome += " a.e.t."
            if "home_penalties" in decider:
                outcome += f" ({decider['home_penalties']}-{decider['away_penalties']} pens)"
    except Conflict as exc:
        status = Fixture.objects.filter(id=fixture_id).values_list("status", flat=True).first()
        if status != Fixture.Status.SIMULATING:
            # Lost a race (a stale claim was taken over and that run stored first): nothing to do.
            logger.info("forfeit of fixture %s not recorded: %s", fixture_id, exc)
            return "nothing to do"
        # Refused for a reason of its own (e.g. a second leg before the first counts): give the
        # fixture back and say why, rather than leave it held by a claim the sweep retries forever.
        _fail(forfeit, exc)
        return f"failed: {exc.message}"
    except Exception as exc:
        _fail(forfeit, exc)
        raise
    Forfeit.objects.filter(id=forfeit.id).update(state=Forfeit.State.DONE, finished_at=timezone.now())
    return outcome


class NoAward(Conflict):
    """No side can be named to lose a fixture that no engine may simulate."""


def _side_not_reported(fixture: Fixture) -> int | None:
    """The side that left a club's waiting report unanswered (it loses), None when neither reported."""
    reported = (
        ResultSubmission.objects.filter(fixture=fixture, status=ResultSubmission.Status.OPEN)
        .values_list("team_id", flat=True)
        .first()
    )
    if reported is None:
        return None
    return fixture.away_team_id if reported == fixture.home_team_id else fixture.home_team_id


def _knockout_decider(fixture: Fixture, sim: SimulatedMatch) -> dict[str, Any]:
    """Extra time and a shoot-out for a level knockout tie (docs/forfeits.md).

    The engine played the extra time already where the stage plays it and the 90 minutes left
    the tie level (I-38; its goals are in the score); a tie still level then is decided by a
    shoot-out of 5.5.2 penalty kicks.
    """
    home, away = sim.score
    extra_time = bool(sim.result.get("extra_time"))
    first_leg = fixture_first_leg(fixture=fixture)
    if not tie_needs_decider(fixture=fixture, first_leg=first_leg, home_goals=home, away_goals=away):
        return {"extra_time": True} if extra_time else {}
    skills = {side: sim.log["teams"][side].get("skills", []) for side in ("home", "away")}
    home_pens, away_pens = shootout_simulate(
        seed=sim.seed,
        home_saver="penalty_saver" in skills["home"],
        away_saver="penalty_saver" in skills["away"],
    )
    return {
        "extra_time": extra_time,
        "home_penalties": home_pens,
        "away_penalties": away_pens,
    }


def _fail(forfeit: Forfeit, exc: BaseException) -> None:
    """Give the fixture back to the clubs if the claim is still ours, and say why it failed."""
    with transaction.atomic():
        current = Forfeit.objects.select_for_update().get(id=forfeit.id)
        if current.claim_task_id != forfeit.claim_task_id:
            return
        if Fixture.objects.filter(id=forfeit.fixture_id, status=Fixture.Status.SIMULATING).update(
            status=forfeit.claimed_from_status or Fixture.Status.SCHEDULED
        ):
            fixture_changed(forfeit.fixture_id)
        current.state = Forfeit.State.FAILED
        current.error = f"{type(exc).__name__}: {exc}"
        current.save(update_fields=["state", "error"])
