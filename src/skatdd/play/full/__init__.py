"""The whole game: bidding, hand or pick-up, discard, declaration and play, its players and its matches.

:mod:`.actions` (the phases and actions), :mod:`.game` (:class:`~.game.FullGame`, the state machine),
:mod:`.state` (each seat's state and the result), :mod:`.random_player` and :mod:`.heuristic_player`
(the rule-based choices), :mod:`.players` (the player protocol, asking a player, every built-in by name),
:mod:`.match` and :mod:`.summary` (``skatdd match --full``).  The first three import only core and
formats; the players and the match use the card-play side of :mod:`skatdd.play`.
"""
