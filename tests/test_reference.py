"""Tests of the plain Python reference solver (skatdd.engine.reference).

The reference solver is the oracle for the Cython engine, so it is checked
three ways: positions solved by hand (here and in
``tests/data/reference-positions.jsonl``, whose ``why`` fields give the
reasoning), internal consistency on random endgames (bounds, minimax
identity, principal variations), and symmetries of the rules (seat rotation,
suit relabelling).  Everything stays at four tricks a hand or fewer.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from skatdd.core.cards import ALL_CARDS, JACK, card_name, mask_of, parse_card, points_of
from skatdd.core.errors import DealFormatError
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, Game
from skatdd.engine.reference import (
    reference_can_take_all,
    reference_card_values,
    reference_line,
    reference_value,
)
from skatdd.formats.readers import position_from_json as spec_from_json
from skatdd.tools.generate import position_to_json, random_position

DATA = Path(__file__).parent / "data" / "reference-positions.jsonl"
ROWS = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def pos_of(game: str, declarer: int, hands: list[str], skat: str, *, leader: int = 0, trick: str = "",
           points: int = 0, dtricks: int = 0, ftricks: int = 0) -> Position:
    return position_from_json({
        "game": game, "declarer": declarer, "hands": hands, "skat": skat, "leader": leader, "trick": trick,
        "declarer_points": points, "declarer_tricks": dtricks, "defender_tricks": ftricks,
    })


def position_from_json(obj: dict) -> Position:
    """The position a JSON object describes, read as every command reads it."""
    return spec_from_json(obj).position()


def named(values: dict[int, int | bool]) -> dict[str, int | bool]:
    return {card_name(c): v for c, v in values.items()}


def played_mask(pos: Position) -> int:
    """Cards gone in completed tricks: in no hand, not on the table, not in the skat."""
    return ALL_CARDS & ~(pos.hands[0] | pos.hands[1] | pos.hands[2] | mask_of(pos.trick) | pos.skat)


def remaining_points(pos: Position) -> int:
    return sum(points_of(h) for h in pos.hands) + points_of(mask_of(pos.trick))


def assert_consistent(pos: Position) -> None:
    """The endgame could arise in a real game: trick counts and points fit the cards gone."""
    pos.validate()
    gone = played_mask(pos)
    assert gone.bit_count() % 3 == 0
    assert pos.declarer_tricks + pos.defender_tricks == gone.bit_count() // 3
    assert 0 <= pos.declarer_points <= points_of(gone)
    if pos.declarer_tricks == 0:
        assert pos.declarer_points == 0
    if pos.defender_tricks == 0:
        assert pos.declarer_points == points_of(gone)


def random_positions(seed: int, count: int, max_tricks: int = 3) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        game = ALL_GAMES[i % len(ALL_GAMES)]
        out.append(random_position(rng, game=game, tricks=1 + i % max_tricks, trick_cards=i % 3))
    return out


# ---------------------------------------------------------------------------
# Positions solved by hand
# ---------------------------------------------------------------------------

def test_cash_the_side_ace_before_giving_the_lead() -> None:
    # Hearts, declarer forehand with HJ SA; middlehand CJ S7; rearhand ST D7.
    # SA first: both defenders must follow spades (S7, ST): +21; then HJ loses to CJ.
    # HJ first: middlehand must win with CJ and rearhand smears ST on it;
    # SA S7 D7 is then worth only +11.
    pos = pos_of("hearts", 0, ["HJ SA", "CJ S7", "ST D7"], "D8 D9", points=40, dtricks=4, ftricks=4)
    assert named(reference_card_values(pos)) == {"HJ": 51, "SA": 61}
    assert reference_value(pos) == 61


def test_null_declarer_in_middle_must_duck() -> None:
    # Null, declarer middlehand.  Forehand led H9; the declarer must follow with
    # H8 (ducking) or HT (winning: rearhand has no heart).  After H8 the declarer
    # throws HT on the club lead.
    pos = pos_of("null", 1, ["C8", "HT H8", "C9 C7"], "D7 D8", leader=0, trick="H9", ftricks=8)
    assert named(reference_card_values(pos)) == {"H8": True, "HT": False}
    assert reference_value(pos) is True
    # reference_can_take_all asks about *forcing* every trick against resistance:
    # a declarer who wanted a trick would play HT, so the defenders cannot.
    assert reference_can_take_all(pos, False) is False


def test_finished_game_value_is_points_plus_skat() -> None:
    # No input describes a finished game (every reader wants a card left to play): built directly.
    pos = Position(Game.GRAND, 2, [0, 0, 0], mask_of([parse_card("CA"), parse_card("CT")]),
                   declarer_points=70, declarer_tricks=6, defender_tricks=4)
    assert reference_value(pos) == 91
    assert reference_card_values(pos) == {}
    assert reference_can_take_all(pos, True) and reference_can_take_all(pos, False)
    assert reference_line(pos) == []


def test_null_skat_points_do_not_count() -> None:
    # The skat's points only matter in suit and grand; null is won or lost.
    pos = pos_of("null", 0, ["D7", "DA", "DK"], "CA CT", ftricks=9)
    assert reference_value(pos) is True
    assert reference_line(pos) == [parse_card("D7"), parse_card("DA"), parse_card("DK")]


def test_trump_beats_led_ace_in_suit_game_only() -> None:
    # Middlehand (declarer) holds D7 against forehand's HA lead and no heart.
    # In diamonds D7 is a trump and wins HA+HK; in grand it is a plain card.
    hands = ["", "D7", "HK"]
    diamonds = pos_of("diamonds", 1, hands, "S7 S8", leader=0, trick="HA", points=50, dtricks=4, ftricks=5)
    grand = pos_of("grand", 1, hands, "S7 S8", leader=0, trick="HA", points=50, dtricks=4, ftricks=5)
    assert reference_value(diamonds) == 65
    assert reference_value(grand) == 50


def test_caller_position_is_not_changed() -> None:
    pos = random_position(random.Random(5), game=Game.SPADES, tricks=3, trick_cards=1)
    before = position_to_json(pos)
    history = list(pos.history)
    reference_value(pos)
    reference_card_values(pos)
    reference_can_take_all(pos, True)
    reference_line(pos)
    assert position_to_json(pos) == before
    assert pos.history == history


def test_malformed_positions_are_rejected() -> None:
    with pytest.raises(DealFormatError, match="seat"):
        reference_value(Position(Game.GRAND, 0, [0b11, 0b100, 0b1000], skat=0b110000))
    with pytest.raises(DealFormatError, match="repeats"):
        reference_value(Position(Game.GRAND, 0, [0b1, 0b1, 0b10], skat=0b1100))
    with pytest.raises(DealFormatError, match="skat"):
        reference_value(Position(Game.CLUBS, 0, [0b1, 0b10, 0b100], skat=0))


# ---------------------------------------------------------------------------
# The data file shared with the engine tests
# ---------------------------------------------------------------------------

def test_data_file_is_varied() -> None:
    assert len(ROWS) >= 40
    assert {row["game"] for row in ROWS} == {g.label for g in ALL_GAMES}
    assert {row["leader"] for row in ROWS} == {0, 1, 2}
    assert {len(row["trick"].split()) for row in ROWS} == {0, 1, 2}
    assert sum("why" in row for row in ROWS) >= 10
    assert {row["declarer_wins"] for row in ROWS} == {True, False}


@pytest.mark.parametrize("row", ROWS, ids=[f"id{row['id']}-{row['game']}" for row in ROWS])
def test_data_file_answers(row: dict) -> None:
    pos = position_from_json(row)
    assert_consistent(pos)
    value = reference_value(pos)
    if pos.game.is_null:
        assert row["value"] is None
        assert value is row["declarer_wins"]
    else:
        assert value == row["value"]
        assert row["declarer_wins"] == (value >= 61)
    assert named(reference_card_values(pos)) == row["card_values"]
    assert reference_can_take_all(pos, True) == row["declarer_can_take_all"]
    assert reference_can_take_all(pos, False) == row["defenders_can_take_all"]


# ---------------------------------------------------------------------------
# Consistency on random endgames
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("pos", random_positions(11, 36) + random_positions(12, 6, max_tricks=4),
                         ids=lambda p: f"{p.game.label}-{p.cards_left}")
def test_minimax_identities(pos: Position) -> None:
    assert_consistent(pos)
    value = reference_value(pos)
    values = reference_card_values(pos)
    assert values, "a live random position has legal cards"
    declarer_moves = pos.to_move == pos.declarer
    assert value == (max(values.values()) if declarer_moves else min(values.values()))
    if pos.game.is_null:
        assert isinstance(value, bool)
    else:
        low = pos.declarer_points + pos.skat_points
        assert low <= value <= low + remaining_points(pos)
        if reference_can_take_all(pos, True):
            assert value == low + remaining_points(pos)
        if reference_can_take_all(pos, False):
            assert value == low


@pytest.mark.parametrize("pos", random_positions(21, 24), ids=lambda p: f"{p.game.label}-{p.cards_left}")
def test_principal_variation_reproduces_value(pos: Position) -> None:
    value = reference_value(pos)
    work = pos.copy()
    for card in reference_line(pos):
        work.play(card)
        assert reference_value(work) == value
    assert work.is_over()
    if pos.game.is_null:
        assert value == (work.declarer_tricks == 0)
    else:
        assert work.declarer_points + work.skat_points == value
        defenders = points_of(played_mask(work)) - work.declarer_points
        assert value + defenders == 120  # every card point went to one side or the skat


@pytest.mark.parametrize("pos", random_positions(31, 18), ids=lambda p: f"{p.game.label}-{p.cards_left}")
def test_seat_rotation_changes_nothing(pos: Position) -> None:
    rotated = Position(
        pos.game, (pos.declarer + 1) % 3, [pos.hands[2], pos.hands[0], pos.hands[1]], pos.skat,
        (pos.leader + 1) % 3, list(pos.trick), pos.declarer_points, pos.declarer_tricks, pos.defender_tricks,
    )
    assert reference_value(rotated) == reference_value(pos)
    assert reference_card_values(rotated) == reference_card_values(pos)


def relabel(pos: Position, game: Game, suit_map: dict[int, int], *, move_jacks: bool) -> Position:
    """*pos* with printed suits renamed by *suit_map* (jacks kept unless *move_jacks*)."""
    def card(c: int) -> int:
        if (c & 7) == JACK and not move_jacks:
            return c
        return suit_map[c >> 3] * 8 + (c & 7)

    def mask(m: int) -> int:
        return mask_of(card(c) for c in range(32) if m >> c & 1)

    return Position(game, pos.declarer, [mask(h) for h in pos.hands], mask(pos.skat), pos.leader,
                    [card(c) for c in pos.trick], pos.declarer_points, pos.declarer_tricks, pos.defender_tricks)


@pytest.mark.parametrize("seed", range(6))
def test_suit_relabelling_changes_nothing(seed: int) -> None:
    rng = random.Random(seed)
    # Grand: the four plain suits are interchangeable (jacks keep their order).
    pos = random_position(rng, game=Game.GRAND, tricks=3)
    perm = [0, 1, 2, 3]
    rng.shuffle(perm)
    assert reference_value(relabel(pos, Game.GRAND, dict(enumerate(perm)), move_jacks=False)) == reference_value(pos)
    # Null: jacks are plain cards, so whole suits are interchangeable.
    pos = random_position(rng, game=Game.NULL, tricks=3)
    assert reference_value(relabel(pos, Game.NULL, dict(enumerate(perm)), move_jacks=True)) == reference_value(pos)
    # Suit game: renaming the trump suit together with the contract.
    pos = random_position(rng, game=Game.HEARTS, tricks=3)
    swap = {0: 0, 1: 3, 2: 2, 3: 1}  # hearts <-> clubs
    assert reference_value(relabel(pos, Game.CLUBS, swap, move_jacks=False)) == reference_value(pos)
