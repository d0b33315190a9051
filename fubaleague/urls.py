from django.contrib import admin
from django.urls import include, path

from fubaleague import views
from fubaleague.web import ratings_pages

handler404 = "fubaleague.views.page_not_found"

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("fubaleague.api_urls")),
    path("console/", include("fubaleague.console.urls")),
    path("", include("scoring.urls")),
    path("", include(ratings_pages.patterns())),
    path("", include("chances.urls")),
    path("", include("notifications.urls")),
    path("", include("fubaleague.web.urls")),
]
