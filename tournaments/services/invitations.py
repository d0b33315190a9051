"""Invitations: a club's member invited into a competition, each invitation addressed only to what
was given for it.

Every value of an invitation comes from its own call: nothing is looked up from an earlier
invitation, a user or a form, so one club's one-time link can only go to the address typed for
that club (issue 32: a re-shown form once carried the first club's address to every later one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction

from kernel.errors import Conflict
from tournaments.models import Club, Competition
from tournaments.services.clubs import club_create
from tournaments.services.shared import invalid


@dataclass(frozen=True)
class ClubInvitation:
    club: Club
    user: Any
    email: str
    link: str


def club_member_invite(
    *,
    competition: Competition,
    club_name: str,
    username: str,
    email: str,
    link_for: Callable[[Any], str],
) -> ClubInvitation:
    """A new member of the club (created when new), without a password until they follow the link
    that `link_for(user)` makes; the link is e-mailed to `email` when one is given."""
    club_name, username, email = club_name.strip(), username.strip(), email.strip()
    if not club_name:
        raise invalid("Name the club.", "club")
    if not username:
        raise invalid("Give the member a user name.", "username")
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise invalid(f"'{email}' is not an e-mail address.", "email") from None
    user_model = get_user_model()
    if user_model.objects.filter(username__iexact=username).exists():
        raise Conflict(f"The user name '{username}' is taken.", details={"field": "username"})
    with transaction.atomic():
        club = Club.objects.filter(name=club_name).first() or club_create(name=club_name)
        user = user_model.objects.create_user(username=username, email=email)
        user.set_unusable_password()
        user.save()
        club.members.add(user)
    link = link_for(user)
    if email:
        send_mail(
            f"{club.name} in {competition}: your invitation to FUBA League",
            f"You are invited as a member of {club.name} in {competition}.\n"
            f"Your user name: {username}\n"
            f"Choose your password here (the link works once):\n{link}\n",
            None,
            [email],
        )
    return ClubInvitation(club=club, user=user, email=email, link=link)
