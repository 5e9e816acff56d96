"""Reading deals and positions: deal text, JSON, files, ISS records, and every validation error."""
from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

import pytest

from skatdd.core.cards import (
    CJ,
    DK,
    DQ,
    HA,
    HT,
    SA,
    Card,
    format_cards,
    format_mask,
    mask_of,
    parse_cards,
    points_of,
)
from skatdd.core.errors import (
    CardCountError,
    DealFormatError,
    DuplicateCardError,
    IllegalPlayError,
    InvalidCardError,
    InvalidGameError,
    InvalidSeatError,
    ISSFormatError,
    ScoringError,
    SkatddError,
)
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.formats.readers import GameSpec, format_deal_text, load_deal, parse_deal_text, position_from_json

DATA = Path(__file__).parent / "data"

#: The example deal of docs/cli.md ("A deal as text").
EXAMPLE = ("CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / "
           "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ")
EXAMPLE_HANDS = [
    "CJ SJ HA HT HK DA DT D9 D8 D7",
    "CA CT CK CQ C9 SA ST SK SQ S9",
    "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7",
]


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def mask(text: str) -> int:
    return mask_of(parse_cards(text))


def example_json(**changes) -> dict:
    obj = {"game": "grand", "declarer": 0, "hands": list(EXAMPLE_HANDS), "skat": "DK DQ"}
    obj.update(changes)
    return {k: v for k, v in obj.items() if v is not ...}


@contextmanager
def raises(exc_type, *fragments):
    """``pytest.raises(exc_type)`` whose message must hold every fragment."""
    with pytest.raises(exc_type) as info:
        yield info
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


# -- deal text ----------------------------------------------------------------------

def test_parse_example_deal():
    hands, skat = parse_deal_text(EXAMPLE)
    assert [format_cards(h) for h in hands] == EXAMPLE_HANDS
    assert skat == [DK, DQ]


def test_parse_deal_text_accepts_bars_commas_symbols_and_case():
    text = ("♣J, ♠J, ♥A, ♥10, HK, da, dt, d9, D8, D7 | CA,CT,CK,CQ,C9,SA,ST,SK,SQ,S9 | "
            "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 | K♦ Q♦")
    assert parse_deal_text(text) == parse_deal_text(EXAMPLE)
    assert parse_deal_text("\n  " + EXAMPLE + "  \n") == parse_deal_text(EXAMPLE)


def test_format_deal_text_round_trips():
    hands, skat = parse_deal_text(EXAMPLE)
    assert format_deal_text(hands, skat) == EXAMPLE
    assert parse_deal_text(format_deal_text(hands, skat, symbols=True)) == (hands, skat)
    masks = [mask_of(h) for h in hands]
    assert format_deal_text(masks, mask_of(skat)) == EXAMPLE  # the example is in display order


@pytest.mark.parametrize("text, groups", [
    ("CJ SJ", 1), ("a / b / c", 3), (EXAMPLE + " / CJ", 5), ("", 1), (EXAMPLE.replace("/", " "), 1),
])
def test_parse_deal_text_group_count(text, groups):
    with raises(DealFormatError, f"has {groups} group", "expected four groups"):
        parse_deal_text(text)


def test_parse_deal_text_unknown_card_names_token_and_group():
    with raises(InvalidCardError, "'X9'", "middlehand group", "expected"):
        parse_deal_text(EXAMPLE.replace("CQ", "X9"))


def test_parse_deal_text_duplicate_names_both_groups():
    with raises(DuplicateCardError, "'DJ'", "rearhand group", "skat group"):
        parse_deal_text(EXAMPLE.replace("DQ", "DJ"))
    with raises(DuplicateCardError, "'CA'", "middlehand group"):
        parse_deal_text(EXAMPLE.replace("CT", "CA"))


def test_parse_deal_text_counts_name_group():
    with raises(CardCountError, "skat group has 1 card", "'DK'", "expected 2"):
        parse_deal_text(EXAMPLE.replace(" DQ", ""))
    with raises(CardCountError, "forehand group has 11 cards", "expected 10"):
        parse_deal_text(EXAMPLE.replace(" DQ", "").replace("CJ SJ", "CJ SJ DQ"))
    with raises(CardCountError, "rearhand group has 9 cards"):
        parse_deal_text(EXAMPLE.replace(" H7 /", " /"))


def test_parse_deal_text_rejects_non_text():
    with raises(DealFormatError, "must be text"):
        parse_deal_text(None)  # type: ignore[arg-type]


# -- load_deal: text ------------------------------------------------------------------

def test_load_deal_text_needs_game_and_declarer():
    with raises(DealFormatError, "--game is required"):
        load_deal(EXAMPLE)
    with raises(DealFormatError, "--declarer is required"):
        load_deal(EXAMPLE, game=Game.GRAND)


def test_load_deal_text():
    spec = load_deal(EXAMPLE, game=Game.GRAND, declarer=0)
    assert spec.game == Game.GRAND and spec.declarer == 0 and not spec.ouvert
    assert [format_mask(h) for h in spec.hands] == EXAMPLE_HANDS
    assert spec.skat == mask("DK DQ")
    assert spec.played == [] and spec.trick == [] and spec.leader == 0
    pos = spec.position()
    assert isinstance(pos, Position)
    assert pos.cards_left == 30 and pos.to_move == 0
    assert (pos.declarer_points, pos.declarer_tricks, pos.defender_tricks) == (0, 0, 0)
    assert pos.value_so_far == 7


def test_load_deal_text_null_ouvert():
    spec = load_deal(EXAMPLE, game=Game.NULL, ouvert=True, declarer=2)
    assert spec.game == Game.NULL and spec.ouvert and spec.announce == ["ouvert"]
    assert spec.to_json()["game"] == "null" and spec.to_json()["announce"] == ["ouvert"]


def test_load_deal_not_a_file_nor_a_deal():
    with raises(DealFormatError, "'no/such-file.txt'", "neither a file nor a deal"):
        load_deal("no/such-file.txt", game=Game.GRAND, declarer=0)
    with raises(DealFormatError, "empty"):
        load_deal("   ", game=Game.GRAND, declarer=0)
    with raises(DealFormatError, "as text or a path"):
        load_deal(42)  # type: ignore[arg-type]


# -- load_deal: files -----------------------------------------------------------------

def test_load_deal_from_text_file_with_comments(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text("# the README's example deal\n\n" + EXAMPLE + "\n", encoding="utf-8")
    spec = load_deal(str(path), game=Game.CLUBS, declarer=1)
    assert spec.game == Game.CLUBS and spec.declarer == 1
    assert [format_mask(h) for h in spec.hands] == EXAMPLE_HANDS


def test_load_deal_from_json_file_with_bom(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text("\ufeff" + json.dumps(example_json(id="x1")), encoding="utf-8")
    spec = load_deal(str(path))
    assert spec.id == "x1" and spec.game == Game.GRAND


def test_load_deal_from_iss_file(tmp_path):
    line = (DATA / "iss-games.txt").read_text().splitlines()[0]
    path = tmp_path / "game.iss"
    path.write_text(line + "\n")
    assert load_deal(str(path)) == load_deal(line)


def test_load_deal_file_errors_name_the_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(EXAMPLE.replace("CQ", "Q9"))
    with raises(InvalidCardError, str(path), "'Q9'"):
        load_deal(str(path), game=Game.GRAND, declarer=0)
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n\n")
    with raises(DealFormatError, str(empty), "empty"):
        load_deal(str(empty))
    many = tmp_path / "many.jsonl"
    many.write_text(json.dumps(example_json()) + "\n" + json.dumps(example_json()) + "\n")
    with raises(DealFormatError, str(many), "malformed JSON", "one deal"):
        load_deal(str(many))
    binary = tmp_path / "binary.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with raises(DealFormatError, "cannot read", str(binary)):
        load_deal(str(binary))


def test_load_deal_multiple_iss_records(tmp_path):
    path = tmp_path / "games.iss"
    path.write_text((DATA / "iss-games.txt").read_text())
    with raises(ISSFormatError, "ISS records", "expected one"):
        load_deal(str(path))


# -- load_deal: JSON ------------------------------------------------------------------

def test_load_deal_json_string_and_overrides():
    text = json.dumps(example_json(game="null-ouvert", declarer="M", announce=["ouvert"]))
    spec = load_deal(text)
    assert (spec.game, spec.ouvert, spec.declarer) == (Game.NULL, True, 1)
    spec = load_deal(text, game=Game.CLUBS, declarer=2)
    assert (spec.game, spec.ouvert, spec.declarer, spec.announce) == (Game.CLUBS, False, 2, [])
    spec = load_deal(json.dumps(example_json(game="clubs")), game=Game.NULL, ouvert=True)
    assert (spec.game, spec.ouvert, spec.announce) == (Game.NULL, True, ["ouvert"])


def test_load_deal_json_without_game_uses_argument():
    obj = example_json(game=..., declarer=...)
    with raises(DealFormatError, "'game' is missing"):
        load_deal(json.dumps(obj))
    with raises(DealFormatError, "'declarer' is missing"):
        load_deal(json.dumps(obj), game=Game.HEARTS)
    spec = load_deal(json.dumps(obj), game=Game.HEARTS, declarer=1)
    assert (spec.game, spec.declarer) == (Game.HEARTS, 1)


# -- load_deal: ISS -------------------------------------------------------------------

def iss_lines() -> list[str]:
    return [line for line in (DATA / "iss-games.txt").read_text().splitlines() if line.strip()]


def test_load_deal_iss_record():
    spec = load_deal(iss_lines()[0])  # ID 541932: rearhand plays diamonds, picked up, discarded H8 CK
    assert spec.id == "541932"
    assert (spec.game, spec.declarer, spec.hand, spec.bid, spec.announce) == (Game.DIAMONDS, 2, False, 18, [])
    assert spec.skat == mask("ST H8")  # the discard, not the dealt skat H8 CK
    assert len(spec.played) == 30 and spec.played[:3] == cards("SA S7 DA")
    start = spec.start_position()
    assert start.cards_left == 30 and start.to_move == 0 and all(h.bit_count() == 10 for h in start.hands)
    end = spec.position()
    assert end.is_over() and end.value_so_far == 59  # R[... p:59 ...]
    assert [card for _, card in end.history] == spec.played


def test_load_deal_every_fixture_record():
    loaded = 0
    for line in iss_lines():
        try:
            spec = load_deal(line)
        except ISSFormatError as exc:
            assert "no game was played" in str(exc)
            continue
        loaded += 1
        spec.position()
        assert position_from_json(spec.to_json()) == spec
    assert loaded == 9


def test_load_deal_iss_null_ouvert_and_grand_ouvert():
    by_id = {}
    for line in iss_lines():
        try:
            spec = load_deal(line)
        except ISSFormatError:
            continue
        by_id[spec.id] = spec
    null_ouvert = by_id["1390253"]
    assert (null_ouvert.game, null_ouvert.ouvert, null_ouvert.announce) == (Game.NULL, True, ["ouvert"])
    grand_ouvert = by_id["727"]
    assert grand_ouvert.game == Game.GRAND and grand_ouvert.hand and grand_ouvert.ouvert
    assert grand_ouvert.announce == ["schneider", "schwarz", "ouvert"]


def test_load_deal_iss_override_game():
    original = load_deal(iss_lines()[0])
    assert load_deal(iss_lines()[0], declarer=2, game=Game.DIAMONDS) == original
    # Another contract or declarer: the same deal and skat, without the recorded plays.
    for spec in (load_deal(iss_lines()[0], game=Game.NULL), load_deal(iss_lines()[0], declarer=0)):
        assert spec.played == [] and spec.hands == original.hands and spec.skat == original.skat
    assert load_deal(iss_lines()[0], game=Game.NULL).game == Game.NULL
    assert load_deal(iss_lines()[0], declarer=0).declarer == 0


def test_load_deal_iss_malformed():
    with raises(ISSFormatError):
        load_deal("(;GM[Skat]MV[w CJ ]")
    with raises(ISSFormatError):
        load_deal(iss_lines()[0].replace("MV[", "XX["))


def test_load_deal_iss_play_out_of_turn():
    line = iss_lines()[0].replace(" 0 SA 1 S7 ", " 1 SA 0 S7 ")
    with pytest.raises(ISSFormatError, match="'SA'"):
        load_deal(line)


# -- JSON: fields -----------------------------------------------------------------------

def test_json_every_field():
    obj = {
        "id": {"deal": 7, "tags": ["a"]},
        "game": "C",
        "declarer": "middlehand",
        "hands": [["CJ", "SJ", "HA", "HT", "HK", "DA", "DT", "D9", "D8", "D7"],
                  "CA CT CK CQ C9 SA ST SK SQ S9",
                  "HJ,DJ,C8,C7,S8,S7,HQ,H9,H8,H7"],
        "skat": ["DK", "dq"],
        "played": "HA CA HQ",
        "hand": True,
        "announce": ["Schneider"],
        "bid": 48,
        "unknown_field": "ignored",
    }
    spec = position_from_json(obj)
    assert spec.id == {"deal": 7, "tags": ["a"]}
    assert (spec.game, spec.declarer, spec.hand, spec.announce, spec.bid) == (Game.CLUBS, 1, True, ["schneider"], 48)
    assert spec.skat == mask("DK DQ") and spec.played == cards("HA CA HQ")
    pos = spec.position()  # middlehand trumps the heart ace with CA
    assert pos.leader == 1 and pos.declarer_points == 11 + 11 + 3 and pos.declarer_tricks == 1
    assert spec.declaration().schneider and spec.declaration().hand


def test_json_endgame_fields():
    obj = {
        "game": "spades", "declarer": 1,
        "hands": ["CA CT", "SA S7", "HA"],
        "skat": "DK DQ",
        "leader": "R", "trick": ["HT"],
        "declarer_points": 40, "declarer_tricks": 4, "defender_tricks": 4,
    }
    spec = position_from_json(obj)
    pos = spec.position()
    assert (pos.leader, pos.trick, pos.to_move) == (2, [HT], 0)
    assert (pos.declarer_points, pos.declarer_tricks, pos.defender_tricks) == (40, 4, 4)
    assert spec.trick_counts() == (4, 4)


def test_json_text_input_and_null_fields_are_absent():
    obj = example_json(id=None, skat="DK DQ", played=None, leader=None, trick=None, declarer_points=None,
                       declarer_tricks=None, defender_tricks=None, hand=None, announce=None, bid=None)
    spec = position_from_json(json.dumps(obj))
    assert spec == position_from_json(example_json())
    assert spec.id is None and spec.bid is None and not spec.hand and spec.announce == []


@pytest.mark.parametrize("name, game, ouvert", [
    ("grand", Game.GRAND, False), ("G", Game.GRAND, False), ("clubs", Game.CLUBS, False), ("s", Game.SPADES, False),
    ("Hearts", Game.HEARTS, False), ("D", Game.DIAMONDS, False), ("null", Game.NULL, False),
    ("NO", Game.NULL, True), ("null-ouvert", Game.NULL, True),
])
def test_json_game_names(name, game, ouvert):
    spec = position_from_json(example_json(game=name))
    assert (spec.game, spec.ouvert) == (game, ouvert)


def test_json_null_announce_ouvert_is_null_ouvert():
    spec = position_from_json(example_json(game="null", announce=["ouvert"]))
    assert spec.ouvert and spec.announce == ["ouvert"]


def test_json_null_without_skat():
    spec = position_from_json(example_json(game="null", skat=...))
    assert spec.skat == 0 and "skat" not in spec.to_json()
    assert position_from_json(spec.to_json()) == spec


@pytest.mark.parametrize("seat, expected", [(0, 0), (1, 1), (2, 2), ("F", 0), ("m", 1), ("forehand", 0), ("2", 2)])
def test_json_seat_names(seat, expected):
    assert position_from_json(example_json(declarer=seat)).declarer == expected


def test_json_announce_as_string_and_canonical_order():
    spec = position_from_json(example_json(announce="schwarz, schneider schwarz", hand=True))
    assert spec.announce == ["schneider", "schwarz"]


# -- JSON: errors -------------------------------------------------------------------------

@pytest.mark.parametrize("text, fragment", [
    ('{"game": ', "malformed JSON"),
    ("{'game': 'grand'}", "malformed JSON"),
    ("", "malformed JSON"),
    ("[1, 2]", "must be an object"),
    ('"grand"', "must be an object"),
    ("null", "must be an object"),
])
def test_json_malformed(text, fragment):
    with raises(DealFormatError, fragment):
        position_from_json(text)


@pytest.mark.parametrize("changes, fragments", [
    ({"game": 3}, ["'game'", "number 3"]),
    ({"game": ["grand"]}, ["'game'", "array"]),
    ({"declarer": 1.5}, ["'declarer'", "number 1.5"]),
    ({"declarer": True}, ["'declarer'", "boolean"]),
    ({"declarer": [0]}, ["'declarer'"]),
    ({"leader": {}}, ["'leader'", "object"]),
    ({"hands": "CJ SJ"}, ["'hands'", "three hands"]),
    ({"hands": EXAMPLE_HANDS[:2]}, ["'hands'", "2 items"]),
    ({"hands": [EXAMPLE_HANDS[0], 5, EXAMPLE_HANDS[2]]}, ["'hands[1]'", "number 5"]),
    ({"hands": [EXAMPLE_HANDS[0], None, EXAMPLE_HANDS[2]]}, ["'hands[1]'", "null"]),
    ({"hands": [EXAMPLE_HANDS[0], ["CA", 7], EXAMPLE_HANDS[2]]}, ["'hands[1][1]'", "number 7"]),
    ({"skat": 12}, ["'skat'", "number 12"]),
    ({"played": {"a": 1}}, ["'played'", "object"]),
    ({"trick": True}, ["'trick'", "boolean"]),
    ({"declarer_points": "10"}, ["'declarer_points'", "string '10'"]),
    ({"declarer_points": 1.0}, ["'declarer_points'", "number 1.0"]),
    ({"declarer_tricks": False}, ["'declarer_tricks'", "boolean"]),
    ({"defender_tricks": [1]}, ["'defender_tricks'", "array"]),
    ({"hand": "yes"}, ["'hand'", "string 'yes'"]),
    ({"hand": 1}, ["'hand'", "number 1"]),
    ({"announce": 5}, ["'announce'", "number 5"]),
    ({"announce": ["schneider", 2]}, ["'announce'", "2"]),
    ({"announce": ["fast"]}, ["'announce'", "'fast'", "expected schneider, schwarz or ouvert"]),
    ({"bid": "18"}, ["'bid'", "string '18'"]),
    ({"bid": -1}, ["bid -1"]),
    ({"game": ...}, ["'game' is missing"]),
    ({"declarer": ...}, ["'declarer' is missing"]),
    ({"hands": ...}, ["'hands' is missing"]),
])
def test_json_wrong_types_name_the_field(changes, fragments):
    with raises(DealFormatError, *fragments):
        position_from_json(example_json(**changes))


def test_json_unknown_game_and_seat():
    with raises(InvalidGameError, "'game'", "'ramsch'", "expected"):
        position_from_json(example_json(game="ramsch"))
    with raises(InvalidSeatError, "'declarer'", "'3'", "expected"):
        position_from_json(example_json(declarer=3))
    with raises(InvalidSeatError, "'leader'", "'dealer'"):
        position_from_json(example_json(leader="dealer"))


def test_json_unknown_card_names_token_and_field():
    obj = example_json(hands=[EXAMPLE_HANDS[0], EXAMPLE_HANDS[1].replace("SQ", "SX"), EXAMPLE_HANDS[2]])
    with raises(InvalidCardError, "'SX'", "hands[1]", "middlehand", "expected"):
        position_from_json(obj)
    with raises(InvalidCardError, "'C1'", "'skat'"):
        position_from_json(example_json(skat=["C1", "DQ"]))
    with raises(InvalidCardError, "'ZZ'", "'played'"):
        position_from_json(example_json(played="CJ ZZ"))


def test_json_duplicate_cards_name_both_places():
    with raises(DuplicateCardError, "'CJ'", "hands[0]", "'skat'"):
        position_from_json(example_json(skat="CJ DQ"))
    with raises(DuplicateCardError, "'HJ'", "hands[2]", "'trick'"):
        position_from_json(example_json(trick="HJ"))
    with raises(DuplicateCardError, "'HA'", "hands[0]", "again"):
        position_from_json(example_json(hands=[EXAMPLE_HANDS[0] + " HA", EXAMPLE_HANDS[1], EXAMPLE_HANDS[2]]))
    with raises(DuplicateCardError, "'CJ'", "'played'"):
        position_from_json(example_json(played="CJ CA HJ CJ"))
    with raises(DuplicateCardError, "'DK'", "skat"):
        position_from_json(example_json(played="DK"))


def test_json_skat_counts():
    with raises(CardCountError, "skat has 0 cards", "expected two cards"):
        position_from_json(example_json(skat=...))
    with raises(CardCountError, "skat has 1 card", "'DK'"):
        position_from_json(example_json(skat="DK"))
    with raises(CardCountError, "skat has 1 card", "or none in null"):
        position_from_json(example_json(game="null", skat="DK"))


def test_json_played_must_be_legal():
    # Forehand leads HA; middlehand holds no heart, may play anything; rearhand must follow hearts.
    assert position_from_json(example_json(played="HA CA HQ")).position().leader == 0
    with raises(IllegalPlayError, "played[2]", "'C8'", "must follow 'HA'"):
        position_from_json(example_json(played="HA CA C8"))
    with raises(IllegalPlayError, "played[0]", "'CA'", "not in the hand of seat 0"):
        position_from_json(example_json(played="CA"))


def test_json_played_after_null_game_is_over():
    # Null, declarer forehand: HA wins the first trick, so the game is over.
    spec = position_from_json(example_json(game="null", played="HA CA HQ"))
    assert spec.position().is_over()
    with raises(IllegalPlayError, "played[3]", "'CJ'", "after the end of the game"):
        position_from_json(example_json(game="null", played="HA CA HQ CJ"))


def test_json_played_with_trick_leader_or_short_hands():
    short = ["CJ SJ HT HK DA DT D9 D8 D7", EXAMPLE_HANDS[1], EXAMPLE_HANDS[2]]
    with raises(DealFormatError, "trick 'HA'", "'played'"):
        position_from_json(example_json(hands=short, played="CJ", trick="HA"))
    with raises(DealFormatError, "leader 1", "'played'"):
        position_from_json(example_json(played="HA", leader=1))
    obj = example_json(hands=["CJ SJ HA HT HK DA DT D9 D8", EXAMPLE_HANDS[1], EXAMPLE_HANDS[2]], played="CJ")
    with raises(CardCountError, "forehand's hand has 9 cards", "expected 10"):
        position_from_json(obj)


# -- JSON: endgames --------------------------------------------------------------------------

def endgame(**changes) -> dict:
    """Grand, declarer forehand; three tricks gone: CA CT C9 / SA ST S9 / D7 D8 D9 (points 21 + 21 + 0)."""
    obj = {
        "game": "grand", "declarer": 0,
        "hands": ["CJ SJ HA HT HK DA DT", "CK CQ SK SQ S7 C7 C8", "HJ DJ S8 HQ H9 H8 H7"],
        "skat": "DK DQ",
    }
    obj.update(changes)
    return {k: v for k, v in obj.items() if v is not ...}


def test_endgame_inferred_trick_counts():
    spec = position_from_json(endgame(declarer_points=21))
    assert spec.trick_counts() == (1, 1)
    spec = position_from_json(endgame(declarer_points=42))
    assert spec.trick_counts() == (1, 0)
    spec = position_from_json(endgame())
    assert spec.trick_counts() == (0, 1)
    spec = position_from_json(endgame(declarer_tricks=2, declarer_points=21))
    assert spec.trick_counts() == (2, 1)
    spec = position_from_json(endgame(defender_tricks=3))
    assert spec.trick_counts() == (0, 3)
    spec = position_from_json(endgame(game="null", declarer_points=0))
    assert spec.trick_counts() == (0, 3)


def test_endgame_counts_stay_unset_in_spec_and_json():
    spec = position_from_json(endgame(declarer_points=21))
    assert spec.declarer_tricks is None and spec.defender_tricks is None
    assert "declarer_tricks" not in spec.to_json()
    pos = spec.start_position()
    assert (pos.declarer_tricks, pos.defender_tricks, pos.declarer_points) == (1, 1, 21)
    assert pos.cards_left == 21


@pytest.mark.parametrize("changes, fragments", [
    ({"declarer_points": 121}, ["declarer_points 121", "0..120"]),
    ({"declarer_points": -1}, ["declarer_points -1", "0..120"]),
    ({"declarer_points": 43}, ["declarer_points 43", "42 points", "already played"]),
    ({"declarer_tricks": -1}, ["declarer_tricks -1", "negative"]),
    ({"defender_tricks": 4}, ["defender_tricks 4", "3 tricks"]),
    ({"declarer_tricks": 1, "defender_tricks": 1}, ["= 2", "expected 3"]),
    ({"declarer_tricks": 0, "declarer_points": 21}, ["declarer_points 21", "won no trick"]),
    ({"defender_tricks": 3, "declarer_points": 21}, ["declarer_points 21", "won no trick"]),
    ({"declarer_tricks": 3, "declarer_points": 21}, ["defenders won no trick", "all 42 points"]),
])
def test_endgame_point_and_trick_errors(changes, fragments):
    with raises(DealFormatError, *fragments):
        position_from_json(endgame(**changes))


def test_full_deal_has_no_earlier_points():
    with raises(DealFormatError, "declarer_points 10", "0 points"):
        position_from_json(example_json(declarer_points=10))
    with raises(DealFormatError, "declarer_tricks 1", "0 tricks"):
        position_from_json(example_json(declarer_tricks=1))


def test_one_completed_trick_cannot_give_points_to_both_sides():
    # One trick gone (CA CT D7, 21 points): the declarer took all of it or none.
    hands = ["CJ SJ HA HT HK DA DT SA S9", "CK CQ SK SQ S7 C7 C8 C9 D8", "HJ DJ S8 HQ H9 H8 H7 ST D9"]
    assert position_from_json(endgame(hands=hands, declarer_points=21)).trick_counts() == (1, 0)
    with raises(DealFormatError, "declarer_points 11", "only 1 trick"):
        position_from_json(endgame(hands=hands, declarer_points=11))


@pytest.mark.parametrize("changes, fragments", [
    ({"hands": ["CJ SJ HA HT HK DA DT", "CK CQ SK SQ S7 C7", "HJ DJ S8 HQ H9 H8 H7"]},
     ["7/6/7", "expected 7/7/7", "no card in the current trick"]),
    ({"hands": ["CJ SJ HA HT HK DA", "CK CQ SK SQ S7 C7 C8", "HJ DJ S8 HQ H9 H8 H7"], "leader": 1, "trick": "DT"},
     ["6/7/7", "expected 7/6/7", "led by middlehand", "one card fewer"]),
    ({"hands": ["CJ SJ HA HT HK DA DT D9", "CK CQ SK SQ S7 C7 C8 CA", "HJ DJ S8 HQ H9 H8 H7 ST CT C9"]},
     ["8/8/10", "expected 8/8/8"]),
    ({"game": "null", "skat": ...,
      "hands": ["CJ SJ HA HT HK DA DT D9 D8 D7 CA", "CK CQ SK SQ S7 C7 C8 CT C9 SA ST", "HJ DJ S8 HQ H9 H8 H7 S9 DK DQ"]},
     ["forehand's hand has 11 cards", "at most 10"]),
])
def test_endgame_hand_sizes_must_fit_the_trick(changes, fragments):
    with raises(CardCountError, *fragments):
        position_from_json(endgame(**changes))


def test_endgame_sizes_out_of_range():
    with raises(CardCountError, "empty"):
        GameSpec(game=Game.GRAND, hands=[0, 0, 0], skat=mask("CJ SJ")).validate()
    with raises(CardCountError, "0/0/0", "expected 0/1/1"):
        GameSpec(game=Game.GRAND, hands=[0, 0, 0], skat=mask("CJ SJ"), trick=cards("CA")).validate()


def test_endgame_trick_states():
    # Middlehand led DT; forehand and rearhand still hold seven cards, rearhand is to play.
    obj = endgame(hands=["CJ SJ HA HT HK DA D7", "CK CQ SK SQ S7 C7", "HJ DJ S8 HQ H9 H8 H7"], leader=1, trick="DT")
    pos = position_from_json(obj).position()
    assert pos.to_move == 2 and pos.trick == cards("DT") and pos.cards_left == 20
    # Rearhand led H7, forehand followed with HK; middlehand is to play.
    obj = endgame(hands=["CJ SJ HA HT DA DT", "CK CQ SK SQ S7 C7 C8", "HJ DJ S8 HQ H9 H8"], leader=2, trick="H7 HK")
    spec = position_from_json(obj)
    pos = spec.position()
    assert pos.to_move == 1 and pos.cards_left == 19 and pos.trick == cards("H7 HK")
    assert position_from_json(spec.to_json()) == spec


def test_trick_with_three_cards():
    obj = endgame(hands=["CJ SJ HA HT HK DA", "CK CQ SK SQ S7 C7", "HJ DJ S8 HQ H9 H8"], trick="DT C8 H7")
    with raises(CardCountError, "trick has 3 cards", "expected 0, 1 or 2"):
        position_from_json(obj)


def test_trick_cards_must_follow_given_the_hands():
    # Rearhand led H7 and forehand played DT, but forehand still holds hearts.
    obj = endgame(hands=["CJ SJ HA HT HK DA", "CK CQ SK SQ S7 C7 C8", "HJ DJ S8 HQ H9 H8"], leader=2, trick="H7 DT")
    with raises(IllegalPlayError, "'DT'", "forehand", "'H7'", "'HA HT HK'"):
        position_from_json(obj)
    # In grand a jack is no heart: a forehand holding only jacks and diamonds may discard DT.
    obj = endgame(hands=["CJ SJ HJ DA D9 D8", "CK CQ SK SQ S7 C7 C8", "HA HT HK DJ S8 HQ"], leader=2,
                  trick="H7 DT")
    assert position_from_json(obj).position().to_move == 1


def test_spec_normalises_declaration():
    spec = GameSpec(game=Game.NULL, ouvert=True, hands=[0, 0, 0])
    assert spec.announce == ["ouvert"]
    spec = GameSpec(game=Game.GRAND, announce=["Ouvert", "schneider", "schwarz", "schneider"], hand=True)
    assert spec.ouvert and spec.announce == ["schneider", "schwarz", "ouvert"]
    assert GameSpec(announce="Schwarz, schneider").announce == ["schneider", "schwarz"]  # type: ignore[arg-type]
    spec = GameSpec(game="NO")  # type: ignore[arg-type]
    assert spec.game == Game.NULL and spec.ouvert
    with raises(DealFormatError, "'fast'"):
        GameSpec(announce=["fast"])
    with raises(InvalidGameError, "'x'"):
        GameSpec(game="x")  # type: ignore[arg-type]


def test_spec_declaration_uses_scoring_rules():
    # The reader refuses a declaration the rules forbid (tests/test_reader_verdict.py), and so does validate().
    with pytest.raises(ScoringError):
        position_from_json(example_json(announce=["schneider"]))
    spec = position_from_json(example_json())
    spec.announce = ["schneider"]
    with pytest.raises(ScoringError):
        spec.declaration()
    with pytest.raises(ScoringError):
        spec.validate()


def test_spec_validate_rejects_bad_direct_construction():
    base = position_from_json(example_json())
    for changes, exc in [
        ({"declarer": 3}, InvalidSeatError),
        ({"declarer": "0"}, DealFormatError),
        ({"leader": -1}, InvalidSeatError),
        ({"hands": [1 << 40, 0, 0]}, DealFormatError),
        ({"hands": [0, 0]}, DealFormatError),
        ({"trick": [32]}, InvalidCardError),
        ({"played": [-1]}, InvalidCardError),
        ({"declarer_points": None}, DealFormatError),
        ({"bid": 1.5}, DealFormatError),
        ({"hand": "no"}, DealFormatError),
        ({"hands": [base.hands[0] | base.skat, base.hands[1], base.hands[2]]}, DuplicateCardError),
    ]:
        spec = GameSpec(**{**base.__dict__, **changes})
        with pytest.raises(exc):
            spec.validate()


# -- JSON: round trips and fixtures ------------------------------------------------------------

def test_to_json_canonical_codes_and_round_trip():
    obj = example_json(id=3, hands=["♣J ♠J ♥A ♥10 HK da dt d9 d8 d7", EXAMPLE_HANDS[1], EXAMPLE_HANDS[2]],
                       played=["h10", "C9"], bid=18, hand=True, announce=["schneider"])
    spec = position_from_json(obj)
    out = spec.to_json()
    assert out == {
        "id": 3, "game": "grand", "declarer": 0, "hands": EXAMPLE_HANDS, "skat": "DK DQ",
        "played": "HT C9", "declarer_points": 0, "hand": True, "announce": ["schneider"], "bid": 18,
    }
    assert position_from_json(out) == spec
    assert position_from_json(json.dumps(out)) == spec


def test_solved_deals_fixture_loads():
    lines = (DATA / "solved-deals.jsonl").read_text().splitlines()
    assert lines
    for number, line in enumerate(lines, start=1):
        spec = position_from_json(line)
        assert spec.id == json.loads(line)["id"], number
        pos = spec.position()
        assert pos.cards_left == 30 and pos.value_so_far == points_of(spec.skat) * (not spec.game.is_null)
        assert load_deal(line) == spec


@pytest.mark.parametrize("game", ["grand", "clubs", "hearts", "null"])
@pytest.mark.parametrize("count", [1, 2, 3, 10, 14])
def test_endgame_equals_replayed_game(game, count):
    """An endgame written from a played-out game gives the same position."""
    start = position_from_json(example_json(game=game)).position()
    for _ in range(count):
        start.play(start.legal_moves()[-1])
    spec = position_from_json(example_json(game=game, played=format_cards(c for _, c in start.history)))
    pos = spec.position()
    out = {
        "game": game, "declarer": 0, "hands": [format_mask(h) for h in pos.hands], "skat": "DK DQ",
        "leader": pos.leader, "trick": format_cards(pos.trick), "declarer_points": pos.declarer_points,
        "declarer_tricks": pos.declarer_tricks, "defender_tricks": pos.defender_tricks,
    }
    end = position_from_json(out).position()
    assert (end.hands, end.leader, end.trick, end.declarer_points, end.declarer_tricks, end.defender_tricks) == (
        pos.hands, pos.leader, pos.trick, pos.declarer_points, pos.declarer_tricks, pos.defender_tricks)
    assert end.legal_moves() == pos.legal_moves()


def test_errors_are_skatdd_errors():
    for exc in (CardCountError, DealFormatError, DuplicateCardError, IllegalPlayError, InvalidCardError,
                InvalidGameError, InvalidSeatError, ISSFormatError):
        assert issubclass(exc, SkatddError)
    assert (HA, SA, CJ) == tuple(cards("HA SA CJ"))
