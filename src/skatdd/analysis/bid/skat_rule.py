"""What the skat changes: a short rule for which game a declarer plays after picking up each skat.

``skatdd bid`` knows, for every sampled skat, the game the declarer
chooses once he has seen it.  :func:`skat_rule` turns that table into the
sentence a player would say -- "grand with a jack in the skat, else clubs"
-- and says how many of the skats it fits.

The rule is a short decision list: a few ``game with <condition>`` clauses,
tried in order, then ``else <game>``.  The
conditions are what a player looks at in a skat: a jack or two, a given
jack, a card or two of a suit (jacks apart), an ace, a ten, a full card (ace
or ten), a given card.  For each ``else`` game, clauses are added greedily,
each time the one that fits the most skats (ties: the simpler condition, in
the order above), while that fits more skats and at most
:data:`MAX_CLAUSES` are used; the ``else`` game whose rule fits best is
kept.

>>> from skatdd.core.cards import mask_of, parse_cards
>>> table = [(mask_of(parse_cards(s)), g) for s, g in
...          [("CJ S7", "grand"), ("D7 H8", "clubs"), ("HJ DA", "grand"), ("SA ST", "clubs")]]
>>> rule = skat_rule(table)
>>> rule.text, rule.fits, rule.total
('grand with a jack in the skat, else clubs', 4, 4)
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from skatdd.core.cards import ACE, JACK, TEN, Mask, card_symbol, cards_of

__all__ = ["MAX_CLAUSES", "SkatRule", "skat_rule"]

#: At most this many ``game with <condition>`` clauses before the ``else``.
MAX_CLAUSES = 2

_SUITS = ("diamond", "heart", "spade", "club")


@dataclass(frozen=True)
class _Condition:
    phrase: str                     # "a jack", "the ♣J", "two hearts"
    holds: Callable[[Mask], bool]


def _card(card: int) -> Callable[[Mask], bool]:
    """The skat holds *card*."""
    return lambda skat: bool(skat >> card & 1)


def _at_least(n: int, test: Callable[[int], bool]) -> Callable[[Mask], bool]:
    """At least *n* of the skat's cards pass *test*."""
    return lambda skat: sum(1 for c in cards_of(skat) if test(c)) >= n


def _conditions(skats: Sequence[Mask]) -> list[_Condition]:
    """The conditions worth trying on these skats, simplest first."""
    seen = sorted({c for s in skats for c in cards_of(s)}, reverse=True)

    def is_jack(c: int) -> bool:
        return c & 7 == JACK

    out = [_Condition("a jack", _at_least(1, is_jack)), _Condition("two jacks", _at_least(2, is_jack))]
    out += [_Condition(f"the {card_symbol(c)}", _card(c)) for c in seen if is_jack(c)]
    for suit in range(3, -1, -1):
        def in_suit(c: int, suit: int = suit) -> bool:
            return c >> 3 == suit and not is_jack(c)
        out.append(_Condition(f"a {_SUITS[suit]}", _at_least(1, in_suit)))
        out.append(_Condition(f"two {_SUITS[suit]}s", _at_least(2, in_suit)))
    for phrase, ranks in (("an ace", (ACE,)), ("a ten", (TEN,)), ("an ace or a ten", (ACE, TEN))):
        def full(c: int, ranks: tuple[int, ...] = ranks) -> bool:
            return c & 7 in ranks
        out.append(_Condition(phrase, _at_least(1, full)))
    out += [_Condition(f"the {card_symbol(c)}", _card(c)) for c in seen if not is_jack(c)]
    return out


@dataclass(frozen=True)
class SkatRule:
    """A decision list over skats: ``clauses`` (condition phrase, game) in order, then ``default``.

    ``fits`` of the ``total`` skats get the game the rule names.
    """

    clauses: tuple[tuple[str, str], ...]
    default: str
    fits: int
    total: int

    @property
    def text(self) -> str:
        """``'grand with a jack in the skat, else clubs'``; ``'clubs whatever the skat'`` without clauses."""
        if not self.clauses:
            return f"{self.default} whatever the skat"
        parts = [f"{game} with {phrase} in the skat" for phrase, game in self.clauses]
        return ", ".join(parts) + f", else {self.default}"


def _fits(table: Sequence[tuple[Mask, str]], clauses: Sequence[tuple[_Condition, str]], default: str) -> int:
    def named(skat: Mask) -> str:
        return next((game for cond, game in clauses if cond.holds(skat)), default)
    return sum(named(skat) == game for skat, game in table)


def _greedy(table: Sequence[tuple[Mask, str]], conditions: list[_Condition], games: list[str],
            default: str) -> tuple[list[tuple[_Condition, str]], int]:
    """Clauses added one by one before ``else default``, each the one that fits the most skats."""
    clauses: list[tuple[_Condition, str]] = []
    fits = _fits(table, clauses, default)
    while len(clauses) < MAX_CLAUSES and fits < len(table):
        best: tuple[int, tuple[_Condition, str]] | None = None
        for cond in conditions:
            for game in games:
                if game == default:
                    continue
                trial = _fits(table, [*clauses, (cond, game)], default)
                if best is None or trial > best[0]:
                    best = (trial, (cond, game))
        if best is None or best[0] <= fits:
            break
        fits = best[0]
        clauses.append(best[1])
    return clauses, fits


def skat_rule(table: Sequence[tuple[Mask, str]]) -> SkatRule:
    """The short rule (module docstring) for *table*: ``(skat mask, game chosen)`` per sampled skat.

    Every game chosen is tried as the ``else`` game; the rule that fits the
    most skats wins (ties: fewer clauses, then the game chosen more often,
    then the one chosen first in *table*).
    """
    if not table:
        raise ValueError("a skat rule needs at least one skat")
    counts = Counter(game for _, game in table)
    games = list(counts)      # in order of first appearance
    conditions = _conditions([skat for skat, _ in table])
    best: tuple[tuple[int, int, int, int], SkatRule] | None = None
    for rank, default in enumerate(games):
        clauses, fits = _greedy(table, conditions, games, default)
        rule = SkatRule(tuple((c.phrase, g) for c, g in clauses), default, fits, len(table))
        key = (fits, -len(clauses), counts[default], -rank)
        if best is None or key > best[0]:
            best = (key, rule)
    assert best is not None
    return best[1]
