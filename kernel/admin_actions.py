"""Shared by the admin modules of both apps: run a service per selected object and report each
outcome; model forms and admins that save and delete through the services."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.http import HttpRequest

from kernel.errors import ApplicationError


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


class _DryRun(Exception):
    """Raised inside a savepoint to undo a service call that was only a check."""


def service_dry_run(call: Callable[[], Any]) -> ApplicationError | None:
    """Run a service call and undo it: its refusal (or None when it would succeed)."""
    try:
        with transaction.atomic():
            call()
            raise _DryRun
    except _DryRun:
        return None
    except ApplicationError as exc:
        return exc


def form_error(form: forms.BaseForm, exc: ApplicationError) -> None:
    """A service's refusal on the form: on the field it names when the form shows it, else on top."""
    field = exc.details.get("field") if isinstance(exc.details, dict) else None
    form.add_error(field if isinstance(field, str) and field in form.fields else None, exc.message)


class ServiceForm(forms.ModelForm):
    """A model form saved by a service call; clean() tries the call and undoes it, so the service's
    own checks and errors show on the form, and nothing reaches the database any other way."""

    def service_save(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__} names the service that saves it")

    def changes(self, fields: Sequence[str]) -> dict[str, Any]:
        return {f: self.cleaned_data[f] for f in fields if f in self.changed_data and f in self.cleaned_data}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            refusal = service_dry_run(self.service_save)
            if refusal is not None:
                form_error(self, refusal)
        return data


class ServiceAdmin(admin.ModelAdmin):
    """Saves and deletes through the services: the form's service call, and `service_delete`."""

    def service_delete(self, obj: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} names the service that deletes")

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        return form.instance  # saved in save_model, by the service

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        saved = form.service_save()
        # The admin logs and redirects with the object it handed over: give it the saved row.
        obj.pk = saved.pk
        obj.refresh_from_db()
        form.instance = obj

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # Many-to-many fields were set by the service; inlines of domain models are read-only.
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        deleted, model_count, _perms_needed, protected = super().get_deleted_objects(objs, request)
        # The service decides what a deletion takes with it (e.g. a competition's unplayed
        # fixtures), so the admin's per-model delete permissions of those rows do not apply.
        for obj in objs:
            refusal = service_dry_run(partial(self.service_delete, obj))
            if refusal is not None:
                protected = [*protected, refusal.message]
        return deleted, model_count, set(), protected

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        self.service_delete(obj)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for obj in queryset:
            self.service_delete(obj)


class ReadOnlyAdminInline(admin.TabularInline):
    """A domain model shown on its parent's page; it is changed on its own page, through its service."""

    extra = 0
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
