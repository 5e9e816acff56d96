"""The sets-of-worlds helpers of the honest search (skatdd.analysis.honest.fronts) against plain definitions."""
from __future__ import annotations

import itertools
import random

import pytest

from skatdd.analysis.honest.fronts import Levels, Weigher, maximal


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


def test_levels_bound_is_at_least_every_combination() -> None:
    """Levels.bound(r, i) is at least the weight of every set built from r with one set per child from i on."""
    rng = random.Random(3)
    weights = [rng.choice([0.5, 1.0, 2.5]) for _ in range(12)]
    weight = Weigher(weights)
    everyone = (1 << 12) - 1
    for _ in range(40):
        children = []
        for _ in range(rng.randint(1, 4)):
            reach = rng.getrandbits(12) | 1 << rng.randrange(12)
            children.append((reach, maximal([rng.getrandbits(12) & reach for _ in range(rng.randint(1, 4))])))
        levels = Levels(everyone, children, weight)
        for i in range(len(children) + 1):
            r = rng.getrandbits(12)
            for choice in itertools.product(*(child for _, child in children[i:])):
                built = r
                for (reach, _), s in zip(children[i:], choice, strict=True):
                    built &= s | ~reach
                assert weight(built) <= levels.bound(r, i) + 1e-12
