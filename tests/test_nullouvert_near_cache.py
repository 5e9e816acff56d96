"""The double-dummy table's near cache (nullouvert_table.pxi): exact, and used.

Each table keeps a small direct-mapped cache of the entries last stored or
found, probed before the table's bucket.  Its entries must be as exact as
the table's: a solver warmed by thousands of positions answers every
position as a solver whose tables were just emptied does.  The warm one's
near cache has two entries, so that nearly every probe meets another key
there (at its default size two keys rarely share an entry in a short test).
"""
from __future__ import annotations

import random

from skatdd.engine._nullouvert import NullSolver


def random_position(rng: random.Random, n: int) -> tuple[list[int], int, int]:
    """Three hands of *n* cards from a random 3n of the 32 (seat masks), the declarer's seat, a leader."""
    cards = rng.sample(range(32), 3 * n)
    hands = [sum(1 << c for c in cards[i * n:(i + 1) * n]) for i in range(3)]
    return hands, rng.randrange(3), rng.randrange(3)


def test_a_warm_solver_answers_as_an_emptied_one() -> None:
    rng = random.Random(5)
    warm = NullSolver(1, 1, near_bits=1)
    cold = NullSolver(1, 1)
    for _ in range(400):
        hands, decl, _ = random_position(rng, rng.randrange(3, 7))
        # each defender on lead in turn: the two positions' keys differ only in
        # their second word (the leader), the last one stored is the first's root
        for leader in ((decl + 1) % 3, (decl + 2) % 3):
            cold.clear()
            assert warm.dd_lose(hands, decl, leader) == cold.dd_lose(hands, decl, leader), (hands, decl, leader)
    probes, hits, near_hits = warm.table_stats
    assert 0 < near_hits <= hits <= probes


def test_the_counters_start_again_at_reset() -> None:
    solver = NullSolver(1, 1)
    hands, decl, leader = random_position(random.Random(1), 6)
    solver.dd_lose(hands, decl, leader)
    solver.reset_stats()
    assert solver.table_stats == (0, 0, 0)


def test_the_near_cache_size_is_checked() -> None:
    for bits in (0, 21):
        try:
            NullSolver(1, 1, near_bits=bits)
        except ValueError as exc:
            assert "near_bits" in str(exc)
        else:
            raise AssertionError(f"near_bits={bits} was accepted")


def test_a_solver_sharing_a_table_finds_what_the_owner_stored() -> None:
    """``NullSolver(share=owner)`` probes the owner's table (one table for the threads of a count)."""
    rng = random.Random(7)
    owner = NullSolver(1, 1)
    sharer = NullSolver(1, 1, share=owner)
    third = NullSolver(1, 1, share=sharer)      # sharing a sharer's table is sharing the owner's
    assert sharer.tt_mb == third.tt_mb == owner.tt_mb
    checked = 0
    while checked < 50:
        hands, decl, _ = random_position(rng, 6)
        leader = (decl + 1) % 3
        owner.reset_stats()
        answer = owner.dd_lose(hands, decl, leader)
        if owner.nodes < 2:
            continue            # settled by the static tests: nothing stored
        for other in (sharer, third):
            other.reset_stats()
            assert other.dd_lose(hands, decl, leader) == answer
            assert other.nodes == 1, (hands, decl, leader)  # the owner's entry, found at the root
            assert other.table_stats[1] == 1
        checked += 1
    owner.clear()               # the shared table (and the owner's near cache): a new sharer finds nothing
    fresh = NullSolver(1, 1, share=owner)
    fresh.dd_lose(hands, decl, leader)
    assert fresh.nodes > 1
