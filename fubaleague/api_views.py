"""API views that belong to no domain app."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class PingView(APIView):
    """The cheapest DRF endpoint: the baseline the web benchmark compares real endpoints against."""

    permission_classes = [AllowAny]

    @extend_schema(responses=inline_serializer("Ping", {"ping": serializers.CharField()}))
    def get(self, request: Request) -> Response:
        return Response({"ping": "pong"})
