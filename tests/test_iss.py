"""Tests for skatdd.formats.iss: the ISS game-record parser and replay.

The eleven fixture records (tests/data/iss-games.txt, real ISS games) are
parsed and replayed; every record in which a game was played must reproduce
the server's ``R[...]`` numbers exactly.  Variants of the fixtures cover the
other move forms (separate discard, live deal format, per-player views with
hidden cards, early endings) and malformed records.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from skatdd.core.cards import card_name, cards_of, mask_of, parse_cards, points_of
from skatdd.core.errors import ISSFormatError, SkatddError
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.formats.iss import IssGame, iter_iss, looks_like_iss, parse_iss, replay

FIXTURES = Path(__file__).parent / "data" / "iss-games.txt"
LINES = [line for line in FIXTURES.read_text().splitlines() if line.strip()]
BY_ID = {re.search(r"ID\[(\d+)\]", line).group(1): line for line in LINES}
PLAYED = [line for line in LINES if "R[passed]" not in line and "d:-1" not in line]


def mv_tokens(line: str) -> list[str]:
    return re.search(r"MV\[([^\]]*)\]", line).group(1).split()


def with_mv(line: str, tokens: list[str]) -> str:
    """*line* with its MV[...] replaced by *tokens*."""
    return re.sub(r"MV\[[^\]]*\]", lambda _: "MV[" + " ".join(tokens) + " ]", line)


def with_moves(line: str, old: str, new: str) -> str:
    """Replace the exact MV text *old* (one or more 'WHO MOVE' pairs) by *new*."""
    tokens = mv_tokens(line)
    text = " ".join(tokens)
    assert f" {old} " in f" {text} ", old
    return with_mv(line, f" {text} ".replace(f" {old} ", f" {new} ", 1).split())


def masks(text: str) -> int:
    return mask_of(parse_cards(text))


# --------------------------------------------------------------------------- fixtures


def test_fixture_file_has_eleven_records() -> None:
    assert len(LINES) == 11


@pytest.mark.parametrize("line", LINES, ids=list(BY_ID))
def test_every_fixture_parses(line: str) -> None:
    game = parse_iss(line)
    assert isinstance(game, IssGame)
    dealt = [c for hand in game.hands for c in hand] + game.skat
    assert sorted(dealt) == list(range(32))
    assert game.hidden_cards == 0
    assert game.result.raw == re.search(r"R\[([^\]]*)\]", line).group(1)


@pytest.mark.parametrize("line", PLAYED, ids=[re.search(r"ID\[(\d+)\]", rec).group(1) for rec in PLAYED])
def test_replay_reproduces_server_result(line: str) -> None:
    game = parse_iss(line)
    result = game.result
    done = replay(game)
    assert done.declarer_points == result.points
    assert done.declarer_tricks == result.tricks
    assert done.schneider == result.schneider
    assert done.schwarz == result.schwarz
    assert done.matadors == result.matadors
    assert done.declarer_wins == (result.outcome == "win")
    assert done.score.score == result.value
    assert done.score.overbid == result.overbid
    assert game.declarer == result.declarer


def test_all_nine_played_fixtures_are_covered() -> None:
    assert len(PLAYED) == 9


def test_complete_record_fields() -> None:
    game = parse_iss(BY_ID["541932"])
    assert game.id == "541932"
    assert game.players == ["zoot", "kermit", "foo"]
    assert game.date == "2010-12-06/18:59:24/UTC"
    assert game.hands[0] == parse_cards("HA SK SJ SA CQ S8 C9 H7 H9 DQ")
    assert game.skat == parse_cards("H8 CK")
    assert game.bids == [(1, "p"), (2, "18"), (0, "p")]
    assert game.bid == 18
    assert game.declarer == 2
    assert game.game == Game.DIAMONDS
    assert game.declaration.hand is False and game.declaration.announce == []
    assert game.picked_up is True
    assert game.discard == parse_cards("ST H8")
    assert game.plays[0] == (0, parse_cards("SA")[0])
    assert len(game.plays) == 30
    assert game.ending is None
    result = game.result
    assert (result.declarer, result.outcome, result.value, result.matadors) == (2, "loss", -54, -2)
    assert (result.overbid, result.points, result.tricks) == (False, 59, 4)
    assert (result.schneider, result.schwarz) == (False, False)
    assert (result.left, result.timed_out, result.resigned, result.passed) == (None, None, False, False)
    assert result.penalties == [0, 0, 0]


def test_declarer_cards_after_pickup_and_discard() -> None:
    game = parse_iss(BY_ID["541932"])
    dealt = masks("D8 D7 DT CT ST C7 HK DA HT HJ")
    assert game.declarer_cards() == (dealt | masks("H8 CK")) & ~masks("ST H8")
    assert game.skat_for_declarer() == masks("ST H8")
    hands = game.start_hands()
    assert hands[0] == mask_of(game.hands[0]) and hands[1] == mask_of(game.hands[1])
    assert hands[2] == game.declarer_cards()


def test_start_and_final_position() -> None:
    game = parse_iss(BY_ID["541932"])
    start = game.start_position()
    assert isinstance(start, Position)
    assert (start.game, start.declarer, start.leader, start.trick) == (Game.DIAMONDS, 2, 0, [])
    assert start.skat == masks("ST H8")
    assert [h.bit_count() for h in start.hands] == [10, 10, 10]
    final = game.final_position()
    assert final.is_over()
    assert final.value_so_far == 59
    assert [card for _, card in final.history] == [card for _, card in game.plays]


def test_hand_game_uses_dealt_skat() -> None:
    game = parse_iss(BY_ID["26496"])
    assert game.declaration.hand and game.declaration.schwarz and game.declaration.schneider
    assert game.picked_up is False and game.discard is None
    assert game.skat_for_declarer() == mask_of(game.skat)
    assert game.declarer_cards() == mask_of(game.hands[0])
    assert game.bid == 40


def test_null_ouvert_resigned_right_after_declaration() -> None:
    game = parse_iss(BY_ID["1390253"])
    assert game.game == Game.NULL
    assert game.declaration.ouvert and not game.declaration.hand
    assert game.discard == parse_cards("HA HQ")
    assert game.ending == ("RE", 2)
    assert game.plays == []
    assert game.start_position().game == Game.NULL
    done = replay(game)
    assert (done.declarer_points, done.declarer_tricks, done.declarer_wins) == (14, 0, True)
    assert done.complete is False and done.awarded == "declarer"
    assert done.score.score == 46


def test_claim_then_resignations_give_the_declarer_the_rest() -> None:
    game = parse_iss(BY_ID["1039093"])
    assert game.ending == ("SC", 1)
    assert [(e.kind, e.seat) for e in game.events] == [("SC", 1), ("RE", 2), ("RE", 0)]
    position = game.final_position()
    assert position.declarer_tricks == 1 and position.defender_tricks == 5
    done = replay(game)
    assert done.awarded == "declarer" and not done.complete
    assert done.declarer_tricks == 5 and done.declarer_points == 84


def test_grand_ouvert_claim_in_first_trick() -> None:
    game = parse_iss(BY_ID["727"])
    decl = game.declaration
    assert (decl.game, decl.hand, decl.schneider, decl.schwarz, decl.ouvert) == (Game.GRAND, True, True, True, True)
    assert game.ending == ("SC", 0)
    assert len(game.plays) == 2  # CJ, then H9 played after the first resignation
    assert replay(game).score.score == 192


def test_passed_record() -> None:
    game = parse_iss(BY_ID["756788"])
    assert game.result.passed and game.result.outcome is None
    assert game.declarer is None and game.declaration is None and game.game is None
    assert game.bids == [(1, "p"), (2, "p"), (0, "p")] and game.bid is None
    with pytest.raises(ISSFormatError, match="no game was played"):
        replay(game)
    with pytest.raises(ISSFormatError, match="no game was played"):
        game.start_position()


def test_penalty_record() -> None:
    game = parse_iss(BY_ID["30"])
    result = game.result
    assert result.outcome == "penalty" and result.passed is False and result.declarer is None
    assert result.left == 2 and result.penalties == [0, 0, 1]
    assert game.ending == ("LE", 2)
    assert game.declarer is None
    with pytest.raises(ISSFormatError, match="no game was played"):
        replay(game)


def test_trailing_hidden_play_before_a_departure() -> None:
    game = parse_iss(BY_ID["18358"])
    assert game.hidden_plays == [(0, 9)]
    assert game.plays == []
    assert game.ending == ("LE", 1)
    with pytest.raises(ISSFormatError, match=r"'\?\?'.*MV move 9"):
        game.final_position()
    done = replay(game)
    assert done.awarded == "declarer" and done.declarer_points == 120 and done.declarer_tricks == 10


# --------------------------------------------------------------------------- other move forms


def test_discard_as_separate_move_after_or_before_the_declaration() -> None:
    line = BY_ID["684159"]
    expected = replay(parse_iss(line))
    after = parse_iss(with_moves(line, "2 G.S8.C9", "2 G 2 S8.C9"))
    before = parse_iss(with_moves(line, "2 G.S8.C9", "2 S8.C9 2 G"))
    for game in (after, before):
        assert game.discard == parse_cards("S8 C9")
        assert replay(game) == expected


def test_live_deal_format_with_bars() -> None:
    line = BY_ID["541932"]
    deal = mv_tokens(line)[1].split(".")
    bars = ".".join(deal[:10]) + "|" + ".".join(deal[10:20]) + "|" + ".".join(deal[20:30]) + "|" + ".".join(deal[30:])
    game = parse_iss(with_moves(line, "w " + mv_tokens(line)[1], "w " + bars))
    assert game.hands == parse_iss(line).hands


def test_null_ouvert_hand_shows_cards() -> None:
    line = BY_ID["1390253"]
    game0 = parse_iss(line)
    hand = " ".join(c for c in mv_tokens(line)[1].split(".")[10:20])
    text = with_moves(line, "1 s w DJ.D8 1 NO.HA.HQ", "1 NOH." + hand.replace(" ", "."))
    game = parse_iss(text)
    assert game.declaration.hand and game.declaration.ouvert and not game.picked_up
    assert game.ouvert_cards == game0.hands[1]
    assert game.skat_for_declarer() == masks("DJ D8")
    done = replay(game)
    # ISS counts the skat for a null declarer too: DJ D8 are 2 points.
    assert done.declarer_wins and done.declarer_points == 2 and done.score.score == 59


def test_ouvert_cards_must_be_the_declarers() -> None:
    line = BY_ID["1390253"]
    hand = mv_tokens(line)[1].split(".")[0:10]  # forehand's cards, not the declarer's
    text = with_moves(line, "1 s w DJ.D8 1 NO.HA.HQ", "1 NOH." + ".".join(hand))
    with pytest.raises(ISSFormatError, match="does not hold"):
        parse_iss(text)


def hide_view(line: str, seat: int) -> str:
    """The record as *seat* would see it: other hands and the dealt skat hidden; a
    defender also sees neither the skat the declarer picks up nor the discard."""
    tokens = mv_tokens(line)
    deal = tokens[1].split(".")
    tokens[1] = ".".join(c if i // 10 == seat and i < 30 else "??" for i, c in enumerate(deal))
    declarer = parse_iss(line).declarer
    for i in range(2, len(tokens), 2):
        move = tokens[i + 1]
        if seat != declarer and tokens[i] == "w" and re.fullmatch(r"[CSHD][789TJQKA]\.[CSHD][789TJQKA]", move):
            tokens[i + 1] = "??.??"
        if seat != declarer and re.fullmatch(r"[GCSHDN][HOSZ]*\.\w\w\.\w\w", move):
            tokens[i + 1] = move.split(".")[0] + ".??.??"
    return with_mv(line, tokens)


COMPLETE = [line for line in PLAYED if len(parse_iss(line).plays) == 30]


@pytest.mark.parametrize("seat", [0, 1, 2])
@pytest.mark.parametrize("line", COMPLETE, ids=[re.search(r"ID\[(\d+)\]", rec).group(1) for rec in COMPLETE])
def test_per_player_view_of_a_complete_game_replays(line: str, seat: int) -> None:
    full = parse_iss(line)
    view = parse_iss(hide_view(line, seat))
    assert replay(view) == replay(full)
    assert view.start_hands() == full.start_hands()
    assert view.skat_for_declarer() == full.skat_for_declarer()
    assert mask_of(view.hands[seat]) == mask_of(full.hands[seat])
    if seat == full.declarer or not full.picked_up:
        assert view.hidden_cards == 0
        assert [mask_of(h) for h in view.hands] == [mask_of(h) for h in full.hands]
    else:
        # A defender never learns how the declarer's twelve cards were split into hand and skat.
        assert view.hidden_cards == 12


def test_per_player_view_of_an_early_ending_cannot_be_replayed() -> None:
    view = parse_iss(hide_view(BY_ID["1039093"], 0))
    assert view.hidden_cards > 0
    with pytest.raises(ISSFormatError, match=r"does not reveal the hand of seat 1 \(declarer\)"):
        replay(view)


# --------------------------------------------------------------------------- early endings


def first_tricks(line: str, count: int) -> list[str]:
    """MV tokens up to and including the card plays of the first *count* cards."""
    game = parse_iss(line)
    last_move = game.play_moves[count - 1]
    return mv_tokens(line)[: 2 * last_move]


def test_declarer_resigns_defenders_take_the_rest() -> None:
    line = BY_ID["684159"]  # grand by seat 2, bid 27, with 3
    game = parse_iss(with_mv(line, [*first_tricks(line, 7), "2", "RE"]))
    position = game.final_position()
    done = replay(game)
    assert done.awarded == "defenders" and not done.complete
    assert done.declarer_points == position.declarer_points + points_of(position.skat)
    assert done.declarer_tricks == position.declarer_tricks
    assert not done.declarer_wins and done.score.score < 0


def test_one_defender_resigning_settles_nothing() -> None:
    line = BY_ID["684159"]
    game = parse_iss(with_mv(line, [*first_tricks(line, 6), "0", "RE"]))
    assert game.ending == ("RE", 0)
    with pytest.raises(ISSFormatError, match="stops after 2 of 10 tricks"):
        replay(game)


def test_claim_without_resignation_settles_nothing() -> None:
    line = BY_ID["684159"]
    game = parse_iss(with_mv(line, [*first_tricks(line, 6), "2", "SC"]))
    with pytest.raises(ISSFormatError, match="cannot be replayed"):
        replay(game)


def test_declarer_leaving_gives_the_defenders_the_rest() -> None:
    line = BY_ID["684159"]
    game = parse_iss(with_mv(line, [*first_tricks(line, 4), "w", "LE.2"]))
    done = replay(game)
    assert done.awarded == "defenders" and not done.declarer_wins


def test_defender_timeout_gives_the_declarer_the_rest() -> None:
    line = BY_ID["684159"]
    game = parse_iss(with_mv(line, [*first_tricks(line, 4), "w", "TI.0"]))
    assert game.ending == ("TI", 0)
    done = replay(game)
    position = game.final_position()
    assert done.awarded == "declarer"
    assert done.declarer_tricks == 10 - position.defender_tricks
    untaken = sum(points_of(hand) for hand in position.hands) + points_of(mask_of(position.trick))
    assert done.declarer_points == position.declarer_points + points_of(position.skat) + untaken


def test_null_declarer_resigning_loses() -> None:
    line = BY_ID["1390253"]
    game = parse_iss(with_moves(line, "2 RE 0 RE", "1 RE"))
    done = replay(game)
    assert done.awarded == "defenders"
    assert done.declarer_wins is False and done.score.score == -92
    assert done.declarer_tricks == 0


def test_claim_must_show_the_declarers_cards() -> None:
    line = BY_ID["1039093"]
    bad = with_moves(line, "1 SC", "1 SC.HQ")  # HQ is rearhand's
    with pytest.raises(ISSFormatError, match=r"'SC\.HQ' at MV move 25 .*'HQ'"):
        replay(parse_iss(bad))
    good = with_moves(line, "1 SC", "1 SC.HJ")
    assert replay(parse_iss(good)).declarer_points == 84


def test_hidden_play_that_completes_a_trick_cannot_be_replayed() -> None:
    line = BY_ID["684159"]
    tokens = [*first_tricks(line, 5), "0", "??", "w", "LE.1"]
    with pytest.raises(ISSFormatError, match=r"'\?\?' by seat 0 at MV move \d+ is hidden and completes a trick"):
        replay(parse_iss(with_mv(line, tokens)))


def test_card_play_after_a_hidden_play_is_rejected() -> None:
    line = BY_ID["684159"]
    tokens = [*first_tricks(line, 4), "2", "??", "0", "ST"]
    with pytest.raises(ISSFormatError, match=r"'ST' follows the hidden play"):
        parse_iss(with_mv(line, tokens))


# --------------------------------------------------------------------------- malformed records


def test_truncated_record() -> None:
    line = BY_ID["541932"]
    with pytest.raises(ISSFormatError, match="truncated"):
        parse_iss(line[: line.index("R[") + 10])
    with pytest.raises(ISSFormatError, match="truncated"):
        parse_iss(line[:-3].rstrip())
    with pytest.raises(ISSFormatError, match=r"'MV'.*not closed|truncated"):
        parse_iss(line[: line.index("MV[") + 200])


def test_mv_cut_between_who_and_move() -> None:
    line = BY_ID["541932"]
    tokens = mv_tokens(line)[:-1]
    with pytest.raises(ISSFormatError, match=r"MV ends with '2' alone"):
        parse_iss(with_mv(line, tokens))


def test_not_a_record() -> None:
    with pytest.raises(ISSFormatError, match="not an ISS game record"):
        parse_iss("CJ SJ / HA")
    with pytest.raises(ISSFormatError, match="no MV"):
        parse_iss("(;GM[Skat]ID[1] ;)")
    with pytest.raises(ISSFormatError, match="'ID' appears twice"):
        parse_iss("(;GM[Skat]ID[1]ID[2]MV[w x] ;)")
    with pytest.raises(ISSFormatError, match="unexpected text 'oops"):
        parse_iss("(;GM[Skat]oops ;)")


def test_bad_card_in_deal() -> None:
    line = BY_ID["541932"]
    bad = line.replace("w HA.SK.", "w HA.X9.", 1)
    with pytest.raises(ISSFormatError, match=r"unknown card 'X9' in the deal"):
        parse_iss(bad)


def test_duplicate_card_in_deal() -> None:
    line = BY_ID["541932"]
    bad = line.replace("w HA.SK.", "w HA.HA.", 1)
    with pytest.raises(ISSFormatError, match=r"card 'HA' appears twice in the deal"):
        parse_iss(bad)


def test_short_deal() -> None:
    line = BY_ID["541932"]
    bad = line.replace("w HA.SK.", "w ", 1)
    with pytest.raises(ISSFormatError, match="has 30 cards: expected 32"):
        parse_iss(bad)


def test_bad_card_play() -> None:
    line = BY_ID["541932"]
    with pytest.raises(ISSFormatError, match=r"unknown move 'C1' by seat 0 at MV move 8"):
        parse_iss(with_moves(line, "0 SA", "0 C1"))


def test_unknown_move() -> None:
    line = BY_ID["541932"]
    with pytest.raises(ISSFormatError, match=r"unknown move 'XX' by seat 0"):
        parse_iss(with_moves(line, "0 p", "0 XX"))
    with pytest.raises(ISSFormatError, match=r"unknown player 'x'"):
        parse_iss(with_moves(line, "0 p", "x p"))


def test_bad_declarations() -> None:
    line = BY_ID["541932"]
    with pytest.raises(ISSFormatError, match=r"hand declaration 'DH\.ST\.H8' after the skat was picked up"):
        parse_iss(with_moves(line, "2 D.ST.H8", "2 DH.ST.H8"))
    with pytest.raises(ISSFormatError, match=r"'DS\.ST\.H8' announces schneider or schwarz without hand"):
        parse_iss(with_moves(line, "2 D.ST.H8", "2 DS.ST.H8"))
    with pytest.raises(ISSFormatError, match=r"MV move 8 \('2 D\.ST\.H8'\): the game is declared twice"):
        parse_iss(with_moves(line, "2 D.ST.H8", "2 D.ST.H8 2 D.ST.H8"))
    with pytest.raises(ISSFormatError, match=r"MV move 7: the discard puts away 'SA', which the declarer does not"):
        parse_iss(with_moves(line, "2 D.ST.H8", "2 D.ST.SA"))
    with pytest.raises(ISSFormatError, match=r"null cannot announce schneider"):
        parse_iss(with_moves(line, "2 s w H8.CK 2 D.ST.H8", "2 NHS"))
    with pytest.raises(ISSFormatError, match=r"declaration 'C' is not a hand game, but the skat was not picked up"):
        parse_iss(with_moves(line, "2 s w H8.CK 2 D.ST.H8", "2 C"))
    with pytest.raises(ISSFormatError, match=r"unknown card 'X9' in the declaration"):
        parse_iss(with_moves(line, "2 D.ST.H8", "2 D.ST.X9"))


def test_illegal_play_names_card_and_move() -> None:
    line = BY_ID["541932"]
    game = parse_iss(line)
    position = game.start_position()
    tokens = mv_tokens(line)
    for index, (seat, card) in enumerate(game.plays):  # noqa: B007 (index is read after the loop)
        illegal = [c for c in range(32) if position.hands[seat] >> c & 1 and not position.legal_moves_mask() >> c & 1]
        if illegal:
            break
        position.play(card)
    else:
        pytest.fail("no position with an illegal card in this record")
    move = game.play_moves[index]
    name = card_name(illegal[0])
    tokens[2 * move - 1] = name
    bad = parse_iss(with_mv(line, tokens))
    with pytest.raises(ISSFormatError, match=rf"illegal card play '{name}' by seat {seat} at MV move {move}"):
        replay(bad)
    with pytest.raises(ISSFormatError, match=rf"'{name}'.*MV move {move}"):
        bad.final_position()


def test_unheld_card() -> None:
    line = BY_ID["541932"]
    bad = parse_iss(with_moves(line, "0 SA", "0 CJ"))  # CJ is middlehand's
    with pytest.raises(ISSFormatError, match=r"'CJ' by seat 0 at MV move 8: card 'CJ' is not in the hand of seat 0"):
        replay(bad)


def test_play_out_of_turn() -> None:
    line = BY_ID["541932"]
    bad = parse_iss(with_moves(line, "0 SA 1 S7", "1 S7 0 SA"))
    with pytest.raises(ISSFormatError, match=r"'S7' at MV move 8 is by seat 1, but seat 0 is to play"):
        replay(bad)


def test_play_after_a_null_is_lost() -> None:
    line = BY_ID["1390253"]
    # Middlehand plays null ouvert: play it out until the declarer takes a trick, then play on.
    game = parse_iss(line)
    position = game.start_position()
    plays = []
    while not position.is_over():
        legal = cards_of(position.legal_moves_mask())
        seat = position.to_move
        # declarer plays high, defenders low: the declarer soon takes a trick
        card = legal[-1] if seat == 1 else legal[0]
        plays += [str(seat), card_name(card)]
        position.play(card)
    extra_seat = position.to_move
    extra = cards_of(position.hands[extra_seat])[0]
    tokens = mv_tokens(with_moves(line, "2 RE 0 RE", "")) + plays
    done = replay(parse_iss(with_mv(line, tokens)))
    assert done.complete and not done.declarer_wins and done.declarer_tricks == 1
    assert done.score.score == -92
    tokens += [str(extra_seat), card_name(extra)]
    message = rf"'{card_name(extra)}' by seat {extra_seat} .* after the game was decided"
    with pytest.raises(ISSFormatError, match=message):
        replay(parse_iss(with_mv(line, tokens)))


def test_play_before_declaration() -> None:
    line = BY_ID["26496"]
    with pytest.raises(ISSFormatError, match=r"card play 'CJ' before the game was declared"):
        parse_iss(with_moves(line, "0 CHZ 0 CJ", "0 CJ 0 CHZ"))


def test_bid_must_rise() -> None:
    line = BY_ID["26496"]
    with pytest.raises(ISSFormatError, match=r"bid '18' does not exceed the previous bid 22"):
        parse_iss(with_moves(line, "1 23", "1 18"))


def test_result_declarer_must_match() -> None:
    line = BY_ID["541932"].replace("R[d:2 ", "R[d:1 ")
    with pytest.raises(ISSFormatError, match=r"d:1, but seat 2 declared"):
        parse_iss(line)


def test_bad_result_token() -> None:
    line = BY_ID["541932"].replace(" v:-54 ", " v:x ")
    with pytest.raises(ISSFormatError, match=r"bad result token 'v:x'"):
        parse_iss(line)


def test_result_variants() -> None:
    line = BY_ID["541932"]
    no_result = re.sub(r"R\[[^\]]*\]", "", line)
    game = parse_iss(no_result)
    assert game.result.raw == "" and game.result.outcome is None and game.result.points is None
    assert replay(game).score.score == -54
    joined = parse_iss(line.replace("R[d:2 loss ", "R[d:2loss "))
    assert (joined.result.declarer, joined.result.outcome) == (2, "loss")
    assert parse_iss(line.replace(" r:0]", " r:1 future:7 newword]")).result.resigned is True


def test_errors_are_skatdd_errors() -> None:
    with pytest.raises(SkatddError):
        parse_iss("(;")


# --------------------------------------------------------------------------- file helpers


def test_iter_iss_numbers_lines_and_yields_errors() -> None:
    text = LINES[0] + "\n\n" + "(;GM[Skat]MV[w CJ] ;)\n" + LINES[1] + "\n"
    out = list(iter_iss(text))
    assert [n for n, _ in out] == [1, 3, 4]
    assert isinstance(out[0][1], IssGame) and isinstance(out[2][1], IssGame)
    assert isinstance(out[1][1], ISSFormatError)


def test_iter_iss_over_fixture_file() -> None:
    out = list(iter_iss(FIXTURES.read_text()))
    assert len(out) == 11
    assert all(isinstance(game, IssGame) for _, game in out)


def test_looks_like_iss() -> None:
    assert looks_like_iss("  \n" + LINES[0])
    assert not looks_like_iss("CJ SJ HA / ...")
    assert not looks_like_iss('{"game": "grand"}')
