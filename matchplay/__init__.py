"""A match as played, in plain Python under the league: the engine door (the one module that imports
the rules engine) and the plain-language match text, the scorer's view and the one apply of a tap.

No Django and nothing else of the league: the phone's Web Worker runs these modules under Pyodide
(scoring/web_engine.py packages them), the server runs the same ones.
"""
