"""Whole-game players: any object with the choice methods, asked by :func:`ask`; :func:`play_game`; the built-ins.

A whole-game player answers the seat's :class:`~skatdd.play.full_state.SeatState`
with one of ``state.legal``, through one method per phase (:class:`FullPlayer`):

============ ========================= ==============================================
phase        method                    answers
============ ========================= ==============================================
AUCTION      ``bid(state)``            ``Say(v)``, ``Hold()`` or ``Pass()`` (``'20'``, ``'y'``, ``'p'``)
PICK_UP      ``pick_up(state)``        ``PickUp()`` or ``PlayHand()`` (``'s'``, ``'hand'``)
DISCARD      ``discard(state)``        ``Discard(cards)`` (``'SA.ST'``)
DECLARE      ``declare(state)``        ``Declare(declaration)`` (``'CH'``, ``'NO'``)
PLAY         ``play(state)``           ``Play(card)`` or a card (``'HA'``)
============ ========================= ==============================================

An answer is an action object or its token (:func:`~skatdd.play.full_actions.parse_action`).
A plain callable from a :class:`SeatState` to an action (the older form, and
:class:`~skatdd.play.full_random.RandomPlayer` is both) answers for every
phase it has no method for.  Whether the answer is legal is the game's
question: :meth:`~skatdd.play.full_game.FullGame.apply` refuses anything
else.

:func:`play_game` plays a game out, asking each seat's player in turn;
:func:`full_player` makes a built-in player by name (:data:`FULL_PLAYERS`).

>>> from skatdd.play.full_game import FullGame
>>> game = FullGame.from_seed(7)
>>> player = full_player("random", seed=1)
>>> ask(player, game.state_for(game.current_seat)) in game.legal_actions()
True
>>> result = play_game(game, [player, full_player("random", 2), full_player("random", 3)])
>>> sum(result.list_points) == (0 if result.passed else result.score.score)
True
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, get_args, runtime_checkable

from skatdd.core.cards import Card
from skatdd.core.errors import SkatddError, quote

from .full_actions import Action, Phase, Play, parse_action
from .full_game import FullGame
from .full_random import RandomPlayer
from .full_state import GameResult, SeatState

__all__ = ["FULL_PLAYERS", "FullPlayer", "ask", "full_player", "play_game"]

_ACTION_TYPES: tuple[type, ...] = get_args(Action)

#: The method a player answers in each phase.
METHODS = {Phase.AUCTION: "bid", Phase.PICK_UP: "pick_up", Phase.DISCARD: "discard", Phase.DECLARE: "declare",
           Phase.PLAY: "play"}


@runtime_checkable
class FullPlayer(Protocol):
    """A whole-game player: one method per phase (module docstring), each given the seat's state."""

    def bid(self, state: SeatState) -> Action | str: ...  # pragma: no cover - a protocol
    def pick_up(self, state: SeatState) -> Action | str: ...  # pragma: no cover
    def discard(self, state: SeatState) -> Action | str: ...  # pragma: no cover
    def declare(self, state: SeatState) -> Action | str: ...  # pragma: no cover
    def play(self, state: SeatState) -> Action | str | int: ...  # pragma: no cover


def ask(player: object, state: SeatState) -> Action:
    """*player*'s choice for *state*, as an action object (module docstring: its phase's method, else
    ``player(state)``).

    Raises :class:`ValueError` when *state*'s seat is not to move, :class:`TypeError` when *player* has
    neither the phase's method nor a ``__call__``, and :class:`~skatdd.core.errors.SkatddError` naming an
    answer that means nothing in the phase.  Legality is left to the game.
    """
    if not state.legal:
        raise ValueError(f"seat {state.seat} is not to move: it has nothing to choose")
    name = METHODS[state.phase]
    method = getattr(player, name, None)
    if not callable(method):
        if not callable(player):
            raise TypeError(f"{type(player).__name__} has no {name}() method and is not callable: "
                            f"it cannot choose in the {state.phase} phase")
        method = player
    answer: object = method(state)
    if isinstance(answer, str):
        return parse_action(answer, state.phase)
    if state.phase is Phase.PLAY and isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < 32:
        return Play(Card(answer))
    if not isinstance(answer, _ACTION_TYPES):
        raise SkatddError(f"{type(player).__name__}.{name}() answered {quote(repr(answer))}: expected an action "
                          f"or its token")
    return answer  # type: ignore[return-value]  # one of Action's classes, checked above


def play_game(game: FullGame, players: Sequence[object]) -> GameResult:
    """Play *game* to its end, asking ``players[seat]`` (:func:`ask`) for every choice of that seat; returns
    the result.

    Each player gets only its own seat's :meth:`~skatdd.play.full_game.FullGame.state_for`.  An
    illegal answer raises :class:`~skatdd.core.errors.IllegalPlayError` from
    :meth:`~skatdd.play.full_game.FullGame.apply`.
    """
    if len(players) != 3:
        raise ValueError(f"a game needs three players, not {len(players)}")
    while (seat := game.current_seat) is not None:
        game.apply(ask(players[seat], game.state_for(seat)))
    assert game.result is not None
    return game.result


#: The built-in whole-game players by name: ``factory(seed)`` makes one.
FULL_PLAYERS: dict[str, Callable[[int], object]] = {
    "random": RandomPlayer,
}


def full_player(name: str, seed: int = 0) -> object:
    """The built-in whole-game player *name* (a key of :data:`FULL_PLAYERS`), seeded with *seed*.

    Raises :class:`~skatdd.core.errors.SkatddError` naming an unknown *name*.
    """
    factory = FULL_PLAYERS.get(name)
    if factory is None:
        raise SkatddError(f"unknown whole-game player {quote(name)}: expected {', '.join(sorted(FULL_PLAYERS))}")
    return factory(seed)
