"""Shared by the admin modules of both apps: run a service per selected object and report each outcome."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest

from fubaleague.errors import ApplicationError


def run_service(
    modeladmin: admin.ModelAdmin, request: HttpRequest, objects: Any, call: Callable[[Any], str | None]
) -> None:
    """Call `call` per object; one message per success, one error message per refusal."""
    for obj in objects:
        try:
            note = call(obj)
        except ApplicationError as exc:
            modeladmin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
            continue
        modeladmin.message_user(request, f"{obj}: {note or 'done'}", messages.SUCCESS)
