"""Property tests (hypothesis): text and JSON round trips, parser robustness, play-outs."""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatdd.core.cards import (
    CARD_NAMES,
    CARD_POINTS,
    SUIT_SYMBOLS,
    Card,
    card_name,
    format_cards,
    format_mask,
    mask_of,
    parse_card,
    parse_cards,
    points_of,
)
from skatdd.core.errors import SkatddError
from skatdd.core.position import Position
from skatdd.core.rules import ALL_GAMES, Game
from skatdd.formats.readers import GameSpec, format_deal_text, load_deal, parse_deal_text, position_from_json

PROPERTY_SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- strategies ---------------------------------------------------------------------------

cards_st = st.integers(min_value=0, max_value=31)
games_st = st.sampled_from(ALL_GAMES)
seats_st = st.integers(min_value=0, max_value=2)


@st.composite
def card_token(draw: st.DrawFn, card: Card | None = None) -> str:
    """Any accepted spelling of *card* (or of a random card)."""
    if card is None:
        card = draw(cards_st)
    suit, rank = CARD_NAMES[card]
    symbol = SUIT_SYMBOLS[card >> 3]
    rank = draw(st.sampled_from(["10", "T", "t"])) if rank == "T" else draw(st.sampled_from([rank, rank.lower()]))
    suit = draw(st.sampled_from([suit, suit.lower()]))
    selector = draw(st.sampled_from(["", "", "\ufe0f", "\ufe0e"]))
    form = draw(st.sampled_from(["letter", "symbol-first", "symbol-last"]))
    if form == "letter":
        return suit + rank
    if form == "symbol-first":
        return symbol + selector + rank
    return rank + symbol + selector


@st.composite
def card_lists(draw: st.DrawFn, min_size: int = 0, max_size: int = 32) -> list[Card]:
    perm = draw(st.permutations(range(32)))
    return list(perm[: draw(st.integers(min_value=min_size, max_value=max_size))])


separators = st.sampled_from([" ", "  ", ",", ", ", " , ", "\t"])


@st.composite
def written(draw: st.DrawFn, cards: list[Card]) -> str:
    """*cards* written with random spellings and separators."""
    tokens = [draw(card_token(c)) for c in cards]
    out = ""
    for i, token in enumerate(tokens):
        out += (draw(separators) if i else draw(st.sampled_from(["", " "]))) + token
    return out + draw(st.sampled_from(["", " ", "\n"]))


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[list[Card]], list[Card]]:
    perm = list(draw(st.permutations(range(32))))
    return [perm[0:10], perm[10:20], perm[20:30]], perm[30:32]


@st.composite
def playouts(draw: st.DrawFn, max_cards: int = 30) -> tuple[Position, list[Card]]:
    """A full deal in a random game, played on by random legal cards; returns (start, played)."""
    hands, skat = draw(deals())
    game = draw(games_st)
    pos = Position(game, draw(seats_st), [mask_of(h) for h in hands], mask_of(skat))
    start = pos.copy()
    n = draw(st.integers(min_value=0, max_value=max_cards))
    played = []
    for _ in range(n):
        if pos.is_over():
            break
        card = draw(st.sampled_from(pos.legal_moves()))
        pos.play(card)
        played.append(card)
    return start, played


@st.composite
def specs(draw: st.DrawFn) -> GameSpec:
    """A valid GameSpec: a full deal, a deal with ``played``, or an endgame position."""
    start, played = draw(playouts(max_cards=29))
    game = start.game
    ouvert = game.is_null and draw(st.booleans())
    hand = draw(st.booleans())
    # A valid declaration: schneider and schwarz only in a suit or grand hand game (ouvert implies hand).
    levels = ["schneider", "schwarz", "ouvert"] if hand and not game.is_null else ["ouvert"]
    announce = draw(st.lists(st.sampled_from(levels), max_size=3))
    common: dict[str, Any] = dict(
        id=draw(st.none() | st.integers() | st.text(max_size=5)), game=game, ouvert=ouvert,
        declarer=start.declarer, hand=hand, announce=announce,
        bid=draw(st.none() | st.integers(min_value=18, max_value=264)),
    )
    kind = draw(st.sampled_from(["full", "played", "endgame"]))
    if kind == "full":
        return GameSpec(hands=list(start.hands), skat=start.skat, **common)
    if kind == "played":
        return GameSpec(hands=list(start.hands), skat=start.skat, played=played, **common)
    pos = start.copy()
    for card in played:
        pos.play(card)
    if pos.cards_left == 0:
        pos.undo()
    dropped_skat = game.is_null and draw(st.booleans())
    counts = draw(st.sampled_from(["both", "declarer", "defenders", "none"]))
    return GameSpec(
        hands=list(pos.hands), skat=0 if dropped_skat else pos.skat, leader=pos.leader, trick=list(pos.trick),
        declarer_points=pos.declarer_points,
        declarer_tricks=pos.declarer_tricks if counts in ("both", "declarer") else None,
        defender_tricks=pos.defender_tricks if counts in ("both", "defenders") else None,
        **common,
    )


json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12)
json_values = st.recursive(
    json_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
FIELDS = ["id", "game", "declarer", "hands", "skat", "played", "leader", "trick", "declarer_points",
          "declarer_tricks", "defender_tricks", "hand", "announce", "bid"]
card_texts = st.text(alphabet="CSHDcshd789TJQKA10♣♠♥♦ ,", max_size=40)
field_values = (
    json_values | card_texts | st.lists(card_texts, max_size=4) | st.lists(st.text(max_size=4), max_size=12)
    | st.sampled_from(["grand", "G", "null", "NO", "clubs", "x", "F", "M", "R", "forehand", "schneider"])
)
json_objects = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=5), field_values, max_size=10)
deal_chars = st.text(alphabet="CSHDcshd789TJQKA10♣♠♥♦ ,/|\n{}[]\":(;", max_size=120)


def only_skatdd_errors(func, *args, **kwargs) -> None:
    """Call *func*; any exception other than a SkatddError fails the test."""
    try:
        func(*args, **kwargs)
    except SkatddError:
        pass


@contextmanager
def inside(path: str) -> Iterator[None]:
    """Run with *path* as the working directory, so random text cannot name a project file."""
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


# -- round trips ---------------------------------------------------------------------------

@PROPERTY_SETTINGS
@given(st.data())
def test_card_spellings_round_trip(data):
    card = data.draw(cards_st)
    token = data.draw(card_token(card))
    assert parse_card(token) == card
    assert card_name(parse_card(token)) == CARD_NAMES[card]
    assert parse_card(card_name(card)) == card


@PROPERTY_SETTINGS
@given(st.data())
def test_card_lists_round_trip(data):
    cards = data.draw(card_lists())
    text = data.draw(written(cards))
    assert parse_cards(text) == cards
    assert format_cards(parse_cards(text)) == format_cards(cards)
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(format_cards(cards, symbols=True)) == cards


@PROPERTY_SETTINGS
@given(st.data())
def test_deal_text_round_trips(data):
    hands, skat = data.draw(deals())
    groups = [data.draw(written(group)) for group in [*hands, skat]]
    text = "".join(g + data.draw(st.sampled_from(["/", " / ", "|", " | "])) for g in groups[:3]) + groups[3]
    assert parse_deal_text(text) == (hands, skat)
    canonical = format_deal_text(hands, skat)
    assert format_deal_text(*parse_deal_text(text)) == canonical
    assert parse_deal_text(canonical) == (hands, skat)


@PROPERTY_SETTINGS
@given(specs())
def test_gamespec_json_round_trips(spec):
    spec.validate()
    obj = spec.to_json()
    again = position_from_json(obj)
    assert again == spec
    assert position_from_json(json.dumps(obj)) == spec
    assert again.to_json() == obj
    for key in ("hands",):
        assert all(" ".join(CARD_NAMES[c] for c in parse_cards(h)) == h for h in obj[key])
    first, second = spec.position(), again.position()
    assert (first.hands, first.trick, first.leader, first.declarer_points) == (
        second.hands, second.trick, second.leader, second.declarer_points)


@PROPERTY_SETTINGS
@given(playouts(max_cards=29))
def test_endgame_json_equals_played_json(start_played):
    """The same position, given by ``played`` or as an endgame with trick counts, is the same Position."""
    start, played = start_played
    base = {"game": start.game.label, "declarer": start.declarer, "hands": [format_mask(h) for h in start.hands],
            "skat": format_mask(start.skat)}
    by_played = position_from_json({**base, "played": format_cards(played)}).position()
    if by_played.cards_left == 0:
        return
    endgame = {**base, "hands": [format_mask(h) for h in by_played.hands], "leader": by_played.leader,
               "trick": format_cards(by_played.trick), "declarer_points": by_played.declarer_points,
               "declarer_tricks": by_played.declarer_tricks, "defender_tricks": by_played.defender_tricks}
    by_endgame = position_from_json(endgame).position()
    fields = ("hands", "skat", "leader", "trick", "declarer_points", "declarer_tricks", "defender_tricks")
    assert [getattr(by_endgame, f) for f in fields] == [getattr(by_played, f) for f in fields]
    assert by_endgame.legal_moves() == by_played.legal_moves()


# -- robustness: only SkatddError escapes ---------------------------------------------------

@PROPERTY_SETTINGS
@given(st.text(max_size=12) | card_texts)
def test_parse_card_raises_only_skatdd_errors(text):
    only_skatdd_errors(parse_card, text)


@PROPERTY_SETTINGS
@given(st.text(max_size=60) | card_texts | st.lists(st.text(max_size=4), max_size=6))
def test_parse_cards_raises_only_skatdd_errors(text):
    only_skatdd_errors(parse_cards, text)
    only_skatdd_errors(parse_cards, text, count=3, what="x")


@PROPERTY_SETTINGS
@given(st.text(max_size=120) | deal_chars)
def test_parse_deal_text_raises_only_skatdd_errors(text):
    only_skatdd_errors(parse_deal_text, text)


@PROPERTY_SETTINGS
@given(json_values | json_objects)
def test_position_from_json_objects_raise_only_skatdd_errors(obj):
    only_skatdd_errors(position_from_json, obj)
    try:
        text = json.dumps(obj)
    except ValueError:
        return
    only_skatdd_errors(position_from_json, text)


@PROPERTY_SETTINGS
@given(st.text(max_size=80) | deal_chars)
def test_position_from_json_text_raises_only_skatdd_errors(text):
    only_skatdd_errors(position_from_json, text)
    only_skatdd_errors(position_from_json, "{" + text)


@PROPERTY_SETTINGS
@given(specs(), st.sampled_from(FIELDS), field_values)
def test_mutated_valid_json_raises_only_skatdd_errors(spec, key, value):
    obj = spec.to_json()
    obj[key] = value
    only_skatdd_errors(position_from_json, obj)
    del obj[key]
    only_skatdd_errors(position_from_json, obj)


@PROPERTY_SETTINGS
@given(st.text(max_size=120) | deal_chars, st.none() | games_st, st.booleans(), st.none() | seats_st)
def test_load_deal_raises_only_skatdd_errors(tmp_path_factory, text, game, ouvert, declarer):
    with inside(str(tmp_path_factory.getbasetemp())):
        only_skatdd_errors(load_deal, text, game=game, ouvert=ouvert, declarer=declarer)
        only_skatdd_errors(load_deal, "(;" + text, game=game, ouvert=ouvert, declarer=declarer)
        only_skatdd_errors(load_deal, "(;GM[Skat]MV[w " + text + "]R[] ;)")


@PROPERTY_SETTINGS
@given(st.data())
def test_load_deal_mutated_iss_records_raise_only_skatdd_errors(data):
    from pathlib import Path

    lines = [line for line in (Path(__file__).parent / "data" / "iss-games.txt").read_text().splitlines() if line]
    line = data.draw(st.sampled_from(lines))
    start = data.draw(st.integers(min_value=0, max_value=len(line)))
    end = data.draw(st.integers(min_value=start, max_value=min(len(line), start + 8)))
    junk = data.draw(st.text(alphabet="0123456789 .CSHDJTAKQ?pyswGNOHZ[]", max_size=6))
    only_skatdd_errors(load_deal, line[:start] + junk + line[end:])


# -- play-outs ------------------------------------------------------------------------------

@PROPERTY_SETTINGS
@given(st.data())
def test_random_playouts_keep_120_points_and_undo_restores(data):
    hands, skat = data.draw(deals())
    game = data.draw(games_st)
    declarer = data.draw(seats_st)
    pos = Position(game, declarer, [mask_of(h) for h in hands], mask_of(skat))
    initial = pos.copy()
    defender_points = 0
    while pos.cards_left:
        before = pos.copy()
        trick = [*pos.trick, data.draw(st.sampled_from(pos.legal_moves()))]
        card = trick[-1]
        winner = pos.play(card)
        # Undo restores the state exactly, then the card is played again.
        after = pos.copy()
        assert pos.undo() == card
        assert pos == before
        assert pos.play(card) == winner
        assert pos == after
        if winner is not None and winner != declarer:
            defender_points += sum(CARD_POINTS[c] for c in trick)
        assert pos.declarer_points + defender_points + points_of(pos.skat) + points_of(
            pos.hands[0] | pos.hands[1] | pos.hands[2] | mask_of(pos.trick)) == 120
    assert pos.declarer_tricks + pos.defender_tricks == 10 and pos.trick == []
    assert pos.declarer_points + defender_points + points_of(pos.skat) == 120
    if game != Game.NULL:
        assert pos.value_so_far + defender_points == 120
    while pos.history:
        pos.undo()
    assert pos == initial
