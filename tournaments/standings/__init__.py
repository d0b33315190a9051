"""The pure rules of a league or group table: criteria → tally → table.

Nothing here reads the database: the tables of counted results (the records loader, selectors,
services, cache, pages' presentation and signals) are matches.standings. See tournaments/README.md.
"""
