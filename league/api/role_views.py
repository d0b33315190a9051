"""Who runs a competition, through the API: its roles listed, co-organisers and results-desk
helpers added by user name or e-mail address, and taken away. The rule is the console's People
page's (tournaments.selectors.competition_permits, action "people"), and the writes are the same
services (tournaments.services.roles)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from kernel.errors import NotFound
from league.api.permissions import CompetitionAction
from tournaments.models import Competition, CompetitionRole
from tournaments.selectors import user_named
from tournaments.services.roles import GRANTABLE, role_grant, role_remove
from tournaments.services.shared import invalid


class PeoplePermission(CompetitionAction):
    def __init__(self) -> None:
        super().__init__("people", "tournaments.change_competition")


class RoleSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username", read_only=True)
    added_by = serializers.CharField(source="added_by.username", read_only=True, default=None)
    kind_label = serializers.CharField(source="get_kind_display", read_only=True)

    class Meta:
        model = CompetitionRole
        fields = ["id", "user", "kind", "kind_label", "added_by", "created_at"]


class RoleGrantSerializer(serializers.Serializer):
    user = serializers.CharField(max_length=254, help_text="A user name or an account's e-mail address")
    kind = serializers.ChoiceField(choices=[(k, CompetitionRole.Kind(k).label) for k in GRANTABLE])


def _roles(competition: Competition) -> list[dict[str, Any]]:
    rows = competition.roles.select_related("user", "added_by").order_by("kind", "user__username")
    return list(RoleSerializer(rows, many=True).data)


class RolesMixin:
    """`…/roles` (GET, POST) and `…/roles/{id}` (DELETE) on a competition."""

    @extend_schema(request=RoleGrantSerializer, responses={200: RoleSerializer(many=True)})
    @action(
        detail=True,
        methods=["get", "post"],
        permission_classes=[PeoplePermission],
        pagination_class=None,
        filter_backends=[],
    )
    def roles(self, request: Request, slug: str | None = None) -> Response:
        """Organisers: the competition's roles; POST gives a co-organiser or results-desk role."""
        competition: Competition = self.get_object()  # type: ignore[attr-defined]
        if request.method == "GET":
            return Response(_roles(competition))
        data = RoleGrantSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = user_named(data.validated_data["user"])
        if user is None:
            raise invalid(f"No one on this service is called {data.validated_data['user']!r}.", "user")
        role_grant(competition=competition, user=user, kind=data.validated_data["kind"], by=request.user)
        return Response(_roles(competition), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"roles/(?P<role_id>[0-9]+)",
        permission_classes=[PeoplePermission],
        pagination_class=None,
        filter_backends=[],
    )
    def role_remove(self, request: Request, slug: str | None = None, role_id: str = "") -> Response:
        """Organisers: take a co-organiser's or helper's role away (the organiser's stays)."""
        competition: Competition = self.get_object()  # type: ignore[attr-defined]
        role = CompetitionRole.objects.filter(competition=competition, pk=int(role_id)).first()
        if role is None:
            raise NotFound(f"{competition} has no role {role_id}.")
        role_remove(role=role, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
