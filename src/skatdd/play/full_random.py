"""A random whole-game player and the loop that plays a :class:`~skatdd.play.full_game.FullGame` out.

:class:`RandomPlayer` makes every choice at random among the legal ones
(:attr:`~skatdd.play.full_state.SeatState.legal`), from its own seeded
generator.  One exception keeps its games worth looking at: when it says a
bid it passes or says the next value with equal chance, rather than jumping
to any of the sixty values up to 264 (``jump_bids=True`` allows the jumps),
so its auctions end near where real ones do and not always overbid.

:func:`play_game` asks each seat's chooser (any callable from a
:class:`~skatdd.play.full_state.SeatState` to an action) in turn until the
game is over, and returns the result.

>>> from skatdd.play.full_game import FullGame
>>> players = [RandomPlayer(seed) for seed in (1, 2, 3)]
>>> result = play_game(FullGame.from_seed(7), players)
>>> sum(result.list_points) == (0 if result.passed else result.score.score)
True
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from skatdd.core.seeds import generator

from .full_actions import Action, Pass, Say
from .full_game import FullGame
from .full_state import GameResult, SeatState

__all__ = ["Chooser", "RandomPlayer", "play_game", "random_choice"]

#: A whole-game player: the seat's state in, one of its legal actions out.
Chooser = Callable[[SeatState], Action]


def random_choice(state: SeatState, rng: random.Random, *, jump_bids: bool = False) -> Action:
    """A legal action of *state* drawn from *rng* (module docstring: without *jump_bids*, a bid said is
    the next value or a pass, with equal chance).

    Raises :class:`ValueError` when *state*'s seat is not to move (it has no legal action).
    """
    legal = state.legal
    if not legal:
        raise ValueError(f"seat {state.seat} is not to move: it has no legal action")
    if not jump_bids and isinstance(legal[0], Say):
        choices: list[Action] = [legal[0], Pass()]
        return rng.choice(choices)
    return rng.choice(legal)


class RandomPlayer:
    """Every choice random among the legal ones, from ``skatdd.core.seeds.generator(seed)`` (module docstring)."""

    def __init__(self, seed: int = 0, *, jump_bids: bool = False) -> None:
        self.rng = generator(seed)
        self.jump_bids = jump_bids

    def __call__(self, state: SeatState) -> Action:
        """One of *state*'s legal actions."""
        return random_choice(state, self.rng, jump_bids=self.jump_bids)


def play_game(game: FullGame, players: Sequence[Chooser]) -> GameResult:
    """Play *game* to its end, asking ``players[seat]`` for every choice of that seat; returns the result.

    Each player gets only its own seat's :meth:`~skatdd.play.full_game.FullGame.state_for`.  An
    illegal answer raises :class:`~skatdd.core.errors.IllegalPlayError` from
    :meth:`~skatdd.play.full_game.FullGame.apply`.
    """
    if len(players) != 3:
        raise ValueError(f"a game needs three players, not {len(players)}")
    while (seat := game.current_seat) is not None:
        game.apply(players[seat](game.state_for(seat)))
    assert game.result is not None
    return game.result
