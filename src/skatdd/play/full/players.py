"""Whole-game players: the protocol, how a player is asked, and every built-in player by name.

A whole-game player is a card-play player (``play(state)`` with the card-play
:class:`~skatdd.play.state.PlayerState`, as in ``match``) that may also answer
the choices before the play, each given the seat's
:class:`~skatdd.play.full.state.SeatState` (:class:`FullPlayer`, :data:`METHODS`):

============ ========================= ==============================================
phase        method                    answers (an action or its token)
============ ========================= ==============================================
AUCTION      ``bid(state)``            ``Say(v)``, ``Hold()`` or ``Pass()`` (``'20'``, ``'y'``, ``'p'``)
PICK_UP      ``pick_up(state)``        ``PickUp()`` or ``PlayHand()`` (``'s'``, ``'hand'``)
DISCARD      ``discard(state)``        ``Discard(cards)`` (``'SA.ST'``)
DECLARE      ``declare(state)``        ``Declare(declaration)`` (``'CH'``, ``'NO'``)
PLAY         ``play(state)``           a legal card of the ``PlayerState`` (a card, its int or its code)
============ ========================= ==============================================

A plain callable from a :class:`SeatState` to an action (a policy, as
:class:`~skatdd.play.full.random_player.RandomPlayer` and an RL agent are) answers
every phase it has no method for.  :func:`ask` asks a player for one choice
and :func:`play_game` plays a game out; ``match --full``
(:mod:`skatdd.play.full.match`) asks the same methods and gives a player
without one of the four choices the **default**, the ``heuristic`` player's
choice (:mod:`skatdd.play.full.heuristic_player`), so a card-play-only player plays
full games, its cards after the heuristic's bidding and declaring.

The built-in players, by name (:func:`load_full_player`, and
:func:`full_player` for one player of one seat):

``random``
    every choice random among the legal ones (a bid said is the next value
    or a pass, with equal chance, as :func:`~skatdd.play.full.random_player.random_choice`);
    cards as ``random``.
``heuristic``
    the rule-based bidder and declarer of :mod:`skatdd.play.full.heuristic_player`
    (Stegen count and contract evaluator); cards as ``heuristic``.
``pimc`` / ``pimc:N``
    skatdd's own (:class:`FullPimcPlayer`): the bid from the bidding analysis
    (:func:`skatdd.analysis.bid.api.bid`) on a small budget, hand or pick-up
    from that analysis at the bid reached, game and discard after the pick-up
    by the honest pick-up (:func:`skatdd.analysis.odds.api.odds` with the skat
    known), and the cards of ``pimc:N+bids`` (N default :data:`FULL_PIMC_WORLDS`).

Any other name (``dd``, ``alphamu:...``, ``pimc:N+play``, a plug-in) is the
card-play player of :func:`~skatdd.play.loading.load_player`; its other
choices are its own methods where it has them, else the default.

>>> from skatdd.play.full.game import FullGame
>>> game = FullGame.from_seed(7)
>>> player = full_player("random", seed=1)
>>> ask(player, game.state_for(game.current_seat)) in game.legal_actions()
True
>>> result = play_game(game, [player, full_player("heuristic", 2, seat=1), full_player("random", 3, seat=2)])
>>> sum(result.list_points) == (0 if result.passed else result.score.score)
True
"""
from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol, get_args, runtime_checkable

from skatdd.analysis.bid.api import bid as bid_analysis
from skatdd.analysis.bid.results import BidReport, Pick
from skatdd.analysis.bid.stegen import THRESHOLD, stegen_count
from skatdd.analysis.deals.evaluation import evaluate_contract
from skatdd.analysis.odds.api import odds
from skatdd.core.cards import Card, CardSet, Mask
from skatdd.core.errors import SkatddError, quote
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration

from ..advanced import AdvancedPlayer
from ..deals import derive_seed
from ..heuristic import HeuristicPlayer
from ..loading import load_player
from ..players import PlayerSpec, RandomPlayer, thread_solver
from ..state import PlayerState, state_for
from .actions import Action, Declare, Discard, Hold, Pass, Phase, PickUp, Play, PlayHand, Say, parse_action
from .game import FullGame
from .heuristic_player import HeuristicChoices, bid_limit, spare_cards
from .random_player import random_choice
from .state import GameResult, SeatState

__all__ = [
    "BID_SKATS", "BID_WORLDS", "FULL_PIMC_WORLDS", "METHODS", "PICKUP_WORLDS", "FullHeuristicPlayer", "FullPimcPlayer",
    "FullPlayer", "FullRandomPlayer", "ask", "card_state", "full_player", "load_full_player", "play_game",
]

#: The method a player answers in each phase (module docstring).
METHODS = {Phase.AUCTION: "bid", Phase.PICK_UP: "pick_up", Phase.DISCARD: "discard", Phase.DECLARE: "declare",
           Phase.PLAY: "play"}
#: Worlds per card of ``pimc`` in full games without ``:N``.
FULL_PIMC_WORLDS = 20
#: The bidding analysis of ``pimc``: skats drawn, and worlds per skat (a match-fit budget: about 1-5 s CPU a hand).
BID_SKATS = 6
BID_WORLDS = 3
#: Worlds the honest pick-up ranks the discards over, with the skat known.
PICKUP_WORLDS = 12
#: Below this heuristic count nothing is worth analysing: ``pimc`` passes at once (see :meth:`FullPimcPlayer.report`).
_HOPELESS_MARGIN = -3.0


_ACTION_TYPES: tuple[type, ...] = get_args(Action)


@runtime_checkable
class FullPlayer(Protocol):
    """A whole-game player: one method per phase (module docstring); ``play`` gets the card-play state."""

    def bid(self, state: SeatState) -> Action | str: ...  # pragma: no cover - a protocol
    def pick_up(self, state: SeatState) -> Action | str: ...  # pragma: no cover
    def discard(self, state: SeatState) -> Action | str: ...  # pragma: no cover
    def declare(self, state: SeatState) -> Action | str: ...  # pragma: no cover
    def play(self, state: PlayerState) -> Card | int | str: ...  # pragma: no cover


def card_state(game: FullGame) -> PlayerState:
    """The card-play state of the seat to play in *game* (in the play phase), as ``match`` gives it."""
    pos = game.position
    if pos is None or game.declaration is None or game.phase is not Phase.PLAY:
        raise ValueError(f"no card to play in the {game.phase} phase")
    return state_for(pos, game.declaration, game.bids, game.bid)


def ask(player: object, state: SeatState, card: PlayerState | None = None) -> Action:
    """*player*'s choice for *state*, as an action object (module docstring: its phase's method, else
    ``player(state)``).  In the play phase a ``play`` method is given *card*, the card-play state
    (:func:`card_state`), which it then needs.

    Raises :class:`ValueError` when *state*'s seat is not to move, :class:`TypeError` when *player* has
    neither the phase's method nor a ``__call__`` (or ``play`` without *card*), and
    :class:`~skatdd.core.errors.SkatddError` naming an answer that means nothing in the phase.
    Legality is left to the game.
    """
    if not state.legal:
        raise ValueError(f"seat {state.seat} is not to move: it has nothing to choose")
    name = METHODS[state.phase]
    method = getattr(player, name, None)
    answer: object
    if callable(method) and state.phase is Phase.PLAY:
        if card is None:
            raise TypeError(f"{type(player).__name__}.play() needs the card-play state: ask(player, state, card)")
        answer = method(card)
    elif callable(method):
        answer = method(state)
    elif callable(player):
        answer = player(state)
    else:
        raise TypeError(f"{type(player).__name__} has no {name}() method and is not callable: "
                        f"it cannot choose in the {state.phase} phase")
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

    Each player gets only its own seat's state: :meth:`~skatdd.play.full.game.FullGame.state_for`, and
    :func:`card_state` for a ``play`` method.  An illegal answer raises
    :class:`~skatdd.core.errors.IllegalPlayError` from :meth:`~skatdd.play.full.game.FullGame.apply`.
    """
    if len(players) != 3:
        raise ValueError(f"a game needs three players, not {len(players)}")
    while (seat := game.current_seat) is not None:
        player = players[seat]
        card = card_state(game) if game.phase is Phase.PLAY and callable(getattr(player, "play", None)) else None
        game.apply(ask(player, game.state_for(seat), card))
    assert game.result is not None
    return game.result


class FullRandomPlayer(RandomPlayer):
    """``random`` in full games: every choice random among the legal ones, from the player's ``random.Random``."""

    def _choose(self, state: SeatState) -> Action:
        return random_choice(state, self.rng)

    bid = pick_up = discard = declare = _choose


class FullHeuristicPlayer(HeuristicPlayer):
    """``heuristic`` in full games: :class:`~skatdd.play.full.heuristic_player.HeuristicChoices`, then its card play."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.choices = HeuristicChoices()

    def bid(self, state: SeatState) -> Action:
        """:meth:`HeuristicChoices.bid`."""
        return self.choices.bid(state)

    def pick_up(self, state: SeatState) -> Action:
        """:meth:`HeuristicChoices.pick_up`."""
        return self.choices.pick_up(state)

    def discard(self, state: SeatState) -> Action:
        """:meth:`HeuristicChoices.discard`."""
        return self.choices.discard(state)

    def declare(self, state: SeatState) -> Action:
        """:meth:`HeuristicChoices.declare`."""
        return self.choices.declare(state)


# The bidding analysis of a hand depends on the hand and the seat only (its seed is derived from them), so a
# process keeps the last few: the six seatings of a deal ask it for the same three hands again and again.
_REPORTS: OrderedDict[tuple[Mask, int, int, int], BidReport | None] = OrderedDict()
_REPORTS_KEPT = 16


def _hopeless(hand: Mask, seat: int) -> bool:
    """No game is anywhere near: the Stegen count and the evaluator both far below their thresholds."""
    if bid_limit(hand, seat) is not None:
        return False
    if stegen_count(hand).points >= THRESHOLD - 2:
        return False
    grand = evaluate_contract(hand | spare_cards(hand, Game.GRAND), Game.GRAND, forehand=seat == 0)
    null = evaluate_contract(hand | spare_cards(hand, Game.NULL), Game.NULL)
    return grand.margin < _HOPELESS_MARGIN / 2 and null.margin < _HOPELESS_MARGIN


def bid_report(hand: Mask, seat: int, skats: int | None = None, worlds: int | None = None) -> BidReport | None:
    """The bidding analysis of ten dealt cards at *seat* on ``pimc``'s budget, ``None`` for a hopeless hand.

    *skats* and *worlds* default to :data:`BID_SKATS` and :data:`BID_WORLDS`.  Seeded from the hand and
    seat alone, so it is the same in every process and every seating.
    """
    skats = BID_SKATS if skats is None else skats
    worlds = BID_WORLDS if worlds is None else worlds
    key = (hand, seat, skats, worlds)
    if key in _REPORTS:
        _REPORTS.move_to_end(key)
        return _REPORTS[key]
    report = None if _hopeless(hand, seat) else bid_analysis(
        hand, seat=seat, skats=skats, worlds=worlds, seed=derive_seed("bid", hand, seat) % 2**32,
        scoring="tournament", jobs=1, solver=thread_solver())
    _REPORTS[key] = report
    while len(_REPORTS) > _REPORTS_KEPT:
        _REPORTS.popitem(last=False)
    return report


def _pick_at(report: BidReport, bid: int) -> Pick | None:
    """The analysis' best declaration at the highest level not above *bid* (tournament scoring)."""
    levels = [lv for lv in report.levels if lv.bid <= bid and True in lv.picks]
    return levels[-1].picks[True] if levels else None


class FullPimcPlayer(AdvancedPlayer):
    """``pimc[:N]`` in full games (module docstring); cards as ``pimc:N+bids``."""

    def __init__(self, seat: int, seed: int, worlds: int = FULL_PIMC_WORLDS) -> None:
        super().__init__(seat, seed, worlds, inference="bids")
        self.heuristic = HeuristicChoices()
        self._declaration: Declaration | None = None

    def report(self, state: SeatState) -> BidReport | None:
        """:func:`bid_report` of the ten dealt cards (the state's hand before the pick-up)."""
        hand = state.hand.mask if state.skat is None else state.hand.mask & ~state.skat.mask
        return bid_report(hand, state.seat)

    def bid(self, state: SeatState) -> Action:
        """Say or hold up to the analysis' highest bid that beats passing (tournament scoring), else pass."""
        report = self.report(state)
        limit = None if report is None else report.max_bid(True)
        first = state.legal[0]
        if isinstance(first, Say):
            return first if limit is not None and first.value <= limit else Pass()
        return Hold() if limit is not None and (state.bid or 0) <= limit else Pass()

    def pick_up(self, state: SeatState) -> Action:
        """The analysis' best at the bid reached: a hand declaration (remembered), or pick up."""
        report = self.report(state)
        pick = None if report is None else _pick_at(report, state.bid or 18)
        if pick is None:
            return self.heuristic.pick_up(state)
        self._declaration = pick.decl
        return PickUp() if pick.decl is None else PlayHand()

    def discard(self, state: SeatState) -> Action:
        """The honest pick-up: the option and discard with the best mean list score over the skat's worlds."""
        assert state.skat is not None
        ten = state.hand.mask & ~state.skat.mask
        report = odds(ten, seat=state.seat, skat=state.skat.mask, worlds=PICKUP_WORLDS, bid=state.bid or 18,
                      seed=derive_seed("pick-up", ten, state.skat.mask, state.seat) % 2**32, jobs=1,
                      solver=thread_solver())
        best = max(report.options, key=lambda o: (o.total_score, -report.options.index(o)))
        if best.discard is None:
            return self.heuristic.discard(state)
        self._declaration = best.declaration
        return Discard(CardSet(best.discard))

    def declare(self, state: SeatState) -> Action:
        """The declaration chosen with the pick-up or the discard; the heuristic's when there is none."""
        decl = self._declaration
        if decl is not None and Declare(decl) in state.legal:
            return Declare(decl)
        return self.heuristic.declare(state)


def _pimc_worlds(name: str, text: str) -> int:
    count = text or str(FULL_PIMC_WORLDS)
    if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= 100_000:
        raise SkatddError(f"player {quote(name)}: pimc:N needs a number of worlds N from 1 to 100000")
    return int(count)


def load_full_player(name: Any) -> PlayerSpec:
    """The whole-game player named *name* (module docstring), or a factory or spec passed as it is.

    Raises :class:`~skatdd.core.errors.SkatddError` naming the token for a name that names no player.
    """
    if isinstance(name, str):
        text = name.strip()
        if text == "random":
            return PlayerSpec(text, FullRandomPlayer, False)
        if text == "heuristic":
            return PlayerSpec(text, FullHeuristicPlayer, False)
        head, _, rest = text.partition(":")
        if head == "pimc" and (not rest or rest.removesuffix("+bids").isdigit()) and rest.count("+") <= 1 and (
                "+" not in rest or rest.endswith("+bids")):
            worlds = _pimc_worlds(name, rest.removesuffix("+bids"))
            return PlayerSpec(f"pimc:{worlds}", functools.partial(FullPimcPlayer, worlds=worlds), False)
    return load_player(name)


def full_player(name: Any, seed: int = 0, *, seat: int = 0) -> Any:
    """One player of *seat* made by :func:`load_full_player`'s factory for *name*, seeded with *seed*."""
    return load_full_player(name).factory(seat, seed)
