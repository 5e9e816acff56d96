"""Card counts in messages agree with their number: "the skat has 1 card", never "1 cards" (errors.plural)."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from skatdd.analysis.best.api import best_contracts
from skatdd.cli import cli
from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.errors import CardCountError, DealFormatError, plural
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import matadors
from skatdd.present.review import summary_lines

HAND = "CJ SJ HA HT HK DA DT D9 D8 D7"
WRONG = re.compile(r"\b1 (cards|worlds|lines|tricks)\b")


def test_plural() -> None:
    assert [plural(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


@pytest.mark.parametrize("args, expected", [
    (["odds", *HAND.split(), "--seat", "0", "--skat", "CA"], "the skat has 1 card 'CA': expected 2"),
    (["odds", "CJ", "--seat", "0"], "has 1 card 'CJ': expected 10"),
    (["null-ouvert", "C7", "C8", "C9", "CT", "CQ", "S7", "S8", "S9", "ST", "SQ", "--declarer", "0", "--skat", "HA"],
     "the skat has 1 card 'HA': expected 2"),
    (["null-ouvert", "C7", "--declarer", "0", "--skat", "HA HK"], "the hand has 1 card 'C7': expected 10"),
    (["solve", json.dumps({"game": "grand", "declarer": 0, "hands": [HAND, "CA", "CT"], "skat": "HJ DJ",
                           "played": "CJ"})], "middlehand's hand has 1 card 'CA': expected 10"),
])
def test_one_card_is_one_card(args: list[str], expected: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.stderr
    assert expected in result.stderr and not WRONG.search(result.stderr), result.stderr


def test_one_card_in_the_python_api() -> None:
    with pytest.raises(CardCountError, match="has 1 card 'CJ': expected 2"):
        parse_cards("CJ", count=2, what="the skat")
    with pytest.raises(CardCountError, match="hold 1 card: expected 12"):
        matadors(Game.GRAND, mask_of(parse_cards("CJ")))
    hands = [mask_of(parse_cards(h)) for h in (HAND, "CA CT CK CQ C9 SA ST SK SQ S9", "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7")]
    with pytest.raises(CardCountError, match="skat has 1 card: expected 2"):
        best_contracts(hands, mask_of(parse_cards("DK")), declarer=0)
    with pytest.raises(DealFormatError, match="the skat holds 1 card: expected 2"):
        Position(hands=hands, skat=mask_of(parse_cards("DK")), game=Game.GRAND, declarer=0).validate()


def test_one_worker_is_one_worker() -> None:
    """'(1 workers; ...)' in serve's first line was the issue 32 example (its other counts likewise)."""
    from skatdd.cli.serve import ready_line

    assert "(1 worker; Ctrl-C" in ready_line("http://127.0.0.1:1/", 1)
    assert "(2 workers; Ctrl-C" in ready_line("http://127.0.0.1:1/", 2)


def test_one_weight_and_one_world_in_an_honest_search() -> None:
    from skatdd.analysis.advise.api import mover_view
    from skatdd.analysis.honest.api import honest_card_values
    from skatdd.analysis.worlds.space import WorldSpace
    from skatdd.core.scoring import Declaration

    hands = [mask_of(parse_cards(h)) for h in ("CJ SJ", "HJ DJ", "CA CT")]
    pos = Position(Game.GRAND, 0, hands, mask_of(parse_cards("C9 C8")))
    worlds = [WorldSpace(mover_view(pos, Declaration(Game.GRAND)))[0]]
    with pytest.raises(DealFormatError, match="2 weights for 1 world:") as info:
        honest_card_values(pos, Declaration(Game.GRAND), worlds, 2, weights=[1.0, 1.0])
    assert not WRONG.search(str(info.value))


def test_the_decisions_summary_says_1_card_point() -> None:
    seats = [{"seat": seat, "bidding": 0.0, "declaration": None, "play_card_points": points}
             for seat, points in enumerate((1, 0, 5))]
    lines = summary_lines({"declarer": 2, "summary": {"seats": seats, "verdict": "v"}}, ["a", "b", "c"])
    assert [line.rpartition(", ")[2] for line in lines[1:4]] == ["play 1 card point", "play 0 card points",
                                                                  "play 5 card points"], lines
