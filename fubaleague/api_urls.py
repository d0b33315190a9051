"""/api/v1/: one router for every resource, the OpenAPI schema and its offline docs pages."""

from __future__ import annotations

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from chances import api as chances_api
from fubaleague.api_views import PingView, TokenView
from league.api import result_views as match_views
from league.api import views as tournament_views
from ratings import api as ratings_api
from scoring.api import views as scoring_views

app_name = "api"

router = DefaultRouter(trailing_slash=False)
# No ".json" twins of every route: the API speaks JSON only, the schema does not list them, and
# the actions taking no `format` argument answered them with a 500.
router.include_format_suffixes = False
# The live scorer's routes first: a phone posts one event per tap, and URL resolution tries the
# router's patterns in order (the others' hundred-odd patterns cost a post about 0.3 ms).
scoring_views.register(router)
tournament_views.register(router)
match_views.register(router)

urlpatterns = [
    path("ping", PingView.as_view(), name="ping"),
    # Clubs' own scripts exchange a username and password for a token (header "Authorization: Token …").
    path("auth/token", TokenView.as_view(), name="token"),
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: the CSP allows no inline script.
    path("docs", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="swagger"),
    path("redoc", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
    *ratings_api.urlpatterns,
    *chances_api.urlpatterns,
    path("", include(router.urls)),
]
