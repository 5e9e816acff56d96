"""Players for ``skatdd match``: the built-in ones and the loading of plug-ins.

A *player* answers ``play(state)`` with one of ``state.legal`` (a card int,
or its code such as ``"CJ"``), where ``state`` is a
:class:`~skatdd.play.state.PlayerState`: exactly what its seat may know.  A
*factory* makes the player of one seat for one game:
``factory(seat, seed) -> player``, with *seed* an int to seed every random
choice from (the referee derives it from the match seed, the deal, the game
and the seat, so a match is reproducible).  A new player is made for each
seat of each game; it may keep whatever it likes between its cards.

Built-in players, named on the command line (:func:`load_player`):

``random``
    a uniformly random legal card, from ``random.Random(seed)``.
``heuristic``
    rule-based play from common Skat advice (:mod:`skatdd.play.heuristic`,
    every rule documented there); no search, no randomness.
``pimc`` / ``pimc:N``
    the card :func:`skatdd.analysis.advise.advise` would choose over N worlds
    (default :data:`DEFAULT_PIMC_WORLDS`): perfect-information Monte Carlo
    over the worlds the seat cannot tell apart, drawn uniformly (all of them
    when there are at most N), each solved double-dummy; the best card for
    its side by win chance, then by mean card points.
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
``--jobs`` too (they are loaded again there by name).

Built-in players that search share one :class:`~skatdd.engine.solve.Solver` per
thread (:func:`thread_solver`), the referee's when it has one.
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import random
import sys
import threading
from collections.abc import Callable
from typing import NamedTuple, Protocol, runtime_checkable

from skatdd.analysis.advise import WinRule, WorldRunner, advise, card_results
from skatdd.analysis.worlds import WorldSpace
from skatdd.core.cards import Card
from skatdd.core.errors import SkatddError, quote
from skatdd.core.position import Position
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
    "load_player",
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
    """The card :func:`~skatdd.analysis.advise.advise` chooses over *worlds* worlds of the state's view.

    The worlds of each card are drawn with a seed taken from
    ``random.Random(seed)``, one per decision.  A forced card (one legal
    card) is played without a search.
    """

    def __init__(self, seat: int, seed: int, worlds: int = DEFAULT_PIMC_WORLDS) -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds

    def play(self, state: PlayerState) -> Card:
        """The advised card; among equally good ones :func:`cheapest`."""
        seed = self.rng.randrange(2**32)
        if len(state.legal) == 1:
            return state.legal[0]
        # Any world of the view gives the same advice: advise() looks only at what the mover sees.
        pos = state.position(WorldSpace(state.view)[0])
        advice = advise(pos, state.declaration, worlds=self.worlds, seed=seed,
                        runner=WorldRunner(solver=thread_solver()))
        return cheapest(advice.best, state.game)


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
    """A player as named: ``name`` (as given, for the records), its ``factory``, whether it ``cheats``."""

    name: str
    factory: PlayerFactory
    cheats: bool


def _pimc_factory(worlds: int) -> PlayerFactory:
    return functools.partial(PimcPlayer, worlds=worlds)


BUILT_IN = ("random", "heuristic", "pimc[:N]", "dd")


def _unknown(name: str, why: str) -> SkatddError:
    return SkatddError(f"player {quote(name)}: {why}: expected {', '.join(BUILT_IN)} or module.path:factory "
                       "(or path/to/file.py:factory)")


def _import_plugin(target: str, name: str) -> object:
    """The module of a plug-in: a file path (``....py``) or a dotted module on ``sys.path`` or in the current directory."""
    if target.endswith(".py"):
        if not os.path.isfile(target):
            raise _unknown(name, f"no file {quote(target)}")
        module_name = "skatdd_plugin_" + os.path.splitext(os.path.basename(target))[0].replace("-", "_")
        spec = importlib.util.spec_from_file_location(module_name, target)
        if spec is None or spec.loader is None:
            raise _unknown(name, f"cannot load {quote(target)}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module  # so that pickling the module's objects finds it
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[module_name]
            raise _unknown(name, f"loading {quote(target)} raised {type(exc).__name__}: {exc}") from None
        return module
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # as `python -m` would, but behind every installed module
    try:
        return importlib.import_module(target)
    except ImportError as exc:
        raise _unknown(name, f"cannot import {quote(target)} ({exc})") from None
    except Exception as exc:
        raise _unknown(name, f"importing {quote(target)} raised {type(exc).__name__}: {exc}") from None


@functools.lru_cache(maxsize=64)
def _plugin(name: str) -> PlayerSpec:
    target, _, attribute = name.rpartition(":")
    if not target or not attribute:
        raise _unknown(name, "not a built-in player")
    module = _import_plugin(target, name)
    factory = getattr(module, attribute, None)
    if factory is None or not callable(factory):
        raise _unknown(name, f"{quote(target)} has no callable {quote(attribute)}")
    return PlayerSpec(name, factory, bool(getattr(factory, "cheats", False)))


def load_player(name: str | PlayerSpec | PlayerFactory) -> PlayerSpec:
    """The player named *name* (module docstring), or a factory passed as it is.

    Raises :class:`~skatdd.core.errors.SkatddError` naming the token for an
    unknown name, a bad ``pimc:N``, or a plug-in that cannot be imported or
    has no such factory.
    """
    if isinstance(name, PlayerSpec):
        return name
    if not isinstance(name, str):
        label = getattr(name, "__qualname__", None) or type(name).__name__
        return PlayerSpec(f"{getattr(name, '__module__', '?')}:{label}", name, bool(getattr(name, "cheats", False)))
    text = name.strip()
    if text == "random":
        return PlayerSpec(text, RandomPlayer, False)
    if text == "heuristic":
        return PlayerSpec(text, HeuristicPlayer, False)
    if text == "dd":
        return PlayerSpec(text, DDPlayer, True)
    if "+" in text or text.startswith("alphamu"):
        from .advanced import advanced_player  # weighted worlds and honest endgames (skatdd.play.advanced)
        return advanced_player(text)
    if text == "pimc" or text.startswith("pimc:"):
        count = text.partition(":")[2] if ":" in text else str(DEFAULT_PIMC_WORLDS)
        if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= 100_000:
            raise _unknown(name, "pimc:N needs a number of worlds N from 1 to 100000")
        return PlayerSpec(f"pimc:{int(count)}", _pimc_factory(int(count)), False)
    return _plugin(text)
