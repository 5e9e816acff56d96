"""A played game reviewed card by card (``skatdd analyse``).

The entry points (:mod:`.api`), the results (:mod:`.results`), the card-by-card walk (:mod:`.card_walk`)
and the result at stake in each position (:mod:`.stakes`).

Imports the families best, advise and inference.
"""
