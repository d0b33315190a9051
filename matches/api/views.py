"""Fixtures, results and turn logs: public reads, the clubs' results workflow, staff actions."""

from __future__ import annotations

from rest_framework import viewsets
from rest_framework.routers import BaseRouter

from tournaments.api import filters
from tournaments.api.permissions import ReadOnlyOrStaff
from tournaments.api.serializers import FixtureSerializer
from tournaments.api.views import fixture_queryset


class FixtureViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = FixtureSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.FixtureFilter

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return fixture_queryset()


def register(router: BaseRouter) -> None:
    router.register("fixtures", FixtureViewSet, basename="fixture")
