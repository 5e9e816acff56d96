"""The whole game (skatdd.play.full.game): the auction, the declarer's choices, the early ends, the scores,
and every game written as an ISS record that the project's reader reads back and replays to the same score."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from skatdd.core.cards import CardSet
from skatdd.core.errors import IllegalPlayError, SkatddError
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.formats.iss import parse_iss, replay, replay_warnings
from skatdd.play.full.actions import BIDS, Declare, Discard, Hold, Pass, Phase, PickUp, Play, PlayHand, Say, parse_action
from skatdd.play.full.game import FullGame
from skatdd.play.full.players import play_game
from skatdd.play.full.random_player import RandomPlayer

DEAL = (["CJ DA DT DK DQ D9 D8 D7 CA CT", "SJ HJ DJ CK CQ C9 C8 C7 SA ST", "SK SQ S9 S8 S7 HA HT HK HQ H9"], "H8 H7")


def game_of(moves: str) -> FullGame:
    game = FullGame(*DEAL)
    for move in moves.split():
        game.apply(move)
    return game


def categories(game: FullGame) -> set[str]:
    """What kind of game *game* was, for the coverage check of the round trip."""
    result = game.result
    assert result is not None
    if result.passed:
        return {"passed"}
    decl = result.declaration
    assert decl is not None
    found = {decl.game.label if decl.game in (Game.GRAND, Game.NULL) else "suit"}
    found.add("hand" if decl.hand else "picked up")
    if decl.game.is_null:
        found.add("null ouvert" if decl.ouvert else "plain null")
    elif decl.ouvert:
        found.add("ouvert")
    elif decl.schwarz:
        found.add("schwarz announced")
    elif decl.schneider:
        found.add("schneider announced")
    found.add("won" if result.won else "overbid" if result.overbid else "lost")
    if result.early:
        found.add("early")
    return found


def test_round_trip_through_the_iss_reader() -> None:
    """300 seeded deals played by random players: every record parses, replays to the game's own score, and
    between them the games cover every kind (passed in, hand, announcements, null, ouvert, overbid, early ends)."""
    seen: Counter[str] = Counter()
    for seed in range(300):
        game = FullGame.from_seed(seed)
        players = [RandomPlayer(seed * 3 + seat, jump_bids=seed % 5 == 0) for seat in range(3)]
        result = play_game(game, players)
        seen.update(categories(game))
        record = parse_iss(game.to_iss(game_id=str(seed), players=("a", "b", "c")))
        assert record.id == str(seed) and record.players == ["a", "b", "c"]
        assert record.bids == list(game.bids)
        assert [CardSet(h).mask for h in record.hands] == list(game.dealt[0])
        if result.passed:
            assert record.result.passed and record.declarer is None
            assert result.list_points == result.seeger == (0, 0, 0)
            continue
        assert result.score is not None
        assert (record.declarer, record.declaration, record.bid) == (result.declarer, result.declaration, result.bid)
        played = replay(record)
        assert replay_warnings(record, played) == []
        assert played.score == result.score
        assert (played.declarer_points, played.declarer_tricks, played.matadors) == (
            result.declarer_points, result.declarer_tricks, result.matadors)
        assert (played.schneider, played.schwarz, played.declarer_wins) == (result.schneider, result.schwarz, result.won)
        assert (record.result.value, record.result.points, record.result.tricks, record.result.overbid) == (
            played.score.score, played.declarer_points, played.declarer_tricks, played.score.overbid)
        assert sum(result.list_points) == result.score.score
    wanted = {"passed", "suit", "grand", "null", "hand", "picked up", "schneider announced", "schwarz announced",
              "ouvert", "plain null", "null ouvert", "won", "lost", "overbid", "early"}
    assert wanted <= set(seen), f"kinds never played: {wanted - set(seen)}"


def test_auction_middlehand_to_forehand_then_rearhand_to_the_survivor() -> None:
    game = FullGame(*DEAL)
    assert (game.phase, game.current_seat) == (Phase.AUCTION, 1)
    assert game.legal_actions() == [*(Say(v) for v in BIDS), Pass()]
    game.apply("18")
    assert (game.current_seat, game.legal_actions()) == (0, [Hold(), Pass()])
    for move in ("y", "20", "p"):      # forehand holds 18, passes at 20: middlehand survives at 20
        game.apply(move)
    assert game.current_seat == 2
    assert game.legal_actions()[0] == Say(22)   # rearhand must say more than 20
    game.apply("22")
    assert game.current_seat == 1
    game.apply("p")
    assert (game.phase, game.current_seat, game.declarer, game.bid) == (Phase.PICK_UP, 2, 2, 22)
    assert game.bids == ((1, "18"), (0, "y"), (1, "20"), (0, "p"), (2, "22"), (1, "p"))


def test_rearhand_passing_leaves_the_first_duel_s_winner_declarer() -> None:
    game = game_of("18 y p p")     # middlehand says 18, forehand holds, middlehand passes; rearhand passes
    assert (game.declarer, game.bid, game.current_seat) == (0, 18, 0)


def test_forehand_opens_after_two_passes_or_passes_the_deal_in() -> None:
    game = game_of("p p")
    assert (game.current_seat, game.legal_actions()[0], game.legal_actions()[-1]) == (0, Say(18), Pass())
    game.apply("23")
    assert (game.phase, game.declarer, game.bid) == (Phase.PICK_UP, 0, 23)
    passed = game_of("p p p")
    assert passed.is_over and passed.current_seat is None and passed.legal_actions() == []
    result = passed.result
    assert result is not None and result.passed
    assert (result.list_points, result.seeger, result.declarer) == ((0, 0, 0), (0, 0, 0), None)
    assert str(result) == "passed in: list 0 0 0, Seeger-Fabian 0 0 0"
    assert passed.to_iss().endswith("MV[w " + passed.iss_moves()[0][1] + " 1 p 2 p 0 p ]R[passed] ;)")


@pytest.mark.parametrize("moves, bad", [
    ("", "y"),                  # middlehand speaks first: he cannot hold
    ("18", "18"),               # forehand answers: he cannot say a bid
    ("18 y", "18"),             # a bid must exceed the last one
    ("18 y", "19"),             # 19 is no game value
    ("p p", "y"),
    ("18 y p p", "SA.ST"),      # the pick-up comes before any discard
])
def test_illegal_auction_moves_are_refused_and_change_nothing(moves: str, bad: str) -> None:
    game = game_of(moves)
    before = game.history
    with pytest.raises(SkatddError):
        game.apply(bad)
    assert game.history == before


def test_the_declarer_picks_up_discards_and_declares() -> None:
    game = game_of("18 y p p")
    assert game.legal_actions() == [PickUp(), PlayHand()]
    game.apply("s")
    assert game.phase is Phase.DISCARD
    assert game.state_for(0).hand == CardSet(DEAL[0][0] + " " + DEAL[1])   # twelve cards
    assert len(game.legal_actions()) == 66
    with pytest.raises(IllegalPlayError, match="SA"):
        game.apply("SA.H8")     # not his card
    game.apply("H8.H7")
    declarations = [a.declaration for a in game.legal_actions() if isinstance(a, Declare)]
    assert Declaration(Game.NULL) in declarations and Declaration(Game.NULL, ouvert=True) in declarations
    assert not any(d.hand or d.schneider for d in declarations)
    with pytest.raises(SkatddError, match="without hand"):
        game.apply("DS")        # schneider announced after a pick-up
    game.apply("D")
    assert (game.phase, game.current_seat) == (Phase.PLAY, 0)
    assert game.position is not None and game.position.skat == CardSet("H8 H7").mask


def test_null_below_the_bid_cannot_be_declared() -> None:
    game = game_of("18 y 20 y 22 y 23 y 24 y 27 y 30 y 33 y 35 y 36 y p p")   # forehand at 36
    game.apply("hand")
    declarations = {str(a) for a in game.legal_actions()}
    assert "NH" not in declarations and "NOH" in declarations      # null hand 35 < 36, null ouvert hand 59
    with pytest.raises(IllegalPlayError, match="NH"):
        game.apply("NH")
    picked = game_of("18 y 20 y 22 y 23 y 24 y p p s H8.H7")
    assert {str(a) for a in picked.legal_actions()} >= {"NO"} and "N" not in {str(a) for a in picked.legal_actions()}


def play_first_legal(game: FullGame) -> None:
    while game.current_seat is not None:
        game.apply(game.legal_actions()[0])


def test_overbid_is_lost_and_charged_as_isko_scores_it() -> None:
    """A jump bid of 40, diamonds with 1: worth at most (1 + game + schneider + schwarz) x 9 = 36 < 40, so lost
    whatever the play, charged the next multiple of 9 reaching 40, 45, doubled: -90; Seeger -140 and +40 each."""
    game = game_of("40 y p p s H8.H7 D")
    play_first_legal(game)
    result = game.result
    assert result is not None and result.score is not None
    assert result.matadors == 1 and result.score.game_value <= 36
    assert result.overbid and not result.won
    assert result.list_points == (-90, 0, 0)
    assert result.seeger == (-140, 40, 40)
    assert "overbid" in str(result) and "-90" in str(result)


def test_won_game_scores_value_plus_fifty() -> None:
    game = game_of("18 y p p s H8.H7 D")
    play_first_legal(game)
    result = game.result
    assert result is not None and result.score is not None and not result.overbid
    value = result.score.game_value
    if result.won:
        assert (result.list_points, result.seeger) == ((value, 0, 0), (value + 50, 0, 0))
    else:
        assert (result.list_points, result.seeger) == ((-2 * value, 0, 0), (-2 * value - 50, 40, 40))


def test_null_ends_at_the_declarer_s_first_trick() -> None:
    """Forehand plays null holding CJ CA CT: leading CA, he takes the first trick and the game stops there."""
    game = game_of("18 y p p s H8.H7 N CA")
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    result = game.result
    assert game.is_over and result is not None and result.early
    assert (result.declarer_tricks, result.list_points, result.seeger) == (1, (-46, 0, 0), (-96, 40, 40))
    assert len(game.position.history if game.position else ()) == 3


def test_schwarz_announced_ends_at_the_defenders_first_trick() -> None:
    game = game_of("18 y p p hand DHZ")
    while game.current_seat is not None:
        game.apply(game.legal_actions()[-1])
    result = game.result
    assert result is not None and result.early and not result.won
    assert game.position is not None and game.position.defender_tricks == 1


def test_every_action_prints_as_a_token_that_parses_back() -> None:
    rng = random.Random(3)
    for seed in range(20):
        game = FullGame.from_seed(seed)
        while game.current_seat is not None:
            legal = game.legal_actions()
            for action in legal:
                assert parse_action(str(action), game.phase) == action
            game.apply(str(rng.choice(legal)))


def test_clone_is_independent() -> None:
    game = game_of("18 y p p")
    twin = game.clone()
    twin.apply("hand")
    assert game.phase is Phase.PICK_UP and twin.phase is Phase.DECLARE
    assert game.history != twin.history
    playing = game_of("18 y p p s H8.H7 D CA")      # a discard and a card played: both copied
    copied = playing.clone()
    copied.apply(copied.legal_actions()[0])
    assert len(copied.history) == len(playing.history) + 1
    assert playing.position is not None and copied.position is not None
    assert len(playing.position.trick) == 1 and len(copied.position.trick) == 2


def test_bad_deals_and_early_records_are_refused() -> None:
    with pytest.raises(SkatddError, match="expected 10"):
        FullGame(["CJ", *DEAL[0][1:]], DEAL[1])
    with pytest.raises(SkatddError, match="repeats"):
        FullGame([DEAL[0][0], DEAL[0][0], DEAL[0][2]], DEAL[1])
    with pytest.raises(SkatddError, match="not over"):
        game_of("18").to_iss()
    with pytest.raises(SkatddError, match="over"):
        game_of("p p p").apply("18")


def test_str_shows_the_deal_moves_and_result() -> None:
    game = game_of("18 y p p s H8.H7 D")
    play_first_legal(game)
    text = str(game)
    assert "skat H8 H7" in text and "0:s 0:H8.H7 0:D" in text and "diamonds at 18" in text
    assert isinstance(game.history[0][1], Say) and isinstance(game.history[-1][1], Play)
    assert isinstance(game.history[5][1], Discard)
