"""Tests for skatdd.core.scoring: ISkO game values, scores and Seeger-Fabian points."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatdd.core.cards import CardSet, mask_of, parse_cards
from skatdd.core.errors import CardCountError, InvalidGameError, ScoringError, SkatddError
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration, Score, base_value, matadors, null_value, score_game, trump_order

ISS_GAMES = Path(__file__).parent / "data" / "iss-games.txt"

CLUBS, SPADES, HEARTS, DIAMONDS, GRAND, NULL = (
    Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS, Game.GRAND, Game.NULL,
)


def twelve(text: str) -> int:
    return mask_of(parse_cards(text, count=12))


# --------------------------------------------------------------------------- Declaration

class TestDeclaration:
    def test_plain_defaults(self):
        d = Declaration(CLUBS)
        assert (d.hand, d.schneider, d.schwarz, d.ouvert) == (False, False, False, False)
        assert d.announce == []

    def test_schwarz_implies_schneider(self):
        d = Declaration(SPADES, hand=True, schwarz=True)
        assert d.schneider and d.schwarz
        assert d.announce == ["schneider", "schwarz"]

    @pytest.mark.parametrize("game", [CLUBS, GRAND])
    def test_suit_and_grand_ouvert_imply_hand_schneider_schwarz(self, game):
        d = Declaration(game, ouvert=True)
        assert (d.hand, d.schneider, d.schwarz, d.ouvert) == (True, True, True, True)
        assert d.announce == ["schneider", "schwarz", "ouvert"]

    def test_null_ouvert_does_not_imply_hand(self):
        d = Declaration(NULL, ouvert=True)
        assert not d.hand and not d.schneider and not d.schwarz
        assert d.announce == ["ouvert"]

    @pytest.mark.parametrize("level", ["schneider", "schwarz"])
    def test_announcement_without_hand_is_an_error(self, level):
        with pytest.raises(ScoringError, match=f"'{level}' announced without hand"):
            Declaration(HEARTS, **{level: True})

    @pytest.mark.parametrize("level", ["schneider", "schwarz"])
    def test_null_cannot_announce_schneider_or_schwarz(self, level):
        with pytest.raises(ScoringError, match=f"'{level}' cannot be announced in a null game"):
            Declaration(NULL, hand=True, **{level: True})

    def test_scoring_error_is_a_skatdd_value_error(self):
        with pytest.raises(SkatddError):
            Declaration(CLUBS, schneider=True)
        with pytest.raises(ValueError):
            Declaration(CLUBS, schneider=True)

    def test_game_must_be_a_game(self):
        with pytest.raises(ScoringError, match=r"'clubs' is not a skatdd\.core\.rules\.Game"):
            Declaration("clubs")  # type: ignore[arg-type]

    def test_frozen(self):
        d = Declaration(CLUBS)
        with pytest.raises(AttributeError):
            d.hand = True  # type: ignore[misc]

    def test_equality_after_normalisation(self):
        assert Declaration(GRAND, ouvert=True) == Declaration(GRAND, hand=True, schneider=True, schwarz=True, ouvert=True)

    def test_from_options_case_insensitive(self):
        d = Declaration.from_options(CLUBS, hand=True, announce=["SchWarz"])
        assert d == Declaration(CLUBS, hand=True, schwarz=True)

    def test_from_options_ouvert_token(self):
        assert Declaration.from_options(GRAND, announce=["ouvert"]).ouvert
        assert Declaration.from_options(NULL, announce=["OUVERT"], hand=True) == Declaration(NULL, hand=True, ouvert=True)

    def test_from_options_repeats_are_harmless(self):
        d = Declaration.from_options(SPADES, hand=True, announce=["schneider", "schneider"])
        assert d.announce == ["schneider"]

    def test_from_options_unknown_token_is_named(self):
        with pytest.raises(ScoringError, match="unknown announcement 'schnieder'"):
            Declaration.from_options(CLUBS, hand=True, announce=["schnieder"])

    def test_from_options_accepts_game_names(self):
        assert Declaration.from_options("null-ouvert") == Declaration(NULL, ouvert=True)
        assert Declaration.from_options("G", hand=True) == Declaration(GRAND, hand=True)
        with pytest.raises(InvalidGameError, match="'bogus'"):
            Declaration.from_options("bogus")

    def test_from_options_schneider_without_hand(self):
        with pytest.raises(ScoringError, match="without hand"):
            Declaration.from_options(CLUBS, announce=["schneider"])

    @pytest.mark.parametrize("decl, text", [
        (Declaration(CLUBS), "clubs"),
        (Declaration(CLUBS, hand=True, schwarz=True), "clubs hand schwarz announced"),
        (Declaration(HEARTS, hand=True, schneider=True), "hearts hand schneider announced"),
        (Declaration(GRAND, ouvert=True), "grand ouvert"),
        (Declaration(NULL, ouvert=True, hand=True), "null ouvert hand"),
        (Declaration(NULL, hand=True), "null hand"),
    ])
    def test_str(self, decl, text):
        assert str(decl) == text


# --------------------------------------------------------------------------- matadors

class TestMatadors:
    def test_trump_order(self):
        assert [c for c in trump_order(CLUBS)] == parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 C8 C7")
        assert list(trump_order(GRAND)) == parse_cards("CJ SJ HJ DJ")
        assert trump_order(NULL) == ()

    def test_with_one(self):
        assert matadors(HEARTS, twelve("CJ HJ HA HT H7 SA ST S7 CA CT D7 D8")) == 1

    def test_with_two(self):
        assert matadors(HEARTS, twelve("CJ SJ HA HT H7 SA ST S7 CA CT D7 D8")) == 2

    def test_with_four_jacks_then_trump_ace(self):
        assert matadors(SPADES, twelve("CJ SJ HJ DJ SA ST S7 CA CT D7 D8 H7")) == 6
        assert matadors(SPADES, twelve("CJ SJ HJ DJ SA SK S7 CA CT D7 D8 H7")) == 5
        assert matadors(GRAND, twelve("CJ SJ HJ DJ SA ST S7 CA CT D7 D8 H7")) == 4

    def test_with_eleven(self):
        assert matadors(DIAMONDS, twelve("CJ SJ HJ DJ DA DT DK DQ D9 D8 D7 CA")) == 11

    def test_without_two_iss_record(self):
        # ISS record 1: rearhand D8 D7 DT CT ST C7 HK DA HT HJ + skat H8 CK, diamonds: m:-2
        assert matadors(DIAMONDS, twelve("D8 D7 DT CT ST C7 HK DA HT HJ H8 CK")) == -2

    def test_without_eleven_means_no_trump_at_all(self):
        # 'without 11': all 11 trumps rank above the declarer's highest trump, i.e. he has none.
        hand = twelve("CA CT CK CQ C9 C8 C7 SA ST SK SQ S9")
        assert matadors(DIAMONDS, hand) == -11
        assert matadors(HEARTS, hand) == -11
        # The same cards in a clubs game hold the trump ace: without 4.
        assert matadors(CLUBS, hand) == -4

    def test_grand_without_four(self):
        assert matadors(GRAND, twelve("CA CT CK CQ C9 C8 C7 SA ST SK SQ S9")) == -4

    def test_grand_without_one(self):
        assert matadors(GRAND, twelve("SJ HJ DJ CA CT CK SA ST SK HA HT HK")) == -1

    def test_null_has_no_matadors(self):
        assert matadors(NULL, twelve("CJ SJ HJ DJ SA ST S7 CA CT D7 D8 H7")) == 0

    def test_accepts_a_cardset(self):
        assert matadors(CLUBS, CardSet("CJ SJ HJ CA CT CK SA ST SK HA HT HK")) == 3

    @pytest.mark.parametrize("cards", ["CJ SJ", "CJ SJ HJ DJ SA ST S7 CA CT D7 D8 H7 H8"])
    def test_needs_twelve_cards(self, cards):
        with pytest.raises(CardCountError, match="expected 12"):
            matadors(CLUBS, mask_of(parse_cards(cards)))


# --------------------------------------------------------------------------- values

def test_base_values():
    assert [base_value(g) for g in (DIAMONDS, HEARTS, SPADES, CLUBS, GRAND)] == [9, 10, 11, 12, 24]
    with pytest.raises(ScoringError, match="null has no base value"):
        base_value(NULL)


@pytest.mark.parametrize("ouvert, hand, value", [(False, False, 23), (False, True, 35), (True, False, 46), (True, True, 59)])
def test_null_values(ouvert, hand, value):
    assert null_value(Declaration(NULL, hand=hand, ouvert=ouvert)) == value


def test_null_value_of_a_suit_game_is_an_error():
    with pytest.raises(ScoringError, match="'clubs' is not a null game"):
        null_value(Declaration(CLUBS))


# --------------------------------------------------------------------------- worked examples

def test_clubs_ouvert_with_two_is_108():
    # ISkO 5.2.6: 2 + game + hand + schneider + schn. announced + schwarz + schwarz announced + ouvert = 9 x 12
    s = score_game(Declaration(CLUBS, ouvert=True), matadors=2, points=120, tricks=10)
    assert (s.multiplier, s.game_value, s.score, s.declarer_wins) == (9, 108, 108, True)
    assert [label for label, _ in s.levels] == [
        "with 2", "game", "hand", "schneider", "schneider announced", "schwarz", "schwarz announced", "ouvert",
    ]


def test_grand_ouvert_with_four_is_264():
    s = score_game(Declaration(GRAND, ouvert=True), matadors=4, points=120, tricks=10)
    assert (s.multiplier, s.game_value, s.score) == (11, 264, 264)


def test_clubs_hand_schwarz_announced_with_three_is_108():
    # docs/rules.md, Announcements: 9 levels x 12
    s = score_game(Declaration(CLUBS, hand=True, schwarz=True), matadors=3, points=120, tricks=10)
    assert (s.multiplier, s.game_value, s.score) == (9, 108, 108)


def test_overbid_bid_22_diamonds_with_one():
    # ISkO 5.4.2 / docs/rules.md, Overbid: 18 < 22 -> charged 27 -> -54, even though the points won.
    s = score_game(Declaration(DIAMONDS), matadors=1, points=75, bid=22)
    assert s.overbid and not s.declarer_wins
    assert (s.game_value, s.score, s.seeger, s.seeger_defenders) == (18, -54, -104, 40)


def test_null_ouvert_hand_lost_is_minus_118():
    s = score_game(Declaration(NULL, hand=True, ouvert=True), tricks=1)
    assert (s.game_value, s.score, s.declarer_wins, s.multiplier, s.matadors) == (59, -118, False, 0, 0)
    assert (s.seeger, s.seeger_defenders) == (-168, 40)


def test_without_eleven_game():
    hand = twelve("CA CT CK CQ C9 C8 C7 SA ST SK SQ S9")
    m = matadors(HEARTS, hand)
    s = score_game(Declaration(HEARTS), matadors=m, points=61)
    assert (s.matadors, s.multiplier, s.game_value, s.score) == (-11, 12, 120, 120)


# --------------------------------------------------------------------------- multiplier levels

@pytest.mark.parametrize("decl, kwargs, multiplier", [
    (Declaration(SPADES), dict(points=61), 2),                                     # with 1, game
    (Declaration(SPADES, hand=True), dict(points=61), 3),                          # + hand
    (Declaration(SPADES), dict(points=90), 3),                                     # + schneider reached
    (Declaration(SPADES, hand=True, schneider=True), dict(points=90), 5),          # + hand + schneider + announced
    (Declaration(SPADES), dict(points=120, tricks=10), 4),                         # schneider + schwarz reached
    (Declaration(SPADES, hand=True), dict(points=120, tricks=10), 5),
    (Declaration(SPADES, hand=True, schneider=True), dict(points=120, tricks=10), 6),
    (Declaration(SPADES, hand=True, schwarz=True), dict(points=120, tricks=10), 7),
    (Declaration(SPADES, ouvert=True), dict(points=120, tricks=10), 8),
])
def test_each_multiplier_level(decl, kwargs, multiplier):
    s = score_game(decl, matadors=1, **kwargs)
    assert s.multiplier == multiplier
    assert s.game_value == 11 * multiplier
    assert s.declarer_wins and s.score == s.game_value


def test_announced_level_counts_when_not_reached():
    # Schneider announced, made only 89: schneider + announced still count, game lost double.
    s = score_game(Declaration(HEARTS, hand=True, schneider=True), matadors=2, points=89)
    assert s.multiplier == 2 + 1 + 1 + 1 + 1
    assert not s.declarer_wins and s.score == -2 * 60
    assert s.schneider is None


def test_schneider_announced_made_exactly_90():
    s = score_game(Declaration(HEARTS, hand=True, schneider=True), matadors=2, points=90)
    assert s.declarer_wins and s.score == 6 * 10


def test_schwarz_announced_without_all_tricks_is_lost():
    s = score_game(Declaration(CLUBS, hand=True, schwarz=True), matadors=3, points=118, tricks=9)
    assert not s.declarer_wins
    assert s.multiplier == 9 and s.score == -216
    assert s.schneider == "declarer" and s.schwarz is None


def test_schwarz_announced_with_tricks_omitted_is_lost():
    s = score_game(Declaration(CLUBS, hand=True, schwarz=True), matadors=3, points=120)
    assert not s.declarer_wins and s.schwarz is None


def test_ouvert_losing_a_zero_point_trick_is_lost():
    s = score_game(Declaration(GRAND, ouvert=True), matadors=4, points=120, tricks=9)
    assert not s.declarer_wins and s.score == -528


def test_reached_and_announced_counts_once_per_level():
    reached = score_game(Declaration(DIAMONDS, hand=True), matadors=1, points=95)
    announced = score_game(Declaration(DIAMONDS, hand=True, schneider=True), matadors=1, points=95)
    assert announced.multiplier == reached.multiplier + 1  # only 'schneider announced' is added


# --------------------------------------------------------------------------- win/loss, schneider, schwarz either way

@pytest.mark.parametrize("points, wins", [(0, False), (60, False), (61, True), (120, True)])
def test_61_points_wins(points, wins):
    assert score_game(Declaration(GRAND), matadors=1, points=points).declarer_wins is wins


@pytest.mark.parametrize("points, schneider", [(30, "defenders"), (31, None), (89, None), (90, "declarer")])
def test_schneider_either_way(points, schneider):
    assert score_game(Declaration(GRAND), matadors=1, points=points).schneider == schneider


def test_lost_game_is_doubled():
    s = score_game(Declaration(HEARTS), matadors=-2, points=59)
    assert (s.multiplier, s.game_value, s.score, s.seeger, s.seeger_defenders) == (3, 30, -60, -110, 40)


def test_declarer_schneider_adds_a_level_to_the_loss():
    s = score_game(Declaration(HEARTS), matadors=-2, points=30)
    assert s.schneider == "defenders"
    assert (s.multiplier, s.score) == (4, -80)


def test_declarer_schwarz_adds_two_levels_to_the_loss():
    s = score_game(Declaration(GRAND), matadors=1, points=0, tricks=0)
    assert (s.schneider, s.schwarz) == ("defenders", "defenders")
    assert (s.multiplier, s.score) == (4, -192)


def test_declarer_schwarz_keeps_skat_points():
    s = score_game(Declaration(GRAND, hand=True), matadors=-4, points=22, tricks=0)
    assert s.schwarz == "defenders" and s.multiplier == 4 + 1 + 1 + 1 + 1


def test_defenders_schwarz():
    s = score_game(Declaration(SPADES), matadors=-3, points=120, tricks=10)
    assert (s.schneider, s.schwarz, s.multiplier, s.score) == ("declarer", "declarer", 6, 66)


def test_120_points_without_every_trick_is_not_schwarz():
    s = score_game(Declaration(SPADES), matadors=1, points=120, tricks=9)
    assert (s.schneider, s.schwarz, s.multiplier) == ("declarer", None, 3)


def test_won_game_seeger():
    s = score_game(Declaration(GRAND), matadors=2, points=70)
    assert (s.score, s.seeger, s.seeger_defenders) == (72, 122, 0)


# --------------------------------------------------------------------------- overbid

def test_overbid_only_when_value_below_bid():
    assert not score_game(Declaration(DIAMONDS), matadors=1, points=75, bid=18).overbid
    s = score_game(Declaration(DIAMONDS), matadors=1, points=95, bid=27)
    assert not s.overbid and s.declarer_wins and s.score == 27  # schneider lifts 18 to 27


def test_overbid_charge_is_the_next_multiple_of_the_base():
    s = score_game(Declaration(CLUBS, hand=True), matadors=-1, points=70, bid=40)  # 36 < 40 -> 48
    assert s.overbid and s.game_value == 36 and s.score == -96


def test_overbid_bid_equal_to_a_multiple():
    s = score_game(Declaration(DIAMONDS), matadors=2, points=41, bid=36)  # 27 < 36 -> 36
    assert s.overbid and s.score == -72


def test_lost_on_points_but_not_overbid():
    s = score_game(Declaration(DIAMONDS), matadors=1, points=30, bid=27)  # schneider: 27, not below the bid
    assert not s.overbid and s.score == -54


def test_null_below_the_bid_cannot_be_declared():
    with pytest.raises(ScoringError, match="cannot be declared after a bid of 24"):
        score_game(Declaration(NULL), tricks=0, bid=24)
    assert score_game(Declaration(NULL, hand=True), tricks=0, bid=35).score == 35


# --------------------------------------------------------------------------- null

@pytest.mark.parametrize("decl, value", [
    (Declaration(NULL), 23),
    (Declaration(NULL, hand=True), 35),
    (Declaration(NULL, ouvert=True), 46),
    (Declaration(NULL, hand=True, ouvert=True), 59),
])
def test_null_scores(decl, value):
    won = score_game(decl, tricks=0)
    lost = score_game(decl, tricks=3)
    assert (won.declarer_wins, won.score, won.seeger, won.seeger_defenders) == (True, value, value + 50, 0)
    assert (lost.declarer_wins, lost.score, lost.seeger, lost.seeger_defenders) == (False, -2 * value, -2 * value - 50, 40)
    assert won.schneider is None and won.schwarz is None and won.levels == ()


def test_null_ignores_points_and_matadors():
    assert score_game(Declaration(NULL, ouvert=True), matadors=3, points=14, tricks=0).score == 46


def test_null_needs_tricks():
    with pytest.raises(ScoringError, match="needs the declarer's tricks"):
        score_game(Declaration(NULL))


# --------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("kwargs, message", [
    (dict(matadors=1), "clubs needs the declarer's card points"),
    (dict(matadors=1, points=121), "points 121 is out of range: expected 0..120"),
    (dict(matadors=1, points=-1), "points -1 is out of range"),
    (dict(matadors=1, points="70"), "points '70' is not an integer"),
    (dict(matadors=0, points=70), "matadors 0 is not possible in clubs"),
    (dict(matadors=12, points=70), "matadors 12 is not possible in clubs"),
    (dict(matadors=-12, points=70), "matadors -12 is not possible"),
    (dict(matadors=1, points=70, tricks=11), "tricks 11 is out of range: expected 0..10"),
    (dict(matadors=1, points=100, tricks=10), "points 100 contradict tricks 10"),
    (dict(matadors=1, points=23, tricks=0), "points 23 contradict tricks 0"),
    (dict(matadors=1, points=70, bid=17), "bid 17 is out of range: expected 18..264"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ScoringError, match=re.escape(message)):
        score_game(Declaration(CLUBS), **kwargs)


def test_grand_matadors_at_most_four():
    with pytest.raises(ScoringError, match=re.escape("matadors 5 is not possible in grand: expected with 1..4")):
        score_game(Declaration(GRAND), matadors=5, points=70)
    assert score_game(Declaration(GRAND), matadors=-4, points=70).multiplier == 5


def test_declaration_required():
    with pytest.raises(ScoringError, match=r"is not a skatdd\.core\.scoring\.Declaration"):
        score_game(CLUBS, matadors=1, points=70)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Score

def test_to_json_keys_and_values():
    s = score_game(Declaration(DIAMONDS), matadors=1, points=75, bid=22)
    assert s.to_json() == {
        "matadors": 1, "multiplier": 2, "game_value": 18, "declarer_wins": False, "schneider": None,
        "schwarz": None, "overbid": True, "score": -54, "seeger": -104, "seeger_defenders": 40,
    }


def test_score_equality_ignores_levels():
    s = score_game(Declaration(GRAND), matadors=2, points=70)
    assert s == Score(2, 3, 72, True, None, None, False, 72, 122, 0)


@given(
    game=st.sampled_from([DIAMONDS, HEARTS, SPADES, CLUBS, GRAND]),
    top=st.integers(1, 11), with_=st.booleans(), hand=st.booleans(),
    level=st.sampled_from(["", "schneider", "schwarz", "ouvert"]),
    points=st.integers(0, 120), tricks=st.one_of(st.none(), st.integers(0, 10)),
    bid=st.one_of(st.none(), st.integers(18, 264)),
)
def test_score_invariants(game, top, with_, hand, level, points, tricks, bid):
    top = min(top, 11 if game.is_suit else 4)
    if level and level != "ouvert":
        hand = True
    if tricks == 10:
        points = 120
    if tricks == 0:
        points = min(points, 22)
    decl = Declaration.from_options(game, hand=hand, announce=[level] if level else [])
    m = top if with_ else -top
    s = score_game(decl, matadors=m, points=points, tricks=tricks, bid=bid)
    assert s.multiplier == sum(count for _, count in s.levels) >= 2
    assert s.game_value == base_value(game) * s.multiplier
    assert s.overbid == (bid is not None and s.game_value < bid)
    if s.declarer_wins:
        assert points >= 61 and s.score == s.game_value and s.seeger == s.score + 50 and s.seeger_defenders == 0
    else:
        assert s.score < 0 and s.score % (2 * base_value(game)) == 0
        assert s.seeger == s.score - 50 and s.seeger_defenders == 40
        if not s.overbid:
            assert s.score == -2 * s.game_value
        else:
            assert bid is not None and -s.score // 2 >= bid > -s.score // 2 - base_value(game)


# --------------------------------------------------------------------------- ISS records

_DECLARATION = re.compile(r"^([GCSHDN])([HOSZ]*)(?:\.|$)")
_ISS_GAME = {"G": GRAND, "C": CLUBS, "S": SPADES, "H": HEARTS, "D": DIAMONDS, "N": NULL}


def _iss_cases():
    """(record id, declaration, twelve, bid, result fields) for every record that was played."""
    cases = []
    for line in ISS_GAMES.read_text().splitlines():
        if not line.strip():
            continue
        record_id = re.search(r"ID\[(\d+)\]", line).group(1)
        result = re.search(r"\]R\[([^\]]*)\]", line).group(1)
        fields = dict(f.split(":", 1) for f in result.split() if ":" in f)
        if "d" not in fields or int(fields["d"]) < 0:
            continue  # passed or penalty: nothing was declared
        declarer = int(fields["d"])
        moves = re.search(r"MV\[([^\]]*)\]", line).group(1).split()
        pairs = list(zip(moves[0::2], moves[1::2], strict=True))
        deal = pairs[0][1].split(".")
        hand_and_skat = deal[10 * declarer:10 * declarer + 10] + deal[30:32]
        bid = max(int(m) for who, m in pairs if who != "w" and m.isdigit())
        declared = next(_DECLARATION.match(m) for who, m in pairs if who == str(declarer) and _DECLARATION.match(m))
        game, mods = _ISS_GAME[declared.group(1)], declared.group(2)
        decl = Declaration(
            game, hand="H" in mods, ouvert="O" in mods,
            schneider=("S" in mods) and not game.is_null, schwarz=("Z" in mods) and not game.is_null,
        )
        cases.append(pytest.param(decl, mask_of(parse_cards(hand_and_skat)), bid, result.split(), fields, id=record_id))
    return cases


@pytest.mark.parametrize("decl, cards, bid, words, fields", _iss_cases())
def test_iss_records(decl, cards, bid, words, fields):
    """Every played fixture record: matadors, score, win/loss, overbid and levels match the server's R[...]."""
    m = matadors(decl.game, cards)
    assert m == int(fields["m"])
    s = score_game(decl, matadors=m, points=int(fields["p"]), tricks=int(fields["t"]), bid=bid)
    assert s.score == int(fields["v"])
    assert s.declarer_wins == ("win" in words)
    assert s.overbid == ("overbid" in words)
    if not decl.game.is_null:
        assert (s.schneider is not None) == (fields["s"] == "1")
        assert (s.schwarz is not None) == (fields["z"] == "1")


def test_iss_fixture_cases_found():
    ids = {p.id for p in _iss_cases()}
    assert ids == {"541932", "596891", "684159", "8650652", "1039093", "1390253", "26496", "727", "18358"}


def test_iss_second_record_by_hand():
    # R[d:2 loss v:-72 m:1 overbid p:41]: rearhand D9 DQ CQ HJ SQ SA CJ H7 CA ST + skat DK HK, diamonds, bid 36.
    cards = twelve("D9 DQ CQ HJ SQ SA CJ H7 CA ST DK HK")
    assert matadors(DIAMONDS, cards) == 1
    s = score_game(Declaration(DIAMONDS), matadors=1, points=41, tricks=4, bid=36)
    assert (s.game_value, s.overbid, s.score) == (18, True, -72)
