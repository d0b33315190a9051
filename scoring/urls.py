from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("score/<int:session_id>/", views.scorer, name="scorer"),
    path("score/<int:session_id>/live.json", views.live_json, name="live_json"),
    path("score/<int:session_id>/story.json", views.live_story, name="live_story"),
    path("score/start/<int:fixture_id>", views.start, name="start"),
    path("score/engine/<str:name>", views.engine_bundle, name="engine_bundle"),
    path("score/sw.js", views.service_worker, name="service_worker"),
]
