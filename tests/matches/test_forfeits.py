"""Forfeits and missed deadlines: simulate or award, idempotent, clubs never overwritten."""

from __future__ import annotations

import pytest

from kernel.errors import Conflict, PermissionDenied
from matches import forfeits
from matches.models import Forfeit, MatchLog, Result, ResultAudit
from matches.services import result_confirm, result_submit
from rules_engine.api import validate_log
from tests.factories import AdminFactory, UserFactory, member_of
from tests.matches.forfeit_helpers import overdue_fixture
from tournaments.bracket import Score
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def _run_queued(callbacks: list) -> None:
    for callback in callbacks:
        callback()


def test_sweep_simulates_an_overdue_fixture_with_a_valid_log(django_capture_on_commit_callbacks) -> None:
    fixture = overdue_fixture()
    with django_capture_on_commit_callbacks(execute=True):
        queued = forfeits.forfeits_sweep()
    assert queued == [fixture.id]
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SIMULATED
    result = Result.objects.get(fixture=fixture)
    assert result.source == Result.Source.SIMULATED and result.is_simulated
    log = MatchLog.objects.get(fixture=fixture, is_simulated=True)
    report = validate_log(log.data)
    assert report.valid, report.errors
    assert report.result is not None
    assert report.result.score == (
        result.home_goals,
        result.away_goals,
    )
    forfeit = Forfeit.objects.get(fixture=fixture)
    assert forfeit.state == Forfeit.State.DONE and forfeit.reason == Forfeit.Reason.DEADLINE
    assert ResultAudit.objects.filter(fixture=fixture, action=ResultAudit.Action.SIMULATE).count() == 1


def test_simulation_is_deterministic_per_fixture(django_capture_on_commit_callbacks) -> None:
    from matches.simulation import fixture_simulate

    fixture = overdue_fixture()
    first = fixture_simulate(fixture=fixture)
    second = fixture_simulate(fixture=fixture)
    assert first.log == second.log and first.seed == second.seed


def test_processing_twice_stores_one_result(django_capture_on_commit_callbacks) -> None:
    fixture = overdue_fixture()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        forfeits.forfeits_sweep()
    # One forfeit task queued (the other callbacks are the page cache's invalidation)
    assert [c.__qualname__ for c in callbacks].count("_enqueue.<locals>.<lambda>") == 1
    assert forfeits.forfeit_process(fixture_id=fixture.id, task_id="task-1").startswith("simulated")
    # A duplicate message, and a redelivery of the first one, both find nothing to do.
    assert forfeits.forfeit_process(fixture_id=fixture.id, task_id="task-2") == "nothing to do"
    assert forfeits.forfeit_process(fixture_id=fixture.id, task_id="task-1") == "nothing to do"
    assert Result.objects.filter(fixture=fixture).count() == 1
    assert MatchLog.objects.filter(fixture=fixture).count() == 1


def test_a_live_claim_keeps_a_duplicate_away_but_a_redelivery_carries_on(
    django_capture_on_commit_callbacks,
) -> None:
    fixture = overdue_fixture()
    with django_capture_on_commit_callbacks(execute=False):
        forfeits.forfeits_sweep()
    from django.utils import timezone

    claim = forfeits._claim(fixture_id=fixture.id, task_id="first", now=timezone.now())
    assert claim is not None
    # Another task while the first is (apparently) still running: nothing to do.
    assert forfeits.forfeit_process(fixture_id=fixture.id, task_id="second") == "nothing to do"
    assert not Result.objects.filter(fixture=fixture).exists()
    # The first task's message redelivered after its worker died: same id, it finishes the job.
    assert forfeits.forfeit_process(fixture_id=fixture.id, task_id="first").startswith("simulated")
    assert Result.objects.filter(fixture=fixture).count() == 1


def test_a_stale_claim_is_taken_over(settings, django_capture_on_commit_callbacks) -> None:
    settings.FORFEIT_CLAIM_TIMEOUT = 0
    fixture = overdue_fixture()
    with django_capture_on_commit_callbacks(execute=False):
        forfeits.forfeits_sweep()
    from django.utils import timezone

    assert forfeits._claim(fixture_id=fixture.id, task_id="dead", now=timezone.now()) is not None
    assert forfeits.forfeit_process(fixture_id=fixture.id, task_id="sweeper").startswith("simulated")
    assert Forfeit.objects.get(fixture=fixture).attempts == 2


def test_a_confirmed_club_result_wins_over_a_queued_simulation(django_capture_on_commit_callbacks) -> None:
    fixture = overdue_fixture()
    with django_capture_on_commit_callbacks(execute=False):
        forfeits.forfeits_sweep()
    # The clubs confirm before the worker picks the task up.
    result_submit(fixture_id=fixture.id, user=member_of(fixture.home_team), score=Score(2, 1))
    result_confirm(fixture_id=fixture.id, user=member_of(fixture.away_team))
    assert forfeits.forfeit_process(fixture_id=fixture.id, task_id="t") == "nothing to do"
    result = Result.objects.get(fixture=fixture)
    assert (result.home_goals, result.away_goals, result.source) == (2, 1, Result.Source.CLUBS)
    assert Forfeit.objects.get(fixture=fixture).state == Forfeit.State.SKIPPED


def test_clubs_are_told_while_the_simulation_runs(django_capture_on_commit_callbacks) -> None:
    fixture = overdue_fixture()
    result_submit(fixture_id=fixture.id, user=member_of(fixture.home_team), score=Score(1, 0))
    # The sweep leaves a report waiting for the opponent alone; the organisers may still simulate.
    with django_capture_on_commit_callbacks(execute=False):
        assert forfeits.forfeits_sweep() == []
        forfeits.forfeit_simulate_now(fixture_id=fixture.id, user=AdminFactory())
    from django.utils import timezone

    forfeits._claim(fixture_id=fixture.id, task_id="running", now=timezone.now())
    with pytest.raises(Conflict, match="simulat"):
        result_submit(fixture_id=fixture.id, user=member_of(fixture.home_team), score=Score(3, 0))
    with pytest.raises(Conflict, match="simulat"):
        result_confirm(fixture_id=fixture.id, user=member_of(fixture.away_team))
    forfeits.forfeit_process(fixture_id=fixture.id, task_id="running")
    # The open submission is superseded in the audit trail, not silently dropped.
    sub = fixture.submissions.get()
    assert sub.status == sub.Status.SUPERSEDED
    assert Result.objects.get(fixture=fixture).source == Result.Source.SIMULATED


def test_declared_forfeit_with_award_policy(django_capture_on_commit_callbacks) -> None:
    fixture = overdue_fixture(policy="award")
    away_member = member_of(fixture.away_team)
    with django_capture_on_commit_callbacks(execute=True):
        forfeit = forfeits.forfeit_declare(fixture_id=fixture.id, user=away_member)
    assert forfeit.forfeiting_team_id == fixture.away_team_id
    fixture.refresh_from_db()
    result = Result.objects.get(fixture=fixture)
    assert fixture.status == Fixture.Status.AWARDED
    assert (result.home_goals, result.away_goals, result.source) == (3, 0, Result.Source.AWARDED)
    assert not MatchLog.objects.filter(fixture=fixture).exists()


def test_missed_deadline_under_award_policy_is_simulated(django_capture_on_commit_callbacks) -> None:
    fixture = overdue_fixture(policy="award")
    with django_capture_on_commit_callbacks(execute=True):
        forfeits.forfeits_sweep()
    assert Result.objects.get(fixture=fixture).source == Result.Source.SIMULATED


def test_declared_forfeit_simulates_by_default(django_capture_on_commit_callbacks) -> None:
    fixture = overdue_fixture()
    with django_capture_on_commit_callbacks(execute=True):
        forfeits.forfeit_declare(fixture_id=fixture.id, user=member_of(fixture.home_team))
    assert Result.objects.get(fixture=fixture).source == Result.Source.SIMULATED


def test_only_clubs_of_the_fixture_declare(django_capture_on_commit_callbacks) -> None:
    fixture = overdue_fixture()
    with pytest.raises(PermissionDenied):
        forfeits.forfeit_declare(fixture_id=fixture.id, user=UserFactory())
    with pytest.raises(PermissionDenied):
        forfeits.forfeit_simulate_now(fixture_id=fixture.id, user=UserFactory())
    with django_capture_on_commit_callbacks(execute=True):
        forfeits.forfeit_simulate_now(fixture_id=fixture.id, user=AdminFactory())
    assert Forfeit.objects.get(fixture=fixture).reason == Forfeit.Reason.ADMIN


def test_a_failing_simulation_gives_the_fixture_back(monkeypatch, django_capture_on_commit_callbacks) -> None:
    fixture = overdue_fixture()
    with django_capture_on_commit_callbacks(execute=False):
        forfeits.forfeits_sweep()

    def broken(**kwargs):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(forfeits, "fixture_simulate", broken)
    with pytest.raises(RuntimeError):
        forfeits.forfeit_process(fixture_id=fixture.id, task_id="t")
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED
    forfeit = Forfeit.objects.get(fixture=fixture)
    assert forfeit.state == Forfeit.State.FAILED and "engine exploded" in forfeit.error
    assert not Result.objects.filter(fixture=fixture).exists()
    # The next sweep tries again.
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        assert forfeits.forfeits_sweep() == [fixture.id]
    assert Result.objects.filter(fixture=fixture, source=Result.Source.SIMULATED).count() == 1


def test_unequal_skill_rosters_are_balanced_for_the_simulation(django_capture_on_commit_callbacks) -> None:
    from matches.simulation import fixture_simulate
    from tournaments.models import Skill
    from tournaments.skills import team_skills_set

    fixture = overdue_fixture()
    by_name = {s.name: s for s in Skill.objects.filter(counts_as_two=False)}
    names = sorted(by_name)[:3]
    team_skills_set(team=fixture.home_team, skills=[by_name[n] for n in names])
    team_skills_set(team=fixture.away_team, skills=[by_name[names[0]]])
    sim = fixture_simulate(fixture=fixture)
    teams = sim.log["teams"]
    assert len(teams["home"]["skills"]) == len(teams["away"]["skills"]) == 1
    assert validate_log(sim.log).valid


def test_shootout_is_decided_reproducible_and_plausible() -> None:
    from matches.simulation import shootout_simulate

    results = [shootout_simulate(seed=seed) for seed in range(300)]
    assert all(h != a for h, a in results)
    assert results == [shootout_simulate(seed=seed) for seed in range(300)]
    # Best of five: a side cannot score more than five before sudden death unless it is level.
    assert all(max(h, a) <= 5 or abs(h - a) == 1 for h, a in results)
    home_wins = sum(h > a for h, a in results)
    assert 90 < home_wins < 210, "neither side should be favoured"


def test_level_knockout_simulation_goes_to_extra_time_and_penalties(
    django_capture_on_commit_callbacks,
) -> None:
    from matches.simulation import fixture_simulate
    from tournaments.models import Stage

    fixture = overdue_fixture(kind=Stage.Kind.KNOCKOUT, slug="ko-cup")
    level_seed = next(s for s in range(200) if len(set(fixture_simulate(fixture=fixture, seed=s).score)) == 1)
    with django_capture_on_commit_callbacks(execute=False):
        forfeits.forfeits_sweep()
    Forfeit.objects.filter(fixture=fixture).update(seed=level_seed)
    outcome = forfeits.forfeit_process(fixture_id=fixture.id, task_id="t")
    result = Result.objects.get(fixture=fixture)
    assert result.home_goals == result.away_goals
    assert result.extra_time is True
    assert result.home_penalties is not None and result.home_penalties != result.away_penalties
    assert "pens" in outcome


def test_extra_time_goals_decide_a_level_knockout_tie(django_capture_on_commit_callbacks) -> None:
    # I-38: the engine plays extra time when the 90 minutes leave the tie level; its goals count.
    from matches.simulation import fixture_simulate
    from tournaments.models import Stage

    fixture = overdue_fixture(kind=Stage.Kind.KNOCKOUT, slug="ko-aet")

    def decided_in_extra_time(seed: int) -> bool:
        sim = fixture_simulate(fixture=fixture, seed=seed)
        after_90 = sim.result["score_after_90"]
        return sim.result["extra_time"] and after_90["home"] == after_90["away"] and len(set(sim.score)) == 2

    seed = next(s for s in range(300) if decided_in_extra_time(s))
    with django_capture_on_commit_callbacks(execute=False):
        forfeits.forfeits_sweep()
    Forfeit.objects.filter(fixture=fixture).update(seed=seed)
    outcome = forfeits.forfeit_process(fixture_id=fixture.id, task_id="t")
    result = Result.objects.get(fixture=fixture)
    assert result.extra_time is True and result.home_goals != result.away_goals
    assert result.home_penalties is None and "a.e.t." in outcome and "pens" not in outcome
    assert str(result).endswith("a.e.t.")


def test_a_stage_without_extra_time_goes_straight_to_penalties(django_capture_on_commit_callbacks) -> None:
    from matches.simulation import fixture_simulate
    from tournaments.models import Stage

    fixture = overdue_fixture(kind=Stage.Kind.KNOCKOUT, slug="ko-pens")
    Stage.objects.filter(id=fixture.stage_id).update(extra_time=False)
    fixture.refresh_from_db()
    level_seed = next(s for s in range(200) if len(set(fixture_simulate(fixture=fixture, seed=s).score)) == 1)
    sim = fixture_simulate(fixture=fixture, seed=level_seed)
    assert sim.result["extra_time"] is False and "extra_time" not in sim.log
    with django_capture_on_commit_callbacks(execute=False):
        forfeits.forfeits_sweep()
    Forfeit.objects.filter(fixture=fixture).update(seed=level_seed)
    forfeits.forfeit_process(fixture_id=fixture.id, task_id="t")
    result = Result.objects.get(fixture=fixture)
    assert result.extra_time is False and result.home_penalties is not None


def test_a_refused_result_gives_the_fixture_back(monkeypatch, django_capture_on_commit_callbacks) -> None:
    from kernel.errors import Conflict as DomainConflict

    fixture = overdue_fixture()
    with django_capture_on_commit_callbacks(execute=False):
        forfeits.forfeits_sweep()

    def refuse(**kwargs):
        raise DomainConflict("the first leg's result must count before the second leg's")

    monkeypatch.setattr(forfeits, "result_record_system", refuse)
    assert forfeits.forfeit_process(fixture_id=fixture.id, task_id="t").startswith("failed: the first leg")
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED
    forfeit = Forfeit.objects.get(fixture=fixture)
    assert forfeit.state == Forfeit.State.FAILED and "first leg" in forfeit.error
