"""API views that belong to no domain app."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.api_json import FormParser, JSONParser, MultiPartParser
from kernel.throttling import LoginRateThrottle


class PingView(APIView):
    """The cheapest DRF endpoint: the baseline the web benchmark compares real endpoints against."""

    permission_classes = [AllowAny]

    @extend_schema(responses=inline_serializer("Ping", {"ping": serializers.CharField()}))
    def get(self, request: Request) -> Response:
        return Response({"ping": "pong"})


class TokenView(ObtainAuthToken):
    # DRF's username/password → token exchange, reading JSON with the API's parser: ObtainAuthToken
    # names its own parsers, which DEFAULT_PARSER_CLASSES does not reach, and the API's parser is
    # the one that answers a deeply nested body with a 400.
    # A comment, not a docstring: the docstring would become the operation's public description.
    parser_classes = (FormParser, MultiPartParser, JSONParser)
    # ObtainAuthToken has no throttles at all: limit password guessing per address
    throttle_classes = (LoginRateThrottle,)
