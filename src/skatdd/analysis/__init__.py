"""Hand and game analysis built on the solver: game reviews, best contracts, worlds, advice, odds, bidding.

Holds :mod:`.analyse`, :mod:`.best`, :mod:`.worlds`, :mod:`.advise`,
:mod:`.odds`, :mod:`.bid` with :mod:`.bid_tasks`, :mod:`.bid_skat`,
:mod:`.stegen`, :mod:`.skat_rule`, :mod:`.best_games`, the hand evaluator
:mod:`.contract_evaluation` and :mod:`.realistic_deals`.  May import
:mod:`skatdd.core`, :mod:`skatdd.formats`, :mod:`skatdd.engine` and
:mod:`skatdd.runner` (many-line jobs).
"""
