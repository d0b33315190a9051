"""League and group standings: criteria, the pure table, the one records loader, cache and pages.

criteria → tally/table (pure) → records (the loader) → selectors (read) / services (lots, best
thirds, recompute) → presentation (named rows, explanations, chart), cached by cache; signals
invalidates the cache. See tournaments/README.md.
"""
