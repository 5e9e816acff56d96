"""The players of ``skatdd match`` (skatdd.play.players, skatdd.play.heuristic) and the auction of generated deals.

* ``pimc:N,full`` with more worlds than the view has plays a card that is best
  over every world (by the declared game's score, then points) by the plain
  reference solver (the worlds found by an
  independent enumeration); ``dd`` plays a double-dummy best card;
* the heuristic's rules do what its docstring says in positions built for
  them, and every built-in player answers a legal card in every state;
* names load (``pimc:N``, plug-ins from a module path and from a file) and
  bad names are refused with one line naming the token;
* a generated deal's auction ends with its declarer at a bid his game reaches.
"""
from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from skatdd.analysis.worlds.space import SKAT
from skatdd.core.cards import CARD_POINTS, mask_of, parse_card, parse_cards
from skatdd.core.errors import SkatddError
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, Game, power
from skatdd.core.scoring import Declaration, matadors, score_game
from skatdd.engine.reference import reference_can_take_all, reference_card_values
from skatdd.play import match
from skatdd.play.auction import BID_VALUES, contract_limit, derived_auction
from skatdd.play.deals import generated_deal
from skatdd.play.heuristic import HeuristicPlayer
from skatdd.play.loading import load_player
from skatdd.play.players import DDPlayer, PimcPlayer, RandomPlayer
from skatdd.play.state import state_for
from test_advise import random_position
from test_match_state import games
from test_worlds import replayable_splits


def keys_over_worlds(pos: Position, declaration: Declaration) -> dict[int, tuple[int, int]]:
    """Per legal card: (the declared game's score, final points), each summed over every world the mover cannot
    tell apart, by the plain reference solver (the score from the exact value and both sides' trick facts)."""
    seat = pos.to_move
    hidden = [s for s in range(3) if s != seat] + ([] if seat == pos.declarer and not declaration.hand else [SKAT])
    played = sum(1 << card for who, card in pos.history if who == pos.declarer)
    keys: dict[int, tuple[int, int]] = {}
    for hand0, hand1, hand2, skat in replayable_splits(pos, hidden):
        world = Position(pos.game, pos.declarer, [hand0, hand1, hand2], skat, pos.leader, list(pos.trick),
                         pos.declarer_points, pos.declarer_tricks, pos.defender_tricks)
        for card, value in reference_card_values(world).items():
            score, points = keys.get(card, (0, 0))
            if pos.game.is_null:
                keys[card] = (score + score_game(declaration, tricks=0 if value else 1).score, 0)
                continue
            world.play(card)
            everything = pos.defender_tricks == 0 and reference_can_take_all(world, True)
            nothing = pos.declarer_tricks == 0 and reference_can_take_all(world, False)
            world.undo()
            mats = matadors(pos.game, [hand0, hand1, hand2][pos.declarer] | skat | played)
            tricks = 10 if everything else 0 if nothing else None
            result = score_game(declaration, matadors=mats, points=int(value), tricks=tricks).score
            keys[card] = (score + result, points + int(value))
    return keys


def cheapest_of(cards: list[int], game: Game) -> int:
    return min(cards, key=lambda c: (CARD_POINTS[c], power(c, game), c))


@pytest.mark.parametrize("seed", range(12))
def test_full_pimc_with_every_world_plays_a_best_card_by_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    game = ALL_GAMES[seed % len(ALL_GAMES)]
    pos = random_position(rng, game, 22 + seed % 3)
    declaration = Declaration(game)
    keys = keys_over_worlds(pos, declaration)
    pick = max if pos.to_move == pos.declarer else min
    target = pick(keys.values())
    best = [card for card, key in keys.items() if key == target]
    card = PimcPlayer(pos.to_move, seed, worlds=10_000, full=True).play(state_for(pos, declaration))
    assert card == cheapest_of(best, game)


@pytest.mark.parametrize("seed", range(12))
def test_dd_plays_a_double_dummy_best_card(seed: int) -> None:
    rng = random.Random(100 + seed)
    game = ALL_GAMES[seed % len(ALL_GAMES)]
    pos = random_position(rng, game, 21 + seed % 4)
    values = reference_card_values(pos)
    pick = max if pos.to_move == pos.declarer else min
    best = [card for card, value in values.items() if value == pick(values.values())]
    card = DDPlayer(pos.to_move, 0).play_seeing_all(state_for(pos, Declaration(game)), pos.copy())
    assert card == cheapest_of(best, game)


def deal(game: Game, declarer: int, forehand: str, middlehand: str, rearhand: str, skat: str, *played: str) -> Position:
    hands = [mask_of(parse_cards(h, count=10)) for h in (forehand, middlehand, rearhand)]
    pos = Position(game, declarer, hands, mask_of(parse_cards(skat, count=2)))
    for card in played:
        pos.play(parse_card(card))
    return pos


def heuristic_card(pos: Position, declaration: Declaration | None = None) -> str:
    state = state_for(pos, declaration or Declaration(pos.game))
    card = HeuristicPlayer(pos.to_move, 0).play(state)
    return f"{'DHSC'[card >> 3]}{'789TJQKA'[card & 7]}"


def test_heuristic_declarer_draws_trumps_when_he_holds_more() -> None:  # D1
    pos = deal(Game.CLUBS, 0, "CJ SJ HJ DJ CA CT CK CQ HA SA", "C9 C8 H7 H8 H9 HT HK HQ D7 D8",
               "C7 S7 S8 S9 ST SK SQ D9 DT DK", "DA DQ")
    assert heuristic_card(pos) == "CJ"


def test_heuristic_declarer_cashes_aces_without_trump_length() -> None:  # D2
    pos = deal(Game.GRAND, 0, "SJ DJ SA HA DA S7 H7 D7 D8 D9", "CJ HJ CA CT CK SK SQ S9 S8 HK",
               "C7 C8 C9 CQ ST HT HQ H9 H8 DT", "DK DQ")
    assert heuristic_card(pos) in ("SA", "HA", "DA")


def test_heuristic_defender_smears_on_his_partners_sure_trick() -> None:  # F3
    pos = deal(Game.GRAND, 0, "CJ SJ H7 CA CT CK SA ST DA DT", "HJ HA C7 C8 S7 S8 D7 D8 D9 SK",
               "DJ HT H8 C9 CQ S9 SQ DQ DK H9", "HK HQ", "H7", "HA")
    assert heuristic_card(pos) == "HT"


def test_heuristic_defender_keeps_a_ten_guarded() -> None:  # F5
    pos = deal(Game.GRAND, 0, "CJ SJ HJ DA DT DK SA HA HT CA", "DJ D7 D8 D9 DQ SK SQ S9 S8 H7",
               "ST S7 C7 C8 C9 CQ HK HQ H9 H8", "CT CK", "DA", "D7")
    assert heuristic_card(pos) == "C7"  # S7 is cheaper but would leave ST bare with SA out


def test_heuristic_null_declarer_ducks() -> None:  # N1
    pos = deal(Game.NULL, 1, "H9 C7 C8 C9 CT CJ CQ CK CA S7", "H8 HT D7 D8 D9 DT DJ DQ DK DA",
               "H7 HJ HQ HK HA S8 S9 ST SJ SQ", "SK SA", "H9")
    assert heuristic_card(pos) == "H8"


def test_heuristic_null_declarer_leads_a_low_singleton() -> None:  # N3
    pos = deal(Game.NULL, 0, "S7 H7 H9 HJ D7 D9 DJ C7 C9 CJ", "S8 S9 ST SQ SK H8 HT HQ HK D8",
               "SA SJ HA DT DQ DK DA C8 CT CQ", "CK CA")
    assert heuristic_card(pos) == "S7"


@pytest.mark.parametrize("name", ["random", "heuristic", "pimc:3", "dd"])
def test_every_built_in_player_answers_a_legal_card(name: str) -> None:
    spec = load_player(name)
    calls = 0
    for pos, declaration in games(11, 8):
        state = state_for(pos, declaration)
        player = spec.factory(pos.to_move, 5)
        if spec.cheats:
            card = player.play_seeing_all(state, pos.copy())  # type: ignore[union-attr]
        else:
            card = player.play(state)  # type: ignore[union-attr]
        assert card in state.legal
        calls += 1
        if name == "pimc:3" and calls > 40:
            break


def test_random_player_is_reproducible() -> None:
    states = [state_for(pos, d) for pos, d in games(12, 2)]
    first = [RandomPlayer(0, 9).play(s) for s in states]
    again = [RandomPlayer(0, 9).play(s) for s in states]
    other = [RandomPlayer(0, 10).play(s) for s in states]
    assert first == again and first != other


def test_heuristic_beats_random() -> None:
    result = match("heuristic", "random", 16, seed=2)
    assert result.summary.deals == 16
    assert result.summary.score.mean is not None and result.summary.score.mean > 0


def test_names_load_and_bad_names_are_refused(tmp_path: Path) -> None:
    assert load_player("pimc").name == "pimc:50" and load_player("pimc:7").name == "pimc:7"
    assert load_player("dd").cheats and not load_player("heuristic").cheats
    for bad in ("pimc:0", "pimc:x", "pimc:", "alpha", "nosuchmodule_xyz:make", "json:nosuchfactory",
                f"{tmp_path}/missing.py:make", ":make"):
        with pytest.raises(SkatddError, match="player") as info:
            load_player(bad)
        assert "\n" not in str(info.value)


BOT = textwrap.dedent('''
    """A plug-in player for the tests: always the last legal card, given by its code."""
    from skatdd.core.cards import card_name


    class Last:
        def __init__(self, seat, seed):
            self.seat = seat

        def play(self, state):
            return card_name(state.legal[-1])


    def make(seat, seed):
        return Last(seat, seed)
''')


def test_a_plug_in_loads_from_a_file_and_from_a_module_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "last_bot.py").write_text(BOT)
    from_file = match(f"{tmp_path}/last_bot.py:make", "random", 3, seed=4)
    assert from_file.summary.deals == 3 and from_file.summary.players["A"].endswith("last_bot.py:make")
    monkeypatch.syspath_prepend(str(tmp_path))
    from_module = match("last_bot:make", "random", 3, seed=4)
    assert [r["games"] for r in from_module.records] == [r["games"] for r in from_file.records]
    first = from_file.records[0]["games"][0]
    assert first["declarer_player"] == "A" and len(first["cards"]) > 0


def test_derived_auctions_end_with_the_declarer() -> None:
    rng = random.Random(1)
    assert BID_VALUES[:10] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36)
    for _ in range(300):
        declarer = rng.randrange(3)
        limits = {seat: rng.choice([0, *BID_VALUES[:20]]) for seat in range(3)}
        limits[declarer] = rng.choice(BID_VALUES[:20])
        moves, bid = derived_auction(limits, declarer)
        assert bid <= limits[declarer]
        said = [int(move) for _, move in moves if move.isdigit()]
        assert said == sorted(said) and bid == said[-1]
        passed = {seat for seat, move in moves if move == "p"}
        assert declarer not in passed and len(passed) == 2
        assert moves[0][0] == 1 or moves[0][0] == 0  # middlehand speaks first (or forehand opens alone)


def test_a_generated_deal_is_bid_no_higher_than_its_game() -> None:
    for index in range(1, 30):
        d = generated_deal(5, index)
        assert d.bid is not None and d.bid <= contract_limit(d.game, d.twelve)
        assert d.bids and d.discard is not None and d.discard & ~d.twelve == 0
        assert generated_deal(5, index) == d
