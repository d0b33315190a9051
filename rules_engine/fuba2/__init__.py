"""FUBA rulebook 2.0 (ruleset ``fuba-2``): its turn flow and the rules of each chapter.

``machine.Match`` plays ``flow.match_flow`` for a header whose ruleset is
``fuba-2``.  The design (docs/fuba2-engine.md): the board, dice, RNG, event
plumbing, errors and log I/O of ``rules_engine`` are shared; the rules of
rulebook 2.0 live here, never as ``if ruleset == ...`` in FUBA 3's rule modules.

Modules, top to bottom (the import-linter contract ``engine-fuba2-layers``):
``flow`` (3, 4: match preparation, halves and the seven stages of a turn),
``actions`` (4.6 the team action stage), ``restarts`` (set-ups and set pieces,
cards, injuries, substitutions), ``moveseq`` (sequences of moves),
``turnstate`` (what a FUBA 2 match keeps besides ``state.MatchState``);
``ball`` (4.1 target area, 4.4 control check, 4.5 new ball value, 4.9 ball
value adjustment and pressing), ``goal`` (4.7 goal attempts and their
modifiers table, 5.5.2 penalty kick), ``special`` (4.4.3 special event table,
the yellow card roll, 5.4 red card test), ``movement`` (4.4.2 the closest
player, 4.6 the order of the action stages, 4.8 one player's move),
``setup`` (3.2, 5.1.1, 5.2.1, 5.5.1 set-ups); ``offside`` (``Side``: a team on the
board, 4.1.1 offside), ``clock`` (4.2-4.3 dice and time), ``condition`` (A1
condition points and tiredness, A2 roles, A3 fresh player, A4 injury roll);
``styles`` (A6 playing styles), ``names`` (the rolls' names); ``problems``
(the engine's errors for the rules' refusals).

Glossary: ``ct`` / ``pt``: the controlling / passive team (1.2; rulebook 3
says "defending team"); ``I2-n``: FUBA 2 interpretation n in
docs/rules-interpretations.md; other numbers are chapters of rulebook 2.0
(``shared/seeds/001_...``, OCR ``000_...``).
"""
