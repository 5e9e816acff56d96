"""One sampled skat's results in ``skatdd bid`` (:mod:`skatdd.analysis.bid.api`), and the declarer's choice once he has seen it.

:class:`SkatOutcome` holds what the tasks of :mod:`skatdd.analysis.bid.tasks`
found on one skat's worlds; :meth:`SkatOutcome.picked_up` is the honest
pick-up there: the contract and discard with the highest total at a bid.
:func:`scored` scores a declaration from a world's band (or a null's win).
"""
from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field

from skatdd.analysis.best.bands import ALL_TRICKS, LOST, NO_TRICK, SCHNEIDER, SCHNEIDERED, WON
from skatdd.analysis.best.results import GAME_ORDER
from skatdd.core.cards import Card, Mask
from skatdd.core.rules import SCHNEIDER_POINTS, SCHNEIDERED_POINTS, WIN_POINTS, Game
from skatdd.core.scoring import NULL_VALUES, Declaration, score_game

from .tasks import game_values

__all__ = ["Choice", "GameOnSkat", "SkatOutcome", "hand_declarations", "null_allowed", "scored"]


#: A representative play of each band: (card points, declarer's tricks for score_game).
_BAND_PLAY: dict[int, tuple[int, int | None]] = {
    NO_TRICK: (0, 0), SCHNEIDERED: (SCHNEIDERED_POINTS, None), LOST: (WIN_POINTS - 1, None),
    WON: (WIN_POINTS, None), SCHNEIDER: (SCHNEIDER_POINTS, None), ALL_TRICKS: (120, 10),
}


@functools.cache
def scored(decl: Declaration, m: int, outcome: int, bid: int) -> tuple[int, int, bool]:
    """``(score, seeger, won)`` of *decl* at *bid*: *outcome* is the band (suit, grand) or 1/0 won/lost (null)."""
    if decl.game.is_null:
        sc = score_game(decl, tricks=0 if outcome else 1, bid=bid)
    else:
        points, tricks = _BAND_PLAY[outcome]
        sc = score_game(decl, matadors=m, points=points, tricks=tricks, bid=bid)
    return sc.score, sc.seeger, sc.declarer_wins


def null_allowed(decl: Declaration, bid: int) -> bool:
    """A null can be declared after *bid* only while its fixed value reaches it; suit and grand always can."""
    return not decl.game.is_null or NULL_VALUES[decl.ouvert, decl.hand] >= bid


@dataclass
class Choice:
    """A discard chosen for one game on one skat (one score table), with its totals over the skat's worlds."""

    discard: tuple[Card, Card]
    score: int | None          # None for null: its score depends on the variant and the bid
    tournament: int | None
    wins: int


@dataclass
class GameOnSkat:
    """One game's results on one skat's worlds.

    ``hand`` and ``optimistic`` count the skat's worlds by outcome: the band
    (suit, grand) or 1/0 won/lost (null) of the hand game and of the best
    discard of that world (counts, not one entry per world: every figure
    needs only how often each outcome came, and memory then does not grow
    with the worlds).  ``picked`` maps ``(regime, tournament)`` to the honest
    choice ranked by that score table (regime 0 for null).
    """

    game: Game
    matadors: int
    hand: Counter[int]
    optimistic: Counter[int] | None = None
    picked: dict[tuple[int, bool], Choice] = field(default_factory=dict)

    @property
    def values(self) -> tuple[int, int, int]:
        return game_values(self.game, self.matadors)

    def regime(self, bid: int) -> int:
        """0..2: the score table a picked-up game faces at *bid* (module docstring); 3: every discard overbid."""
        return next((r for r, v in enumerate(self.values) if bid <= v), 3)


@dataclass
class SkatOutcome:
    """Everything computed on one sampled skat."""

    skat: Mask
    seed: int
    worlds: int
    games: dict[Game, GameOnSkat]

    def picked_up(self, bid: int, tournament: bool) -> tuple[str, int, int, int]:
        """The declarer's choice after seeing this skat at *bid*: ``(contract, score, seeger, wins)`` totals.

        The contract with the highest total in the scoring (ties: grand,
        clubs, ..., null, null ouvert), its game's best discard for the score
        table the bid imposes.
        """
        best: tuple[str, int, int, int] | None = None
        for game in GAME_ORDER:
            result = self.games[game]
            options: list[tuple[str, int, int, int]] = []
            if game.is_null:
                ch = result.picked[0, False]
                for ouvert in (False, True):
                    decl = Declaration(game, ouvert=ouvert)
                    if null_allowed(decl, bid):
                        won, lost = scored(decl, 0, 1, bid), scored(decl, 0, 0, bid)
                        n, k = self.worlds, ch.wins
                        options.append((str(decl), won[0] * k + lost[0] * (n - k), won[1] * k + lost[1] * (n - k), k))
            else:
                regime = result.regime(bid)
                if regime < 3:
                    ch = result.picked[regime, tournament]
                    assert ch.score is not None and ch.tournament is not None
                    options.append((game.label, ch.score, ch.tournament, ch.wins))
                else:  # every discard overbid: charged alike whatever the play
                    each = scored(Declaration(game), result.matadors, ALL_TRICKS, bid)
                    options.append((game.label, each[0] * self.worlds, each[1] * self.worlds, 0))
            for option in options:
                if best is None or (option[2] > best[2] if tournament else option[1] > best[1]):
                    best = option
        assert best is not None
        return best


def hand_declarations() -> list[Declaration]:
    """Every hand declaration, in list order (grand, clubs, ... null, null ouvert; fewer announcements first)."""
    out = []
    for game in GAME_ORDER:
        if game.is_null:
            out += [Declaration(game, hand=True), Declaration(game, hand=True, ouvert=True)]
        else:
            out += [Declaration(game, hand=True), Declaration(game, hand=True, schneider=True),
                    Declaration(game, hand=True, schwarz=True), Declaration(game, ouvert=True)]
    return out
