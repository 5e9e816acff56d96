"""Deals by counting rules.

A declarer's cards judged for a contract (:mod:`.evaluation`) and realistic deals with the contract a
sensible player would choose (:mod:`.realistic`).

Imports no other family.
"""
