"""Hand and game analysis built on the solver: game reviews, best contracts, worlds, advice, odds, bidding.

Holds :mod:`.analyse`, :mod:`.best`, :mod:`.worlds`, :mod:`.advise`,
:mod:`.odds` with :mod:`.odds_input`, :mod:`.odds_draw`, :mod:`.odds_tasks`,
:mod:`.discard_ranking`, :mod:`.odds_report` and :mod:`.odds_stats`, :mod:`.bid`
with :mod:`.bid_tasks`, :mod:`.bid_skat`, :mod:`.bid_report`, :mod:`.stegen` and
:mod:`.skat_rule`.  May import :mod:`skatdd.core`,
:mod:`skatdd.formats` and :mod:`skatdd.engine` (the exceptions, where
analysis still hands its jobs to :mod:`skatdd.runner`, are listed in
tests/test_layout.py).
"""
