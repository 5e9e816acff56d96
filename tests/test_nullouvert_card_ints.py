"""``skatdd.engine.nullouvert.analyse`` takes the hand and skat as card strings, card ints or masks alike."""
from __future__ import annotations

import pytest

from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.errors import DuplicateCardError, InvalidCardError
from skatdd.engine.nullouvert import NullOuvertAnalyser, analyse

HAND = "CA S7 S8 S9 H7 H8 H9 D7 D8 D9"
SKAT = "HA DA"


def test_card_ints_give_the_same_answer_as_text() -> None:
    from_text = analyse(HAND, declarer="M", skat=SKAT, solver=NullOuvertAnalyser(8)).to_json()
    from_ints = analyse(parse_cards(HAND), declarer=1, skat=parse_cards(SKAT), solver=NullOuvertAnalyser(8)).to_json()
    from_masks = analyse(mask_of(parse_cards(HAND)), declarer=1, skat=mask_of(parse_cards(SKAT)),
                         solver=NullOuvertAnalyser(8)).to_json()
    for result in (from_text, from_ints, from_masks):
        del result["nodes"], result["seconds"]
    assert from_ints == from_text == from_masks
    assert from_text["worlds_lost"] > 0


@pytest.mark.parametrize(("hand", "skat", "error", "token"), [
    ([*parse_cards(HAND)[:9], 40], None, InvalidCardError, "40"),
    (parse_cards(HAND), [parse_cards(HAND)[0], 31], DuplicateCardError, "CA"),
    ([*parse_cards(HAND)[:9], parse_cards(HAND)[0]], None, DuplicateCardError, "CA"),
])
def test_bad_card_ints_are_named(hand: list[int], skat: list[int] | None, error: type[Exception], token: str) -> None:
    with pytest.raises(error, match=token):
        analyse(hand, declarer=0, skat=skat, solver=NullOuvertAnalyser(8))
