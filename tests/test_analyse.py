"""Tests for skatdd.analysis.analyse.api and ``skatdd analyse`` (docs/cli.md).

* every fixture record (tests/data/iss-games.txt): played games are analysed
  and reproduce the server's result (``score == v:``); passed games raise a
  clear error alone and are skipped in a file of games;
* the invariants of every analysis: ``value_after`` of one card is
  ``value_before`` of the next, costs are never negative and are 0 exactly
  for the cards in ``best``;
* the values and ``best`` agree with an independent computation through
  :meth:`Solver.card_values` at every position;
* a game played along the engine's own principal variation shows no
  mistake, and one deliberate losing card is the first decisive one;
* the JSON fields, the readable report, the contract review, and the CLI's
  errors (exit 2, one line naming the token, no traceback) and files of games
  with ``--jobs 2`` (input order kept).
"""
from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

import pytest

from cli_runner import invoke, run_skatdd
from skatdd.analysis.analyse.api import (
    GameAnalysis,
    PlayLine,
    analyse_cards,
    analyse_iss,
    analyse_line,
    analyse_lines,
    analyse_spec,
    analyse_text,
)
from skatdd.core.cards import card_name, format_cards, format_mask
from skatdd.core.errors import DealFormatError, IllegalPlayError, ISSFormatError, SkatddError
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.engine.solve import Solver
from skatdd.formats.iss import parse_iss
from skatdd.formats.readers import position_from_json
from skatdd.tools.generate import realistic_deals

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "data" / "iss-games.txt"
LINES = [line for line in FIXTURES.read_text().splitlines() if line.strip()]
IDS = [re.search(r"ID\[(\d+)\]", line).group(1) for line in LINES]
BY_ID = dict(zip(IDS, LINES, strict=True))
NO_GAME = {"756788", "30"}  # R[passed] and a penalty during the bidding
PLAYED = [i for i in IDS if i not in NO_GAME]
EXAMPLE = ROOT / "examples" / "game.iss"

PLAY_KEYS = {"trick", "seat", "card", "value_before", "value_after", "cost", "best"}
OPTION_KEYS = {
    "game", "hand", "discard", "announce", "value", "declarer_wins", "schneider", "schwarz", "matadors",
    "game_value", "score", "line",
}


@pytest.fixture(scope="module")
def analyses(solver: Solver) -> dict[str, GameAnalysis]:
    """Every played fixture record, analysed once without the contract review."""
    return {ident: analyse_iss(BY_ID[ident], solver=solver, review=False) for ident in PLAYED}


def check_invariants(analysis: GameAnalysis | PlayLine) -> None:
    """The chain of values, the cost rule and ``best``."""
    line = analysis.line if isinstance(analysis, GameAnalysis) else analysis
    plays = line.plays
    assert len(line.values) == len(plays) + 1
    if plays:
        assert plays[0].value_before == line.start_value
    for i, play in enumerate(plays):
        assert play.index == i
        assert play.value_before == line.values[i] and play.value_after == line.values[i + 1]
        if i + 1 < len(plays):
            assert play.value_after == plays[i + 1].value_before
        assert play.cost >= 0
        expected = play.value_before - play.value_after if play.declarer else play.value_after - play.value_before
        assert play.cost == expected
        assert (play.cost == 0) == (play.card in play.best), (i, card_name(play.card))
        assert len(set(play.best)) == len(play.best) and play.best


# --------------------------------------------------------------------------- fixture records


def test_fixture_file_has_every_kind_of_record() -> None:
    assert len(LINES) == 11 and len(PLAYED) == 9


@pytest.mark.parametrize("ident", PLAYED)
def test_fixture_result_matches_the_server(ident: str, analyses: dict[str, GameAnalysis]) -> None:
    record = parse_iss(BY_ID[ident])
    analysis = analyses[ident]
    assert analysis.result.score == record.result.value
    assert analysis.result.declarer_points == record.result.points
    assert analysis.result.declarer_tricks == record.result.tricks
    assert analysis.result.declarer_wins == (record.result.outcome == "win")
    assert [p.card for p in analysis.plays] == [card for _, card in record.plays]
    assert [p.seat for p in analysis.plays] == [seat for seat, _ in record.plays]
    assert analysis.declarer == record.declarer and analysis.game == record.game


@pytest.mark.parametrize("ident", PLAYED)
def test_fixture_invariants(ident: str, analyses: dict[str, GameAnalysis]) -> None:
    analysis = analyses[ident]
    check_invariants(analysis)
    assert len(analysis.stakes) == len(analysis.plays) + 1
    assert analysis.costs == [sum(p.cost for p in analysis.plays if p.seat == s) for s in range(3)]
    for play in analysis.plays:
        assert play.trick == play.index // 3 + 1


@pytest.mark.parametrize("ident", PLAYED)
def test_fixture_final_value_of_a_complete_game_is_its_points(ident: str, analyses: dict[str, GameAnalysis]) -> None:
    analysis = analyses[ident]
    if analysis.result.complete and not analysis.game.is_null:
        assert analysis.line.values[-1] == analysis.result.declarer_points


@pytest.mark.parametrize("ident", sorted(NO_GAME))
def test_record_without_a_game_is_a_clear_error(ident: str, solver: Solver) -> None:
    with pytest.raises(ISSFormatError, match="no game was played"):
        analyse_iss(BY_ID[ident], solver=solver, review=False)
    outcome = analyse_line(solver, 7, BY_ID[ident], review=False)
    assert not outcome.is_error
    assert outcome.record["line"] == 7 and outcome.record["id"] == ident
    assert "no game was played" in outcome.record["skipped"]


def test_known_fixture_numbers(analyses: dict[str, GameAnalysis]) -> None:
    """Pinned facts of three records (double-dummy values are exact, so they cannot drift)."""
    lost = analyses["541932"]  # diamonds, lost with 59
    assert lost.start_value == lost.plays[0].value_before
    assert lost.line.values[-1] == 59 and not lost.result.declarer_wins
    claimed = analyses["1039093"]  # grand, declarer claims after 17 cards, defenders resign
    assert claimed.claim is not None and claimed.claim.seat == 1 and claimed.claim.index == 17
    assert claimed.ending == ("SC", 1, "declarer")
    ouvert = analyses["727"]  # grand ouvert, claim after one card
    assert ouvert.start_value == 120 and ouvert.claim is not None and ouvert.claim.correct
    overbid = analyses["8650652"]  # diamonds without 1 after a bid of 36: lost with 75 points
    assert overbid.result.overbid and overbid.result.game_value == 18 and overbid.result.score == -72
    assert overbid.start_value >= 61 and not any(stake.wins for stake in overbid.stakes)
    assert overbid.to_json()["result"]["overbid"] is True
    null = analyses["1390253"]  # null ouvert, defenders resign at once
    assert null.plays == [] and null.start_value in (0, 1) and null.claim is None


def test_claims_are_judged_by_the_tricks_left(solver: Solver, analyses: dict[str, GameAnalysis]) -> None:
    claimed = analyses["1039093"]
    pos = claimed.start.copy()
    for play in claimed.plays[:claimed.claim.index]:
        pos.play(play.card)
    pos.defender_tricks = 0
    assert claimed.claim.correct == solver.declarer_takes_all(pos)
    assert claimed.claim.value == claimed.line.values[claimed.claim.index]


# --------------------------------------------------------------------------- against card_values


def card_values_check(start: Position, cards: list[int], line: PlayLine, solver: Solver) -> None:
    """Every position: value_after and best from Solver.card_values, independently of analyse's shortcuts."""
    pos = start.copy()
    for play, card in zip(line.plays, cards, strict=True):
        cvs = solver.card_values(pos)
        if pos.game.is_null:
            values = {c: int(cv.declarer_wins) for c, cv in cvs.items()}
        else:
            values = {c: cv.value for c, cv in cvs.items()}
        best = max(values.values()) if pos.to_move == pos.declarer else min(values.values())
        assert play.value_before == best
        assert play.value_after == values[card]
        assert set(play.best) == {c for c, v in values.items() if v == best}
        pos.play(card)


@pytest.mark.parametrize("ident", ["596891", "1039093"])
def test_values_and_best_agree_with_card_values(ident: str, analyses: dict[str, GameAnalysis]) -> None:
    analysis = analyses[ident]
    card_values_check(analysis.start, [p.card for p in analysis.plays], analysis.line, Solver(tt_mb=32))


# --------------------------------------------------------------------------- principal variations


def spec_json(pos: Position, played: list[int], **extra) -> dict:
    obj = {
        "id": "pv", "game": pos.game.label, "declarer": pos.declarer,
        "hands": [format_mask(h) for h in pos.hands], "skat": format_mask(pos.skat),
        "played": format_cards(played),
    }
    obj.update(extra)
    return obj


PV_DEALS = realistic_deals(5, 2) + realistic_deals(11, 1, game=Game.GRAND) + realistic_deals(3, 1, game=Game.NULL)


@pytest.mark.parametrize("index", range(len(PV_DEALS)))
def test_principal_variation_has_no_mistakes(index: int, solver: Solver) -> None:
    pos = PV_DEALS[index]
    line = solver.line(pos)
    analysis = analyse_spec(position_from_json(spec_json(pos, line)), solver=solver, review=False)
    check_invariants(analysis)
    assert len(analysis.plays) == len(line)
    assert all(p.cost == 0 for p in analysis.plays)
    assert analysis.costs == [0, 0, 0]
    assert analysis.first_decisive is None and analysis.decisive_stake is None
    assert len(set(analysis.line.values)) == 1
    if pos.game.is_null:
        assert analysis.result.declarer_wins == bool(analysis.start_value)
    else:
        assert analysis.result.declarer_points == analysis.start_value
        assert analysis.result.declarer_wins == (analysis.start_value >= 61)
    assert analysis.result.complete and analysis.result.score is not None


def deviate(pos: Position, solver: Solver, want) -> tuple[list[int], int] | None:
    """Play the PV from *pos* until some card *c* satisfies ``want(pos, value_before, value_of_c)``; then *c*, then the PV.

    Returns ``(cards, index of the deviating card)``, or ``None`` when no such card appears.
    """
    work = pos.copy()
    played: list[int] = []
    while not work.is_over():
        cvs = solver.card_values(work)
        values = {c: (int(cv.declarer_wins) if work.game.is_null else cv.value) for c, cv in cvs.items()}
        before = max(values.values()) if work.to_move == work.declarer else min(values.values())
        bad = [c for c, v in sorted(values.items()) if want(work, before, v)]
        if bad:
            work.play(bad[0])
            return [*played, bad[0], *solver.line(work)], len(played)
        card = solver.line(work)[0]
        played.append(card)
        work.play(card)
    return None


KINDS = {
    # name: (which deals, a deviating card's test, the stake it must flip)
    "declarer loses the game": (lambda v: v >= 61, lambda p, before, v: p.to_move == p.declarer and v < 61 <= before,
                                "win"),
    "declarer loses schneider": (lambda v: v >= 90, lambda p, before, v: p.to_move == p.declarer and 61 <= v < 90,
                                 "schneider"),
    "defender gives the game away": (lambda v: v < 61, lambda p, before, v: p.to_move != p.declarer and v >= 61,
                                     "win"),
}


def decisive_game(solver: Solver, kind: str, seed: int = 21) -> tuple[Position, list[int], int]:
    """A suit or grand deal played along the PV except for one card of *kind* (see :data:`KINDS`)."""
    deal_ok, want, _ = KINDS[kind]
    for attempt in range(4):  # a few seeds, so that a change in the generator cannot starve the test
        for pos in realistic_deals(seed + 1000 * attempt, 16):
            if pos.game.is_null or not deal_ok(solver.value(pos)):
                continue
            found = deviate(pos, solver, want)
            if found is not None:
                return pos, found[0], found[1]
    pytest.fail(f"no generated deal with a card of kind {kind!r}")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_one_deviation_from_the_pv_is_the_first_decisive(kind: str, solver: Solver) -> None:
    pos, cards, index = decisive_game(solver, kind)
    analysis = analyse_spec(position_from_json(spec_json(pos, cards)), solver=solver, review=False)
    check_invariants(analysis)
    play = analysis.plays[index]
    assert analysis.first_decisive == index and analysis.decisive_stake == KINDS[kind][2]
    assert play.cost > 0 and play.card not in play.best
    assert [i for i, p in enumerate(analysis.plays) if p.cost] == [index]
    assert analysis.costs[play.seat] == play.cost and sum(analysis.costs) == play.cost
    assert analysis.result.declarer_wins == (analysis.line.values[-1] >= 61)


def test_null_decisive_card_is_the_first_with_cost_one(solver: Solver) -> None:
    for pos in [p for seed in (4, 1004, 2004) for p in realistic_deals(seed, 6, game=Game.NULL)]:
        if not solver.declarer_wins(pos):
            continue
        found = deviate(pos, solver, lambda p, before, v: p.to_move == p.declarer and before == 1 and v == 0)
        if found is None:
            continue
        cards, index = found
        analysis = analyse_spec(position_from_json(spec_json(pos, cards)), solver=solver, review=False)
        check_invariants(analysis)
        assert analysis.first_decisive == index and analysis.plays[index].cost == 1
        assert analysis.result.declarer_wins is False and analysis.result.score == -46
        return
    pytest.fail("no won null among the generated deals")


def test_analyse_cards_rejects_an_illegal_card(solver: Solver) -> None:
    pos = PV_DEALS[0]
    line = solver.line(pos)
    wrong = next(c for c in range(32) if pos.hands[(pos.leader + 1) % 3] >> c & 1)  # not the leader's card
    with pytest.raises(IllegalPlayError, match=re.escape(card_name(wrong))):
        analyse_cards(pos, [wrong], solver=solver)
    with pytest.raises(IllegalPlayError, match="after the end of the game"):
        analyse_cards(pos, [*line, line[0]], solver=solver)


# --------------------------------------------------------------------------- JSON deals


def test_json_deal_is_scored_from_its_declaration(solver: Solver) -> None:
    record = parse_iss(BY_ID["684159"])  # grand, won with 85, v:96, bid 27
    obj = {
        "id": 17, "game": "grand", "declarer": 2,
        "hands": [format_mask(h) for h in record.start_hands()],
        "skat": format_mask(record.skat_for_declarer()),
        "played": [card_name(c) for _, c in record.plays], "bid": record.bid,
    }
    analysis = analyse_text(json.dumps(obj), solver=solver, review=False)
    assert analysis.id == 17 and analysis.result.score == 96 and analysis.result.declarer_points == 85
    iss = analyse_iss(BY_ID["684159"], solver=solver, review=False)
    assert [p.to_json() for p in analysis.plays] == [p.to_json() for p in iss.plays]
    partial = dict(obj, played=obj["played"][:7])
    unfinished = analyse_text(json.dumps(partial), solver=solver, review=False)
    assert len(unfinished.plays) == 7
    assert unfinished.result.score is None and unfinished.result.declarer_wins is None
    assert not unfinished.result.complete


def test_json_position_that_is_not_a_whole_game_is_refused(solver: Solver) -> None:
    obj = {"game": "null", "declarer": 0, "hands": ["D7", "D8", "D9"], "skat": ""}
    with pytest.raises(DealFormatError, match="ten-card hands"):
        analyse_text(json.dumps(obj), solver=solver)
    with pytest.raises(DealFormatError, match="not a game to analyse"):
        analyse_text("CJ SJ / HJ DJ", solver=solver)


# --------------------------------------------------------------------------- contract review


def test_contract_review_json(solver: Solver) -> None:
    analysis = analyse_iss(BY_ID["727"], solver=solver, review=True)  # grand ouvert, v:192
    data = analysis.to_json()
    review = data["contract_review"]
    assert set(review) == OPTION_KEYS | {"played"}
    assert review["played"] == {"game": "grand", "hand": True, "announce": ["schneider", "schwarz", "ouvert"],
                                "discard": None, "score": 192}
    assert review["score"] >= 192  # grand ouvert, won double-dummy, is among the options
    assert analysis.review.report.declarer == 0 and analysis.review.report.bid == 18


# --------------------------------------------------------------------------- JSON output and the CLI


run = partial(invoke, "analyse")


def test_example_file_is_a_complete_record_with_mistakes() -> None:
    text = EXAMPLE.read_text()
    record = parse_iss(text)
    assert len(record.plays) == 30 and record.id in BY_ID
    result = run(str(EXAMPLE), "--json", "--no-review")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert result.stdout.count("\n") == 1
    assert set(data) >= {"game", "declarer", "start_value", "plays", "result", "summary", "contract_review",
                         "nodes", "seconds"}
    assert data["contract_review"] is None
    assert all(set(p) == PLAY_KEYS for p in data["plays"])
    assert set(data["result"]) >= {"declarer_points", "declarer_wins", "score"}
    assert set(data["summary"]) >= {"costs", "first_decisive", "claim"}
    assert data["result"]["score"] == record.result.value
    assert any(p["cost"] > 0 for p in data["plays"])
    assert all(re.fullmatch(r"[CSHD][789TJQKA]", c) for p in data["plays"] for c in [p["card"], *p["best"]])


def test_readable_report() -> None:
    result = run(str(EXAMPLE), "--no-review")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "♠" in out or "♣" in out
    assert re.search(r"\d+ \? +best:", out)
    assert "Result: the declarer loses" in out and "Cost per player" in out
    assert "wins the trick" in out


def test_readable_report_marks_the_decisive_card(solver: Solver) -> None:
    from skatdd.present.analyse import analysis_lines

    pos, cards, index = decisive_game(solver, "declarer loses the game", seed=3)
    analysis = analyse_spec(position_from_json(spec_json(pos, cards)), solver=solver, review=True)
    text = "\n".join(analysis_lines(analysis))
    assert re.search(rf"^\s+{index + 1}\s.*\?\?  best:", text, re.M)
    assert "First decisive card (??)" in text and "Contract review" in text


@pytest.mark.parametrize("mutate, token", [
    (lambda line: line.replace(" 0 SA 1 S7 ", " 0 SX 1 S7 "), "SX"),
    (lambda line: line.replace("MV[w ", "MV[q "), "q"),
    (lambda line: line.replace(";)", ""), "';)'"),
])
def test_malformed_record_exits_2_naming_the_token(tmp_path: Path, mutate, token: str) -> None:
    bad = mutate(BY_ID["541932"])
    path = tmp_path / "bad.iss"
    path.write_text(bad + "\n")
    for arg in (bad, str(path)):
        result = run(arg, "--no-review")
        assert result.exit_code == 2, result.output
        message = result.stderr.strip()
        assert message.count("\n") == 0 and token in message and "Traceback" not in message


def test_bad_json_and_illegal_play_exit_2(tmp_path: Path) -> None:
    result = run('{"game": "grand", "declarer": 0,', "--no-review")
    assert result.exit_code == 2 and "malformed JSON" in result.stderr
    pos = PV_DEALS[0]
    lead = next(c for c in range(32) if pos.hands[(pos.leader + 1) % 3] >> c & 1)
    result = run(json.dumps(spec_json(pos, [lead])), "--no-review")
    assert result.exit_code == 2 and card_name(lead) in result.stderr
    assert result.stderr.count("\n") == 1
    result = run(BY_ID["756788"])
    assert result.exit_code == 2 and "no game was played" in result.stderr
    result = run(str(tmp_path / "missing.iss"))
    assert result.exit_code == 2 and "missing.iss" in result.stderr


def test_console_script_has_no_traceback() -> None:
    bad = BY_ID["541932"].replace(" 2 DA ", " 2 DX ")
    proc = run_skatdd("analyse", bad, "--no-review")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "DX" in proc.stderr and proc.stderr.count("\n") == 1


@pytest.mark.parametrize("address", ["local:2", "tcp://127.0.0.1:8786"])
def test_dask_with_one_game_is_refused_not_ignored(tmp_path: Path, address: str) -> None:
    # --dask runs a file of games; one game ran here, with the option silently dropped.
    out = tmp_path / "out.jsonl"
    result = run(str(EXAMPLE), "--no-review", "--dask", address, "-o", str(out))
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.count("\n") == 1 and f"--dask {address!r}: GAME is one game" in result.stderr
    assert not out.exists()


def test_file_of_games_with_two_jobs_keeps_order(tmp_path: Path) -> None:
    lines = list(LINES)
    lines.insert(3, "# a comment line")
    lines.insert(6, BY_ID["596891"].replace(" 0 S8 ", " 0 SX "))  # a bad record
    lines.insert(8, "")
    path = tmp_path / "games.iss"
    path.write_text("\n".join(lines) + "\n")
    result = run(str(path), "--jobs", "2", "--no-review", "--tt-mb", "16")
    assert result.exit_code == 2, result.output
    records = [json.loads(x) for x in result.stdout.splitlines()]
    expected_lines = [n for n, text in enumerate(lines, start=1) if text.strip() and not text.startswith("#")]
    assert len(records) == len(expected_lines)
    bad = [r for r in records if "error" in r]
    assert len(bad) == 1 and bad[0]["line"] == 7 and bad[0]["id"] == "596891" and "SX" in bad[0]["error"]
    skipped = [r for r in records if "skipped" in r]
    assert sorted(r["id"] for r in skipped) == sorted(NO_GAME)
    ids = [r["id"] for r in records]
    assert ids == [re.search(r"ID\[(\d+)\]", lines[n - 1]).group(1) for n in expected_lines]
    by_id = {r["id"]: r for r in records if "plays" in r}
    for ident in PLAYED:
        assert by_id[ident]["result"]["score"] == parse_iss(BY_ID[ident]).result.value
    assert "line 7" in result.stderr


def test_analyse_lines_in_process_matches_the_single_analysis(solver: Solver) -> None:
    out = []
    items = [(1, BY_ID["26496"].encode()), (2, b"{not json"), (4, BY_ID["756788"])]
    summary = analyse_lines(items, jobs=1, solver=Solver(tt_mb=16), review=False, emit=out.append)
    assert [o.line for o in out] == [1, 2, 4]
    assert summary.exit_code == 2 and summary.error_lines == [2]
    single = analyse_iss(BY_ID["26496"], solver=solver, review=False).to_json()
    assert out[0].record["plays"] == single["plays"] and out[0].record["result"] == single["result"]


def test_help_text() -> None:
    result = run("--help")
    assert result.exit_code == 0
    assert "--no-review" in result.output and "--jobs" in result.output and "--tt-mb" in result.output


def test_every_error_is_a_skatdd_error() -> None:
    for text in ("(;GM[Skat]MV[]R[];)", "{}", "[]"):
        with pytest.raises(SkatddError):
            analyse_text(text, review=False)
