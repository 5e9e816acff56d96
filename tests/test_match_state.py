"""What a player is shown (skatdd.play.state): exactly what its seat may know, and nothing else.

The information test plays games of every kind (picked up, hand, ouvert,
null ouvert) with random cards and, before every card, checks the state of
the seat to move two ways:

* no field places a card the seat could not see: its own hand, the cards
  played, its own discard (a declarer who picked up), the declarer's hand
  (a defender in an ouvert game);
* the state is a function of that knowledge alone: for other worlds the
  seat cannot tell from the true one (drawn from the state's own view), the
  deal rebuilt with that world gives an equal state.

A deliberately leaky state fails both checks, so they can fail.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from skatdd.analysis.advise.api import mover_view
from skatdd.analysis.worlds.draw import choose_worlds
from skatdd.analysis.worlds.space import SKAT, View
from skatdd.core.cards import ALL_CARDS, CardSet, Mask, mask_of
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.play.state import PlayerState, state_for
from skatdd.tools.generate import random_deal

BIDS = ((1, "18"), (0, "y"), (1, "p"), (2, "p"))

DECLARATIONS = [
    Declaration(Game.CLUBS), Declaration(Game.HEARTS, hand=True), Declaration(Game.GRAND),
    Declaration(Game.GRAND, ouvert=True), Declaration(Game.SPADES, hand=True, schneider=True),
    Declaration(Game.NULL), Declaration(Game.NULL, hand=True), Declaration(Game.NULL, ouvert=True),
]


def visible(pos: Position, declaration: Declaration) -> Mask:
    """Every card the seat to move in *pos* can see: its hand, the cards played, its discard, an ouvert declarer's hand."""
    seat = pos.to_move
    seen = pos.hands[seat] | mask_of(card for _, card in pos.history)
    if seat == pos.declarer and not declaration.hand:
        seen |= pos.skat
    if declaration.ouvert and seat != pos.declarer:
        seen |= pos.hands[pos.declarer]
    return seen


def placed_cards(state: PlayerState) -> Mask:
    """Every card a field of *state* places somewhere (the view's known cards included)."""
    mask = 0
    for item in dataclasses.fields(state):
        value = getattr(state, item.name)
        if isinstance(value, CardSet):
            mask |= value.mask
        elif item.name in ("legal", "trick"):
            mask |= mask_of(value)
        elif item.name == "played":
            mask |= mask_of(card for _, card in value)
        elif isinstance(value, View):
            for known in value.known:
                mask |= known
            mask |= mask_of(card for _, card in value.played)
    return mask


def leaks(state: PlayerState, pos: Position, declaration: Declaration, rng: random.Random) -> str | None:
    """Why *state* (of the seat to move in *pos*) tells more than the seat may know, or ``None``."""
    seen = visible(pos, declaration)
    if placed_cards(state) & ~seen:
        return "a field places a card the seat cannot see"
    if state.view.unseen != ALL_CARDS & ~seen:
        return "the view's unseen cards are not exactly the cards the seat cannot see"
    worlds, _ = choose_worlds(state.view, 6, rng)
    for world in worlds:
        twin = state.position(world)
        if state_for(twin, declaration, state.bids, state.bid) != state:
            return "another world the seat cannot tell apart gives a different state"
        if mover_view(twin, declaration) != state.view:
            return "the rebuilt position's view differs"
    return None


def games(seed: int, count: int) -> Iterator[tuple[Position, Declaration]]:
    """Random deals of every declaration kind, each played with random cards; yields the position before every card."""
    rng = random.Random(seed)
    for i in range(count):
        declaration = DECLARATIONS[i % len(DECLARATIONS)]
        hands, skat = random_deal(rng)
        pos = Position(declaration.game, rng.randrange(3), list(hands), skat)
        while not pos.is_over():
            yield pos, declaration
            pos.play(rng.choice(pos.legal_moves()))


@pytest.mark.parametrize("seed", [1, 2])
def test_no_field_reveals_a_card_the_seat_could_not_see(seed: int) -> None:
    rng = random.Random(seed * 7)
    checked = 0
    for pos, declaration in games(seed, 16):
        state = state_for(pos, declaration, BIDS, 18)
        assert leaks(state, pos, declaration, rng) is None, (str(state), declaration)
        checked += 1
    assert checked > 300


def test_a_leaky_state_is_caught() -> None:
    rng = random.Random(3)
    caught = {"skat": False, "hand": False}
    for pos, declaration in games(4, 8):
        if pos.to_move == pos.declarer:
            continue
        state = state_for(pos, declaration, BIDS, 18)
        if not declaration.ouvert:
            other = CardSet(pos.hands[pos.declarer])
            caught["hand"] |= leaks(dataclasses.replace(state, open_hand=other), pos, declaration, rng) is not None
        skat = dataclasses.replace(state, skat=CardSet(pos.skat))
        caught["skat"] |= leaks(skat, pos, declaration, rng) is not None
    assert all(caught.values())


def test_what_each_seat_is_shown() -> None:
    rng = random.Random(5)
    hands, skat = random_deal(rng)
    for declaration in DECLARATIONS:
        pos = Position(declaration.game, 1, list(hands), skat)
        pos.play(pos.legal_moves()[0])  # forehand leads; middlehand, the declarer, is to move
        declarer = state_for(pos, declaration, BIDS, 18)
        assert declarer.is_declarer and declarer.hand == CardSet(hands[1])
        assert declarer.skat == (None if declaration.hand else CardSet(skat))
        assert declarer.open_hand is None
        assert declarer.view.known[SKAT] == (0 if declaration.hand else skat)
        pos.play(declarer.legal[0])
        defender = state_for(pos, declaration, BIDS, 18)
        assert defender.seat == 2 and not defender.is_declarer and defender.skat is None
        assert defender.open_hand == (CardSet(pos.hands[1]) if declaration.ouvert else None)
        assert defender.bids == BIDS and defender.bid == 18 and defender.declaration == declaration
        assert len(defender.played) == 2 and defender.trick == tuple(c for _, c in defender.played)
        assert set(defender.legal) <= set(defender.hand)
