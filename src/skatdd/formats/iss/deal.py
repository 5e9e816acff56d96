"""Where an ISS record's cards lie: the dealt and the start-of-play partitions, filled in as far as the record goes."""
from __future__ import annotations

from skatdd.core.cards import ALL_CARDS, Card, Mask, cards_of, format_cards, mask_of
from skatdd.core.errors import ISSFormatError, quote

__all__ = ["DEAL_LOCATIONS", "START_LOCATIONS", "CardPlaces", "ordered"]

DEAL_LOCATIONS = ("H0", "H1", "H2", "X")  # hands as dealt and the dealt skat
START_LOCATIONS = ("S0", "S1", "S2", "K")  # hands at the first lead and the skat/discard
_CAPACITY = {"H0": 10, "H1": 10, "H2": 10, "X": 2, "S0": 10, "S1": 10, "S2": 10, "K": 2}


class CardPlaces:
    """What the record reveals about where each card lies, filled in as far as it goes.

    Two partitions of the 32 cards: as dealt (``H0 H1 H2 X``) and at the first
    lead (``S0 S1 S2 K``, K being the skat of a hand game or the discard).
    Rules: a defender's hand is the same in both; in a hand game so are the
    declarer's hand and the skat; after a pick-up the declarer's dealt hand
    plus skat equals the start hand plus discard; a partition with one
    incomplete location gives it the cards left over.
    """

    def __init__(self) -> None:
        """Nothing known yet: every location empty."""
        self.known: dict[str, Mask] = {loc: 0 for loc in DEAL_LOCATIONS + START_LOCATIONS}

    def complete(self, loc: str) -> bool:
        """Whether every card of *loc* is known (ten for a hand, two for a skat)."""
        return self.known[loc].bit_count() == _CAPACITY[loc]

    def placed(self, partition: tuple[str, ...]) -> Mask:
        """Cards already placed somewhere in *partition*."""
        out = 0
        for loc in partition:
            out |= self.known[loc]
        return out

    def add(self, loc: str, mask: Mask) -> bool:
        """Add *mask* to *loc*; returns whether it grew.  Raises when the record contradicts itself."""
        new = mask & ~self.known[loc]
        if not new:
            return False
        partition = DEAL_LOCATIONS if loc in DEAL_LOCATIONS else START_LOCATIONS
        for other in partition:
            clash = new & self.known[other] if other != loc else 0
            if clash:
                raise ISSFormatError(
                    f"the record contradicts itself: {quote(format_cards(cards_of(clash)))} would lie in two places"
                )
        grown = self.known[loc] | new
        if grown.bit_count() > _CAPACITY[loc]:
            raise ISSFormatError(
                f"the record contradicts itself: more than {_CAPACITY[loc]} cards "
                f"({quote(format_cards(cards_of(grown)))}) for one {'hand' if _CAPACITY[loc] == 10 else 'skat'}"
            )
        self.known[loc] = grown
        return True

    def settle(self, declarer: int | None, picked_up: bool) -> None:
        """Apply the linking rules until nothing changes."""
        changed = True
        while changed:
            changed = False
            for partition in (DEAL_LOCATIONS, START_LOCATIONS):
                open_ = [loc for loc in partition if not self.complete(loc)]
                if len(open_) == 1:
                    rest = ALL_CARDS
                    for loc in partition:
                        if loc != open_[0]:
                            rest &= ~self.known[loc]
                    changed |= self.add(open_[0], rest)
            if declarer is None:
                continue
            for seat in range(3):
                if seat != declarer or not picked_up:
                    h, s = f"H{seat}", f"S{seat}"
                    changed |= self.add(s, self.known[h])
                    changed |= self.add(h, self.known[s])
            if not picked_up:
                changed |= self.add("K", self.known["X"])
                changed |= self.add("X", self.known["K"])
                continue
            h, s = f"H{declarer}", f"S{declarer}"
            twelve = self.known[h] | self.known["X"] | self.known[s] | self.known["K"]
            defenders = [d for d in range(3) if d != declarer]
            if all(self.complete(f"H{d}") for d in defenders):
                twelve = ALL_CARDS & ~self.known[f"H{defenders[0]}"] & ~self.known[f"H{defenders[1]}"]
            if twelve.bit_count() == 12:
                for a, b in ((h, "X"), (s, "K")):
                    if self.complete(a):
                        changed |= self.add(b, twelve & ~self.known[a])
                    if self.complete(b):
                        changed |= self.add(a, twelve & ~self.known[b])


def ordered(first: list[Card | None], mask: Mask) -> list[Card]:
    """Cards of *mask*: those in *first* in its order, then the rest ascending."""
    head = [c for c in first if c is not None and mask >> c & 1]
    rest = mask & ~mask_of(head)
    return head + cards_of(rest)
