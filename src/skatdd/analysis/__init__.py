"""Hand and game analysis built on the solver, one subpackage per family.

Every family names its modules alike: ``api`` holds the entry points a user or a command calls, and
``results`` the result classes they return (each with ``to_json()``).  The families, bottom-up
(a family imports only those listed before it, never another's private names; tests/test_layout.py
checks the order):

* :mod:`.worlds`: what a seat knows and the worlds consistent with it; one world's results;
* :mod:`.deals`: judging hands by counting rules, realistic deals;
* :mod:`.inference`: worlds weighed by what the bidding and the play showed;
* :mod:`.honest`: the honest declarer's endgame search;
* :mod:`.best`: the best contract of a deal, with its score bands and discards;
* :mod:`.advise`: single-dummy advice and the runner of a decision's worlds;
* :mod:`.odds`: a hand's chances, before or after the pick-up;
* :mod:`.bid`: how high to bid;
* :mod:`.analyse`: a played game reviewed card by card;
* :mod:`.review`: a played game's decisions before the first card (bidding, pick-up, declaration).

May import :mod:`skatdd.core`, :mod:`skatdd.formats`, :mod:`skatdd.engine` and :mod:`skatdd.runner`
(many-line jobs).
"""
