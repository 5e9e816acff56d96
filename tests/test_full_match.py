"""Full-game matches (``skatdd match A B --full``, skatdd.play.full.match) and the full-game players.

Legal choices only; each player sees only its seat's state; the six seatings; every game of a match
round-trips through the ISS writer and reader to the same score; --jobs 1 and 2 give the same output;
--resume; a card-play-only player (in this process and as a hosted plug-in) plays with the defaults.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any, ClassVar

import pytest

from cli_runner import run_skatdd
from skatdd.core.cards import CardSet, cards_of
from skatdd.formats.iss import parse_iss, replay, replay_warnings
from skatdd.play.full import players as full_players
from skatdd.play.full.actions import Pass, Phase, Say
from skatdd.play.full.game import FullGame
from skatdd.play.full.heuristic_player import HeuristicChoices, bid_limit
from skatdd.play.full.match import SEATINGS, full_generated_deal, full_match, read_full_deal
from skatdd.play.full.players import FullHeuristicPlayer, FullRandomPlayer, load_full_player
from skatdd.play.full.state import SeatState
from skatdd.play.state import PlayerState

TT = ("--tt-mb", "16")


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def heuristic_random() -> list[dict[str, Any]]:
    records, summary = full_match("heuristic", "random", 40, seed=3)
    assert summary.deals == 40 and not summary.failed
    return records


def test_six_seatings_each_a_whole_game(heuristic_random: list[dict[str, Any]]) -> None:
    for record in heuristic_random:
        assert [g["seating"] for g in record["games"]] == list(SEATINGS) == ["AAB", "ABA", "BAA", "BBA", "BAB", "ABB"]
        deal = full_generated_deal(3, int(record["id"].split("-")[1]))
        assert record["hands"] == [str(CardSet(h)) for h in deal.hands] and record["skat"] == str(CardSet(deal.skat))
        a = sum(g["tournament"][s] for g in record["games"] for s in range(3) if g["seating"][s] == "A")
        b = sum(g["tournament"][s] for g in record["games"] for s in range(3) if g["seating"][s] == "B")
        assert record["edge"]["tournament"] == a - b
        for game in record["games"]:
            record_iss = parse_iss(game["iss"])
            assert record_iss.players == list(game["seating"])


def test_every_game_round_trips_through_the_iss_reader(heuristic_random: list[dict[str, Any]]) -> None:
    kinds = set()
    for record in heuristic_random:
        for game in record["games"]:
            parsed = parse_iss(game["iss"])
            assert [[s, m] for s, m in parsed.bids] == game["auction"]
            if game["declarer"] is None:
                assert parsed.result.passed and game["list"] == game["tournament"] == [0, 0, 0]
                kinds.add("passed")
                continue
            played = replay(parsed)
            assert replay_warnings(parsed, played) == []
            assert played.score.score == sum(game["list"]) and played.declarer_wins == game["won"]
            assert played.score.seeger == game["tournament"][game["declarer"]]
            assert played.declarer_points == game["declarer_points"]
            kinds.add(game["game"] if game["game"] in ("grand", "null") else "suit")
    assert {"passed", "suit", "grand", "null"} <= kinds


class Recorder:
    """A player that checks what it is shown: only its own seat, its own cards, no skat unless it picked it up."""

    seen: ClassVar[list[Phase]] = []

    def __init__(self, seat: int, seed: int) -> None:
        self.seat, self.inner = seat, FullRandomPlayer(seat, seed)

    def _check(self, state: SeatState) -> None:
        assert state.seat == self.seat and state.to_move == self.seat and state.legal
        if state.skat is not None or state.discard is not None:
            assert state.is_declarer and state.picked_up
        assert state.open_hand is None  # nobody is shown the declarer's cards before an ouvert game's play
        Recorder.seen.append(state.phase)

    def bid(self, state: SeatState) -> Any:
        self._check(state)
        return self.inner.bid(state)

    def pick_up(self, state: SeatState) -> Any:
        self._check(state)
        return self.inner.pick_up(state)

    def discard(self, state: SeatState) -> Any:
        self._check(state)
        assert state.skat is not None and len(state.hand) == 12
        return str(self.inner.discard(state))  # a token is an answer too

    def declare(self, state: SeatState) -> Any:
        self._check(state)
        return self.inner.declare(state)

    def play(self, state: PlayerState) -> Any:
        assert state.seat == self.seat
        if state.skat is not None:
            assert state.is_declarer and not state.declaration.hand
        return self.inner.play(state)


def test_players_see_only_their_own_seat() -> None:
    Recorder.seen = []
    _, summary = full_match(Recorder, "heuristic", 12, seed=5)
    assert summary.deals == 12 and not summary.failed
    assert {Phase.AUCTION, Phase.PICK_UP, Phase.DISCARD, Phase.DECLARE} <= set(Recorder.seen)


def test_the_choices_before_the_play_do_not_depend_on_hidden_cards() -> None:
    """Middlehand's first bid, forehand's answer: the same whatever the other hands and the skat hold."""
    base = full_generated_deal(1, 2)
    for make in (FullHeuristicPlayer, lambda seat, seed: full_players.FullPimcPlayer(seat, seed, worlds=2)):
        answers = set()
        for rotate in range(3):
            others = [base.hands[0], base.hands[2], base.skat]
            cards = CardSet(others[0] | others[1] | others[2]).mask
            pool = cards_of(cards)
            pool = pool[rotate * 7:] + pool[:rotate * 7]
            h0 = sum(1 << c for c in pool[:10])
            h2 = sum(1 << c for c in pool[10:20])
            sk = sum(1 << c for c in pool[20:])
            game = FullGame([h0, base.hands[1], h2], sk)
            answers.add(str(make(1, 7).bid(game.state_for(1))))
        assert len(answers) == 1


def test_only_legal_choices_and_an_illegal_one_fails_the_deal() -> None:
    for name in ("random", "heuristic"):
        player = load_full_player(name).factory
        for index in range(1, 30):
            deal = full_generated_deal(11, index)
            game = FullGame(deal.hands, deal.skat)
            players = [player(s, index) for s in range(3)]
            while (seat := game.current_seat) is not None:
                state = game.state_for(seat)
                if game.phase is Phase.PLAY:
                    break  # the card play is the card-play players' (tested in test_match*)
                method = getattr(players[seat], {"auction": "bid", "pick_up": "pick_up", "discard": "discard",
                                                 "declare": "declare"}[str(game.phase)])
                action = method(state)
                assert action in state.legal
                game.apply(action)

    class Jumper:
        def __init__(self, seat: int, seed: int) -> None:
            pass

        def bid(self, state: SeatState) -> Any:
            return "17"

    records, summary = full_match(Jumper, "random", 2, seed=1)
    assert summary.failed == 2 and "'17'" in records[0]["failed"]["message"] and "auction" in records[0]["failed"]["message"]


def test_a_card_play_only_player_plays_full_games_with_the_defaults(tmp_path: Path) -> None:
    bot = tmp_path / "cardbot.py"
    bot.write_text(textwrap.dedent("""
        class Bot:
            def __init__(self, seat, seed):
                pass
            def play(self, state):
                return state.legal[-1]
            def bid(self, state):
                return "p"
        def make(seat, seed):
            return Bot(seat, seed)
    """))
    out = tmp_path / "m.jsonl"
    proc = run_skatdd("match", f"{bot}:make", "random", "--full", "--deals", "3", "--jobs", "1", "-o", str(out),
                      "--json", *TT)
    assert proc.returncode == 0, proc.stderr
    records = lines_of(out.read_text())
    for record in records:
        for game in record["games"]:
            a_seats = [s for s in range(3) if game["seating"][s] == "A"]
            assert all(move == "p" for seat, move in game["auction"] if seat in a_seats)
    assert json.loads(proc.stdout)["profile"]["a"]["declared"] == 0


def test_heuristic_limit_follows_the_count() -> None:
    strong = CardSet("CJ SJ HJ CA CT C9 SA ST H7 DQ").mask   # Stegen 14.5 (clubs with 3, 48); grand with 3, 96
    weak = CardSet("C7 C8 S7 S9 HQ H8 DK D9 D8 SQ").mask
    rest, skat = CardSet("DJ CK CQ SK HA HT HK H9 DA DT").mask, CardSet("S8 D7").mask
    assert bid_limit(strong, 0) == 96 and bid_limit(weak, 1) is None
    assert HeuristicChoices().bid(FullGame([weak, strong, rest], skat).state_for(1)) == Say(18)
    assert HeuristicChoices().bid(FullGame([strong, weak, rest], skat).state_for(1)) == Pass()


def test_pimc_plays_a_full_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(full_players, "BID_SKATS", 2)
    monkeypatch.setattr(full_players, "BID_WORLDS", 2)
    monkeypatch.setattr(full_players, "PICKUP_WORLDS", 4)
    records, summary = full_match("pimc:2", "heuristic", 1, seed=1)  # seed 1: games declared and played
    assert summary.deals == 1 and not summary.failed, records
    assert len(records[0]["games"]) == 6 and any(game["cards"] for game in records[0]["games"])
    # The worlds of pimc's card decisions, one entry per card (null: forced, or heuristic's), at most N = 2 each.
    used = [n for game in records[0]["games"] for n in game["worlds"] if n is not None]
    assert all(len(game["worlds"]) == len(game["cards"]) for game in records[0]["games"])
    assert used and all(1 <= n <= 2 for n in used)
    assert records[0]["worlds_used"] == {"A": {"decisions": len(used), "worlds": sum(used), "max": max(used)},
                                         "B": None}
    assert summary.to_json()["worlds"] == {"a": {"decisions": len(used), "mean": round(sum(used) / len(used), 4),
                                                 "max": max(used)}, "b": None}
    assert "PIMC worlds per searched card: A " in "\n".join(summary.lines())


def test_jobs_and_resume_give_the_same_output(tmp_path: Path) -> None:
    outputs = []
    args = ("match", "heuristic", "random", "--full", "--deals", "6", "--seed", "4", *TT)
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.jsonl"
        proc = run_skatdd(*args, "--jobs", jobs, "-o", str(out), "--json")
        assert proc.returncode == 0, proc.stderr
        outputs.append((out.read_text(), json.loads(proc.stdout)))
    assert outputs[0] == outputs[1]
    summary = outputs[0][1]
    assert summary["deals"] == 6 and set(summary["edge"]) == {"tournament", "list"}
    assert set(summary["profile"]["a"]) >= {"passed", "declarer_win", "by_game", "mean_bid", "overbid", "hand"}
    assert summary["worlds"] == {"a": None, "b": None}  # neither searches worlds
    assert all(r["worlds_used"] == {"A": None, "B": None} for r in lines_of(outputs[0][0]))
    whole = tmp_path / "jobs1.jsonl"
    part = tmp_path / "part.jsonl"
    lines = whole.read_text().splitlines(keepends=True)
    part.write_text("".join(lines[:2]) + lines[2][:40])
    (tmp_path / "part.jsonl.run.json").write_bytes((tmp_path / "jobs1.jsonl.run.json").read_bytes())
    resumed = run_skatdd(*args, "--jobs", "1", "-o", str(part), "--resume", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert part.read_text() == whole.read_text() and json.loads(resumed.stdout) == summary


def test_deals_from_a_file_json_and_iss(tmp_path: Path) -> None:
    game = FullGame.from_seed(3)
    for _ in range(3):
        game.apply("p")
    hands, skat = game.dealt
    deals = tmp_path / "deals.txt"
    deals.write_text(json.dumps({"id": "j", "hands": [str(CardSet(h)) for h in hands], "skat": str(CardSet(skat))})
                     + "\n" + game.to_iss(game_id="i") + "\n" + '{"id": "bad", "hands": ["CJ"], "skat": "D7 D8"}\n')
    assert read_full_deal(game.to_iss()).hands == hands
    proc = run_skatdd("match", "heuristic", "random", "--full", "--deals", str(deals), "--jobs", "1",
                      "-o", str(tmp_path / "o.jsonl"), *TT)
    assert proc.returncode == 2 and "hands" in proc.stderr
    records = lines_of((tmp_path / "o.jsonl").read_text())
    assert [r["id"] for r in records] == ["j", "i", "bad"]
    assert (records[0]["hands"], records[0]["skat"]) == (records[1]["hands"], records[1]["skat"])
    assert len(records[0]["games"]) == len(records[1]["games"]) == 6
    assert "error" in records[2]


def test_a_negative_number_of_full_deals_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 0, a path or the deals themselves, not -2"):
        full_match("random", "random", -2)
