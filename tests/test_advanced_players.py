"""The players of skatdd.play.advanced: weighted PIMC and the honest declarer endgame."""
from __future__ import annotations

import random

import pytest

import skatdd
from skatdd.analysis.honest.api import honest_card_values
from skatdd.analysis.worlds.space import WorldSpace
from skatdd.core.errors import SkatddError
from skatdd.core.rules import ALL_GAMES
from skatdd.core.scoring import Declaration
from skatdd.play.advanced import AdvancedPlayer
from skatdd.play.loading import load_player
from skatdd.play.players import PimcPlayer
from skatdd.play.state import state_for
from test_advise import random_position


@pytest.mark.parametrize("seed", range(6))
def test_uniform_weights_play_as_pimc(seed: int) -> None:
    """With no inference and every world (late positions), the weighted player is plain PIMC."""
    rng = random.Random(seed)
    game = ALL_GAMES[seed % len(ALL_GAMES)]
    pos = random_position(rng, game, 22 + seed % 3)
    state = state_for(pos, Declaration(game))
    assert AdvancedPlayer(pos.to_move, seed, worlds=10_000, full=True).play(state) == \
        PimcPlayer(pos.to_move, seed, worlds=10_000, full=True).play(state)


@pytest.mark.parametrize("seed", range(6))
def test_alphamu_declarer_plays_an_honest_best_card(seed: int) -> None:
    rng = random.Random(50 + seed)
    game = ALL_GAMES[seed % 5]
    while True:
        pos = random_position(rng, game, 21 + seed % 3)
        if pos.to_move == pos.declarer and len(pos.legal_moves()) > 1:
            break
    declaration = Declaration(game)
    state = state_for(pos, declaration)
    worlds = list(WorldSpace(state.view))
    result = honest_card_values(pos, declaration, worlds, 3)
    top = max(c.honest_win for c in result.cards)
    card = AdvancedPlayer(pos.to_move, seed, worlds=10_000, honest=3).play(state)
    assert next(c.honest_win for c in result.cards if c.card == card) == top


@pytest.mark.parametrize("name", ["pimc:3+bids", "pimc:3+play", "pimc:3+all", "alphamu:3:3", "alphamu:3:3+bids"])
def test_advanced_players_finish_a_match(name: str) -> None:
    result = skatdd.match(name, "pimc:3", 1, seed=4, jobs=1)
    assert result.records and all("failed" not in r for r in result.records)


@pytest.mark.parametrize(("name", "token"), [
    ("pimc:10+bidding", "'bidding'"), ("pimc:x+bids", "'x'"), ("alphamu:10:0", "'0'"), ("alphamu:", "''"),
    ("alphamu:5:3:1", "'alphamu:5:3:1'"),
])
def test_bad_names_are_refused_naming_the_token(name: str, token: str) -> None:
    with pytest.raises(SkatddError, match=token):
        load_player(name)

