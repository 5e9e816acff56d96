"""Dealing the cards at random: :func:`random_deal`, 32 cards shuffled into three hands and a skat.

The randomness comes from the ``random.Random`` the caller gives (one seeded
generator, :func:`skatdd.core.seeds.generator`), so a seed gives its deals.
"""
from __future__ import annotations

import random

from .cards import Mask, mask_of

__all__ = ["random_deal"]


def random_deal(rng: random.Random) -> tuple[list[Mask], Mask]:
    """A uniformly random deal: three 10-card hand masks (index = seat) and the 2-card skat mask."""
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [mask_of(cards[0:10]), mask_of(cards[10:20]), mask_of(cards[20:30])]
    return hands, mask_of(cards[30:32])
