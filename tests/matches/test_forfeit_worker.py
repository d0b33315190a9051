"""A fixture past its deadline gets exactly one simulated result through real workers.

The first worker is SIGKILLed in the middle of the simulation; its message is unacknowledged
(acks_late), so Redis redelivers it to a second worker, which finds its own claim and finishes.
"""

from __future__ import annotations

import time

import pytest

from fubaleague.celery import app as celery_app
from matches import forfeits
from matches.models import Forfeit, MatchLog, Result
from tests.matches.forfeit_helpers import overdue_fixture
from tests.workers import WorkerProcess, wait_broker_settled
from tournaments.models import Fixture

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# Redis redelivers an unacknowledged message after 4 s; the workers look for such every second.
# The simulated result queues the chances' recomputation at the end of its debounce window (60 s
# by default): a worker holds such a countdown task unacknowledged, so the broker did not settle
# (wait_broker_settled) until it ran, a minute of the test spent waiting for an unrelated task.
# With no window it runs at once, and the broker still settles only after every message ran.
FAST_REDELIVERY = {
    "CELERY_VISIBILITY_TIMEOUT": "4",
    "CELERY_UNACKED_RESTORE_INTERVAL": "1",
    "CELERY_UNACKED_RESTORE_THROTTLE": "1",
    "CELERY_UNACKED_MUTEX_EXPIRE": "3",
    "CHANCES_DEBOUNCE": "0",
}


def broker_state() -> str:
    """What Redis holds for Celery: shown when a wait times out, to tell a lost message from a slow one."""
    with celery_app.connection_for_write() as conn:
        client = conn.default_channel.client
        return (
            f"queue={client.llen('celery')} unacked={client.hlen('unacked')} "
            f"unacked_index={client.zrange('unacked_index', 0, -1, withscores=True)} "
            f"mutex={client.get('unacked_mutex')!r}"
        )


def wait_for(predicate, timeout: float, what: str, worker: WorkerProcess) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(
        f"timed out waiting for {what}; broker: {broker_state()}; worker log:\n{worker.log()[-4000:]}"
    )


def test_overdue_fixture_is_simulated_by_a_real_worker(real_celery: None) -> None:
    fixture = overdue_fixture(slug="worker-cup")
    worker = WorkerProcess(**FAST_REDELIVERY)
    try:
        worker.wait_ready()
        assert forfeits.forfeits_sweep() == [fixture.id]  # on_commit fires: autocommit mode
        wait_for(
            lambda: Fixture.objects.get(id=fixture.id).status == Fixture.Status.SIMULATED,
            60, "the simulated result", worker,
        )  # fmt: skip
    finally:
        worker.stop()
    assert Result.objects.filter(fixture_id=fixture.id, source=Result.Source.SIMULATED).count() == 1
    assert "matches.forfeit_process" in worker.log()


def test_worker_killed_mid_simulation_yields_exactly_one_result(real_celery: None) -> None:
    fixture = overdue_fixture(slug="kill-cup")
    slow = WorkerProcess(module="tests.slow_worker", **FAST_REDELIVERY)
    try:
        slow.wait_ready()
        forfeits.forfeits_sweep()
        # The same task enqueued twice: the duplicate must do nothing.
        from matches.tasks import forfeit_process

        forfeit_process.delay(fixture.id)
        wait_for(
            lambda: Forfeit.objects.get(fixture_id=fixture.id).state == Forfeit.State.RUNNING,
            30, "the slow worker to claim the fixture", slow,
        )  # fmt: skip
        assert Fixture.objects.get(id=fixture.id).status == Fixture.Status.SIMULATING
        slow.kill()
    finally:
        slow.stop()
    assert not Result.objects.filter(fixture_id=fixture.id).exists()

    fresh = WorkerProcess(**FAST_REDELIVERY)
    try:
        fresh.wait_ready()
        wait_for(
            lambda: Fixture.objects.get(id=fixture.id).status == Fixture.Status.SIMULATED,
            90, "the redelivered task to finish on the second worker", fresh,
        )  # fmt: skip
        # the duplicate message runs too (or was the one redelivered) before the results are counted
        wait_broker_settled("the fixture was simulated", fresh.log)
    finally:
        fresh.stop()
    assert Result.objects.filter(fixture_id=fixture.id).count() == 1
    assert MatchLog.objects.filter(fixture_id=fixture.id, is_simulated=True).count() == 1
    forfeit = Forfeit.objects.get(fixture_id=fixture.id)
    assert forfeit.state == Forfeit.State.DONE
    assert forfeit.attempts == 2, "the killed run and the redelivered run each claimed once"
