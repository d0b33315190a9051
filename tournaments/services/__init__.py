"""The competition services, one module a concept: clubs (clubs, coaches, teams), competitions, stages (and
groups), scheduling (fixture rows and their dates), drawing (group and bracket draws) and swiss_rounds.
Callers import from the module where a service lives.
"""
