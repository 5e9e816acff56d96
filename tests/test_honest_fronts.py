"""The sets-of-worlds helpers of the honest search (skatdd.analysis.honest.fronts) against plain definitions."""
from __future__ import annotations

import random

import pytest

from skatdd.analysis.honest.fronts import maximal


def _plain_maximal(sets: list[int]) -> set[int]:
    return {s for s in sets if not any(s != t and s | t == t for t in sets)}


@pytest.mark.parametrize("count", [5, 64, 65, 1000])
def test_maximal_keeps_exactly_the_sets_no_other_contains(count: int) -> None:
    """Small lists are compared pairwise, large ones through the index per world: the same sets either way."""
    rng = random.Random(count)
    sets = [rng.getrandbits(40) & rng.getrandbits(40) & rng.getrandbits(40) for _ in range(count)]
    sets += sets[: count // 3]  # duplicates
    sets += [0, (1 << 40) - 1] if count > 100 else [0]
    got = maximal(sets)
    assert len(got) == len(set(got))
    assert set(got) == _plain_maximal(sets)

