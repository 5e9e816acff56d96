"""What ``skatdd bid`` reports: each bid's best declaration (:class:`Pick`, :class:`Level`), the games at 18, the report.

:class:`BidReport` holds the table :mod:`skatdd.analysis.bid.api` builds from the
per-skat results, with the skat rule, the Stegen count and the per-skat
choices; ``to_json`` is docs/cli.md's object.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from skatdd.analysis.best.results import GAME_ORDER
from skatdd.core.cards import Mask, card_name, format_mask
from skatdd.core.printable import Printable
from skatdd.core.scoring import MIN_BID, SEEGER_DEFENDER, Declaration

from .skat import SkatOutcome, scored
from .skat_rule import SkatRule, skat_rule
from .stegen import StegenCount

__all__ = ["PICK_UP", "SCORINGS", "BidReport", "GameOption", "Level", "Pick", "null_total", "pick"]

#: The label of the pick-up declaration.
PICK_UP = "pick up"
#: The scorings, in the order they are shown.
SCORINGS = ("list", "tournament")


@dataclass
class Pick:
    """The best declaration at one bid by one scoring, and its figures over every evaluated world.

    ``score`` / ``tournament``: mean list score / mean Seeger-Fabian points
    of the declarer; ``*_se``: their standard errors over the skats (the
    sample standard deviation of the per-skat means / sqrt(S); ``None`` with
    one skat); ``defenders``: mean Seeger-Fabian points to each defender;
    ``games``: for the pick-up, how many skats led to each contract;
    ``choices``: the contract chosen on each skat, in skat order.
    """

    label: str
    decl: Declaration | None           # None: pick up
    win: float
    score: float
    tournament: float
    score_se: float | None
    tournament_se: float | None
    defenders: float
    games: dict[str, int] | None = None
    choices: list[str] | None = None

    @property
    def hand(self) -> bool:
        return self.decl is not None

    def mean(self, tournament: bool) -> float:
        return self.tournament if tournament else self.score

    def to_json(self) -> dict[str, Any]:
        """``{best, game, hand, announce, win, score, score_se, tournament, tournament_se, defenders, games}``."""
        return {
            "best": self.label, "game": None if self.decl is None else self.decl.game.label, "hand": self.hand,
            "announce": [] if self.decl is None else self.decl.announce, "win": round(self.win, 6),
            "score": round(self.score, 4), "score_se": _rounded(self.score_se),
            "tournament": round(self.tournament, 4), "tournament_se": _rounded(self.tournament_se),
            "defenders": round(self.defenders, 4), "games": self.games,
        }


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def pick(label: str, decl: Declaration | None, per_skat: Sequence[tuple[int, int, int]], worlds: int,
          choices: list[str] | None = None) -> Pick:
    """A :class:`Pick` from per-skat totals ``(score, seeger, wins)`` over *worlds* worlds each."""
    n = len(per_skat) * worlds
    scores = [s / worlds for s, _, _ in per_skat]
    seegers = [t / worlds for _, t, _ in per_skat]
    wins = sum(w for _, _, w in per_skat)

    def se(xs: list[float]) -> float | None:
        return statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else None

    return Pick(label, decl, wins / n, sum(scores) / len(scores), sum(seegers) / len(seegers), se(scores), se(seegers),
                SEEGER_DEFENDER * (n - wins) / n, dict(Counter(choices)) if choices is not None else None, choices)


@dataclass
class Level:
    """One bid of the ladder: the best declaration there by each scoring computed (``picks[tournament]``)."""

    bid: int
    picks: dict[bool, Pick]


@dataclass
class GameOption:
    """One game at bid 18 (a row of ``options``): hand (best announcement) or picked up (honest, and the bound).

    For a picked-up game ``win``, ``score`` and ``tournament`` are the honest
    pick-up's (the game declared whatever the skat, with the discard best for
    it on each skat's worlds); ``optimistic_*`` take the best discard of each
    world, as ``odds`` does without a known skat.
    """

    decl: Declaration
    win: float
    score: float
    tournament: float
    optimistic_win: float | None = None
    optimistic_score: float | None = None
    optimistic_tournament: float | None = None

    def to_json(self) -> dict[str, Any]:
        """``{game, hand, announce, win, score, tournament}``, picked up also ``honest_*`` and ``optimistic_*``."""
        out: dict[str, Any] = {"game": self.decl.game.label, "hand": self.decl.hand, "announce": self.decl.announce,
                               "win": round(self.win, 6), "score": round(self.score, 4),
                               "tournament": round(self.tournament, 4)}
        if not self.decl.hand:
            assert self.optimistic_win is not None and self.optimistic_score is not None
            assert self.optimistic_tournament is not None
            out.update({"honest_win": out["win"], "optimistic_win": round(self.optimistic_win, 6),
                        "honest_score": out["score"], "optimistic_score": round(self.optimistic_score, 4),
                        "optimistic_tournament": round(self.optimistic_tournament, 4)})
        return out


@dataclass
class BidReport(Printable):
    """Everything ``skatdd bid`` reports (docs/cli.md); ``str()`` is its readable report.

    Attributes:
        seat, hand: the seat and its ten cards.
        scorings: the scorings shown (``False`` list, ``True`` tournament), the first one choosing ``best``.
        skats: one :class:`SkatOutcome` per sampled skat, in skat order.
        every_skat: all 231 skats were taken.
        worlds: worlds per skat.
        seed: the seed of the draws.
        picked_up: the pick-up was computed (not only hand games).
        levels: one :class:`Level` per bid, from 18 to the highest bid any declaration wins somewhere.
        options: the games at bid 18 (:class:`GameOption`).
        stegen: the hand's :class:`~skatdd.analysis.bid.stegen.StegenCount`.
        nodes, seconds: engine nodes and wall time.
    """

    seat: int
    hand: Mask
    scorings: tuple[bool, ...]
    skats: list[SkatOutcome]
    every_skat: bool
    worlds: int
    seed: int
    picked_up: bool
    levels: list[Level]
    options: list[GameOption]
    stegen: StegenCount
    nodes: int = 0
    seconds: float = 0.0

    def max_bid(self, tournament: bool) -> int | None:
        """The highest bid at which declaring beats passing (best mean above 0) in that scoring, or ``None``."""
        good = [lv.bid for lv in self.levels if tournament in lv.picks and lv.picks[tournament].mean(tournament) > 0]
        return max(good) if good else None

    def play(self, tournament: bool) -> tuple[Pick, SkatRule | None] | None:
        """What to play at :meth:`max_bid`: the pick, and for a pick-up the rule of what the skat changes."""
        top = self.max_bid(tournament)
        if top is None:
            return None
        pick = next(lv.picks[tournament] for lv in self.levels if lv.bid == top)
        if pick.choices is None:
            return pick, None
        return pick, skat_rule([(s.skat, c) for s, c in zip(self.skats, pick.choices, strict=True)])

    def per_skat(self) -> list[dict[str, Any]]:
        """Per skat at bid 18 in list scoring: the seed of its worlds, every game's discard and figures, the choice.

        The same skat, seed and worlds in ``skatdd odds HAND --skat SKAT --worlds W --seed SEED`` give the same
        discards and figures.
        """
        out = []
        for s in self.skats:
            games = []
            for game in GAME_ORDER:
                result = s.games[game]
                if (0, False) not in result.picked:
                    continue
                ch = result.picked[0, False]
                for ouvert in (False, True) if game.is_null else (False,):
                    decl = Declaration(game, ouvert=ouvert)
                    total = ch.score if ch.score is not None else null_total(decl, ch.wins, s.worlds, MIN_BID)
                    games.append({"game": str(decl), "discard": [card_name(c) for c in ch.discard],
                                  "win": round(ch.wins / s.worlds, 6), "mean_score": round(total / s.worlds, 4)})
            choice = s.picked_up(MIN_BID, False)[0] if games else None
            out.append({"skat": format_mask(s.skat), "seed": s.seed, "choice": choice, "games": games})
        return out

    def to_json(self) -> dict[str, Any]:
        """The report as docs/cli.md's JSON object."""
        def answer(tournament: bool) -> dict[str, Any] | None:
            played = self.play(tournament) if tournament in self.scorings else None
            if played is None:
                return None
            pick, rule = played
            out = {"bid": self.max_bid(tournament), **pick.to_json(), "skat_rule": None if rule is None else rule.text,
                   "skat_rule_fits": None if rule is None else rule.fits}
            return out

        primary = self.scorings[0]
        levels = []
        for lv in self.levels:
            row: dict[str, Any] = {"bid": lv.bid, **lv.picks[primary].to_json()}
            if len(self.scorings) > 1:
                row["by_tournament"] = lv.picks[True].to_json()
            levels.append(row)
        return {
            "seat": self.seat, "hand": format_mask(self.hand),
            "scoring": "both" if len(self.scorings) > 1 else SCORINGS[primary],
            "skats": len(self.skats), "every_skat": self.every_skat, "worlds": self.worlds,
            "evaluated": len(self.skats) * self.worlds, "seed": self.seed, "picked_up": self.picked_up,
            "levels": levels,
            "max_bid": {name: self.max_bid(t) if t in self.scorings else None
                        for name, t in (("score", False), ("tournament", True))},
            "play": {name: answer(t) for name, t in (("score", False), ("tournament", True))},
            "options": [o.to_json() for o in self.options],
            "stegen": self.stegen.to_json(),
            "per_skat": self.per_skat() if self.picked_up else [],
            "nodes": self.nodes, "seconds": round(self.seconds, 6),
        }


def null_total(decl: Declaration, wins: int, worlds: int, bid: int) -> int:
    return scored(decl, 0, 1, bid)[0] * wins + scored(decl, 0, 0, bid)[0] * (worlds - wins)
