"""The ``heuristic`` player: card play by rules from common Skat advice, without search or randomness.

It sees only its :class:`~skatdd.play.state.PlayerState`.  What another
seat *may hold* is what the state's view allows: its open cards (ouvert),
or any unseen card of a suit it has not shown void in.  A card is *sure*
when no card an opponent still to play in the trick may hold beats it, the
opponent following suit unless he has shown void in it (then he may trump).
*Cheapest* means fewest card points, then lowest in the game's order.

Suit and grand, the declarer
    D1. Draw trumps: leading, while the defenders may still hold trumps and
        he holds more trumps than they may hold together, he leads a trump:
        the highest when it is sure, else the lowest (to drive out the
        higher ones).
    D2. Cash aces: leading, he plays a sure ace or ten of a side suit that
        no defender has shown void in (a void defender could trump it).
    D3. Otherwise he leads the lowest card of his shortest side suit (to
        void it and trump it later), his lowest trump when he holds no side
        card.
    D4. Last to a trick, he takes it when he can, with the lowest card that
        wins (it keeps the high trumps for later and wins that card's
        points too).  Second to a trick, he plays the lowest sure winner
        when he has one.
    D5. Otherwise he plays his cheapest card.

Suit and grand, a defender
    F1. Leading, he cashes a sure ace or ten of a side suit the declarer
        has not shown void in.
    F2. Leading through the declarer (the declarer plays next) he leads his
        shortest side suit; leading up to the declarer (the declarer plays
        last) his longest; the lowest card of it, and a suit whose lowest
        card is an ace or ten only when no other is left ("short through
        the declarer, long up to him").  With trumps only, his lowest trump.
    F3. Smear: when his partner wins the trick and it is sure (the declarer
        has played, or cannot beat the partner's card), he adds his card
        with the most points, a ten before an ace (an ace may still win a
        trick of its own, a ten is often caught).
    F4. When the declarer wins the trick so far: last to play, he takes it
        with his lowest winning card; second to play he does too, but
        trumps a trick only when it holds card points.  When his partner
        wins but not surely, he takes over with his lowest sure winner.
    F5. Otherwise he plays his cheapest card, but keeps a ten guarded: he
        does not throw the last card beside a ten whose ace is still out.

Null, the declarer (who must take no trick)
    N1. Duck: following suit, he plays his highest card that still loses to
        the card winning the trick; when every card he may play wins, his
        lowest if a defender plays after him (who may still go over it),
        else his highest (the trick is lost anyway).
    N2. Void in the led suit, he throws his highest card, the most
        dangerous one.
    N3. Leading, he leads a card a defender may still beat, a low singleton
        first (it cannot be led to later), else the card with the most
        higher cards out in its suit.

Null, a defender (who wants the declarer to take a trick)
    N4. Leading, he leads his lowest card of a suit the declarer has not
        shown void in (low leads force the declarer's high cards), from his
        longest such suit on a tie.
    N5. Following after the declarer has played: when the declarer wins the
        trick so far, he stays under his card with his highest card below
        it; else (or when he cannot stay under) he throws his highest card.
    N6. Following before the declarer: he plays his lowest card, so that
        the declarer must go over it; void, he throws his highest card.
"""
from __future__ import annotations

from collections.abc import Sequence

from skatdd.core.cards import ACE, CARD_POINTS, TEN, Card, Mask, cards_of
from skatdd.core.rules import Game, follow_group, group_mask, power, trick_winner, trump_mask

from .state import PlayerState

__all__ = ["HeuristicPlayer", "cheapest"]

#: Card points above which a card counts as a cashing card (an ace or a ten).
CASH_POINTS = 10


def cheapest(cards: Sequence[Card], game: Game) -> Card:
    """The card of *cards* to give up among equals: fewest card points, then the lowest in *game*'s order."""
    return min(cards, key=lambda card: (CARD_POINTS[card], power(card, game), card))


class _Table:
    """What the seat to move knows about the others' cards, and helpers on the trick (module docstring)."""

    def __init__(self, state: PlayerState) -> None:
        self.state = state
        self.game = state.game
        self.trumps = trump_mask(state.game)
        view = state.view
        self.may_hold: list[Mask] = [
            state.hand.mask if seat == state.seat else view.known[seat] | (view.unseen & ~view.banned[seat])
            for seat in range(3)
        ]
        self.after = [(state.seat + i) % 3 for i in range(1, 3 - len(state.trick))]  # seats still to play
        self.opponents = [s for s in range(3) if s != state.seat and (state.is_declarer or s == state.declarer)]
        self.out = 0  # cards the others may still play
        for seat in range(3):
            if seat != state.seat:
                self.out |= self.may_hold[seat]

    # -- the trick ------------------------------------------------------------

    def wins_now(self, card: Card) -> bool:
        """*card* would win the trick as it stands."""
        trick = list(self.state.trick)
        return not trick or trick_winner(trick + [card], self.game) == len(trick)

    def winner_seat(self) -> int:
        """The seat whose card wins the trick so far (the trick is not empty)."""
        trick = self.state.trick
        return (self.state.leader + trick_winner(list(trick), self.game)) % 3

    def may_play(self, seat: int, led: Card) -> Mask:
        """Cards *seat* may play to a trick led by *led*: its cards of the led group while it may hold one (a ruff is
        feared only from a shown void: then the group is none of the cards it may hold), else any card it may hold."""
        held = self.may_hold[seat]
        follow = held & group_mask(follow_group(led, self.game), self.game)
        return follow if follow else held

    def stays(self, trick: list[Card], seats: list[int]) -> bool:
        """The card winning *trick* still wins after every card the *seats* may play to it."""
        best = trick_winner(trick, self.game)
        for seat in seats:
            for other in cards_of(self.may_play(seat, trick[0])):
                if trick_winner([*trick, other], self.game) != best:
                    return False
        return True

    def sure(self, card: Card, against: list[int] | None = None) -> bool:
        """*card*, played now, would win the trick after every opponent still to play (or the seats *against*)."""
        trick = list(self.state.trick) + [card]
        if trick_winner(trick, self.game) != len(trick) - 1:
            return False
        return self.stays(trick, [s for s in self.after if s in self.opponents] if against is None else against)

    def sure_lead(self, card: Card) -> bool:
        """*card*, led now, beats every card an opponent may hold of its group or trumps (no ruff counted)."""
        return self.sure(card, self.opponents)

    # -- card lists -------------------------------------------------------------

    def low(self, cards: list[Card]) -> Card:
        """The lowest of *cards* in the game's order."""
        return min(cards, key=lambda c: (power(c, self.game), c))

    def high(self, cards: list[Card]) -> Card:
        """The highest of *cards* in the game's order."""
        return max(cards, key=lambda c: (power(c, self.game), -c))

    def cheapest(self, cards: list[Card]) -> Card:
        """Fewest card points, then the lowest in the game's order (:func:`cheapest`)."""
        return cheapest(cards, self.game)

    def suit_cards(self, card: Card) -> list[Card]:
        """My cards of *card*'s follow group."""
        return cards_of(self.state.hand.mask & group_mask(follow_group(card, self.game), self.game))

    def side_suits(self) -> dict[int, list[Card]]:
        """My non-trump cards by printed suit."""
        suits: dict[int, list[Card]] = {}
        for card in cards_of(self.state.hand.mask & ~self.trumps):
            suits.setdefault(card >> 3, []).append(card)
        return suits

    def void_shown(self, seat: int, card: Card) -> bool:
        """*seat* has shown void in *card*'s follow group."""
        return bool(self.state.view.banned[seat] & group_mask(follow_group(card, self.game), self.game))

    def unguards_ten(self, card: Card) -> bool:
        """Playing *card* leaves a ten alone in its suit while that suit's ace is still out (F5)."""
        if self.trumps >> card & 1:
            return False
        ten, ace = (card >> 3) * 8 + TEN, (card >> 3) * 8 + ACE
        left = self.suit_cards(card)
        return card != ten and ten in left and len(left) == 2 and bool(self.out >> ace & 1)


class HeuristicPlayer:
    """Rule-based card play (module docstring); deterministic, so *seed* is unused."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat

    def play(self, state: PlayerState) -> Card:
        """The card the rules give for *state*."""
        if len(state.legal) == 1:
            return state.legal[0]
        table = _Table(state)
        legal = list(state.legal)
        if state.game.is_null:
            if state.is_declarer:
                return _null_declarer(table, legal)
            return _null_defender(table, legal)
        if state.is_declarer:
            return _declarer(table, legal)
        return _defender(table, legal)


# --------------------------------------------------------------------------- suit and grand


def _declarer(t: _Table, legal: list[Card]) -> Card:
    state = t.state
    if not state.trick:
        mine = [c for c in legal if t.trumps >> c & 1]
        theirs = (t.may_hold[(state.seat + 1) % 3] | t.may_hold[(state.seat + 2) % 3]) & t.trumps
        if mine and theirs and len(mine) > theirs.bit_count():  # D1
            top = t.high(mine)
            return top if t.sure_lead(top) else t.low(mine)
        cash = [c for c in legal if not t.trumps >> c & 1 and CARD_POINTS[c] >= CASH_POINTS and t.sure_lead(c)
                and not any(t.void_shown(s, c) for s in t.opponents)]
        if cash:  # D2
            return max(cash, key=lambda c: (CARD_POINTS[c], c))
        suits = t.side_suits()
        if suits:  # D3
            shortest = min(suits.values(), key=lambda cards: (len(cards), min(cards)))
            return t.low(shortest)
        return t.low(legal)
    winners = [c for c in legal if t.wins_now(c)]
    if len(state.trick) == 2 and winners:  # D4, last
        return t.low(winners)
    sure = [c for c in winners if t.sure(c)]
    if sure:  # D4, second
        return t.low(sure)
    return t.cheapest(legal)  # D5


def _smear(t: _Table, legal: list[Card]) -> Card:
    """F3: the card with the most points, a ten before an ace."""
    return max(legal, key=lambda c: (CARD_POINTS[c] + (2 if c & 7 == TEN else 0), -power(c, t.game)))


def _keep_guard(t: _Table, legal: list[Card]) -> Card:
    """F5: the cheapest card that does not leave a ten unguarded (the cheapest when every card does)."""
    guarded = [c for c in legal if not t.unguards_ten(c)]
    return t.cheapest(guarded or legal)


def _defender(t: _Table, legal: list[Card]) -> Card:
    state = t.state
    declarer = state.declarer
    if not state.trick:
        cash = [c for c in legal if not t.trumps >> c & 1 and CARD_POINTS[c] >= CASH_POINTS and t.sure_lead(c)
                and not t.void_shown(declarer, c)]
        if cash:  # F1
            return max(cash, key=lambda c: (CARD_POINTS[c], c))
        suits = t.side_suits()
        if suits:  # F2
            through = declarer == (state.seat + 1) % 3
            playable = {s: cards for s, cards in suits.items() if CARD_POINTS[t.low(cards)] < CASH_POINTS} or suits
            if through:
                chosen = min(playable.values(), key=lambda cards: (len(cards), min(cards)))
            else:
                chosen = max(playable.values(), key=lambda cards: (len(cards), -min(cards)))
            return t.low(chosen)
        return t.low(legal)
    winner = t.winner_seat()
    winners = [c for c in legal if t.wins_now(c)]
    if winner != declarer:
        if declarer not in t.after or t.stays(list(state.trick), [declarer]):  # F3
            return _smear(t, legal)
        sure = [c for c in winners if t.sure(c)]
        if sure:  # F4, take over from the partner
            return t.low(sure)
        return _keep_guard(t, legal)
    if winners:  # F4
        points = sum(CARD_POINTS[c] for c in state.trick)
        led = state.trick[0]
        if len(state.trick) == 2:
            return t.low(winners)
        follows = [c for c in winners if follow_group(c, t.game) == follow_group(led, t.game)]
        if follows or points > 0:
            return t.low(follows or winners)
    return _keep_guard(t, legal)  # F5


# --------------------------------------------------------------------------- null


def _null_declarer(t: _Table, legal: list[Card]) -> Card:
    state = t.state
    if state.trick:
        led = state.trick[0]
        following = follow_group(legal[0], t.game) == follow_group(led, t.game)
        if not following:  # N2
            return t.high(legal)
        under = [c for c in legal if not t.wins_now(c)]
        if under:  # N1
            return t.high(under)
        return t.low(legal) if t.after else t.high(legal)

    def higher_out(card: Card) -> int:
        group = group_mask(follow_group(card, t.game), t.game)
        return sum(1 for c in cards_of(t.out & group) if power(c, t.game) > power(card, t.game))

    def key(card: Card) -> tuple[bool, bool, int, int]:
        beaten = any(
            c for s in t.opponents for c in cards_of(t.may_hold[s] & group_mask(follow_group(card, t.game), t.game))
            if power(c, t.game) > power(card, t.game)
        )
        return beaten, len(t.suit_cards(card)) == 1, higher_out(card), -power(card, t.game)

    return max(legal, key=key)  # N3


def _null_defender(t: _Table, legal: list[Card]) -> Card:
    state = t.state
    declarer = state.declarer
    if not state.trick:  # N4
        open_suits = [c for c in legal if not t.void_shown(declarer, c)] or legal
        return min(open_suits, key=lambda c: (power(c, t.game), -len(t.suit_cards(c)), c))
    led = state.trick[0]
    following = follow_group(legal[0], t.game) == follow_group(led, t.game)
    if declarer in t.after:  # N6
        return t.low(legal) if following else t.high(legal)
    if t.winner_seat() == declarer and following:  # N5
        under = [c for c in legal if not t.wins_now(c)]
        if under:
            return t.high(under)
    return t.high(legal)
