"""The signed-in user a service acts for."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

from kernel.errors import PermissionDenied


def signed_in_user(user: AbstractBaseUser | AnonymousUser) -> User:
    """The request's user as the services take it (they record who acted).

    Views that call services are open to signed-in users only (login_required, the admin, the API's
    permission classes); an anonymous user reaching one is refused the same way a stranger is.
    """
    if not isinstance(user, User):
        raise PermissionDenied("Sign in to do this.")
    return user
