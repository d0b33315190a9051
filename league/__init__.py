"""The league's presentation over competitions (tournaments) and results (matches): the admin of
competitions, stages, fixtures, clubs and teams (`admin`, built on the results' admin actions of
matches.admin), the REST API of both (`api/`), and the demo World Cup (`demo`, `manage.py load_demo`).

A Django app without models (label "league"): the models and their migrations stay in
tournaments and matches. Nothing below imports it; only the project package (URLs, the API's
schema hooks) does.
"""
