"""Inference.

Worlds weighed by what the bidding (:mod:`.bids`) and the play (:mod:`.play`) showed; the entry point
:func:`.api.weighted_worlds`.

Imports the families worlds and deals.
"""
