"""DRF's token check as one prepared SQL statement, for the live scorer's API (issue 35).

DRF's TokenAuthentication reads ``Token.objects.select_related("user").get(key=key)``: the ORM
compiles that join on every request, and on a scorer's post (a tap every few seconds per table,
judged against the trivial ping by CPU) the compiling was about a quarter of the post's CPU, more
than PostgreSQL spent running it. This class makes the same check (the key names a token, its
user is active) and gives the same answers and errors, with the statement written once; the
row is made a User and a Token by Model.from_db, as the ORM would. Only table and column names
(from the models) are formatted in; the key is a query parameter.

On another database than PostgreSQL (the embedded SQLite default) it is DRF's own check: the
plain cursor would skip the backend's converters (SQLite answers dates as text).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

_USER = get_user_model()
_USER_FIELDS = _USER._meta.concrete_fields
_TOKEN_FIELDS = Token._meta.concrete_fields
_SQL = f"""
SELECT {", ".join(f"t.{f.column}" for f in _TOKEN_FIELDS)},
       {", ".join(f"u.{f.column}" for f in _USER_FIELDS)}
FROM {Token._meta.db_table} t
JOIN {_USER._meta.db_table} u ON u.{_USER._meta.pk.column} = t.{Token._meta.get_field("user").column}
WHERE t.{Token._meta.pk.column} = %s
"""  # noqa: S608


class TokenSQLAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's TokenAuthentication (module docstring)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        if connection.vendor != "postgresql":
            return super().authenticate_credentials(key)
        with connection.cursor() as cursor:
            cursor.execute(_SQL, [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        split = len(_TOKEN_FIELDS)
        user = _USER.from_db(connection.alias, [f.attname for f in _USER_FIELDS], row[split:])
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token = Token.from_db(connection.alias, [f.attname for f in _TOKEN_FIELDS], row[:split])
        token.user = user
        return user, token
