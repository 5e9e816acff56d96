"""Cards: encoding, every accepted text form, errors, CardSet."""
from __future__ import annotations

import pytest

import skatdd.core.cards as cards_module
from skatdd.core.cards import (
    ALL_CARDS,
    C7,
    CA,
    CARD_NAMES,
    CARD_POINTS,
    CJ,
    CT,
    D7,
    DA,
    DJ,
    HA,
    HJ,
    HT,
    SA,
    SJ,
    SQ,
    CardSet,
    card_name,
    card_symbol,
    cards_of,
    display_sorted,
    format_cards,
    format_mask,
    mask_of,
    parse_card,
    parse_cards,
    points_of,
    rank_of,
    split_card_tokens,
    suit_of,
)
from skatdd.core.errors import CardCountError, DuplicateCardError, InvalidCardError, SkatddError

# -- encoding -----------------------------------------------------------------

def test_encoding_is_suit_times_eight_plus_rank():
    assert D7 == 0 and DA == 7 and CJ == 28 and CA == 31
    assert suit_of(CJ) == 3 and rank_of(CJ) == 4
    assert suit_of(HT) == 1 and rank_of(HT) == 3
    assert len(CARD_NAMES) == 32 and len(set(CARD_NAMES)) == 32


def test_named_constants_match_names():
    for card, name in enumerate(CARD_NAMES):
        assert getattr(cards_module, name) == card
        assert card_name(card) == name


def test_card_points_total_120():
    assert sum(CARD_POINTS) == 120
    assert points_of(ALL_CARDS) == 120
    assert [CARD_POINTS[c] for c in (CA, CT, cards_module.CK, cards_module.CQ, CJ, cards_module.C9, C7)] == [
        11, 10, 4, 3, 2, 0, 0]


# -- parsing every form -------------------------------------------------------

@pytest.mark.parametrize("token, card", [
    ("CJ", CJ), ("cj", CJ), ("cJ", CJ), ("Cj", CJ), (" CJ ", CJ),
    ("HT", HT), ("ht", HT), ("H10", HT), ("h10", HT),
    ("D7", D7), ("SA", SA), ("sq", SQ),
    ("♣J", CJ), ("J♣", CJ), ("♣j", CJ), ("j♣", CJ),
    ("♥10", HT), ("10♥", HT), ("♥T", HT), ("T♥", HT), ("♥t", HT),
    ("♦7", D7), ("7♦", D7), ("♠A", SA), ("A♠", SA),
    ("♠\ufe0fA", SA), ("A♠\ufe0f", SA), ("♥\ufe0e10", HT),
])
def test_parse_card_accepted_forms(token, card):
    assert parse_card(token) == card


@pytest.mark.parametrize("card", range(32))
def test_every_card_round_trips_in_every_form(card):
    name = card_name(card)
    assert parse_card(name) == card
    assert parse_card(name.lower()) == card
    assert parse_card(card_symbol(card)) == card
    symbol, rank = card_symbol(card)[0], card_symbol(card)[1:]
    assert parse_card(rank + symbol) == card
    if name[1] == "T":
        assert parse_card(name[0] + "10") == card


def test_card_symbol_uses_10():
    assert card_symbol(HT) == "♥10"
    assert card_symbol(CJ) == "♣J"


@pytest.mark.parametrize("token", [
    "", " ", "X9", "C1", "C", "J", "CJJ", "JC", "10H", "♣", "♣♣J", "♣CJ", "C 10", "C11", "H0", "CJ,",
    "Z", "11♣", "♣1", "ΑJ", "10", "ſJ", "ſ10",
])
def test_parse_card_rejects_and_quotes_token(token):
    with pytest.raises(InvalidCardError) as info:
        parse_card(token)
    assert repr(token) in str(info.value)
    assert "expected" in str(info.value)


def test_errors_are_value_errors():
    assert issubclass(InvalidCardError, SkatddError)
    assert issubclass(SkatddError, ValueError)


# -- lists --------------------------------------------------------------------

def test_split_card_tokens():
    assert split_card_tokens("CJ, SJ  HA.HT\tD7\n") == ["CJ", "SJ", "HA", "HT", "D7"]
    assert split_card_tokens("") == []


def test_parse_cards_keeps_order_and_accepts_iterables():
    assert parse_cards("HA cj ♠J") == [HA, CJ, SJ]
    assert parse_cards(["HA", "CJ"]) == [HA, CJ]
    assert parse_cards("CJ,SJ,HJ") == [CJ, SJ, HJ]
    assert parse_cards("") == []


def test_parse_cards_duplicate_names_token():
    with pytest.raises(DuplicateCardError) as info:
        parse_cards("CJ SJ cj", what="the hand")
    assert "'cj'" in str(info.value) and "the hand" in str(info.value)


def test_parse_cards_count():
    assert parse_cards("CJ SJ", count=2) == [CJ, SJ]
    with pytest.raises(CardCountError) as info:
        parse_cards("CJ SJ HJ", count=2, what="skat")
    assert "skat has 3 cards 'CJ SJ HJ': expected 2" in str(info.value)


def test_parse_cards_invalid_names_token():
    with pytest.raises(InvalidCardError, match="'XX'"):
        parse_cards("CJ XX")


def test_format_cards_and_mask():
    assert format_cards([HT, CJ]) == "HT CJ"
    assert format_cards([HT, CJ], symbols=True) == "♥10 ♣J"
    assert format_cards([]) == ""
    # Display order: jacks C S H D, then clubs, spades, hearts, diamonds, each A T K Q 9 8 7.
    assert format_mask(mask_of([D7, HJ, CA, CJ, DA, HT, SQ])) == "CJ HJ CA SQ HT DA D7"
    assert display_sorted([DJ, CJ, HJ, SJ]) == [CJ, SJ, HJ, DJ]


def test_mask_helpers():
    assert mask_of([]) == 0
    assert mask_of([D7, CA]) == 1 | 1 << 31
    assert cards_of(1 | 1 << 31) == [D7, CA]
    assert cards_of(ALL_CARDS) == list(range(32))
    assert points_of(mask_of([CA, CT, CJ])) == 23


def test_points_of_sums_the_cards_points():
    # points_of counts ranks by bit masks: every card alone, and mixed masks, against the card table.
    assert [points_of(1 << c) for c in range(32)] == list(CARD_POINTS)
    for mask in (0x12345678, 0xDEADBEEF, 0x0F0F0F0F, 0xF0F0F0F0, ALL_CARDS ^ (1 << CA)):
        assert points_of(mask) == sum(CARD_POINTS[c] for c in range(32) if mask >> c & 1)


# -- CardSet ------------------------------------------------------------------

def test_cardset_constructors_agree():
    from_text = CardSet("CJ SJ HA")
    assert CardSet(from_text.mask) == from_text
    assert CardSet([CJ, SJ, HA]) == from_text
    assert CardSet(from_text) == from_text
    assert CardSet() == CardSet(0) == CardSet("")
    assert not CardSet()


@pytest.mark.parametrize("text", ["", "CJ", "CJ SJ HA", "D7 C7 HT", " ".join(CARD_NAMES)])
def test_cardset_repr_round_trips_through_eval(text):
    s = CardSet(text)
    again = eval(repr(s), {"CardSet": CardSet})
    assert again == s and repr(again) == repr(s)


def test_cardset_repr_and_str():
    assert repr(CardSet("HA CJ")) == "CardSet('CJ HA')"
    assert str(CardSet("HA CJ")) == "CJ HA"


def test_cardset_set_ops():
    a = CardSet("CJ SJ HA")
    b = CardSet("SJ HT")
    assert a | b == CardSet("CJ SJ HA HT")
    assert a & b == CardSet("SJ")
    assert a - b == CardSet("CJ HA")
    assert a ^ b == CardSet("CJ HA HT")
    assert len(a) == 3 and CJ in a and HT not in a
    assert "CJ" not in a and -1 not in a and 40 not in a
    assert list(a) == [CJ, SJ, HA]
    assert a.points() == 2 + 2 + 11
    assert hash(a) == hash(CardSet([HA, SJ, CJ]))
    assert a != a.mask


def test_cardset_ops_need_cardsets():
    s = CardSet("CJ")
    for op in ("__or__", "__and__", "__sub__", "__xor__"):
        assert getattr(s, op)(s.mask) is NotImplemented
    with pytest.raises(TypeError):
        s | 1
    with pytest.raises(TypeError):
        s - {CJ}


def test_cardset_is_immutable():
    s = CardSet("CJ")
    with pytest.raises(AttributeError):
        s.mask = 0  # type: ignore[misc]


def test_cardset_rejects_bad_input():
    with pytest.raises(ValueError):
        CardSet(1 << 32)
    with pytest.raises(ValueError):
        CardSet(-1)
    with pytest.raises(InvalidCardError):
        CardSet([32])
    with pytest.raises(InvalidCardError, match="'XZ'"):
        CardSet("CJ XZ")
    with pytest.raises(DuplicateCardError):
        CardSet("CJ CJ")
