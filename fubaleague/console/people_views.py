"""Console: who runs a competition — its organisers, co-organisers and results-desk helpers."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from fubaleague.console.access import competition_of, competition_required
from kernel.errors import ApplicationError, posted_id
from tournaments.models import CompetitionRole
from tournaments.selectors import user_named
from tournaments.services.invitations import role_invite
from tournaments.services.roles import GRANTABLE, role_grant, role_remove


class RoleForm(forms.Form):
    who = forms.CharField(
        max_length=254,
        label="User name or e-mail address",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    kind = forms.ChoiceField(
        choices=[(k.value, k.label) for k in GRANTABLE],
        label="Role",
        widget=forms.RadioSelect,
        initial=CompetitionRole.Kind.RESULTS_DESK,
        help_text="A co-organiser changes everything an organiser does; the results desk enters, "
        "confirms and resolves results, nothing else.",
    )


@competition_required("people")
def people(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    form = RoleForm(request.POST if "add" in request.POST else None)
    if request.method == "POST" and "remove" in request.POST:
        role = get_object_or_404(
            CompetitionRole, pk=posted_id(request.POST, "remove", "role"), competition=competition
        )
        try:
            role_remove(role=role, by=request.user)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{role.user} no longer helps run {competition}.")
        return redirect("console:people", slug=slug)
    if request.method == "POST" and form.is_valid():
        who = form.cleaned_data["who"].strip()
        user = user_named(who)
        if user is None and "@" in who:
            return _invite_by_mail(request, competition, form, who)
        if user is None:
            form.add_error("who", "No account has that user name: give their e-mail address to invite them.")
        else:
            try:
                role = role_grant(
                    competition=competition, user=user, kind=form.cleaned_data["kind"], by=request.user
                )
            except ApplicationError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(
                    request, f"{user} is now {role.get_kind_display().lower()} of {competition}."
                )
                return redirect("console:people", slug=slug)
    context = {
        "competition": competition,
        "roles": competition.roles.select_related("user", "added_by").order_by("kind", "user__username"),
        "invited": competition.invitations.filter(club=None, accepted_at=None).order_by("created_at"),
        "form": form,
    }
    return TemplateResponse(request, "console/people.html", context)


def _invite_by_mail(request: HttpRequest, competition: Any, form: RoleForm, email: str) -> HttpResponse:
    """No account of that address yet: an invitation to join in the role, by e-mail."""
    try:
        made = role_invite(
            competition=competition,
            kind=form.cleaned_data["kind"],
            email=email,
            by=request.user,
            link_for=lambda token: request.build_absolute_uri(reverse("tournaments:join", args=[token])),
        )
    except ApplicationError as exc:
        form.add_error("who", exc.message)
        context = {
            "competition": competition,
            "roles": competition.roles.select_related("user"),
            "form": form,
        }
        return TemplateResponse(request, "console/people.html", context)
    role = made.invitation.get_role_display().lower()
    messages.success(request, f"Invitation to join as {role} e-mailed to {email}.")
    return redirect("console:people", slug=competition.slug)
