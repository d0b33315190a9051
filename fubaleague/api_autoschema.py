"""drf-spectacular's AutoSchema, told that public data may be read without a token.

drf-spectacular documents an operation as open to anonymous clients (an empty security requirement)
only for AllowAny and IsAuthenticatedOrReadOnly. Public data here is guarded by ReadOnlyOrStaff, so
every public read was documented as needing a token or a session, which it does not.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework.permissions import SAFE_METHODS


class AutoSchema(SpectacularAutoSchema):
    def get_auth(self) -> list[Any]:
        auths = super().get_auth()
        # Imported here: the permissions module reads the models, which load after the settings.
        from league.api.permissions import ReadOnlyOrStaff

        permissions = self.view.get_permissions()
        if (
            self.method in SAFE_METHODS
            and {} not in auths
            and any(isinstance(p, ReadOnlyOrStaff) for p in permissions)
        ):
            auths.append({})
        return auths


class ScorerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # drf-spectacular untyped
    """The scorer's token check (kernel.token_auth): the same ``Authorization: Token <key>`` as
    DRF's, under a name of its own. drf-spectacular names each security scheme after the class
    that checks it, and two classes under DRF's "tokenAuth" name fail the schema's check (W001)."""

    target_class = "kernel.token_auth.TokenSQLAuthentication"
    name = "scorerTokenAuth"
    priority = 1

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'The same token as tokenAuth: "Token <key>" (checked by one SQL statement).',
        }
