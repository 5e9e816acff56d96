"""The review of a game's decisions before the first card: each seat's bidding, the hand or pick-up, the game and discard.

:mod:`.api` holds the entry points (:func:`~.api.review_decisions`, :func:`~.api.add_decisions`),
:mod:`.results` the result classes.  The family sits above every other one of :mod:`skatdd.analysis`:
it judges with ``bid`` (:mod:`skatdd.analysis.bid`) and ``odds --skat`` (:mod:`skatdd.analysis.odds`)
what ``analyse`` (:mod:`skatdd.analysis.analyse`) found about the card play.
"""
