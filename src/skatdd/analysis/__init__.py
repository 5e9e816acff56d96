"""Hand and game analysis built on the solver: game reviews, best contracts, worlds, advice, odds, bidding.

Holds :mod:`.analyse` (with :mod:`.analyse_results`, :mod:`.card_walk`, :mod:`.stakes`),
:mod:`.best` (with :mod:`.best_results`, :mod:`.bands`, :mod:`.discards`, :mod:`.discard_heuristic`,
:mod:`.best_games`), :mod:`.worlds`, :mod:`.advise` (with :mod:`.advice`, :mod:`.world_values`,
:mod:`.world_runner`), :mod:`.inference` (with :mod:`.inference_bids`, :mod:`.inference_play`),
:mod:`.honest`, :mod:`.odds` (with :mod:`.odds_input`, :mod:`.odds_draw`, :mod:`.odds_tasks`,
:mod:`.discard_ranking`, :mod:`.odds_report`, :mod:`.odds_stats`), :mod:`.bid` (with :mod:`.bid_tasks`,
:mod:`.bid_skat`, :mod:`.bid_report`, :mod:`.stegen`, :mod:`.skat_rule`), the hand evaluator
:mod:`.contract_evaluation` and :mod:`.realistic_deals`.  May import :mod:`skatdd.core`,
:mod:`skatdd.formats`, :mod:`skatdd.engine` and :mod:`skatdd.runner` (many-line jobs).
"""
