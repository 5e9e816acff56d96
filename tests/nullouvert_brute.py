"""Plain-Python brute force for null ouvert on small games, the yardstick of tests/test_nullouvert.py.

Nothing here shares code with skatdd.engine._nullouvert: worlds are explicit
lists of hands, positions are replayed card by card, and nothing is
normalised or memoised across states.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator

World = tuple[tuple[int, int, int], int]   # (hands by seat as masks, skat mask)


def bits(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def worlds(hand: int, pool: int, k: int, declarer: int) -> list[World]:
    """Every split of *pool* into a k-card skat and two equal defender hands."""
    n = hand.bit_count()
    out = []
    cards = bits(pool)
    for skat in itertools.combinations(cards, k):
        rest = [c for c in cards if c not in skat]
        for left in itertools.combinations(rest, n):
            lm = sum(1 << c for c in left)
            rm = sum(1 << c for c in rest) & ~lm
            hands = [0, 0, 0]
            hands[declarer] = hand
            hands[(declarer + 1) % 3] = lm
            hands[(declarer + 2) % 3] = rm
            out.append(((hands[0], hands[1], hands[2]), sum(1 << c for c in skat)))
    return out


def legal(hand: int, trick: tuple[int, ...]) -> list[int]:
    if trick:
        follow = hand & (0xFF << (8 * (trick[0] >> 3)))
        if follow:
            return bits(follow)
    return bits(hand)


def replay(hands: tuple[int, int, int], history: tuple[int, ...]) -> tuple[list[int], int, tuple[int, ...], list[int]] | None:
    """Hands, leader, current trick and trick winners after *history*, or None if a card is illegal."""
    hs = list(hands)
    leader, trick, winners = 0, (), []
    for card in history:
        seat = (leader + len(trick)) % 3
        if card not in legal(hs[seat], trick):
            return None
        hs[seat] &= ~(1 << card)
        trick = (*trick, card)
        if len(trick) == 3:
            led = trick[0] >> 3
            best = max((i for i in range(3) if trick[i] >> 3 == led), key=lambda i: trick[i])
            leader = (leader + best) % 3
            winners.append(leader)
            trick = ()
    return hs, leader, trick, winners


def dd_lose(hands: tuple[int, int, int], declarer: int, history: tuple[int, ...] = ()) -> bool:
    """Plain minimax: can the defenders force the declarer to take a trick after *history*?"""
    state = replay(hands, history)
    assert state is not None
    hs, leader, trick, winners = state
    if declarer in winners:
        return True
    if not any(hs):
        return False
    seat = (leader + len(trick)) % 3
    results = (dd_lose(hands, declarer, (*history, c)) for c in legal(hs[seat], trick))
    return all(results) if seat == declarer else any(results)


def honest_by_worlds(hand: int, pool: int, k: int, declarer: int) -> bool:
    """AND-OR over histories with explicit world sets (the definition, unoptimised)."""
    ws = worlds(hand, pool, k, declarer)

    def win(history: tuple[int, ...], live: tuple[int, ...]) -> bool:
        states = {i: replay(ws[i][0], history) for i in live}
        some = states[live[0]]
        assert some is not None
        hs, leader, trick, winners = some
        if declarer in winners:
            return False
        if not any(hs):
            return True
        seat = (leader + len(trick)) % 3
        if seat == declarer:
            return any(win((*history, c), live) for c in legal(hs[seat], trick))
        by_card: dict[int, list[int]] = {}
        for i in live:
            st = states[i]
            assert st is not None
            for c in legal(st[0][seat], trick):
                by_card.setdefault(c, []).append(i)
        return all(win((*history, c), tuple(sub)) for c, sub in by_card.items())

    return win((), tuple(range(len(ws))))


def declarer_strategies(hand: int, pool: int, k: int, declarer: int) -> Iterator[dict[tuple[int, ...], int]]:
    """Every declarer strategy, as a map from each history where he must choose to his card.

    Only histories reachable under the strategy itself are assigned, so the
    enumeration is finite and complete for small games.
    """
    ws = worlds(hand, pool, k, declarer)

    def next_decisions(history: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Histories after *history* where the declarer must play next (game not over), over all worlds and defender lines."""
        out: set[tuple[int, ...]] = set()

        def walk(h: tuple[int, ...], w: World) -> None:
            st = replay(w[0], h)
            if st is None:
                return
            hs, leader, trick, winners = st
            if declarer in winners or not any(hs):
                return
            seat = (leader + len(trick)) % 3
            if seat == declarer:
                out.add(h)
                return
            for c in legal(hs[seat], trick):
                walk((*h, c), w)

        for w in ws:
            walk(history, w)
        return sorted(out)

    def choices(history: tuple[int, ...]) -> list[int]:
        for w in ws:
            st = replay(w[0], history)
            if st is not None:
                hs, _leader, trick, _ = st
                return legal(hs[declarer], trick)
        return []

    def expand(frontier: list[tuple[int, ...]]) -> Iterator[dict[tuple[int, ...], int]]:
        if not frontier:
            yield {}
            return
        h, rest = frontier[0], frontier[1:]
        for c in choices(h):
            for tail in expand(rest + next_decisions((*h, c))):
                yield {h: c, **tail}

    yield from expand(next_decisions(()))


def strategy_wins(strategy: dict[tuple[int, ...], int], hand: int, pool: int, k: int, declarer: int) -> bool:
    """True when *strategy* keeps the declarer trickless in every world against every defender line."""
    for w in worlds(hand, pool, k, declarer):
        def safe(h: tuple[int, ...]) -> bool:
            st = replay(w[0], h)  # noqa: B023 (safe() runs within this iteration only)
            assert st is not None
            hs, leader, trick, winners = st
            if declarer in winners:
                return False
            if not any(hs):
                return True
            seat = (leader + len(trick)) % 3
            if seat == declarer:
                return safe((*h, strategy[h]))
            return all(safe((*h, c)) for c in legal(hs[seat], trick))
        if not safe(()):
            return False
    return True


def honest_by_strategies(hand: int, pool: int, k: int, declarer: int) -> bool:
    """Is there a declarer strategy that wins in every world?  Tries every strategy."""
    return any(strategy_wins(s, hand, pool, k, declarer) for s in declarer_strategies(hand, pool, k, declarer))
