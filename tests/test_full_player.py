"""Whole-game players as objects with the choice methods (skatdd.play.full.players; issue #34 item 4)."""
from __future__ import annotations

from pathlib import Path

import pytest

import skatdd.play
from skatdd.core.errors import IllegalPlayError, SkatddError
from skatdd.play import FullGame, PlayerState, RandomPlayer, SeatState, ask, full_player, play_game


class TokenPlayer:
    """Answers every phase by its own method, with tokens: the first legal action, or a card code."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def _first(self, phase: str, state: SeatState) -> str:
        self.asked.append(phase)
        return str(state.legal[0])

    def bid(self, state: SeatState) -> str:
        return "p" if state.bids and state.bid is not None and state.bid >= 20 else self._first("bid", state)

    def pick_up(self, state: SeatState) -> str:
        return self._first("pick_up", state)

    def discard(self, state: SeatState) -> str:
        return self._first("discard", state)

    def declare(self, state: SeatState) -> str:
        return self._first("declare", state)

    def play(self, state: PlayerState) -> int:
        self.asked.append("play")
        return int(state.legal[0])  # the card-play state, as in match


def test_a_player_is_any_object_with_the_choice_methods() -> None:
    players = [TokenPlayer(), TokenPlayer(), TokenPlayer()]
    result = play_game(FullGame.from_seed(3), players)
    asked = {phase for p in players for phase in p.asked}
    assert {"bid", "pick_up", "discard", "declare", "play"} <= asked
    assert sum(result.seeger) != 0


def test_callables_and_method_players_mix() -> None:
    def first(state: SeatState) -> object:
        return state.legal[-1] if state.phase.value == "auction" else state.legal[0]

    result = play_game(FullGame.from_seed(5), [first, RandomPlayer(1), full_player("random", 2)])
    assert result is not None


def test_what_ask_refuses() -> None:
    game = FullGame.from_seed(1)
    state = game.state_for(game.current_seat or 0)
    with pytest.raises(TypeError, match="no bid\\(\\) method"):
        ask(object(), state)
    with pytest.raises(SkatddError, match="answered"):
        ask(lambda s: 3.5, state)
    with pytest.raises(SkatddError, match="unknown auction move 'x'"):
        ask(lambda s: "x", state)
    with pytest.raises(ValueError, match="not to move"):
        ask(RandomPlayer(), game.state_for(0))
    with pytest.raises(SkatddError, match="player 'nobody': not a built-in player"):
        full_player("nobody")
    with pytest.raises(IllegalPlayError):
        play_game(game, [lambda s: "y"] * 3)  # middlehand must say or pass, not hold


def test_the_whole_game_names_of_skatdd_play_are_documented() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "game.md").read_text(encoding="utf-8")
    names = [n for n in skatdd.play.__all__ if getattr(getattr(skatdd.play, n), "__module__", "").startswith("skatdd.play.full.")
             or n in ("BIDS", "Action")]
    assert len(names) >= 20
    assert [n for n in names if f"`{n}" not in page] == []
