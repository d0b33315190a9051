from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.ranking, name="ranking"),
    path("ratings/coaches/<int:coach_id>/", views.coach_history, name="coach"),
]
