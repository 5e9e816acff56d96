"""Rules: contracts and seats by name, trump orders, follow groups, legal moves, trick winners."""
from __future__ import annotations

import pytest

from skatdd.core.cards import (
    C7,
    CA,
    CARD_NAMES,
    CJ,
    D7,
    D8,
    D9,
    DJ,
    H7,
    H8,
    HA,
    HJ,
    HT,
    S7,
    S8,
    SA,
    SJ,
    Card,
    cards_of,
    mask_of,
    parse_cards,
)
from skatdd.core.errors import IllegalPlayError, InvalidGameError, InvalidSeatError
from skatdd.core.position import Position
from skatdd.core.rules import (
    ALL_GAMES,
    JACKS,
    SUIT_GAMES,
    TRUMP_GROUP,
    Game,
    follow_group,
    group_mask,
    legal_mask,
    parse_game,
    parse_seat,
    power,
    suit_mask,
    trick_winner,
    trump_mask,
)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def mask(text: str) -> int:
    return mask_of(parse_cards(text))


# -- names --------------------------------------------------------------------

@pytest.mark.parametrize("name, game", [
    ("grand", Game.GRAND), ("G", Game.GRAND), ("g", Game.GRAND), ("Grand", Game.GRAND),
    ("clubs", Game.CLUBS), ("C", Game.CLUBS), ("CLUBS", Game.CLUBS),
    ("spades", Game.SPADES), ("s", Game.SPADES),
    ("hearts", Game.HEARTS), ("H", Game.HEARTS),
    ("diamonds", Game.DIAMONDS), ("d", Game.DIAMONDS),
    ("null", Game.NULL), ("N", Game.NULL), (" null ", Game.NULL),
])
def test_parse_game_names(name, game):
    assert parse_game(name) == (game, False)


@pytest.mark.parametrize("name", ["null-ouvert", "NO", "no", "Null-Ouvert", "null_ouvert"])
def test_parse_game_null_ouvert_plays_as_null(name):
    assert parse_game(name) == (Game.NULL, True)


def test_parse_game_passes_game_through():
    assert parse_game(Game.HEARTS) == (Game.HEARTS, False)


@pytest.mark.parametrize("name", ["", "x", "ramsch", "grands", "3", "kreuz"])
def test_parse_game_rejects_and_quotes(name):
    with pytest.raises(InvalidGameError) as info:
        parse_game(name)
    assert repr(name) in str(info.value) and "expected" in str(info.value)


def test_game_properties():
    assert [g.label for g in ALL_GAMES] == ["grand", "clubs", "spades", "hearts", "diamonds", "null"]
    assert all(g.is_suit and not g.is_null for g in SUIT_GAMES)
    assert not Game.GRAND.is_suit and not Game.NULL.is_suit and Game.NULL.is_null


@pytest.mark.parametrize("text, seat", [
    (0, 0), (1, 1), (2, 2), ("0", 0), ("1", 1), ("2", 2), ("F", 0), ("m", 1), ("R", 2),
    ("forehand", 0), ("Middlehand", 1), ("REARHAND", 2),
])
def test_parse_seat(text, seat):
    assert parse_seat(text) == seat


@pytest.mark.parametrize("text", [3, -1, "3", "x", "", "dealer", True, False])
def test_parse_seat_rejects_and_quotes(text):
    with pytest.raises(InvalidSeatError) as info:
        parse_seat(text)
    assert repr(str(text)) in str(info.value) or repr(text) in str(info.value)


# -- trump orders ---------------------------------------------------------------

def trumps_high_to_low(game: Game) -> list[str]:
    return [CARD_NAMES[c] for c in sorted(cards_of(trump_mask(game)), key=lambda c: -power(c, game))]


@pytest.mark.parametrize("game, letter", [
    (Game.CLUBS, "C"), (Game.SPADES, "S"), (Game.HEARTS, "H"), (Game.DIAMONDS, "D"),
])
def test_suit_game_trumps(game, letter):
    expected = ["CJ", "SJ", "HJ", "DJ"] + [letter + r for r in "ATKQ987"]
    assert trumps_high_to_low(game) == expected
    assert trump_mask(game).bit_count() == 11


def test_grand_trumps_are_the_jacks():
    assert trumps_high_to_low(Game.GRAND) == ["CJ", "SJ", "HJ", "DJ"]
    assert trump_mask(Game.GRAND) == JACKS


def test_null_has_no_trumps():
    assert trump_mask(Game.NULL) == 0


@pytest.mark.parametrize("game, plain", [
    (Game.GRAND, "SA ST SK SQ S9 S8 S7"),
    (Game.CLUBS, "HA HT HK HQ H9 H8 H7"),
    (Game.HEARTS, "DA DT DK DQ D9 D8 D7"),
])
def test_plain_suit_order_a_t_k_q_9_8_7(game, plain):
    powers = [power(c, game) for c in cards(plain)]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 7


def test_null_order_a_k_q_j_t_9_8_7():
    order = cards("SA SK SQ SJ ST S9 S8 S7")
    powers = [power(c, Game.NULL) for c in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 8


# -- follow groups ----------------------------------------------------------------

def test_jacks_are_trump_in_suit_and_grand_plain_in_null():
    for game in (*SUIT_GAMES, Game.GRAND):
        for jack in (CJ, SJ, HJ, DJ):
            assert follow_group(jack, game) == TRUMP_GROUP
    assert [follow_group(j, Game.NULL) for j in (DJ, HJ, SJ, CJ)] == [0, 1, 2, 3]


def test_trump_suit_cards_follow_as_trump():
    assert follow_group(CA, Game.CLUBS) == TRUMP_GROUP
    assert follow_group(CA, Game.GRAND) == 3
    assert follow_group(SA, Game.CLUBS) == 2
    assert follow_group(D7, Game.DIAMONDS) == TRUMP_GROUP


def test_group_masks():
    assert group_mask(2, Game.CLUBS) == suit_mask(2) & ~(1 << SJ)
    assert group_mask(2, Game.GRAND) == suit_mask(2) & ~(1 << SJ)
    assert group_mask(2, Game.NULL) == suit_mask(2)
    assert group_mask(TRUMP_GROUP, Game.CLUBS) == JACKS | suit_mask(3)
    assert group_mask(TRUMP_GROUP, Game.GRAND) == JACKS
    for game in ALL_GAMES:
        groups = [group_mask(g, game) for g in range(5)]
        assert sum(g.bit_count() for g in groups) == 32
        union = 0
        for g in groups:
            assert union & g == 0
            union |= g
        assert union == (1 << 32) - 1


# -- legal moves ------------------------------------------------------------------

@pytest.mark.parametrize("game, led, hand, legal", [
    (Game.GRAND, S8, "SJ SA H7", "SA"),          # the jack is trump, not a spade
    (Game.NULL, S8, "SJ SA H7", "SJ SA"),        # in null the jack is a spade
    (Game.SPADES, S8, "SJ SA H7", "SJ SA"),      # spades are trump: jacks follow
    (Game.CLUBS, S8, "SJ SA H7", "SA"),
    (Game.DIAMONDS, CJ, "SJ SA H7", "SJ"),       # jack led: trump must be followed
    (Game.DIAMONDS, CJ, "D7 SA H7", "D7"),       # a trump-suit card follows a jack
    (Game.GRAND, CJ, "D7 SA H7", "D7 SA H7"),    # no jack: free choice
    (Game.NULL, CJ, "D7 SA H7", "D7 SA H7"),     # no club: free choice
    (Game.HEARTS, HA, "HJ C7 D7", "HJ"),
    (Game.HEARTS, CA, "CJ C7 D7", "C7"),
    (Game.GRAND, None, "CJ SA H7", "CJ SA H7"),  # leading: anything
])
def test_legal_mask(game, led, hand, legal):
    assert legal_mask(mask(hand), led, game) == mask(legal)


def test_position_legal_moves_and_illegal_play_messages():
    pos = Position(Game.GRAND, 0, [mask("SA CJ"), mask("S7 SJ"), mask("H7 H8")], skat=mask("D7 D8"))
    assert pos.legal_moves() == [SA, CJ]
    pos.play(SA)
    assert pos.legal_moves() == [S7]
    with pytest.raises(IllegalPlayError, match="'SJ' is illegal for seat 1: it must follow 'SA'"):
        pos.play(SJ)
    with pytest.raises(IllegalPlayError, match="'H7' is not in the hand of seat 1"):
        pos.play(H7)


# -- trick winners ----------------------------------------------------------------

@pytest.mark.parametrize("game, trick, winner", [
    # grand: only jacks trump; suits A T K Q 9 8 7
    (Game.GRAND, "SA ST DJ", 2),
    (Game.GRAND, "SA ST HA", 0),
    (Game.GRAND, "S7 SK ST", 2),
    (Game.GRAND, "DJ CA SJ", 2),
    (Game.GRAND, "ST SA S7", 1),
    (Game.GRAND, "CJ SJ HJ", 0),
    (Game.GRAND, "H7 CA DA", 0),
    # clubs
    (Game.CLUBS, "HA C7 HT", 1),
    (Game.CLUBS, "C7 DJ CA", 1),
    (Game.CLUBS, "CA CT SJ", 2),
    (Game.CLUBS, "SA SJ S7", 1),
    (Game.CLUBS, "HJ CA SJ", 2),
    # spades
    (Game.SPADES, "SA CJ S7", 1),
    (Game.SPADES, "HT HA SJ", 2),
    (Game.SPADES, "HK HQ DA", 0),
    (Game.SPADES, "S7 SA ST", 1),
    # hearts
    (Game.HEARTS, "HJ HA H7", 0),
    (Game.HEARTS, "D7 DA H7", 2),
    (Game.HEARTS, "CT CA HJ", 2),
    (Game.HEARTS, "CQ CK C9", 1),
    # diamonds
    (Game.DIAMONDS, "DA DJ CJ", 2),
    (Game.DIAMONDS, "ST SA DJ", 2),
    (Game.DIAMONDS, "CA CK C7", 0),
    (Game.DIAMONDS, "D7 D8 HA", 1),
    # null: no trumps, A K Q J T 9 8 7, jacks in their suit
    (Game.NULL, "SJ SQ SK", 2),
    (Game.NULL, "ST SJ S9", 1),
    (Game.NULL, "CA CJ HA", 0),
    (Game.NULL, "H7 H8 CJ", 1),
    (Game.NULL, "DT D9 DJ", 2),
    (Game.NULL, "D7 CA HA", 0),
])
def test_trick_winner(game, trick, winner):
    assert trick_winner(cards(trick), game) == winner


def test_trick_points_and_winner_through_position():
    # Clubs, declarer forehand.  Forehand leads HA, middlehand trumps with C7, rearhand HT.
    pos = Position(Game.CLUBS, 0, [mask("HA D7"), mask("C7 D8"), mask("HT D9")], skat=mask("SA ST"))
    assert pos.play(HA) is None
    assert pos.play(C7) is None
    assert pos.play(HT) == 1
    assert (pos.leader, pos.declarer_points, pos.declarer_tricks, pos.defender_tricks) == (1, 0, 0, 1)
    assert pos.play(D8) is None and pos.play(D9) is None
    assert pos.play(D7) == 2 and pos.is_over()
    assert pos.value_so_far == 21  # the skat only


def test_null_game_is_over_when_declarer_takes_a_trick():
    pos = Position(Game.NULL, 1, [mask("H7 D7"), mask("HA DA"), mask("H8 D8")], skat=mask("CA CK"))
    pos.play(H7)
    pos.play(HA)
    pos.play(H8)
    assert pos.declarer_tricks == 1 and pos.is_over()
    assert pos.skat_points == 0

