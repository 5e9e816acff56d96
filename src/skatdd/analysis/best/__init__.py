"""The best contract of a deal (``skatdd best``).

The search (:mod:`.api`), its results (:mod:`.results`), score bands and lazy probes (:mod:`.bands`),
the discards and their classes (:mod:`.discards`), the order they are tried in
(:mod:`.discard_heuristic`) and ``best`` over inputs as read (:mod:`.games`).

Imports no other family; odds and bid reuse its bands and discards.
"""
