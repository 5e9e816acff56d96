"""The PettingZoo environment over the whole game (skatdd.rl; issue #34 item 4).

Skipped without the ``rl`` extra (pettingzoo, gymnasium, numpy); the ``test``
extra installs it, so CI runs these for real.
"""
from __future__ import annotations

import re
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # after the skip: numpy comes with the extra
from pettingzoo.test import api_test

from skatdd.core.cards import CardSet
from skatdd.core.errors import CardCountError, DuplicateCardError, IllegalPlayError, InvalidCardError
from skatdd.play import FullGame, RandomPlayer, play_game
from skatdd.rl import ACTIONS, LAYOUT, N_ACTIONS, SIZE, action_of, encode, env, index_of, raw_env
from skatdd.rl.observation import block

#: What api_test warns about any environment whose observation is PettingZoo's classic dict and whose name is
#: not on its own list of classic games (pettingzoo/test/api_test.py); nothing else may be warned.
EXPECTED_WARNINGS = {"Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
                     "Observation is not a NumPy array"}


def test_pettingzoo_api_test() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(), num_cycles=1000)
    assert {str(w.message) for w in caught} <= EXPECTED_WARNINGS


def play_random_games(games: int, seed: int) -> list[Any]:
    """Play *games* deals through ``env()`` with a uniformly random legal action each step; check each game's
    rewards against its own Seeger-Fabian result and return the results."""
    e = env()
    rng = np.random.default_rng(seed)
    results = []
    e.reset(seed=seed)
    for number in range(games):
        if number:
            e.reset()
        totals = dict.fromkeys(e.possible_agents, 0.0)
        info: dict[str, Any] = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            totals[agent] += reward
            if terminated or truncated:
                action = None
            else:
                assert obs["observation"].shape == (SIZE,) and obs["action_mask"].shape == (N_ACTIONS,)
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            e.step(action)
        result = info["result"]
        assert tuple(totals[a] for a in e.possible_agents) == result.seeger, (number, totals, str(result))
        results.append(result)
    return results


def test_a_random_agent_plays_a_thousand_games() -> None:
    # About 3 s of CPU: ~40 steps a game, each encoding one seat's state.
    results = play_random_games(1000, seed=34)
    assert len(results) == 1000
    games = {r.declaration.game for r in results if r.declaration is not None}
    # Uniform over the mask, bids jump far above 59, the value of the dearest null: nulls are rarely legal.
    assert len(games) >= 5, "grand and every suit were declared"
    assert any(r.won for r in results) and any(r.overbid for r in results) and any(not r.won for r in results)
    assert any(r.declaration is not None and r.declaration.ouvert for r in results)


def test_the_mask_is_the_legal_actions_and_every_index_names_its_action() -> None:
    assert len(set(ACTIONS)) == N_ACTIONS == 624
    e = raw_env()
    e.reset(seed=3)
    for _ in range(60):
        game = e.game
        if game.current_seat is None:
            e.reset()
            continue
        agent = e.agent_selection
        assert agent == f"player_{game.current_seat}"
        mask = e.observe(agent)["action_mask"]
        legal = game.legal_actions()
        assert [action_of(i) for i in np.flatnonzero(mask)] == sorted(legal, key=index_of)
        for other in e.possible_agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        e.step(index_of(legal[-1]))


def test_an_illegal_action_is_refused_or_ends_the_game_as_asked() -> None:
    e = raw_env()
    e.reset(seed=1)
    with pytest.raises(IllegalPlayError, match="'CA' is not a legal auction move"):
        e.step(N_ACTIONS - 1)
    wrapped = env(illegal_reward=-500)
    wrapped.reset(seed=1)
    offender = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns that the move was illegal
        wrapped.step(N_ACTIONS - 1)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[offender] == -500
    with pytest.raises(AssertionError):
        env().step(N_ACTIONS)  # outside the space: AssertOutOfBoundsWrapper (after reset, OrderEnforcing first)


def test_reset_deals_from_the_seed_or_plays_the_given_deal() -> None:
    a, b = raw_env(), raw_env()
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.game.dealt == b.game.dealt
    a.reset()
    assert a.game.dealt != b.game.dealt
    given = FullGame.from_seed(5).dealt
    a.reset(options={"hands": list(given[0]), "skat": given[1]})
    assert a.game.dealt == given


def test_reset_without_the_skat_takes_the_two_cards_no_hand_holds() -> None:
    given = FullGame.from_seed(5).dealt
    e = raw_env()
    e.reset(options={"hands": list(given[0])})
    assert e.game.dealt == given
    e.reset(options={"hands": [str(CardSet(hand)) for hand in given[0]]})  # as card codes
    assert e.game.dealt == given


@pytest.mark.parametrize(("options", "error", "words"), [
    ({"skat": "CJ SJ"}, ValueError, "'skat' without the 'hands'"),
    ({"hands": "CJ SJ"}, ValueError, "list of the three hands"),
    ({"hands": None}, ValueError, "list of the three hands"),
    ({"hands": [["CJ"]]}, CardCountError, "three hands, not 1"),
    ({"hands": [list(range(10)), list(range(10, 20)), list(range(19, 29))]}, DuplicateCardError, "'ST'"),
    ({"hands": [["CJ", "XX"], [], []]}, InvalidCardError, "'XX'"),
])
def test_reset_refuses_a_bad_deal_naming_what_is_wrong(options: dict[str, Any], error: type[Exception],
                                                      words: str) -> None:
    with pytest.raises(error, match=re.escape(words)):
        raw_env().reset(options=options)


@pytest.mark.parametrize("action", [1.5, "64", float("nan"), [64]])
def test_step_refuses_an_action_that_is_not_an_integer(action: Any) -> None:
    # int() would have made 1.5 the action 1 (a bid of 20) and "64" a pass
    e = raw_env()
    e.reset(seed=1)
    with pytest.raises(TypeError, match="is not an index of the action space"):
        e.step(action)
    e.step(np.int64(64))  # numpy's integers are indices
    assert e.agent_selection != "player_1"


def test_the_vector_is_the_seats_state() -> None:
    """Two states with the same vector are the same state (as JSON, the legal actions aside: those are the mask).

    The vector is built from the SeatState alone, so it shows no more than the state, which the game's
    information test checks (tests/test_full_game_state.py).  Here it must show no less.  Forehand holds the
    same ten cards in 300 deals (the other twenty dealt at random) and the players' seeds repeat, so his states
    meet again after many different auctions and plays: each vector met twice must be the same state.
    """
    assert sum(size for _, size in LAYOUT) == SIZE == 604
    seen: dict[bytes, dict[str, Any]] = {}
    compared = 0
    rng = np.random.default_rng(7)
    forehand, rest = list(range(10)), list(range(10, 32))
    for number in range(300):
        order = rng.permutation(rest).tolist()
        game = FullGame([sum(1 << c for c in forehand), sum(1 << c for c in order[:10]),
                         sum(1 << c for c in order[10:20])], sum(1 << c for c in order[20:]))
        players = [RandomPlayer(number % 7 * 3 + s, jump_bids=number % 2 == 0) for s in range(3)]
        while True:
            state = game.state_for(0)
            vector = encode(state)
            assert vector.dtype == np.float32 and vector.min() >= 0.0 and vector.max() <= 1.0
            facts = state.to_json()
            del facts["legal"]
            key = vector.tobytes()
            if key in seen:
                compared += 1
                assert seen[key] == facts
            seen[key] = facts
            if game.current_seat is None:
                break
            seat = game.current_seat
            game.apply(players[seat](game.state_for(seat)))
    assert len(seen) > 2_000 and compared > 300, (len(seen), compared)


def test_the_blocks_read_back() -> None:
    game = FullGame(["CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
                     "C7 HQ H9 H8 H7 DA DT DK DQ D9"], "D8 D7")
    for move in ("18", "y", "20", "p", "p", "s", "D8.D7", "C", "CJ", "S7"):
        game.apply(move)
    v = encode(game.state_for(1))
    assert v[block("said_by")][1 * 63 + 0] == 1 and v[block("held")][0] == 1   # middlehand said 18, held
    assert v[block("said_by")][1 * 63 + 1] == 1 and v[block("held")][1] == 0   # and 20, not held
    assert v[block("passed")].tolist() == [1, 0, 1] and v[block("declarer")].tolist() == [0, 1, 0]
    assert v[block("discard")].nonzero()[0].tolist() == [0, 1]                # D7, D8: the declarer sees them
    assert not encode(game.state_for(0))[block("discard")].any()              # a defender does not
    assert v[block("trick")].nonzero()[0].tolist() == [16, 28]                 # S7 and CJ on the table
    assert v[block("play_order")][28] == pytest.approx(1 / 30)


def test_play_game_and_the_env_agree() -> None:
    """The environment is the game: the same choices give the same result."""
    game = FullGame.from_seed(77)
    result = play_game(game.clone(), [RandomPlayer(s) for s in (4, 5, 6)])
    players = [RandomPlayer(s) for s in (4, 5, 6)]
    e = raw_env()
    e.reset(options={"hands": list(game.dealt[0]), "skat": game.dealt[1]})
    while e.game.current_seat is not None:
        seat = e.game.current_seat
        e.step(index_of(players[seat](e.game.state_for(seat))))
    assert e.rewards == {f"player_{s}": float(result.seeger[s]) for s in range(3)}


def test_a_deal_passed_in_ends_with_no_reward() -> None:
    e = env()
    e.reset(seed=2)
    for _ in range(3):
        e.step(index_of(ACTIONS[63 + 1]))  # Pass()
    assert all(e.terminations.values()) and e.rewards == dict.fromkeys(e.possible_agents, 0.0)
    assert e.infos["player_0"]["result"].passed
    for _agent in e.agent_iter():
        e.step(None)
    assert e.agents == []
