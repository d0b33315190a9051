"""The organiser console: pages to run a competition from its shape to its champion.

Built only on the services and selectors the API uses (tournaments.services, tournaments.shapes,
matches.services, matches.progress, matches.discipline); it adds no rule of its own. Staff with the
competition models' permissions use it, on a phone or a desktop.
"""
