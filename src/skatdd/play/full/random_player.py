"""A random whole-game player: :class:`RandomPlayer`.

:class:`RandomPlayer` makes every choice at random among the legal ones
(:attr:`~skatdd.play.full.state.SeatState.legal`), from its own seeded
generator.  One exception keeps its games worth looking at: when it says a
bid it passes or says the next value with equal chance, rather than jumping
to any of the sixty values up to 264 (``jump_bids=True`` allows the jumps),
so its auctions end near where real ones do and not always overbid.

It is a whole-game player as a plain callable from the seat's
:class:`~skatdd.play.full.state.SeatState` to an action, which
:func:`~skatdd.play.full.players.ask` asks in every phase, the play
included (a card is chosen among ``state.legal``'s ``Play`` actions); it also
answers ``bid``, ``pick_up``, ``discard`` and ``declare`` by name.  The
``random`` player of ``match --full`` (:func:`~skatdd.play.full.players.full_player`)
makes the same choices before the play, and plays its cards as ``match``'s ``random``.

>>> from skatdd.play.full.game import FullGame
>>> game = FullGame.from_seed(7)
>>> player = RandomPlayer(1)
>>> player.bid(game.state_for(game.current_seat)) in game.legal_actions()
True
"""
from __future__ import annotations

import random
from collections.abc import Callable

from skatdd.core.seeds import generator

from .actions import Action, Pass, Say
from .state import SeatState

__all__ = ["Chooser", "RandomPlayer", "random_choice"]

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
        """One of *state*'s legal actions, whatever the phase."""
        return random_choice(state, self.rng, jump_bids=self.jump_bids)

    # The choices before the play by name (skatdd.play.full.players.FullPlayer): all the same draw.  No play():
    # that method gets the card-play PlayerState, and this player chooses among the SeatState's Play actions.
    bid = pick_up = discard = declare = __call__
