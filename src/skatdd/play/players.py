"""Players for ``skatdd match``: the built-in ones and the loading of plug-ins.

A *player* answers ``play(state)`` with one of ``state.legal`` (a card int,
or its code such as ``"CJ"``), where ``state`` is a
:class:`~skatdd.play.state.PlayerState`: exactly what its seat may know.  A
*factory* makes the player of one seat for one game:
``factory(seat, seed) -> player``, with *seed* an int to seed every random
choice from (the referee derives it from the match seed, the deal, the game
and the seat, so a match is reproducible).  A new player is made for each
seat of each game; it may keep whatever it likes between its cards.

Built-in players, named on the command line (:func:`skatdd.play.loading.load_player`):

``random``
    a uniformly random legal card, from ``random.Random(seed)``.
``heuristic``
    rule-based play from common Skat advice (:mod:`skatdd.play.heuristic`,
    every rule documented there); no search, no randomness.
``pimc`` / ``pimc:N``
    perfect-information Monte Carlo over at most N worlds (default
    :data:`DEFAULT_PIMC_WORLDS`) the seat cannot tell apart, drawn uniformly
    (all of them, in a random order, when there are at most N), each solved
    double-dummy by threshold questions (:mod:`skatdd.analysis.advise.adaptive`):
    the best card for its side by the declared game's mean score (won or
    lost, schneider, schwarz), ties by mean card points.  The worlds are
    solved eight at a time until a stated stopping rule says the choice is
    settled; :attr:`PimcPlayer.used` records the worlds each decision used.
``pimc:N,full``
    the same, always over all N worlds (the full evaluation the stopping
    rule is measured against).
``dd``
    sees every card and plays a double-dummy best card: by the game's
    winning level, then by card points, so against itself every deal ends
    with its double-dummy value.  It *cheats* (``cheats = True``): the
    referee gives it the whole deal through ``play_seeing_all(state,
    position)``, and the match marks it; it bounds what card play can reach.

Where several cards are equally good (pimc, dd), the cheapest is played:
fewest card points, then the lowest in its game's order
(:func:`skatdd.play.heuristic.cheapest`).

A plug-in is named ``module.path:factory`` (a module importable from
``sys.path`` or the current directory) or ``path/to/file.py:factory``;
the factory is called as above.  Plug-ins run in the worker processes of
``--jobs`` too (they are loaded again there by name), each deal's in a
process of its own that the referee can stop (:mod:`skatdd.play.hosting`).

Built-in players that search share one :class:`~skatdd.engine.solve.Solver` per
thread (:func:`thread_solver`), the referee's when it has one.
"""
from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import NamedTuple, Protocol, runtime_checkable

from skatdd.analysis.advise.adaptive import decide
from skatdd.analysis.advise.api import WinRule, card_results
from skatdd.analysis.worlds.space import space_of
from skatdd.core.cards import Card
from skatdd.core.position import Position
from skatdd.core.seeds import generator
from skatdd.engine.solve import Solver

from .heuristic import HeuristicPlayer, cheapest
from .state import PlayerState

__all__ = [
    "DEFAULT_PIMC_WORLDS",
    "CheatingPlayer",
    "DDPlayer",
    "HeuristicPlayer",
    "PimcPlayer",
    "Player",
    "PlayerFactory",
    "PlayerSpec",
    "RandomPlayer",
    "cheapest",
    "share_solver",
    "thread_solver",
]

#: Worlds a ``pimc`` player solves per card when ``pimc`` is named without ``:N``.
DEFAULT_PIMC_WORLDS = 50
#: Transposition table of the solver a player thread builds for itself (MiB).
PLAYER_TT_MB = 64

#: What a player answers: a card int or a card code (``"CJ"``).
CardChoice = Card | str


@runtime_checkable
class Player(Protocol):
    """A player: one card for each state it is shown."""

    def play(self, state: PlayerState) -> CardChoice:
        """One of ``state.legal`` (the int, or its code)."""
        ...


@runtime_checkable
class CheatingPlayer(Protocol):
    """A player that sees every card: the referee calls :meth:`play_seeing_all` instead of ``play``."""

    cheats: bool

    def play_seeing_all(self, state: PlayerState, position: Position) -> CardChoice:
        """One of ``state.legal``; *position* is the whole deal now (a copy, its history included)."""
        ...


#: ``factory(seat, seed)``: the player of *seat* for one game.
PlayerFactory = Callable[[int, int], "Player | CheatingPlayer"]


# --------------------------------------------------------------------------- the solver players share


_local = threading.local()


def share_solver(solver: Solver | None) -> None:
    """Let the built-in players of this thread search with *solver* (the referee's); ``None`` forgets it."""
    _local.solver = solver


def thread_solver() -> Solver:
    """This thread's solver: the one given to :func:`share_solver`, else one built here on first use."""
    solver: Solver | None = getattr(_local, "solver", None)
    if solver is None:
        solver = Solver(tt_mb=PLAYER_TT_MB)
        _local.solver = solver
    return solver


# --------------------------------------------------------------------------- built-in players


class RandomPlayer:
    """A uniformly random legal card from ``random.Random(seed)``."""

    def __init__(self, seat: int, seed: int) -> None:
        self.rng = random.Random(seed)

    def play(self, state: PlayerState) -> Card:
        """A random card of ``state.legal``."""
        return self.rng.choice(state.legal)


class PimcPlayer:
    """The best card by mean score over at most *worlds* worlds of the state's view (module docstring).

    The worlds of each card are drawn with a seed taken from
    ``random.Random(seed)``, one per decision; *full*: always all *worlds*
    of them (no stopping rule).  ``used`` lists the worlds each searched
    decision solved, in order; the referees read it around each card
    (:mod:`skatdd.play.worlds_used`), so a subclass appends one entry per
    searched decision and none for a card it chose otherwise.  A forced card (one legal card) is played
    without a search.  The decision loop (:meth:`play`) is shared with the
    players that judge the worlds otherwise
    (:class:`skatdd.play.advanced.AdvancedPlayer`), which override
    :meth:`choose`.
    """

    def __init__(self, seat: int, seed: int, worlds: int = DEFAULT_PIMC_WORLDS, full: bool = False) -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.full = full
        self.used: list[int] = []

    def play(self, state: PlayerState) -> Card:
        """The chosen card (:meth:`choose`); a forced card without a search, but still one seed drawn."""
        seed = self.rng.randrange(2**32)
        if len(state.legal) == 1:
            return state.legal[0]
        # Any world of the view gives the same public state and the same own hand, all a choice looks at.
        return self.choose(state, state.position(space_of(state.view)[0]), seed)

    def choose(self, state: PlayerState, pos: Position, seed: int) -> Card:
        """The best card for *state* at *pos*, its worlds drawn from *seed*; among equally good ones :func:`cheapest`."""
        declarer_played = 0
        for seat, card in state.played:
            if seat == state.declarer:
                declarer_played |= 1 << card
        choice = decide(pos, state.declaration, state.view, self.worlds, generator(seed), solver=thread_solver(),
                        bid=state.bid, declarer_played=declarer_played, adaptive=not self.full)
        self.used.append(choice.used)
        return cheapest(choice.best, state.game)


class DDPlayer:
    """Double-dummy best play; it sees every card (``cheats``)."""

    cheats = True

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat

    def play_seeing_all(self, state: PlayerState, position: Position) -> Card:
        """The best card for its side with every card known: by the winning level, then card points."""
        if len(state.legal) == 1:
            return state.legal[0]
        results = card_results(position, WinRule.of(state.declaration), solver=thread_solver())
        keys = {card: (wins, value or 0) for card, (value, wins) in results.items()}
        target = max(keys.values()) if state.is_declarer else min(keys.values())
        return cheapest([card for card, key in keys.items() if key == target], state.game)


# --------------------------------------------------------------------------- naming players


class PlayerSpec(NamedTuple):
    """A player as named: ``name`` (as given, for the records), its ``factory``, whether it ``cheats``.

    ``hosted``: the player is a plug-in named on the command line, which the
    referee runs in a process of its own (:mod:`skatdd.play.hosting`).
    """

    name: str
    factory: PlayerFactory
    cheats: bool
    hosted: bool = False
