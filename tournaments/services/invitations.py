"""Invitations to join a competition: as a member of a club, or in a role (co-organiser, results
desk). Each invitation is addressed only to what was given for it: nothing is looked up from an
earlier invitation, a user or a form (issue 32: a re-shown form once carried the first club's
address to every later one). The link holds a random token; only its hash is stored, and it
works once, within INVITATION_DAYS.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from kernel.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from tournaments.models import Club, Competition, CompetitionRole, Invitation
from tournaments.selectors import competition_permits
from tournaments.services.clubs import club_create
from tournaments.services.roles import GRANTABLE
from tournaments.services.shared import invalid

INVITATION_DAYS = 14

# The link of an invitation from its token: the caller knows the site's address.
LinkFor = Callable[[str], str]


@dataclass(frozen=True)
class Invited:
    invitation: Invitation
    link: str


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _email_check(email: str, field: str = "email") -> None:
    try:
        validate_email(email)
    except ValidationError:
        raise invalid(f"'{email}' is not an e-mail address.", field) from None


def _is_member(user: Any, club: Club) -> bool:
    return bool(user is not None and user.is_authenticated and club.members.filter(pk=user.pk).exists())


def _create(
    *, competition: Competition, club: Club | None, role: str, username: str, email: str, by: Any
) -> tuple[Invitation, str]:
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        competition=competition,
        club=club,
        role=role,
        username=username,
        email=email,
        token_hash=_hash(token),
        invited_by=by if by is not None and by.is_authenticated else None,
        expires_at=timezone.now() + timedelta(days=INVITATION_DAYS),
    )
    return invitation, token


def _mail(invitation: Invitation, link: str) -> None:
    if not invitation.email:
        return
    competition = invitation.competition
    if invitation.club is not None:
        subject = f"Join {invitation.club.name} in {competition}"
        what = f"You are invited to play for {invitation.club.name} in {competition}."
    else:
        subject = f"Help run {competition}"
        what = f"You are invited to {competition} as {invitation.get_role_display().lower()}."
    name = (
        f"Your user name: {invitation.username} (you may choose another when you join).\n"
        if invitation.username
        else ""
    )
    body = (
        f"{what}\n{name}Choose a password and join here (the link works once, for "
        f"{INVITATION_DAYS} days):\n{link}\n\nAlready on FUBA League? Sign in from the same link.\n"
    )
    send_mail(subject, body, None, [invitation.email])


def _club_row_check(club_name: str, username: str, email: str) -> None:
    if not club_name:
        raise invalid("Name the club.", "club")
    if not username:
        raise invalid("Give the member a user name.", "username")
    if len(username) > 150 or not all(c.isalnum() or c in "@.+-_" for c in username):
        raise invalid(
            f"'{username}' is not a user name: letters, digits and @ . + - _ only, at most 150.", "username"
        )
    if email:
        _email_check(email)


def _club_for(*, competition: Competition, club_name: str, by: Any) -> Club:
    """The club of that name (created when new): the competition's organisers invite into any
    club; a club's member only into their own."""
    club = Club.objects.filter(name=club_name).first()
    if competition_permits(user=by, competition=competition, action="setup"):
        return club or club_create(name=club_name)
    if club is not None and _is_member(by, club):
        return club
    raise PermissionDenied(f"Only the organisers of {competition} or {club_name}'s members may invite to it.")


def club_member_invite(
    *, competition: Competition, club_name: str, username: str, email: str, by: Any, link_for: LinkFor
) -> Invited:
    """A member invited into a club in the competition; the link is e-mailed to `email` when given."""
    club_name, username, email = club_name.strip(), username.strip(), email.strip()
    _club_row_check(club_name, username, email)
    with transaction.atomic():
        club = _club_for(competition=competition, club_name=club_name, by=by)
        invitation, token = _create(
            competition=competition, club=club, role="", username=username, email=email, by=by
        )
    link = link_for(token)
    _mail(invitation, link)
    return Invited(invitation=invitation, link=link)


def invitations_bulk(
    *, competition: Competition, rows: Sequence[Sequence[str]], by: Any, link_for: LinkFor
) -> list[Invited]:
    """Many members at once from pasted lines of club, member, e-mail: all or nothing, an error
    names its line; each mail goes to its own line's address."""
    if not competition_permits(user=by, competition=competition, action="setup"):
        raise PermissionDenied(f"Only the organisers of {competition} invite clubs in bulk.")
    cleaned = []
    for number, row in enumerate(rows, start=1):
        parts = [str(p).strip() for p in row] + ["", "", ""]
        club_name, username, email = parts[:3]
        try:
            _club_row_check(club_name, username, email)
        except ApplicationError as exc:
            raise invalid(
                f"Line {number} ({', '.join(p for p in parts[:3] if p)}): {exc.message}", "invitations"
            ) from None
        cleaned.append((club_name, username, email))
    if not cleaned:
        raise invalid("Paste one line a member: club, user name, e-mail.", "invitations")
    names = [u.lower() for _c, u, _e in cleaned]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise invalid(
            f"Line {names.index(twice[0]) + 1}: the user name '{twice[0]}' is listed twice.", "invitations"
        )
    made: list[tuple[Invitation, str]] = []
    with transaction.atomic():
        for club_name, username, email in cleaned:
            club = Club.objects.filter(name=club_name).first() or club_create(name=club_name)
            made.append(
                _create(competition=competition, club=club, role="", username=username, email=email, by=by)
            )
    invited = [Invited(invitation=i, link=link_for(t)) for i, t in made]
    for item in invited:
        _mail(item.invitation, item.link)
    return invited


def role_invite(*, competition: Competition, kind: str, email: str, by: Any, link_for: LinkFor) -> Invited:
    """A co-organiser or results-desk helper invited by e-mail (no account needed yet)."""
    if not competition_permits(user=by, competition=competition, action="people"):
        raise PermissionDenied(f"Only the organisers of {competition} may change who runs it.")
    if kind not in GRANTABLE:
        raise invalid("Invite a co-organiser or a results-desk helper.", "kind")
    email = email.strip()
    _email_check(email, "who")
    invitation, token = _create(
        competition=competition, club=None, role=kind, username="", email=email, by=by
    )
    link = link_for(token)
    _mail(invitation, link)
    return Invited(invitation=invitation, link=link)


def invitation_of(*, token: str) -> Invitation:
    """The invitation of a link that still works (refusals say why it does not)."""
    invitation = (
        Invitation.objects.select_related("competition", "club", "invited_by")
        .filter(token_hash=_hash(token))
        .first()
    )
    if invitation is None:
        raise NotFound("This invitation link is not known: ask for a new one.")
    if invitation.accepted_at is not None:
        raise Conflict("This invitation has been used: sign in instead.")
    if invitation.expires_at < timezone.now():
        raise Conflict("This invitation has expired: ask the organiser for a new one.")
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, user: Any) -> Invitation:
    """The signed-in user joins: into the club, or in the role, the invitation names."""
    invitation = invitation_of(token=token)
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("club", "competition")
        .get(pk=invitation.pk)
    )
    if invitation.accepted_at is not None:
        raise Conflict("This invitation has been used: sign in instead.")
    if invitation.club is not None:
        invitation.club.members.add(user)
    else:
        current = CompetitionRole.objects.filter(competition=invitation.competition, user=user).first()
        if current is None:
            CompetitionRole.objects.create(
                competition=invitation.competition,
                user=user,
                kind=invitation.role,
                added_by=invitation.invited_by,
            )
        elif current.kind != CompetitionRole.Kind.ORGANISER:
            current.kind = invitation.role
            current.save(update_fields=["kind"])
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return invitation


def account_create(*, username: str, password: str, email: str = "") -> Any:
    """A new account of the user name and password its owner chose (checked as Django checks them)."""
    username = username.strip()
    user_model = get_user_model()
    if not username:
        raise invalid("Choose a user name.", "username")
    if user_model.objects.filter(username__iexact=username).exists():
        raise Conflict(
            f"The user name '{username}' is taken: choose another, or sign in if it is yours.",
            details={"field": "username"},
        )
    user = user_model(username=username, email=email)
    try:
        user_model.username_validator(username)
    except ValidationError as exc:
        raise invalid(" ".join(exc.messages), "username") from None
    try:
        password_validation.validate_password(password, user)
    except ValidationError as exc:
        raise invalid(" ".join(exc.messages), "password1") from None
    user.set_password(password)
    user.save()
    return user


@transaction.atomic
def invitation_accept_new_account(*, token: str, username: str, password: str) -> Any:
    """A new account of the user name and password chosen on the join page, joined at once."""
    invitation = invitation_of(token=token)
    user = account_create(username=username, password=password, email=invitation.email)
    invitation_accept(token=token, user=user)
    return user


@transaction.atomic
def club_member_remove(*, club: Club, user: Any, by: Any) -> None:
    """A club's member (or the instance's staff) takes a member out of the club; a club keeps one."""
    if not (_is_member(by, club) or getattr(by, "is_staff", False)):
        raise PermissionDenied(f"Only {club.name}'s members may change its members.")
    if not club.members.filter(pk=user.pk).exists():
        raise NotFound(f"{user} is not a member of {club.name}.")
    if club.members.count() == 1:
        raise Conflict(f"{user} is {club.name}'s last member: a club keeps one to report its results.")
    club.members.remove(user)
