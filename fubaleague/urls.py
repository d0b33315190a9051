from django.contrib import admin
from django.urls import include, path

from fubaleague import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("fubaleague.api_urls")),
    path("", include("tournaments.urls")),
]
