"""What the bidding says about a seat's cards: a bidding model and the likelihood of an auction.

The model (docs/inference.md has the full account and its limits):

* **Win chance.**  For each contract *G* (the four suits, grand, null) a
  seat's ten dealt cards get ``p_G``, the chance that it wins *G* after
  picking up the skat.  ``p_G`` is a logistic function of a few counts a
  player makes (:func:`hand_features`: trumps, jacks, aces, tens, voids, the
  null ladder), calibrated on random deals against the double-dummy result
  of playing *G* with a random skat picked up and discarded by
  :func:`skatdd.tools.generate.evaluate_contract` (``benchmarks/fit_bidding_model.py``
  reproduces the coefficients :data:`COEFFICIENTS`).
* **Which games a seat would play.**  A seat is willing to play *G* with
  probability ``a_G = sigmoid(SHARPNESS * (logit p_G - logit THRESHOLD))``,
  independently for each contract: a seat plays the games it wins more often
  than :data:`THRESHOLD`, with a judgement that blurs near it.
* **How high it bids.**  A seat's limit *L* is the highest value of a game it
  would play (:func:`game_value`: the ten cards' matadors plus one, times the
  base value; null 23), 0 when it would play none.  So
  ``P(L >= B) = 1 - prod(1 - a_G for G with value >= B)``.
* **What the auction shows** (:func:`bid_intervals`): a seat that said or
  held *lo* has ``L >= lo``; a seat that passed when it should hold *v*, or
  instead of saying the next bid *v*, has ``L < v``.  The likelihood of a
  seat's bidding is ``P(lo <= L < hi) = P(L >= lo) - P(L >= hi)``.  The
  declarer also showed that he would play the game he declared: his
  likelihood is ``a_G * P(L >= lo | G playable)`` (``1`` when the declared
  game is worth *lo* by itself).
* **Robustness.**  Every likelihood is mixed with :data:`FLOOR` (``(1 -
  FLOOR) * model + FLOOR``) so that a world the model finds impossible keeps
  a little weight: a model is never exactly right.

The likelihood of a world (:func:`auction_likelihood`) is the product over
the seats other than the viewer.

>>> from skatdd.core.cards import mask_of, parse_cards
>>> strong = mask_of(parse_cards("CJ SJ HJ DJ CA CT CK SA ST HA"))
>>> weak = mask_of(parse_cards("C7 C8 S7 S8 H7 H9 HQ D7 D8 DQ"))
>>> bid_intervals([(1, "18"), (0, "y"), (1, "p"), (2, "p")])[1]
(18, 20)
>>> seat_likelihood(weak, 0, 18, forehand=False) > seat_likelihood(strong, 0, 18, forehand=False)
True
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

from skatdd.analysis.deals.evaluation import null_danger as _null_danger
from skatdd.core.cards import ACE, CJ, JACK, SJ, TEN, Mask
from skatdd.core.errors import DealFormatError, quote
from skatdd.core.rules import ALL_GAMES, JACKS, Game, suit_mask, trump_mask
from skatdd.core.scoring import BASE_VALUES, NULL_VALUES, matadors

__all__ = [
    "BID_VALUES",
    "COEFFICIENTS",
    "FLOOR",
    "SHARPNESS",
    "THRESHOLD",
    "Auction",
    "auction_likelihood",
    "auction_weigher",
    "bid_intervals",
    "game_value",
    "hand_features",
    "limit_at_least",
    "play_chance",
    "seat_likelihood",
    "win_chance",
]

#: Every value a bid can take (some suit, grand or null game's value), from 18 up.
BID_VALUES: tuple[int, ...] = tuple(sorted(
    {base * m for base in BASE_VALUES.values() for m in range(2, 19) if base * m >= 18}
    | set(NULL_VALUES.values())
))

#: The win chance at which a seat is as likely as not to play a game.
THRESHOLD = 0.5
#: How sharply the willingness to play turns at :data:`THRESHOLD` (1: ``a_G == p_G``; large: a hard cut).
SHARPNESS = 2.0
#: Weight kept by a seat's bidding that the model finds impossible (a model is never exactly right).
FLOOR = 0.02

#: Feature names per family, in :func:`hand_features` order (the first is the intercept).
FEATURES: dict[str, tuple[str, ...]] = {
    "suit": ("one", "trumps", "jacks", "club_jack", "spade_jack", "trump_ace_ten", "side_aces",
             "side_tens_with_ace", "bare_tens", "voids", "forehand"),
    "grand": ("one", "jacks", "club_jack", "spade_jack", "aces", "tens_with_ace", "bare_tens",
              "solid_length", "voids", "forehand"),
    "null": ("one", "danger", "high_cards", "sevens", "voids", "forehand"),
}

#: Logistic coefficients per family, fitted by ``python benchmarks/fit_bidding_model.py --samples 6000 --seed 1``
#: (6,000 random deals per family; mean log-likelihood against the base rate's: suit -0.42 / -0.62,
#: grand -0.31 / -0.47, null -0.60 / -0.67; predicted and observed win rates agree within 0.03 in every fifth).
COEFFICIENTS: dict[str, tuple[float, ...]] = {
    "suit": (-11.159, 1.382, 0.620, 0.799, 0.560, 0.558, 1.624, 0.744, 0.461, 0.287, 0.484),
    "grand": (-8.756, 1.609, 0.960, 0.190, 1.794, 0.828, 0.639, 0.221, 0.400, 0.754),
    "null": (-0.958, -0.224, -0.091, 0.708, 0.281, 0.252),
}

_SUITS = tuple(suit_mask(s) & ~JACKS for s in range(4))
_ACES = tuple(s * 8 + ACE for s in range(4))
_TENS = tuple(s * 8 + TEN for s in range(4))


def _family(game: Game) -> str:
    """``'suit'``, ``'grand'`` or ``'null'``."""
    return "null" if game.is_null else "grand" if game == Game.GRAND else "suit"


def hand_features(hand: Mask, game: Game, *, forehand: bool) -> tuple[float, ...]:
    """The counts the win chance of *game* rests on, for ten cards *hand* (:data:`FEATURES` names them).

    Suit: trumps (jacks included), jacks, the club and spade jack, the trump
    ace and ten, side aces, side tens with their ace, tens without it, void
    side suits.  Grand: jacks, the club and spade jack, aces, tens with their
    ace, tens without, cards beyond three in suits headed by ace and ten,
    voids.  Null: the danger of the four suits
    (:func:`skatdd.tools.generate._null_danger`, how far the cards sit above the
    safe ladder 7 9 J K), the aces, kings and queens, the sevens, voids.
    Every family ends with forehand (1 or 0), who leads the first trick.
    """
    fh = 1.0 if forehand else 0.0
    if game.is_null:
        danger = voids = high = sevens = 0
        for s in range(4):
            # Null order 7 8 9 10 J Q K A is the card encoding's rank order (one table row per suit's cards).
            void, suit_danger, suit_high, seven = _NULL_SUIT[hand >> (s * 8) & 0xFF]
            voids += void
            danger += suit_danger
            high += suit_high
            sevens += seven
        return (1.0, float(danger), float(high), float(sevens), float(min(voids, 2)), fh)
    jacks = hand & JACKS
    n_jacks = jacks.bit_count()
    cj, sj = float(jacks >> CJ & 1), float(jacks >> SJ & 1)
    trump = -1 if game == Game.GRAND else int(game)
    aces = tens_with = bare = voids = solid = 0
    for s in range(4):
        if s == trump:
            continue
        void, ace, with_ace, bare_ten, long = _SIDE_SUIT[hand >> (s * 8) & _NO_JACK]
        voids += void
        aces += ace
        tens_with += with_ace
        bare += bare_ten
        solid += long
    if game == Game.GRAND:
        return (1.0, float(n_jacks), cj, sj, float(aces), float(tens_with), float(bare), float(solid),
                float(voids), fh)
    trumps = (hand & (JACKS | suit_mask(int(game)))).bit_count()
    trump_top = float((hand >> _ACES[int(game)] & 1) + (hand >> _TENS[int(game)] & 1))
    return (1.0, float(trumps), float(n_jacks), cj, sj, trump_top, float(aces), float(tens_with), float(bare),
            float(voids), fh)


#: One suit's eight rank bits without its jack.
_NO_JACK = 0xFF & ~(1 << JACK)


def _side_suit(cards: int) -> tuple[int, int, int, int, int]:
    """A side suit's (void, ace, ten with its ace, ten without, cards beyond three under ace and ten)."""
    if not cards:
        return 1, 0, 0, 0, 0
    ace, ten = cards >> ACE & 1, cards >> TEN & 1
    length = cards.bit_count()
    return 0, ace, ace & ten, ten & (ace ^ 1), length - 3 if ace and ten and length > 3 else 0


def _null_suit(cards: int) -> tuple[int, int, int, int]:
    """A null suit's (void, danger, aces kings and queens, seven)."""
    return (int(not cards), _null_danger([r for r in range(8) if cards >> r & 1]),
            sum(cards >> r & 1 for r in (5, 6, 7)), cards & 1)


#: :func:`hand_features`' per-suit counts for every pattern of a suit's cards (the features sum them).
_SIDE_SUIT = tuple(_side_suit(cards) for cards in range(256))
_NULL_SUIT = tuple(_null_suit(cards) for cards in range(256))


def _sigmoid(x: float) -> float:
    """The logistic function, safe for large |x|."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def win_chance(hand: Mask, game: Game, *, forehand: bool) -> float:
    """``p_G``: the calibrated chance that ten cards *hand* win *game* after picking up the skat."""
    coefs = COEFFICIENTS[_family(game)]
    return _sigmoid(sum(c * f for c, f in zip(coefs, hand_features(hand, game, forehand=forehand), strict=True)))


def play_chance(p_win: float) -> float:
    """``a_G``: the chance a seat plays a game it wins with chance *p_win* (module docstring)."""
    p = min(max(p_win, 1e-12), 1 - 1e-12)
    t = THRESHOLD
    return _sigmoid(SHARPNESS * (math.log(p / (1 - p)) - math.log(t / (1 - t))))


def game_value(hand: Mask, game: Game, *, hand_game: bool = False) -> int:
    """The value a seat counts for *game* with ten cards *hand* when bidding: (matadors + 1) x base; null 23.

    The matadors are counted on the ten cards (the skat is unknown when
    bidding); *hand_game* adds the hand level (null: 35).
    """
    if game.is_null:
        return NULL_VALUES[False, hand_game]
    trumps = _TRUMPS[game]
    return (_tops(game, hand & trumps) + 1 + int(hand_game)) * BASE_VALUES[game]


#: Each suit and grand game's trumps (a mask), looked up for every pool world.
_TRUMPS = {game: trump_mask(game) for game in ALL_GAMES if not game.is_null}


@functools.lru_cache(maxsize=1 << 14)
def _tops(game: Game, trumps: Mask) -> int:
    """The matadors (with or without) of ten cards holding the trumps *trumps*: they depend on nothing else."""
    # scoring.matadors counts twelve cards: any twelve with these trumps and no other (the two added are the
    # lowest non-trumps, ten of which at least are free) give the ten cards' count.
    free = ~_TRUMPS[game] & 0xFFFFFFFF
    others = 0
    while others.bit_count() < 12 - trumps.bit_count():
        low = free & -free
        others |= low
        free ^= low
    return abs(matadors(game, trumps | others))


class _Games(NamedTuple):
    """One hand's contracts: their bidding values and the chances the seat plays each."""

    values: tuple[int, ...]
    plays: tuple[float, ...]


class _Linear(NamedTuple):
    """One contract's logit of :func:`win_chance` as sums of table entries (:func:`_linear`)."""

    const: float
    forehand: float
    jacks: tuple[float, ...]
    suits: tuple[tuple[float, ...], ...]
    voids: float


def _linear(game: Game) -> _Linear:
    """*game*'s logistic model regrouped: a constant, a term per pattern of the four jacks, one per suit's byte.

    Every feature of :func:`hand_features` is a sum over the four suits'
    cards and the jacks (null's voids, capped at two, aside), so the logit
    is ``const + forehand * fh + jacks[nibble] + sum(suits[s][byte s])``
    (null: ``+ voids * min(void suits, 2)``), equal to the dot product up
    to rounding.
    """
    coefs = dict(zip(FEATURES[_family(game)], COEFFICIENTS[_family(game)], strict=True))
    c = coefs.get
    jacks = []
    for nib in range(16):
        nj, cj, sj = nib.bit_count(), nib >> (CJ // 8) & 1, nib >> (SJ // 8) & 1
        if game.is_null:
            jacks.append(0.0)
        else:
            jacks.append((c("trumps", 0.0) + c("jacks", 0.0)) * nj + c("club_jack", 0.0) * cj
                         + c("spade_jack", 0.0) * sj)
    suits = []
    for s in range(4):
        row = []
        for byte in range(256):
            if game.is_null:
                _, danger, high, seven = _NULL_SUIT[byte]
                row.append(c("danger", 0.0) * danger + c("high_cards", 0.0) * high + c("sevens", 0.0) * seven)
                continue
            b = byte & _NO_JACK
            if game != Game.GRAND and s == int(game):
                row.append(c("trumps", 0.0) * b.bit_count()
                           + c("trump_ace_ten", 0.0) * ((b >> ACE & 1) + (b >> TEN & 1)))
                continue
            void, ace, with_ace, bare_ten, long = _SIDE_SUIT[b]
            row.append(c("voids", 0.0) * void + c("side_aces", 0.0) * ace + c("aces", 0.0) * ace
                       + c("side_tens_with_ace", 0.0) * with_ace + c("tens_with_ace", 0.0) * with_ace
                       + c("bare_tens", 0.0) * bare_ten + c("solid_length", 0.0) * long)
        suits.append(tuple(row))
    return _Linear(c("one", 0.0), c("forehand", 0.0), tuple(jacks), tuple(suits),
                   c("voids", 0.0) if game.is_null else 0.0)


_LINEAR = tuple(_linear(g) for g in ALL_GAMES)
_Row = tuple[float, tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...], float]
#: :data:`_LINEAR` flattened for :func:`_games`' loop, per forehand (False, True): its term in the constant.
_FLAT: tuple[tuple[_Row, ...], ...] = tuple(
    tuple((lin.const + (lin.forehand if fh else 0.0), lin.jacks, lin.suits[0], lin.suits[1], lin.suits[2], lin.suits[3],
           lin.voids) for lin in _LINEAR)
    for fh in (False, True))
#: The logit of :func:`play_chance`'s clipped win chance, at either end.
_LOGIT_CLIP = math.log((1 - 1e-12) / 1e-12)
_LOGIT_THRESHOLD = math.log(THRESHOLD / (1 - THRESHOLD))


@functools.lru_cache(maxsize=1 << 16)
def _games(hand: Mask, forehand: bool) -> _Games:
    """:func:`game_value` and :func:`play_chance` of every contract, in :data:`skatdd.core.rules.ALL_GAMES` order.

    Cached: a pure function of the ten cards, asked again for the same hand
    in many worlds of a decision and in every decision of a game.  The win
    chances' logits come from the regrouped tables (:func:`_linear`), several
    times faster than the features one by one and equal up to rounding
    (tests/test_inference.py compares them).
    """
    b0, b1, b2, b3 = hand & 0xFF, hand >> 8 & 0xFF, hand >> 16 & 0xFF, hand >> 24 & 0xFF
    nib = (hand >> 4 & 1) | (hand >> 11 & 2) | (hand >> 18 & 4) | (hand >> 25 & 8)
    voids = min((not b0) + (not b1) + (not b2) + (not b3), 2)
    exp = math.exp
    plays = []
    for const, jacks, s0, s1, s2, s3, void in _FLAT[forehand]:
        x = const + jacks[nib] + s0[b0] + s1[b1] + s2[b2] + s3[b3] + void * voids
        # play_chance(sigmoid(x)): logit(sigmoid(x)) is x, clipped as play_chance clips the chance; |exponent| < 60.
        x = -_LOGIT_CLIP if x < -_LOGIT_CLIP else _LOGIT_CLIP if x > _LOGIT_CLIP else x
        plays.append(1.0 / (1.0 + exp(-SHARPNESS * (x - _LOGIT_THRESHOLD))))
    values = []
    for game, trumps, seen in _VALUES:
        if seen is None:
            values.append(NULL_VALUES[False, False])
            continue
        key = hand & trumps
        value = seen.get(key)
        if value is None:
            value = seen[key] = game_value(hand, game)
        values.append(value)
    return _Games(tuple(values), tuple(plays))


#: Per contract (in ALL_GAMES order): its trumps and the bidding values seen per holding of them (null: None).
_VALUES: tuple[tuple[Game, Mask, dict[Mask, int] | None], ...] = tuple(
    (g, 0, None) if g.is_null else (g, trump_mask(g), {}) for g in ALL_GAMES)


def limit_at_least(hand: Mask, value: int | None, *, forehand: bool) -> float:
    """``P(L >= value)``: the chance that a seat with ten cards *hand* bids at least *value*.

    *value* 0 gives 1; ``None`` (no upper end) gives 0.
    """
    return _at_least(_games(hand, forehand), value)


def _at_least(games: _Games, value: int | None) -> float:
    if value is None:
        return 0.0
    if value <= 0:
        return 1.0
    none = 1.0
    for v, a in zip(games.values, games.plays, strict=True):
        if v >= value:
            none *= 1.0 - a
    return 1.0 - none


def seat_likelihood(hand: Mask, lo: int, hi: int | None, *, forehand: bool, declared: Game | None = None,
                    hand_game: bool = False) -> float:
    """How likely a seat with ten cards *hand* bid as it did: ``P(lo <= L < hi)`` (``hi`` ``None``: no end).

    For the declarer pass the *declared* contract: then the likelihood is
    ``a_G * P(L >= lo | G playable)``, with ``P(L >= lo | G playable) = 1``
    when the declared game is worth *lo* (*hand_game* counts the hand
    level) and ``P(L >= lo)`` otherwise (the contracts are judged
    independently).  Mixed with :data:`FLOOR`.
    """
    games = _games(hand, forehand)
    if declared is None:
        model = max(0.0, _at_least(games, lo) - _at_least(games, hi))
    else:
        i = ALL_GAMES.index(declared)
        reached = 1.0 if game_value(hand, declared, hand_game=hand_game) >= lo else _at_least(games, lo)
        model = games.plays[i] * reached
    return (1.0 - FLOOR) * model + FLOOR


def _next_bid(value: int) -> int:
    """The bid value after *value* (18 after nothing); 264 and up have none, so ``value + 1``."""
    return next((v for v in BID_VALUES if v > value), value + 1)


def bid_intervals(bids: Sequence[tuple[int, str]]) -> dict[int, tuple[int, int | None]]:
    """Per seat that made a bidding move, ``(lo, hi)``: its limit is at least *lo* and below *hi*.

    *bids* are the auction's moves in order, as ISS records write them:
    ``(seat, "18")`` a bid said, ``(seat, "y")`` a hold, ``(seat, "p")`` a
    pass.  *lo* is the highest value the seat said or held (0 for none);
    *hi* the value it refused: the bid it passed on as listener, or the next
    bid value when it passed instead of saying one; ``None`` when it never
    passed.  Raises :class:`~skatdd.core.errors.DealFormatError` for a move that
    is no bid, hold or pass, or a bid that does not exceed the one before.
    """
    lo: dict[int, int] = {}
    hi: dict[int, int | None] = {}
    highest = 0
    previous: tuple[int, str] | None = None
    for seat, move in bids:
        if seat not in (0, 1, 2):
            raise DealFormatError(f"bidding move by seat {quote(seat)}: expected seat 0, 1 or 2")
        lo.setdefault(seat, 0)
        hi.setdefault(seat, None)
        if move == "y":
            lo[seat] = max(lo[seat], highest)
        elif move == "p":
            answering = previous is not None and previous[0] != seat and previous[1].isascii() and previous[1].isdigit()
            hi[seat] = highest if answering else _next_bid(highest)
        elif move.isascii() and move.isdigit():
            value = int(move)
            if value <= highest:
                raise DealFormatError(f"bid {quote(move)} does not exceed the previous bid {highest}")
            highest = value
            lo[seat] = value
        else:
            raise DealFormatError(f"bidding move {quote(move)}: expected a number, 'y' or 'p'")
        previous = (seat, move)
    return {seat: (lo[seat], hi[seat]) for seat in lo}


class Auction(NamedTuple):
    """What the bidding showed: each bidding seat's ``(lo, hi)`` (:func:`bid_intervals`), the declarer and game.

    ``hand_game`` says the declarer did not pick up the skat: then his ten
    cards are his dealt cards; otherwise they are the ten he played with (the
    model then judges them as if dealt, which overrates his dealt hand a
    little, so it asks a little less of it).
    """

    intervals: dict[int, tuple[int, int | None]]
    declarer: int
    game: Game
    hand_game: bool

    @classmethod
    def of(cls, bids: Sequence[tuple[int, str]], declarer: int, game: Game, hand_game: bool) -> Auction:
        """The auction of these *bids* won by *declarer*, who declared *game*."""
        return cls(bid_intervals(bids), declarer, game, hand_game)


def auction_likelihood(auction: Auction, hands: Sequence[Mask], seats: Sequence[int]) -> float:
    """The product over *seats* of :func:`seat_likelihood`, each with its ten cards ``hands[seat]``.

    A seat without a bidding move (an auction not recorded) contributes 1.
    """
    weight = 1.0
    for seat in seats:
        if seat not in auction.intervals:
            continue
        lo, hi = auction.intervals[seat]
        declared = auction.game if seat == auction.declarer else None
        weight *= seat_likelihood(hands[seat], lo, None if declared is not None else hi, forehand=seat == 0,
                                  declared=declared, hand_game=auction.hand_game)
    return weight


def _weigher_specs(auction: Auction, seats: Sequence[int]) -> list[tuple[int, bool, int, int | None, int]]:
    """Per seat of *seats* that bid: ``(seat, forehand, lo, hi, declared contract's index or -1)``."""
    specs = []
    for seat in seats:
        if seat in auction.intervals:
            lo, hi = auction.intervals[seat]
            declared = ALL_GAMES.index(auction.game) if seat == auction.declarer else -1
            specs.append((seat, seat == 0, lo, hi, declared))
    return specs


def auction_weigher(auction: Auction, seats: Sequence[int], *, floor: float = FLOOR) -> Callable[[Sequence[Mask]], float]:
    """``hands -> auction_likelihood(auction, hands, seats)``, the auction read once for many worlds.

    The same products in the same order as :func:`auction_likelihood`, so
    the same floats; each world then costs the cached model of its hands
    and a few multiplications.  *floor* 0: the model's likelihood alone,
    unmixed (how well a world explains the auction, the floor's weight for
    the impossible aside).
    """
    specs = _weigher_specs(auction, seats)
    game, hand_game = auction.game, auction.hand_game

    def weigh(hands: Sequence[Mask]) -> float:
        weight = 1.0
        for seat, forehand, lo, hi, declared in specs:
            games = _games(hands[seat], forehand)
            if declared < 0:
                model = max(0.0, _at_least(games, lo) - _at_least(games, hi))
            else:
                value = game_value(hands[seat], game, hand_game=True) if hand_game else games.values[declared]
                model = games.plays[declared] * (1.0 if value >= lo else _at_least(games, lo))
            weight *= (1.0 - floor) * model + floor
        return weight

    return weigh

