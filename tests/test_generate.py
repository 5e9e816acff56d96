"""Tests of the deal and position generators (skatdd.tools.generate)."""
from __future__ import annotations

import collections
import json
import random
from pathlib import Path

import pytest

from skatdd.core.cards import ALL_CARDS, CARD_POINTS, mask_of, parse_cards, points_of
from skatdd.core.errors import CardCountError, DealFormatError
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, JACKS, Game, trump_mask
from skatdd.formats.readers import position_from_json as spec_from_json
from skatdd.tools.generate import (
    evaluate_contract,
    position_to_json,
    random_deal,
    random_position,
    realistic_deal,
    realistic_deals,
)

FIXTURE = Path(__file__).parent / "data" / "solved-deals.jsonl"
INTERFACE_FIELDS = {
    "game", "declarer", "hands", "skat", "leader", "trick", "declarer_points", "declarer_tricks", "defender_tricks",
}


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def gone_mask(pos: Position) -> int:
    return ALL_CARDS & ~(pos.hands[0] | pos.hands[1] | pos.hands[2] | mask_of(pos.trick) | pos.skat)


# ---------------------------------------------------------------------------
# random_deal / random_position
# ---------------------------------------------------------------------------

def test_random_deal_partitions_the_deck() -> None:
    rng = random.Random(1)
    for _ in range(50):
        hands, skat = random_deal(rng)
        assert [h.bit_count() for h in hands] == [10, 10, 10]
        assert skat.bit_count() == 2
        assert hands[0] | hands[1] | hands[2] | skat == ALL_CARDS
        assert sum(h.bit_count() for h in hands) + skat.bit_count() == 32


def test_random_deal_is_deterministic() -> None:
    assert random_deal(random.Random(99)) == random_deal(random.Random(99))
    assert random_deal(random.Random(99)) != random_deal(random.Random(100))


def play_out_randomly(pos: Position, rng: random.Random) -> tuple[int, int]:
    """Play *pos* to the last card at random; returns (declarer, defender) card points incl. skat/earlier tricks."""
    work = pos.copy()
    defender_points = points_of(gone_mask(pos)) - pos.declarer_points
    while work.cards_left or work.trick:
        table = sum(CARD_POINTS[c] for c in work.trick)
        card = rng.choice(work.legal_moves())
        winner = work.play(card)
        if winner is not None and winner != work.declarer:
            defender_points += table + CARD_POINTS[card]
    return work.declarer_points + points_of(work.skat), defender_points


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: g.label)
@pytest.mark.parametrize("tricks", range(1, 11))
def test_random_position_shape(game: Game, tricks: int) -> None:
    rng = random.Random(tricks * 10 + int(game))
    for trick_cards in (0, 1, 2):
        pos = random_position(rng, game=game, tricks=tricks, trick_cards=trick_cards)
        pos.validate()
        assert pos.game == game
        assert len(pos.trick) == trick_cards
        assert pos.hands[pos.to_move].bit_count() == tricks
        for i in range(3):
            seat = (pos.leader + i) % 3
            assert pos.hands[seat].bit_count() == (tricks - 1 if i < trick_cards else tricks)
        assert pos.skat.bit_count() == 2
        assert pos.declarer_tricks + pos.defender_tricks == 10 - tricks
        assert gone_mask(pos).bit_count() == 3 * (10 - tricks)
        assert 0 <= pos.declarer_points <= points_of(gone_mask(pos))
        if pos.declarer_tricks == 0:
            assert pos.declarer_points == 0
        if pos.defender_tricks == 0:
            assert pos.declarer_points == points_of(gone_mask(pos))
        if game.is_null:
            assert pos.declarer_tricks == 0  # null positions are still live
        if tricks == 10:
            assert pos.leader == 0 and pos.declarer_tricks == pos.defender_tricks == 0
        assert pos.history == []
        declarer, defenders = play_out_randomly(pos, rng)
        assert declarer + defenders == 120  # every card point ends with one side (skat with the declarer)


def test_random_position_finished_game() -> None:
    pos = random_position(random.Random(3), game=Game.CLUBS, tricks=0)
    assert pos.cards_left == 0 and pos.trick == [] and pos.is_over()
    assert pos.declarer_tricks + pos.defender_tricks == 10


def test_random_position_rejects_bad_arguments() -> None:
    rng = random.Random(0)
    with pytest.raises(ValueError):
        random_position(rng, tricks=11)
    with pytest.raises(ValueError):
        random_position(rng, tricks=3, trick_cards=3)
    with pytest.raises(ValueError):
        random_position(rng, tricks=0, trick_cards=1)


def test_random_position_covers_games_leaders_and_stages() -> None:
    rng = random.Random(8)
    seen = collections.defaultdict(set)
    for _ in range(300):
        pos = random_position(rng, tricks=rng.randrange(1, 10))
        seen["game"].add(pos.game)
        seen["leader"].add(pos.leader)
        seen["declarer"].add(pos.declarer)
        seen["trick"].add(len(pos.trick))
        seen["to_move_is_declarer"].add(pos.to_move == pos.declarer)
    assert seen["game"] == set(ALL_GAMES)
    assert seen["leader"] == seen["declarer"] == {0, 1, 2}
    assert seen["trick"] == {0, 1, 2}
    assert seen["to_move_is_declarer"] == {True, False}


def test_random_position_is_deterministic() -> None:
    def run(seed: int) -> list[dict]:
        rng = random.Random(seed)
        return [position_to_json(random_position(rng, tricks=t)) for t in range(1, 11)]

    assert run(5) == run(5)
    assert run(5) != run(6)


# ---------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------

def position_from_json(obj: dict) -> Position:
    """The position a JSON object describes, read as every command reads it."""
    return spec_from_json(obj).position()


def test_position_json_round_trip() -> None:
    rng = random.Random(12)
    for _ in range(60):
        pos = random_position(rng, tricks=rng.randrange(0, 11) or 1)
        obj = position_to_json(pos)
        assert set(obj) == INTERFACE_FIELDS
        assert json.loads(json.dumps(obj)) == obj
        back = position_from_json(obj)
        assert position_to_json(back) == obj
        assert (back.hands, back.skat, back.trick, back.leader) == (pos.hands, pos.skat, pos.trick, pos.leader)


def test_position_json_text_form() -> None:
    pos = position_from_json({
        "game": "C", "declarer": "M", "hands": ["CJ SA", "HA H7", ["♥10"]], "skat": "D8 D9",
        "leader": "R", "trick": "HK", "declarer_points": 40, "declarer_tricks": 4, "defender_tricks": 4,
    })
    assert position_to_json(pos) == {
        "game": "clubs", "declarer": 1, "hands": ["CJ SA", "HA H7", "HT"], "skat": "D9 D8",
        "leader": 2, "trick": "HK", "declarer_points": 40, "declarer_tricks": 4, "defender_tricks": 4,
    }


def test_position_from_json_replays_played_cards() -> None:
    deal = {
        "game": "grand", "declarer": 0,
        "hands": ["CJ SJ HA HT HK DA DT D9 D8 D7", "CA CT CK CQ C9 SA ST SK SQ S9",
                  "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7"],
        "skat": "DK DQ", "played": "HA S9 H7 CJ CA DJ",
    }
    pos = position_from_json(deal)
    # HA S9 H7 is won by forehand (the declarer, 11 points), CJ CA DJ too (15 points).
    assert pos.declarer_points == 26 and pos.declarer_tricks == 2 and pos.leader == 0
    assert pos.hands[1].bit_count() == 8 and pos.trick == []


def test_position_from_json_errors() -> None:
    with pytest.raises(DealFormatError, match="hands"):
        position_from_json({"game": "grand", "declarer": 0, "skat": "D7 D8"})
    with pytest.raises(DealFormatError):
        position_from_json({"game": "grand", "declarer": 0, "hands": ["CJ", "SJ"], "skat": "D7 D8"})
    with pytest.raises(CardCountError, match="hands hold 2/1/1 cards"):
        position_from_json({"game": "grand", "declarer": 0, "hands": ["CJ SJ", "HJ", "DJ"], "skat": "D7 D8"})


# ---------------------------------------------------------------------------
# Realistic deals
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def realistic() -> list[tuple[Position, dict]]:
    rng = random.Random(2024)
    return [realistic_deal(rng) for _ in range(200)]


def test_realistic_deals_are_full_starting_deals(realistic: list[tuple[Position, dict]]) -> None:
    for pos, meta in realistic:
        pos.validate()
        assert [h.bit_count() for h in pos.hands] == [10, 10, 10]
        assert pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.skat == ALL_CARDS
        assert (pos.leader, pos.trick, pos.declarer_points) == (0, [], 0)
        assert pos.declarer_tricks == pos.defender_tricks == 0
        assert meta["game"] == pos.game.label and meta["declarer"] == pos.declarer
        assert cards(meta["declarer_hand12"]) == pos.hands[pos.declarer] | pos.skat
        assert cards(meta["discard"]) == pos.skat
        assert meta["reason"].startswith(pos.game.label + ":")
        assert {"seat": pos.declarer, "game": pos.game.label, "margin": meta["margin"]} in meta["playable"]


def test_realistic_discards_are_sensible(realistic: list[tuple[Position, dict]]) -> None:
    for pos, _ in realistic:
        if pos.game.is_null:
            continue
        assert pos.skat & JACKS == 0, "never discard a jack in suit or grand"
        twelve = pos.hands[pos.declarer] | pos.skat
        if pos.game.is_suit and (twelve & ~trump_mask(pos.game)).bit_count() >= 2:
            assert pos.skat & trump_mask(pos.game) == 0, "no trump discarded while side cards remain"


def test_realistic_contract_mix_is_plausible(realistic: list[tuple[Position, dict]]) -> None:
    mix = collections.Counter("null" if p.game.is_null else "grand" if p.game == Game.GRAND else "suit"
                              for p, _ in realistic)
    n = len(realistic)
    # Tuned to about 60% suit, 30% grand, 10% null (see skatdd.tools.generate).
    assert 0.45 <= mix["suit"] / n <= 0.72, mix
    assert 0.18 <= mix["grand"] / n <= 0.40, mix
    assert 0.05 <= mix["null"] / n <= 0.25, mix
    assert {p.game for p, _ in realistic} == set(ALL_GAMES)
    assert {p.declarer for p, _ in realistic} == {0, 1, 2}


def test_realistic_deals_are_deterministic() -> None:
    first = [position_to_json(p) for p in realistic_deals(7, 6)]
    assert first == [position_to_json(p) for p in realistic_deals(7, 6)]
    assert first != [position_to_json(p) for p in realistic_deals(8, 6)]


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: g.label)
def test_forced_contract(game: Game) -> None:
    rng = random.Random(int(game))
    for _ in range(4):
        pos, meta = realistic_deal(rng, game=game)
        assert pos.game == game
        assert any(p["game"] == game.label and p["seat"] == pos.declarer for p in meta["playable"])
        if not game.is_null:
            assert pos.skat & JACKS == 0


def test_evaluate_textbook_hands() -> None:
    # Clubs with four jacks and five clubs; the unguarded HT and the lone D8 go into the skat.
    ev = evaluate_contract(cards("CJ SJ HJ DJ CA CT C9 C8 C7 SA HT D8"), Game.CLUBS)
    assert ev.playable and ev.discard == cards("HT D8")
    assert not evaluate_contract(cards("CJ SJ HJ DJ CA CT C9 C8 C7 SA HT D8"), Game.NULL).playable
    # All four jacks and two solid suits: a grand; with no jack it is none.
    assert evaluate_contract(cards("CJ SJ HJ DJ CA CT CK SA ST SK H7 D7"), Game.GRAND).playable
    assert not evaluate_contract(cards("CA CT CK CQ SA ST SK SQ HA HT DA DT"), Game.GRAND).playable
    # Null: low cards everywhere; the two aces are the dangerous cards to discard.
    ev = evaluate_contract(cards("C7 C9 CJ S7 S8 H7 H9 HJ D7 D8 SA DA"), Game.NULL)
    assert ev.playable and ev.discard == cards("SA DA")
    # Too few trumps for a suit game, however strong the side cards.
    assert not evaluate_contract(cards("CJ C7 C8 SA ST SK HA HT HK DA DT DK"), Game.CLUBS).playable
    with pytest.raises(CardCountError):
        evaluate_contract(cards("CJ SJ"), Game.GRAND)


def test_sensible_fixture_contracts_are_rated_playable() -> None:
    """The fixture's declarers chose their contracts sensibly: the heuristics should mostly agree."""
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
    agree = 0
    for row in rows:
        twelve = cards(row["hands"][row["declarer"]]) | cards(row["skat"])
        ev = evaluate_contract(twelve, Game[row["game"].upper()], forehand=row["declarer"] == 0)
        agree += ev.playable
        if ev.playable and not ev.game.is_null:
            assert ev.discard & JACKS == 0
    assert agree >= 0.8 * len(rows), f"{agree}/{len(rows)}"
