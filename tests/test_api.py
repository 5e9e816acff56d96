"""The Python API as the README's Python section teaches it: ``import skatdd``, cards that print as codes.

Covers :class:`skatdd.Card` (an int that prints as its ISS code), ``CardSet``
of cards, ``Position`` (play by code, str/repr), the solver's results keyed
by card, and the entry points reachable from the top level: ``analyse`` on
every input kind, the lazy ones left unimported by ``import skatdd``, and
the five (``analyse``, ``advise``, ``odds``, ``best``, ``bid``) whose names
were also old module paths, checked in fresh interpreters for every import
order.
"""
from __future__ import annotations

import copy
import json
import pickle
import subprocess
from pathlib import Path
from typing import Any

import pytest

import skatdd
from cli_runner import run_python
from skatdd import Card, CardSet, Declaration, Game, GameSpec, Position, Solver
from skatdd.core import cards as core_cards
from skatdd.core.cards import CARD_NAMES, CARDS, CJ, HA, HT, card_symbol, cards_of, display_sorted, parse_card, parse_cards
from skatdd.core.errors import IllegalPlayError, InvalidCardError, SkatddError

ROOT = Path(__file__).resolve().parent.parent
DEAL = ("CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / "
        "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ")
GAME_ISS = (ROOT / "examples" / "game.iss").read_text()


def untimed(record: dict[str, Any]) -> dict[str, Any]:
    """*record* without what depends on the machine or the table's history (``nodes``, ``seconds``)."""
    return {k: v for k, v in record.items() if k not in ("nodes", "seconds")}


@pytest.fixture()
def pos() -> Position:
    return skatdd.parse_deal(DEAL, game=Game.DIAMONDS, declarer=0).position()


# -- Card ----------------------------------------------------------------------

@pytest.mark.parametrize("card", range(32))
def test_card_prints_as_its_code_and_its_repr_pastes_back(card: int) -> None:
    c = Card(card)
    assert str(c) == c.code == CARD_NAMES[card] and f"{c}" == c.code
    assert repr(c) == f"Card({CARD_NAMES[card]!r})"
    assert eval(repr(c), {"Card": Card}) is c
    assert c == card and hash(c) == hash(card) and c is CARDS[card]
    assert (c.suit, c.rank) == divmod(card, 8)
    assert c.symbol == card_symbol(card)


@pytest.mark.parametrize("token, code", [
    ("HA", "HA"), ("ha", "HA"), ("hA", "HA"), (" HA ", "HA"), ("♥A", "HA"), ("A♥", "HA"), ("♥\ufe0fA", "HA"),
    ("H10", "HT"), ("h10", "HT"), ("♥10", "HT"), ("10♥", "HT"), ("ht", "HT"), ("♣J", "CJ"), ("j♣", "CJ"),
])
def test_card_reads_every_spelling_the_readers_accept(token: str, code: str) -> None:
    assert Card(token) is Card.parse(token) is parse_card(token)
    assert str(Card(token)) == code


def test_card_is_an_int_for_the_engine_and_the_masks() -> None:
    assert isinstance(HA, Card) and isinstance(HA, int)
    assert 1 << CJ == 1 << 28 and CJ & 7 == 4 and CJ >> 3 == 3
    assert type(CJ + 1) is int and CJ + 1 == 29
    assert {28: "x"}[CJ] == "x" and {CJ: "x"}[28] == "x"
    assert sorted([CJ, HA, Card(0)]) == [0, HA, CJ]
    assert Card(CJ) is CJ and Card(28) is CJ


def test_card_formats_as_its_code_or_as_its_number() -> None:
    assert f"{HT}|{HT:>4}|{HT:<3}|{HT:d}|{HT:02d}|{HT:x}" == "HT|  HT|HT |11|11|b"
    assert "%s %d" % (HT, HT) == "HT 11"  # noqa: UP031 -- old-style formatting must work too
    assert json.dumps({"cards": [HT, CJ]}) == '{"cards": [11, 28]}'   # skatdd's writers use the codes


def test_card_survives_pickle_and_copy_as_the_same_object() -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(HA, protocol)) is HA
    assert copy.copy(HA) is HA and copy.deepcopy([HA])[0] is HA


@pytest.mark.parametrize("bad", ["X9", "", "C1", "HAA"])
def test_card_rejects_a_bad_code_quoting_it(bad: str) -> None:
    with pytest.raises(InvalidCardError, match="unknown card " + repr(bad)):
        Card(bad)


@pytest.mark.parametrize("bad", [32, -1, 1 << 40])
def test_card_rejects_an_int_outside_0_to_31(bad: int) -> None:
    with pytest.raises(InvalidCardError, match=str(bad)):
        Card(bad)


@pytest.mark.parametrize("bad", [1.0, True, None, [28]])
def test_card_rejects_what_is_neither_an_int_nor_a_code(bad: object) -> None:
    with pytest.raises(TypeError):
        Card(bad)  # type: ignore[arg-type]


def test_readers_and_helpers_return_cards() -> None:
    assert all(type(c) is Card for c in parse_cards("CJ HA h10"))
    assert all(type(c) is Card for c in cards_of((1 << 32) - 1))
    assert display_sorted([HA, CJ]) == [CJ, HA]
    assert type(display_sorted([15, 28])[0]) is int            # ints in, the same ints out
    assert all(type(getattr(core_cards, name)) is Card for name in CARD_NAMES)


# -- CardSet -------------------------------------------------------------------

def test_cardset_holds_cards_and_prints_codes() -> None:
    hand = CardSet("HA CJ h10")
    assert list(hand) == [CJ, HA, HT] and all(type(c) is Card for c in hand)
    assert [str(c) for c in hand] == ["CJ", "HA", "HT"]
    assert str(hand) == "CJ HA HT" and repr(hand) == "CardSet('CJ HA HT')"
    assert eval(repr(hand), {"CardSet": CardSet}) == hand
    assert CardSet(HA) == CardSet("HA") == CardSet(["HA"]) == CardSet([15]) == CardSet(1 << 15)
    assert CardSet([CJ, "HA", 11]) == hand


# -- Position ------------------------------------------------------------------

def test_position_plays_a_code_a_card_or_an_int_and_undoes(pos: Position) -> None:
    assert pos.play("HA") is None
    assert pos.play(Card("C9")) is None
    assert pos.play(8) == 0               # 8 is H7: rearhand follows, forehand's ace wins the trick
    assert pos.history == [(0, HA), (1, Card("C9")), (2, Card("H7"))]
    assert all(type(card) is Card for _, card in pos.history)
    assert pos.undo() is Card("H7") and pos.trick == [HA, Card("C9")] and all(type(c) is Card for c in pos.trick)
    assert pos.undo() == Card("C9") and pos.undo() == HA
    assert pos == skatdd.parse_deal(DEAL, game=Game.DIAMONDS, declarer=0).position()


def test_position_legal_moves_are_cards(pos: Position) -> None:
    moves = pos.legal_moves()
    assert all(type(c) is Card for c in moves)
    assert {str(c) for c in moves} == set("CJ SJ HA HT HK DA DT D9 D8 D7".split())
    pos.play("HA")
    assert [str(c) for c in pos.legal_moves()] == ["S9", "ST", "SQ", "SK", "SA", "C9", "CT", "CQ", "CK", "CA"]
    assert pos.hand(1) == CardSet("CA CT CK CQ C9 SA ST SK SQ S9")


def test_position_play_names_a_bad_card(pos: Position) -> None:
    with pytest.raises(InvalidCardError, match="'XX'"):
        pos.play("XX")
    with pytest.raises(InvalidCardError, match="40"):
        pos.play(40)
    with pytest.raises(IllegalPlayError, match="'CA' is not in the hand of seat 0"):
        pos.play("CA")
    pos.play("HA")
    with pytest.raises(TypeError):
        pos.play(2.5)  # type: ignore[arg-type]
    assert pos.trick == [HA]


def test_position_str_shows_the_hands_by_seat_the_trick_and_the_points(pos: Position) -> None:
    pos.play("HA")
    text = str(pos)
    lines = text.splitlines()
    assert lines[0] == "diamonds: declarer 0 forehand, 1 middlehand to move"
    assert lines[1].split() == ["0", "forehand", "CJ", "SJ", "HT", "HK", "DA", "DT", "D9", "D8", "D7"]
    assert lines[2].split() == ["1", "middlehand", "CA", "CT", "CK", "CQ", "C9", "SA", "ST", "SK", "SQ", "S9"]
    assert lines[3].split()[:3] == ["2", "rearhand", "HJ"]
    assert lines[4].split() == ["skat", "DK", "DQ"]
    assert lines[5].split() == ["trick", "HA", "(led", "by", "0)"]
    assert lines[6] == "declarer 7 points (0 in 0 tricks + skat 7), defenders 0 tricks"


def test_position_repr_shows_codes_and_pastes_back(pos: Position) -> None:
    assert repr(pos) == (
        "Position(game=Game.DIAMONDS, declarer=0, hands=['CJ SJ HA HT HK DA DT D9 D8 D7', "
        "'CA CT CK CQ C9 SA ST SK SQ S9', 'HJ DJ C8 C7 S8 S7 HQ H9 H8 H7'], skat='DK DQ', leader=0, trick=[], "
        "declarer_points=0, declarer_tricks=0, defender_tricks=0)"
    )
    assert str(pos.hands[0]) not in repr(pos)     # no raw masks
    assert eval(repr(pos), {"Position": Position, "Game": Game}) == pos
    for card in ("HA", "C9", "H7", "CJ"):          # a completed trick and one in progress
        pos.play(card)
    again = eval(repr(pos), {"Position": Position, "Game": Game})
    assert repr(again) == repr(pos) and again.trick == [CJ] and again.declarer_tricks == 1
    assert (again.hands, again.skat, again.leader, again.declarer_points, again.defender_tricks) == (
        pos.hands, pos.skat, pos.leader, pos.declarer_points, pos.defender_tricks)
    assert Solver(16).value(again) == Solver(16).value(pos)


def test_position_takes_hands_as_codes_cardsets_cards_or_masks() -> None:
    by_text = Position(Game.GRAND, 0, ["CJ HA", "H7 S7", "HK D7"], skat="DA DT", trick=["H8"], leader=2)
    by_sets = Position(Game.GRAND, 0, [CardSet("CJ HA"), [Card("H7"), "S7"], CardSet("HK D7").mask],
                       skat=CardSet("DA DT"), trick=[9], leader=2)
    assert by_text == by_sets and by_text.trick == [Card("H8")]
    masks = [CardSet("CJ HA").mask, 0, 0]
    assert Position(Game.GRAND, 0, masks).hands is masks          # a list of masks is used as given
    with pytest.raises(InvalidCardError, match="'XX'"):
        Position(Game.GRAND, 0, ["CJ XX", "", ""])


# -- Solver results --------------------------------------------------------------

def test_card_values_are_keyed_by_card(pos: Position, solver: Solver) -> None:
    values = solver.card_values(pos)
    assert all(type(card) is Card and type(cv.card) is Card and cv.card is card for card, cv in values.items())
    assert {str(card): cv.value for card, cv in values.items()} == {
        "CJ": 120, "SJ": 120, "HA": 120, "HT": 120, "HK": 120, "DA": 96, "DT": 97, "D9": 107, "D8": 107, "D7": 107}
    assert values[Card("DA")] is values[7]      # an int key finds the same entry
    assert repr(values[Card("DA")]) == "CardValue(card=Card('DA'), value=96, declarer_wins=True)"
    for exact in (True, False):
        assert set(solver.card_values(pos, exact=exact)) == set(pos.legal_moves())


def test_lines_are_cards_and_the_json_keeps_its_codes(pos: Position, solver: Solver) -> None:
    line = solver.line(pos)
    assert len(line) == 30 and all(type(c) is Card for c in line)
    replay = pos.copy()
    for card in line:
        replay.play(card)
    assert replay.value_so_far == solver.value(pos) == 120
    result = solver.solve(pos, "all")
    assert result.line == line and all(type(cv.card) is Card for cv in result.cards or [])
    out = result.to_json()
    assert out["line"] == [str(c) for c in line] and out["cards"][0] == {"card": "CJ", "value": 120, "declarer_wins": True}
    win = solver.solve(pos, "win")
    assert all(type(c) is Card for c in win.line)


def test_null_card_values_and_line_are_cards(solver: Solver) -> None:
    pos = skatdd.parse_deal(DEAL, game=Game.NULL, declarer=2).position()
    values = solver.card_values(pos)
    assert values and all(type(card) is Card and card is cv.card for card, cv in values.items())
    assert set(values) == set(pos.legal_moves())
    assert all(type(c) is Card for c in solver.line(pos))


# -- import skatdd ---------------------------------------------------------------

def test_import_skatdd_gives_the_documented_names() -> None:
    for name in ("Solver", "load_deal", "parse_deal", "Position", "GameSpec", "Declaration", "Card", "CardSet",
                 "analyse", "advise", "odds", "best", "null_ouvert", "score", "match", "bid", "Game", "SkatddError"):
        assert name in skatdd.__all__ and callable(getattr(skatdd, name)), name
    for name in skatdd.__all__:                # the lazy ones too
        assert getattr(skatdd, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        skatdd.nonsense  # noqa: B018


def test_parse_deal_reads_text_and_load_deal_also_a_path(tmp_path: Path) -> None:
    path = tmp_path / "deal.txt"
    path.write_text(DEAL + "\n")
    spec = skatdd.parse_deal(DEAL, game=Game.DIAMONDS, declarer=0)
    assert isinstance(spec, GameSpec)
    assert skatdd.load_deal(str(path), game=Game.DIAMONDS, declarer=0).position() == spec.position()
    with pytest.raises(SkatddError):
        skatdd.parse_deal(str(path), game=Game.DIAMONDS, declarer=0)
    with pytest.raises(SkatddError, match="--game is required"):
        skatdd.parse_deal(DEAL)


def _played_and_values(analysis: Any) -> list[tuple[Card, int | None, int | None]]:
    """Each card of an analysed game with the position's value before and after it."""
    return [(p.card, p.value_before, p.value_after) for p in analysis.line.plays]


def test_analyse_takes_every_input_kind(solver: Solver, tmp_path: Path) -> None:
    from skatdd.formats.iss import parse_iss
    from skatdd.formats.json_text import json_text
    from skatdd.formats.readers import parse_input

    spec = skatdd.parse_deal(GAME_ISS)
    path = tmp_path / "game.iss"
    path.write_text(GAME_ISS)
    by_text = skatdd.analyse(GAME_ISS, solver=solver, review=False)
    # the record's own result: the declarer (rearhand) lost the overbid game, v:-72, with 75 points
    assert (by_text.declarer, by_text.result.score, by_text.result.declarer_points) == (2, -72, 75)
    assert [card for card, _, _ in _played_and_values(by_text)] == spec.played
    assert all(type(card) is Card for card, _, _ in _played_and_values(by_text))
    assert all(type(c) is Card for p in by_text.line.plays for c in p.best)
    # the value after each card is the value before the next one
    values = _played_and_values(by_text)
    assert all(after == values[i + 1][1] for i, (_, _, after) in enumerate(values[:-1]))
    want = untimed(by_text.to_json())
    for game in (parse_iss(GAME_ISS), parse_input(GAME_ISS), path):
        assert untimed(skatdd.analyse(game, solver=solver, review=False).to_json()) == want, type(game)
    by_spec = skatdd.analyse(spec, solver=solver, review=False)      # the same game as a JSON deal
    assert by_spec.source == "json" and _played_and_values(by_spec) == values
    assert untimed(skatdd.analyse(json_text(spec.to_json()), solver=solver, review=False).to_json()) == untimed(
        by_spec.to_json())


def test_analyse_refuses_what_is_no_game(solver: Solver, tmp_path: Path) -> None:
    with pytest.raises(SkatddError, match="not a game to analyse"):
        skatdd.analyse(DEAL, solver=solver)
    with pytest.raises(SkatddError, match=r"missing\.iss"):
        skatdd.analyse(tmp_path / "missing.iss", solver=solver)
    with pytest.raises(SkatddError, match="'XX'"):
        skatdd.analyse(GAME_ISS.replace("HT 1 H9", "XX 1 H9"), solver=solver)
    with pytest.raises(SkatddError, match="3 is not a game to analyse"):
        skatdd.analyse(3, solver=solver)  # type: ignore[arg-type]


def test_advise_odds_bid_best_null_ouvert_score_from_the_top_level(solver: Solver) -> None:
    from skatdd.analysis.best.api import best_contracts

    spec = skatdd.parse_deal(GAME_ISS)
    pos = spec.start_position()
    for card in spec.played[:24]:
        pos.play(card)
    advice = skatdd.advise(pos, spec.declaration(), worlds=20, seed=3, solver=solver)
    assert {c.card for c in advice.cards} == set(pos.legal_moves())
    assert all(type(c.card) is Card for c in advice.cards) and advice.best and all(type(c) is Card for c in advice.best)

    hand = "CJ SJ HJ DJ CA CT CK CQ C9 C8"          # four jacks and six clubs: a grand hand nobody beats
    report = skatdd.odds(hand, seat=0, games=["grand"], picked_up=False, worlds=5)
    assert [(o.game, o.win) for o in report.options] == [(Game.GRAND, 1.0)]

    reports = skatdd.best(DEAL, declarer=0, solver=solver)
    hands, skat = [CardSet(g).mask for g in DEAL.split("/")[:3]], CardSet(DEAL.split("/")[3]).mask
    assert [r.best.label for r in reports] == [best_contracts(hands, skat, 0, solver=solver).best.label]
    assert [r.declarer for r in skatdd.best(DEAL, solver=solver)] == [0, 1, 2]

    singleton_ace = "CA S7 S8 S9 H7 H8 H9 D7 D8 D9"
    result = skatdd.null_ouvert(singleton_ace, declarer=0, skat="HA DA")
    assert not result.unbeatable and result.counterexample is not None
    assert all(type(c) is Card for c in result.counterexample[1])

    s = skatdd.score(Declaration.from_options(Game.DIAMONDS), matadors=1, points=75, bid=22)
    assert (s.score, s.overbid, s.seeger) == (-54, True, -104)


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """Run *code* in a fresh interpreter (imports start from nothing)."""
    return run_python(code)


def test_import_skatdd_leaves_the_commands_logic_unimported() -> None:
    run = _python("""
import sys, warnings
warnings.simplefilter("error", DeprecationWarning)
import skatdd
lazy = ["skatdd.analysis.advise.api", "skatdd.analysis.analyse.api", "skatdd.analysis.odds.api", "skatdd.analysis.bid.api",
        "skatdd.analysis.best.api", "skatdd.engine.nullouvert", "skatdd.play.match", "skatdd.formats.readers"]
assert not [m for m in lazy if m in sys.modules], [m for m in lazy if m in sys.modules]
assert set(skatdd.__all__) <= set(dir(skatdd)), set(skatdd.__all__) - set(dir(skatdd))
from skatdd import advise
assert advise is sys.modules["skatdd.analysis.advise.api"].advise and skatdd.advise is advise
assert skatdd.null_ouvert is sys.modules["skatdd.engine.nullouvert"].analyse
""")
    assert run.returncode == 0, run.stderr


CHECK_ORDER = """
import inspect, warnings
warnings.simplefilter("error", DeprecationWarning)
{first}
import skatdd
from skatdd import advise, analyse, best, bid, odds
for name in ("advise", "analyse", "best", "bid", "odds"):
    attribute = getattr(skatdd, name)
    assert callable(attribute), name
    assert inspect.signature(attribute).parameters, name
spec = skatdd.parse_deal(open({iss!r}).read())
print(len(analyse(spec, review=False).line.plays), best({deal!r}, declarer=0)[0].best.label)
"""


@pytest.mark.parametrize("first", [
    "",                                     # the top-level names first
    "import skatdd.analysis.advise.api, skatdd.analysis.analyse.api, skatdd.analysis.odds.api",   # the modules first
    "import skatdd.cli",                    # as the command line does
    "from skatdd import null_ouvert, score",
])
def test_top_level_entry_points_work_whatever_was_imported_first(first: str) -> None:
    run = _python(CHECK_ORDER.format(first=first, iss=str(ROOT / "examples" / "game.iss"), deal=DEAL))
    assert run.returncode == 0, run.stderr
    plays, label = run.stdout.split(maxsplit=1)
    assert int(plays) == len(skatdd.parse_deal(GAME_ISS).played) and label.strip() == "grand ouvert"
