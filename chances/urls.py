from django.urls import path

from chances import views

app_name = "chances"

urlpatterns = [
    path("c/<slug:slug>/chances/", views.chances_page, name="chances"),
    path("c/<slug:slug>/chances/recompute", views.chances_recompute, name="recompute"),
]
