from django.urls import path

from fubaleague.console import (
    club_views,
    draw_views,
    people_views,
    result_views,
    round_views,
    rules_views,
    setup_views,
    stage_edit_views,
    stage_views,
    team_views,
    venue_views,
)

app_name = "console"

urlpatterns = [
    path("", setup_views.index, name="index"),
    path("new/", setup_views.new_competition, name="new"),
    path("c/<slug:slug>/", setup_views.overview, name="overview"),
    path("c/<slug:slug>/teams/", club_views.teams, name="teams"),
    path("c/<slug:slug>/teams/<int:team_id>/", team_views.team_edit, name="team"),
    path("c/<slug:slug>/stages/", stage_views.stages, name="stages"),
    path("c/<slug:slug>/stages/<int:stage_id>/", stage_edit_views.stage_edit, name="stage"),
    path("c/<slug:slug>/draw/", draw_views.draw, name="draw"),
    path("c/<slug:slug>/draw/by-hand/", draw_views.draw_by_hand, name="draw-by-hand"),
    path("c/<slug:slug>/schedule/", draw_views.schedule, name="schedule"),
    path("c/<slug:slug>/results/", result_views.results_list, name="results"),
    path("c/<slug:slug>/results/round/", round_views.results_round, name="round"),
    path("c/<slug:slug>/results/<int:fixture_id>/", result_views.result_desk, name="result"),
    path("c/<slug:slug>/people/", people_views.people, name="people"),
    path("c/<slug:slug>/rules/", rules_views.rules, name="rules"),
    path("c/<slug:slug>/discipline/", result_views.discipline, name="discipline"),
    path("c/<slug:slug>/venue/", venue_views.venue, name="venue"),
]
