"""What a seat is shown in a whole game (FullGame.state_for): exactly what it may know, and nothing else.

Random games of every kind are stopped at random moments, and the state of
every seat (not only the one to move) is checked two ways, as
tests/test_match_state.py checks the card-play state:

* no field places a card the seat could not see: its own dealt cards, the
  cards played, the skat and its discard for a declarer who picked up, the
  declarer's hand for a defender in an ouvert game;
* the state is a function of that knowledge alone: the deal with the unseen
  cards permuted among themselves (the discard renamed with them), where the
  same moves are still legal, gives an equal state.

The game's end is left out: the result tells every seat the declarer's card
points with the skat, as the server shows every card when the game is over.
A deliberately leaky state fails both checks, so they can fail.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from skatdd.core.cards import ALL_CARDS, Card, CardSet, Mask, cards_of, mask_of
from skatdd.core.errors import IllegalPlayError
from skatdd.play.full.actions import Action, Declare, Discard, Phase, PickUp, Play
from skatdd.play.full.game import FullGame
from skatdd.play.full.random_player import RandomPlayer
from skatdd.play.full.state import SeatState

StateFn = Callable[[FullGame, int], SeatState]


def visible(game: FullGame, seat: int) -> Mask:
    """Every card *seat* can see now, from the deal and the moves (not from the state under test)."""
    hands, skat = game.dealt
    seen = hands[seat]
    declarer = game.declarer
    picked_up = any(isinstance(action, PickUp) for _, action in game.history)
    declared = next((a.declaration for _, a in game.history if isinstance(a, Declare)), None)
    seen |= mask_of(a.card for _, a in game.history if isinstance(a, Play))
    if seat == declarer and picked_up:
        seen |= skat
    if declared is not None and declared.ouvert and seat != declarer and declarer is not None:
        discard = next((a.cards.mask for _, a in game.history if isinstance(a, Discard)), 0)
        seen |= (hands[declarer] | (skat if picked_up else 0)) & ~discard
    return seen


def placed_cards(state: SeatState) -> Mask:
    """Every card a field of *state* names (its legal actions included)."""
    mask = 0
    for item in dataclasses.fields(state):
        value = getattr(state, item.name)
        if isinstance(value, CardSet):
            mask |= value.mask
        elif item.name == "trick":
            mask |= mask_of(value)
        elif item.name == "played":
            mask |= mask_of(card for _, card in value)
        elif item.name == "legal":
            for action in value:
                if isinstance(action, Discard):
                    mask |= action.cards.mask
                elif isinstance(action, Play):
                    mask |= 1 << action.card
    return mask


def renamed(action: Action, rename: dict[int, int]) -> Action:
    if isinstance(action, Discard):
        return Discard(CardSet(mask_of(rename.get(c, c) for c in action.cards)))
    if isinstance(action, Play):
        return Play(Card(rename.get(action.card, action.card)))
    return action


def twin(game: FullGame, rename: dict[int, int]) -> FullGame | None:
    """*game*'s deal with the cards renamed and its moves made again, or ``None`` when a move is illegal there."""
    hands, skat = game.dealt

    def move(mask: Mask) -> Mask:
        return mask_of(rename.get(c, c) for c in cards_of(mask))

    other = FullGame([move(h) for h in hands], move(skat))
    try:
        for _, action in game.history:
            other.apply(renamed(action, rename))
    except IllegalPlayError:
        return None
    return other


def leaks(game: FullGame, seat: int, state_for: StateFn, rng: random.Random, tries: int = 6) -> tuple[str | None, int]:
    """Why *seat*'s state tells more than it may know (or ``None``), and how many twins were compared."""
    state = state_for(game, seat)
    seen = visible(game, seat)
    if placed_cards(state) & ~seen:
        return "a field places a card the seat cannot see", 0
    unseen = cards_of(ALL_CARDS & ~seen)
    compared = 0
    for attempt in range(tries):
        if attempt % 2 and len(unseen) > 1:
            a, b = rng.sample(unseen, 2)          # one swap keeps most voids
            rename = {a: b, b: a}
        else:
            shuffled = list(unseen)
            rng.shuffle(shuffled)
            rename = dict(zip(unseen, shuffled, strict=True))
        other = twin(game, rename)
        if other is None:
            continue
        compared += 1
        if state_for(other, seat) != state:
            return "a deal the seat cannot tell apart gives another state", compared
    return None, compared


def random_moments(seed: int, count: int) -> list[FullGame]:
    """Copies of one random game (seed) at up to *count* random moments before its end."""
    game = FullGame.from_seed(seed)
    players = [RandomPlayer(seed * 7 + seat) for seat in range(3)]
    steps: list[FullGame] = []
    while game.current_seat is not None:
        steps.append(game.clone())
        seat = game.current_seat
        game.apply(players[seat](game.state_for(seat)))
    rng = random.Random(seed)
    return rng.sample(steps, min(count, len(steps)))


def honest(game: FullGame, seat: int) -> SeatState:
    return game.state_for(seat)


def test_no_state_tells_a_seat_more_than_it_may_know() -> None:
    rng = random.Random(1)
    compared = 0
    phases: set[Phase] = set()
    ouvert = 0
    for seed in range(120):
        for moment in random_moments(seed, 4):
            phases.add(moment.phase)
            decl = moment.declaration
            ouvert += decl is not None and decl.ouvert
            for seat in range(3):
                reason, twins = leaks(moment, seat, honest, rng)
                assert reason is None, f"seed {seed}, seat {seat}, {moment!r}: {reason}\n{moment}"
                compared += twins
    assert phases == {Phase.AUCTION, Phase.PICK_UP, Phase.DISCARD, Phase.DECLARE, Phase.PLAY}
    assert ouvert > 0
    assert compared > 5000   # 7,790 today: enough deals the seats could not tell apart were compared


def test_a_leaky_state_is_caught() -> None:
    """A state that shows a defender the discard, and one whose hand is another seat's, both fail."""

    def discard_shown(game: FullGame, seat: int) -> SeatState:
        state = game.state_for(seat)
        discard = next((a.cards for _, a in game.history if isinstance(a, Discard)), None)
        return dataclasses.replace(state, discard=discard)

    def counts_the_skat(game: FullGame, seat: int) -> SeatState:
        # Leaks no card by name, only the skat's points: only the twin check can see it.
        state = game.state_for(seat)
        return dataclasses.replace(state, declarer_points=state.declarer_points + CardSet(game.dealt[1]).points())

    rng = random.Random(2)
    found = {"discard": False, "points": False}
    for seed in range(60):
        for moment in random_moments(seed, 3):
            for seat in range(3):
                if moment.declarer is not None and seat != moment.declarer:
                    found["discard"] |= leaks(moment, seat, discard_shown, rng)[0] is not None
                found["points"] |= leaks(moment, seat, counts_the_skat, rng)[0] is not None
    assert found == {"discard": True, "points": True}
