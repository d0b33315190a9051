"""League and group standings of counted results, over the pure rules of tournaments.standings.

records (the one loader of counted results) → selectors (read) / services (lots, best thirds,
recompute) → presentation (named rows, explanations, chart), cached by cache; signals invalidates
the cache. See tournaments/README.md.
"""
