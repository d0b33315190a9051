"""Joining a competition: the page an invitation link opens ("Join <club> in <competition>": choose
a user name and password, or sign in) and a competition's sign-up page."""

from __future__ import annotations

import time
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from kernel.client_ip import client_ip
from kernel.errors import ApplicationError
from kernel.throttling import parse_rate, window_count
from tournaments.models import ClubApplication, Competition, Invitation
from tournaments.services.invitations import (
    account_create,
    invitation_accept,
    invitation_accept_new_account,
    invitation_of,
)
from tournaments.services.signups import club_apply


class AccountForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label="Your user name",
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
        help_text="You sign in with it. Letters, digits and @ . + - _",
    )
    password1 = forms.CharField(
        label="Choose a password", widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password2 = forms.CharField(
        label="The password again", widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", "The two passwords differ.")
        return data


def _accounts_exhausted(request: HttpRequest, form: forms.Form) -> bool:
    """Counts a try at a new account from this address; True (and says so) past the limit."""
    allowed, duration = parse_rate(settings.ACCOUNT_LIMIT_ADDRESS)
    key = f"new-accounts:a:{client_ip(request)}:{int(time.time() // duration)}"
    if window_count(key, duration) > allowed:
        form.add_error(None, "Too many new accounts from this address: try again later, or sign in.")
        return True
    return False


def _error(form: forms.Form, exc: ApplicationError) -> None:
    field = exc.details.get("field") if isinstance(exc.details, dict) else None
    form.add_error(field if isinstance(field, str) and field in form.fields else None, exc.message)


def _title(invitation: Invitation) -> str:
    if invitation.club is not None:
        return f"Join {invitation.club.name} in {invitation.competition.name}"
    return f"Join {invitation.competition.name} as {invitation.get_role_display().lower()}"


def _joined(request: HttpRequest, invitation: Invitation) -> HttpResponse:
    if invitation.club is not None:
        joined = f"you are a member of {invitation.club.name} in {invitation.competition.name}"
    else:
        joined = f"you help run {invitation.competition.name} ({invitation.get_role_display().lower()})"
    messages.success(request, f"Welcome, {request.user.get_username()}: {joined}.")
    if invitation.club is None:
        return redirect("console:overview", slug=invitation.competition.slug)
    return redirect("tournaments:dashboard")


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    try:
        invitation = invitation_of(token=token)
    except ApplicationError as exc:
        return TemplateResponse(request, "tournaments/join.html", {"refused": exc.message}, status=410)
    form = AccountForm(
        request.POST if request.method == "POST" and "create" in request.POST else None,
        initial={"username": invitation.username},
    )
    if request.method == "POST" and request.user.is_authenticated and "accept" in request.POST:
        invitation_accept(token=token, user=request.user)
        return _joined(request, invitation)
    creating = request.method == "POST" and "create" in request.POST and form.is_valid()
    if creating and not _accounts_exhausted(request, form):
        try:
            user = invitation_accept_new_account(
                token=token, username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except ApplicationError as exc:
            _error(form, exc)
        else:
            login(request, user, backend="kernel.login_limits.LoginLimitBackend")
            return _joined(request, invitation)
    context = {
        "invitation": invitation,
        "title": _title(invitation),
        "form": form,
        "login_url": f"{reverse('tournaments:login')}?next={request.path}",
    }
    return TemplateResponse(request, "tournaments/join.html", context)


class SignUpForm(forms.Form):
    club_name = forms.CharField(max_length=120, label="Your club")
    team_name = forms.CharField(max_length=120, label="The team it enters")
    country = forms.CharField(max_length=60, required=False)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest, slug: str) -> HttpResponse:
    """A club asks to enter; a visitor without an account makes one on the same page."""
    competition = get_object_or_404(Competition, slug=slug)
    entry = SignUpForm(request.POST or None)
    account = AccountForm(
        request.POST if request.method == "POST" and not request.user.is_authenticated else None
    )
    posted = request.method == "POST" and competition.signup_open and entry.is_valid()
    signed_in = request.user.is_authenticated
    if posted and (signed_in or (account.is_valid() and not _accounts_exhausted(request, account))):
        try:
            application = _apply(request, competition, entry, account)
        except ApplicationError as exc:
            _error(entry if _field(exc) in entry.fields else account, exc)
        else:
            asked = f"{application.team_name} asked to enter {competition.name}"
            messages.success(request, f"{asked}: the organiser approves each club.")
            return redirect("tournaments:signup", slug=slug)
    mine = (
        ClubApplication.objects.filter(competition=competition, applicant=request.user)
        if request.user.is_authenticated
        else ClubApplication.objects.none()
    )
    context = {"competition": competition, "entry": entry, "account": account, "mine": mine}
    return TemplateResponse(request, "tournaments/signup.html", context)


def _field(exc: ApplicationError) -> str:
    field = exc.details.get("field") if isinstance(exc.details, dict) else None
    return field if isinstance(field, str) else ""


def _apply(
    request: HttpRequest, competition: Competition, entry: SignUpForm, account: AccountForm
) -> ClubApplication:
    """The application, by the signed-in user or a new account made with it (both or neither)."""
    user: Any = request.user
    with transaction.atomic():
        if not user.is_authenticated:
            user = account_create(
                username=account.cleaned_data["username"], password=account.cleaned_data["password1"]
            )
        application = club_apply(competition=competition, applicant=user, **entry.cleaned_data)
    if not request.user.is_authenticated:
        login(request, user, backend="kernel.login_limits.LoginLimitBackend")
    return application
