"""The Stegen count and its rule of thumb, and the rule that says what the skat changes."""
from __future__ import annotations

import pytest

from skatdd.analysis.bid.skat_rule import skat_rule
from skatdd.analysis.bid.stegen import THRESHOLD, stegen_count, ten_card_matadors
from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.errors import CardCountError
from skatdd.core.rules import Game


@pytest.mark.parametrize(("hand", "points", "game", "bid"), [
    # 10 trumps (4 jacks x 2 + 6 clubs), 2 full cards, all four jacks +2, three void side suits +1.5.
    ("CJ SJ HJ DJ CA CT CK CQ C9 C8", 19.5, Game.CLUBS, 132),
    # No jack, no ace: three clubs and four tens.
    ("CT CK CQ ST SK SQ HT HK HQ DT", 7.0, Game.CLUBS, None),
    # Hearts: 3 jacks x 2 + 4 hearts, HA HT SA; the spade, heart and diamond jack without the club jack +0.5.
    # Without 1, game 2: 20.
    ("SJ HJ DJ HA HT HK H9 SA C7 D7", 13.5, Game.HEARTS, 20),
    # Diamonds: 2 jacks x 2 + 5 diamonds, DA DT SA; club and spade jack +0.5; hearts void +0.5.  With 2: 27.
    ("CJ SJ DA DT DK D9 D8 SA S7 C8", 13.0, Game.DIAMONDS, 27),
    # Exactly the threshold (2 + 5 trumps, 3 full cards) and just below it (2 + 5, 2 full cards).
    ("CJ DA DT DK D9 D8 S7 ST H7 C7", 10.0, Game.DIAMONDS, 18),
    ("HJ DA DT D9 D8 D7 S7 S8 H7 C8", 9.0, Game.DIAMONDS, None),
    # A club jack is no club: clubs count as void.
    ("CJ DA DT D9 D8 D7 S7 S8 H7 H8", 9.5, Game.DIAMONDS, None),
])
def test_stegen_count(hand: str, points: float, game: Game, bid: int | None) -> None:
    count = stegen_count(hand)
    assert (count.points, count.game, count.bid) == (points, game, bid)
    assert (count.bid is not None) == (count.points >= THRESHOLD)
    assert count.by_suit[game] == points == max(count.by_suit.values())
    assert count.to_json()["game"] == game.label
    assert ("pass" in count.rule) == (bid is None)


def test_ten_card_matadors() -> None:
    assert ten_card_matadors(Game.CLUBS, mask_of(parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 C8"))) == 10
    assert ten_card_matadors(Game.GRAND, mask_of(parse_cards("HJ DA DT D9 D8 D7 S7 S8 H7 C8"))) == -2
    assert ten_card_matadors(Game.SPADES, mask_of(parse_cards("D7 D8 D9 DT DA H7 H8 H9 C7 C8"))) == -11


def test_stegen_needs_ten_cards() -> None:
    with pytest.raises(CardCountError):
        stegen_count("CJ SJ")


def table(rows: list[tuple[str, str]]) -> list[tuple[int, str]]:
    return [(mask_of(parse_cards(s)), g) for s, g in rows]


def test_skat_rule_one_game() -> None:
    rule = skat_rule(table([("C7 D7", "clubs"), ("SA H8", "clubs")]))
    assert rule.text == "clubs whatever the skat" and (rule.fits, rule.total) == (2, 2)


def test_skat_rule_two_clauses_and_a_misfit() -> None:
    rows = [("CJ S7", "grand"), ("SJ D8", "grand"), ("H7 H8", "hearts"), ("HA H9", "hearts"),
            ("D7 S8", "clubs"), ("S9 D9", "clubs"), ("SK D8", "clubs"), ("HK S7", "spades")]
    rule = skat_rule(table(rows))
    assert rule.default == "clubs"
    assert rule.clauses == (("a jack", "grand"), ("a heart", "hearts"))
    assert rule.text == "grand with a jack in the skat, hearts with a heart in the skat, else clubs"
    assert (rule.fits, rule.total) == (7, 8)   # only HK S7 (named hearts, chosen spades) misfits


def test_skat_rule_needs_a_skat() -> None:
    with pytest.raises(ValueError):
        skat_rule([])
