"""Celery tasks of the notifications: they take ids and delegate to notifications.delivery."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from kernel.broker import publish
from notifications import deadlines, delivery


def enqueue_delivery(delivery_id: int, countdown: float | None) -> Any:
    return publish(deliver, (delivery_id,), countdown=countdown)


def _enqueue_fanout(event_id: int) -> Any:
    return publish(fanout, (event_id,))


@shared_task(name="notifications.fanout", ignore_result=True)
def fanout(event_id: int) -> int:
    return delivery.fanout(event_id=event_id, enqueue=enqueue_delivery)


@shared_task(name="notifications.deliver", ignore_result=True)
def deliver(delivery_id: int) -> str:
    return delivery.deliver(delivery_id=delivery_id, enqueue=enqueue_delivery)


@shared_task(name="notifications.sweep", ignore_result=True)
def sweep() -> dict[str, int]:
    return delivery.sweep(enqueue_fanout=_enqueue_fanout, enqueue=enqueue_delivery)


@shared_task(name="notifications.deadlines", ignore_result=True)
def deadlines_scan() -> dict[str, int]:
    return deadlines.scan()


@shared_task(name="notifications.digest", ignore_result=True)
def digest() -> int:
    return delivery.digest()
