"""Game values and scores by the International Skat Order (ISkO).

This module is the table calculator: given what the declarer declared
(:class:`Declaration`, from :mod:`skatdd.core.declaration`, re-exported
here), the matadors, and how the play ended (card points,
tricks), :func:`score_game` returns the :class:`Score`: multiplier, game
value, who won, the plain list score and the Seeger-Fabian tournament points.

The rules followed (docs/rules.md, which follows the ISkO):

- Matadors ("Spitzen", ISkO 2.4): trumps in unbroken sequence from the club
  jack, counted over the declarer's twelve cards (hand plus skat, in hand games
  too, ISkO 2.2.1).  "With N" is ``+N``, "without N" is ``-N``; at most 11 in
  suit games, 4 in grand (ISkO 2.4.3).
- Base values (ISkO 5.1): diamonds 9, hearts 10, spades 11, clubs 12, grand 24.
  Nulls have fixed values: 23, hand 35, ouvert 46, ouvert hand 59.
- Multiplier (ISkO 5.1, winning levels ISkO 5.2): matadors + game + hand +
  schneider + schneider announced + schwarz + schwarz announced + ouvert.
  Schneider and schwarz count when reached by either party (ISkO 5.2.3,
  5.2.4); an announced level counts whether reached or not, with the levels
  it implies, and a level both announced and reached counts once (ISkO 5.2.5).
  Suit and grand ouvert are schwarz announced from the start (ISkO 5.2.6:
  clubs ouvert with 2 is 9 x 12 = 108, grand ouvert with 4 is 11 x 24 = 264).
- Winning (ISkO 5.2.2, 5.2.5, 5.2.7): 61 card points including the skat;
  schneider announced needs 90; schwarz announced or ouvert needs every trick;
  a null is won when the declarer takes no trick.
- Scoring: a won game scores its value, a lost one minus twice its value
  (nulls included).
- Overbidding (ISkO 5.4, 5.4.2): a game whose value, computed after the play,
  is below the bid is lost whatever the card points; it is charged the
  smallest multiple of its base value that reaches the bid, lost double.  A
  null's value is fixed, so a null below the bid cannot be declared.
- Seeger-Fabian (tournament) scoring: the declarer gets +50 for a won game and
  -50 for a lost one on top of the score; each defender gets 40 when the
  declarer loses (three-player table).

>>> decl = Declaration.from_options(Game.CLUBS, hand=True, announce=["schwarz"])
>>> score_game(decl, matadors=3, points=120, tricks=10).score
108
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import ACE, CJ, DJ, EIGHT, HJ, KING, NINE, QUEEN, SEVEN, SJ, TEN, CardSet, Mask, cards_of, format_cards
from .declaration import ANNOUNCEMENTS, Declaration, require_game
from .errors import CardCountError, ScoringError, plural, quote
from .printable import Printable
from .rules import SCHNEIDER_POINTS, SCHNEIDERED_POINTS, WIN_POINTS, Game

__all__ = [
    "ANNOUNCEMENTS",
    "BASE_VALUES",
    "MAX_BID",
    "MIN_BID",
    "NULL_VALUES",
    "SEEGER_DEFENDER",
    "SEEGER_WIN",
    "Declaration",
    "Score",
    "base_value",
    "matadors",
    "null_value",
    "score_game",
    "trump_order",
]

#: Base values of suit and grand games (ISkO 5.1).
BASE_VALUES: dict[Game, int] = {
    Game.DIAMONDS: 9, Game.HEARTS: 10, Game.SPADES: 11, Game.CLUBS: 12, Game.GRAND: 24,
}

#: Fixed null values keyed by ``(ouvert, hand)`` (ISkO 5.1).
NULL_VALUES: dict[tuple[bool, bool], int] = {
    (False, False): 23, (False, True): 35, (True, False): 46, (True, True): 59,
}

#: The lowest bid (ISkO 3.3.1: diamonds with or without 1, game).
MIN_BID = 18

#: The highest bid: the highest game value, grand ouvert with or without four (4 matadors + game, hand,
#: schneider, schneider announced, schwarz, schwarz announced, ouvert = 11) x 24 = 264.  No game is worth
#: more (a suit tops out at 18 x 12 = 216), so no higher bid can be won without being overbid.
MAX_BID = 11 * BASE_VALUES[Game.GRAND]

#: Seeger-Fabian: points added for a won game (subtracted for a lost one).
SEEGER_WIN = 50
#: Seeger-Fabian: points to each defender when the declarer loses (three-player table).
SEEGER_DEFENDER = 40

_SUIT_RANKS_HIGH_TO_LOW = (ACE, TEN, KING, QUEEN, NINE, EIGHT, SEVEN)
_JACKS_HIGH_TO_LOW = (CJ, SJ, HJ, DJ)


def trump_order(game: Game) -> tuple[int, ...]:
    """Trumps of *game* from highest to lowest: 11 in a suit game, the 4 jacks in grand, none in null."""
    game = require_game(game)
    if game.is_null:
        return ()
    if game == Game.GRAND:
        return _JACKS_HIGH_TO_LOW
    suit = int(game)
    return _JACKS_HIGH_TO_LOW + tuple(suit * 8 + rank for rank in _SUIT_RANKS_HIGH_TO_LOW)


def matadors(game: Game, twelve: Mask | CardSet) -> int:
    """Matadors (tops, "Spitzen", ISkO 2.4) of the declarer's twelve cards.

    *twelve* is the mask (or :class:`~skatdd.core.cards.CardSet`) of the
    declarer's ten cards plus the skat (in hand games too: the skat belongs to
    the declarer, ISkO 2.2.1).  Trumps are counted from the club jack down
    (suit games: CJ SJ HJ DJ A T K Q 9 8 7 of the trump suit; grand: the four
    jacks).  Returns ``+N`` when the declarer holds the top N trumps in
    unbroken sequence ("with N"), ``-N`` when the top N trumps are all missing
    ("without N": N trumps rank above the declarer's highest), and 0 for null.
    A suit hand with no trump at all is "without 11" (``-11``); a grand
    without any jack is ``-4``.

    Raises:
        CardCountError: when *twelve* does not hold exactly 12 cards.
    """
    game = require_game(game)
    mask = twelve.mask if isinstance(twelve, CardSet) else twelve
    if isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask < 1 << 32:
        raise CardCountError(f"declarer's twelve cards {quote(twelve)}: expected a 32-bit card mask")
    if mask.bit_count() != 12:
        raise CardCountError(
            f"declarer's twelve cards {quote(format_cards(cards_of(mask)))} hold {plural(mask.bit_count(), 'card')}: "
            f"expected 12 (ten in hand plus the skat)"
        )
    if game.is_null:
        return 0
    order = trump_order(game)
    with_top = bool(mask >> order[0] & 1)
    count = 0
    for card in order:
        if bool(mask >> card & 1) != with_top:
            break
        count += 1
    return count if with_top else -count


def base_value(game: Game) -> int:
    """Base value of a suit or grand game (ISkO 5.1): D 9, H 10, S 11, C 12, G 24.

    Raises:
        ScoringError: for null, whose value is fixed (see :func:`null_value`).
    """
    game = require_game(game)
    if game.is_null:
        raise ScoringError("null has no base value: its value is fixed (23, hand 35, ouvert 46, ouvert hand 59)")
    return BASE_VALUES[game]


def null_value(decl: Declaration) -> int:
    """Fixed value of a null game (ISkO 5.1): 23, hand 35, ouvert 46, ouvert hand 59.

    Raises:
        ScoringError: when *decl* is not a null game.
    """
    if not decl.game.is_null:
        raise ScoringError(f"{quote(decl.game.label)} is not a null game: its value is base value x multiplier")
    return NULL_VALUES[decl.ouvert, decl.hand]


@dataclass(frozen=True)
class Score(Printable):
    """The outcome of a declared and played game; ``str(score)`` is ``skatdd score``'s report.

    Attributes:
        matadors: ``+N`` "with N", ``-N`` "without N", 0 for null.
        multiplier: sum of the counted levels (ISkO 5.1/5.2); 0 for null.
        game_value: value of the game as declared and played, before any
            overbid adjustment (null: the fixed value).
        declarer_wins: whether the declarer won (an overbid game is lost).
        schneider: ``'declarer'`` when the declarer has 90 or more points,
            ``'defenders'`` when the declarer has 30 or fewer, else ``None``
            (always ``None`` for null).
        schwarz: ``'declarer'`` when the declarer took all ten tricks,
            ``'defenders'`` when the declarer took none, else ``None``
            (always ``None`` for null).
        overbid: the game value fell short of the bid (ISkO 5.4).
        score: list score for the declarer: ``+game_value`` when won,
            ``-2 x game_value`` when lost, and when overbid ``-2 x`` the
            smallest multiple of the base value that reaches the bid.
        seeger: Seeger-Fabian points for the declarer: ``score + 50`` when
            won, ``score - 50`` when lost.
        seeger_defenders: Seeger-Fabian points to each defender: 40 when the
            declarer lost (three-player table), else 0.
        levels: the multiplier's parts as ``(label, count)`` pairs, e.g.
            ``(('with 2', 2), ('game', 1), ('hand', 1))``; empty for null.
            Not part of :meth:`to_json` and ignored by ``==``.
        declaration, points, tricks, bid: what :func:`score_game` was given,
            for the report; not part of :meth:`to_json`, the repr or ``==``.
    """

    matadors: int
    multiplier: int
    game_value: int
    declarer_wins: bool
    schneider: str | None
    schwarz: str | None
    overbid: bool
    score: int
    seeger: int
    seeger_defenders: int
    levels: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    declaration: Declaration | None = field(default=None, repr=False, compare=False)
    points: int | None = field(default=None, repr=False, compare=False)
    tricks: int | None = field(default=None, repr=False, compare=False)
    bid: int | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict with the keys of ``skatdd score --json`` (docs/cli.md)."""
        return {
            "matadors": self.matadors,
            "multiplier": self.multiplier,
            "game_value": self.game_value,
            "declarer_wins": self.declarer_wins,
            "schneider": self.schneider,
            "schwarz": self.schwarz,
            "overbid": self.overbid,
            "score": self.score,
            "seeger": self.seeger,
            "seeger_defenders": self.seeger_defenders,
        }


def _check_int(value: object, name: str, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError(f"{name} {quote(value)} is not an integer")
    if value < low or (high is not None and value > high):
        expected = f"{low}..{high}" if high is not None else f"at least {low}"
        raise ScoringError(f"{name} {value} is out of range: expected {expected}")
    return value


def _seeger(score: int, won: bool) -> tuple[int, int]:
    if won:
        return score + SEEGER_WIN, 0
    return score - SEEGER_WIN, SEEGER_DEFENDER


def score_game(
    decl: Declaration, *, matadors: int = 0, points: int | None = None,
    tricks: int | None = None, bid: int | None = None,
) -> Score:
    """Value and score a declared game after the play (ISkO 5).

    Args:
        decl: the declaration.
        matadors: ``+N`` with / ``-N`` without N; required for suit (1..11)
            and grand (1..4), ignored for null (see :func:`matadors`).
        points: the declarer's card points including the skat or discard,
            0..120; required for suit and grand, ignored for null.
        tricks: the declarer's tricks, 0..10.  Suit and grand: ``None`` means
            neither side is schwarz.  Null: required; the declarer wins if
            and only if it is 0.
        bid: the bid the declarer won the auction with (18..264), or
            ``None`` to skip the overbid check.

    Suit and grand: the declarer loses with 60 points or fewer, with fewer
    than 90 after announcing schneider, without every trick after announcing
    schwarz or playing ouvert (ISkO 5.2.2, 5.2.5, 5.2.6), and whenever the
    game value is below the bid (ISkO 5.4.2).

    Raises:
        ScoringError: for a missing or out-of-range argument, points and
            tricks that contradict each other (ten tricks are all 120 points;
            no trick leaves at most the skat's 22), and a null whose fixed
            value is below the bid (it cannot be declared).
    """
    if not isinstance(decl, Declaration):
        raise ScoringError(f"declaration {quote(decl)} is not a skatdd.core.scoring.Declaration")
    if bid is not None:
        bid = _check_int(bid, "bid", MIN_BID, MAX_BID)
    if tricks is not None:
        tricks = _check_int(tricks, "tricks", 0, 10)

    game = decl.game
    if game.is_null:
        return _score_null(decl, tricks, bid)

    if points is None:
        raise ScoringError(
            f"{game.label} needs the declarer's card points (0..120, skat included) to be scored"
        )
    points = _check_int(points, "points", 0, 120)
    top = 11 if game.is_suit else 4
    if isinstance(matadors, bool) or not isinstance(matadors, int):
        raise ScoringError(f"matadors {quote(matadors)} is not an integer")
    if not 1 <= abs(matadors) <= top:
        raise ScoringError(
            f"matadors {matadors} is not possible in {game.label}: expected with 1..{top} (1..{top}) "
            f"or without 1..{top} (-1..-{top})"
        )
    if tricks == 10 and points != 120:
        raise ScoringError(f"points {points} contradict tricks 10: a declarer who takes every trick has all 120 points")
    if tricks == 0 and points > 22:
        raise ScoringError(
            f"points {points} contradict tricks 0: a declarer without a trick has only the skat, at most 22 points"
        )

    schneider = "declarer" if points >= SCHNEIDER_POINTS else "defenders" if points <= SCHNEIDERED_POINTS else None
    schwarz = "declarer" if tricks == 10 else "defenders" if tricks == 0 else None

    # ISkO 5.1/5.2: matadors + game + hand + levels; announced levels count with
    # the levels they imply, and a level both reached and announced counts once.
    levels: list[tuple[str, int]] = [
        (f"with {matadors}" if matadors > 0 else f"without {-matadors}", abs(matadors)),
        ("game", 1),
    ]
    if decl.hand:
        levels.append(("hand", 1))
    if schneider is not None or decl.schneider:
        levels.append(("schneider", 1))
    if decl.schneider:
        levels.append(("schneider announced", 1))
    if schwarz is not None or decl.schwarz:
        levels.append(("schwarz", 1))
    if decl.schwarz:
        levels.append(("schwarz announced", 1))
    if decl.ouvert:
        levels.append(("ouvert", 1))
    multiplier = sum(count for _, count in levels)
    base = BASE_VALUES[game]
    game_value = base * multiplier

    overbid = bid is not None and game_value < bid
    won = (
        not overbid
        and points >= WIN_POINTS
        and (not decl.schneider or points >= SCHNEIDER_POINTS)
        and (not decl.schwarz or tricks == 10)
    )
    if overbid:
        assert bid is not None
        charged = -(-bid // base) * base  # smallest multiple of the base value reaching the bid
        score = -2 * charged
    else:
        score = game_value if won else -2 * game_value
    seeger, seeger_defenders = _seeger(score, won)
    return Score(
        matadors=matadors, multiplier=multiplier, game_value=game_value, declarer_wins=won,
        schneider=schneider, schwarz=schwarz, overbid=overbid, score=score,
        seeger=seeger, seeger_defenders=seeger_defenders, levels=tuple(levels),
        declaration=decl, points=points, tricks=tricks, bid=bid,
    )


def _score_null(decl: Declaration, tricks: int | None, bid: int | None) -> Score:
    """Null: fixed value, won iff the declarer takes no trick (ISkO 5.2.7)."""
    value = null_value(decl)
    if bid is not None and value < bid:
        raise ScoringError(
            f"{decl} (value {value}) cannot be declared after a bid of {bid}: a null's value is fixed, "
            f"so the declarer must choose a game worth at least the bid"
        )
    if tricks is None:
        raise ScoringError(f"{decl} needs the declarer's tricks (0..10; 0 means the declarer won) to be scored")
    won = tricks == 0
    score = value if won else -2 * value
    seeger, seeger_defenders = _seeger(score, won)
    return Score(
        matadors=0, multiplier=0, game_value=value, declarer_wins=won, schneider=None, schwarz=None,
        overbid=False, score=score, seeger=seeger, seeger_defenders=seeger_defenders,
        declaration=decl, tricks=tricks, bid=bid,
    )
