"""drf-spectacular's AutoSchema, told that public data may be read without a token.

drf-spectacular documents an operation as open to anonymous clients (an empty security requirement)
only for AllowAny and IsAuthenticatedOrReadOnly. Public data here is guarded by ReadOnlyOrStaff, so
every public read was documented as needing a token or a session, which it does not.
"""

from __future__ import annotations

from typing import Any

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
