"""The review of the decisions before the first card (issue #35): consistent with ``bid`` and ``odds --skat``.

Every check runs on examples/game.iss (the declarer bid 36 with ``♠J ♥J ♦J ♣8 ♠10 ♠Q ♠9 ♥A ♦10 ♦8``
and lost an overbid diamonds game) at a small budget, computed once for the module.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_runner import invoke_main
from skatdd.analysis.analyse.api import GameAnalysis, analyse
from skatdd.analysis.bid.api import BidReport, bid, declarations_at
from skatdd.analysis.odds.api import odds
from skatdd.analysis.review.api import _evaluate, _worlds_of, review_decisions
from skatdd.analysis.review.results import DecisionReview
from skatdd.core.cards import mask_of
from skatdd.core.errors import SkatddError
from skatdd.engine.solve import Solver
from skatdd.present.html import GameFacts, game_page
from skatdd.present.table import table_row
from skatdd.serve.review import board_review

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "game.iss"
#: A small budget (the tests' time), at which the declarer's table still says he overbid.
SKATS, WORLDS, SEED = 2, 4, 0


@pytest.fixture(scope="module")
def analysis() -> GameAnalysis:
    game = analyse(GAME, review=False)
    game.decisions = review_decisions(game, skats=SKATS, worlds=WORLDS, seed=SEED)
    return game


@pytest.fixture(scope="module")
def decisions(analysis: GameAnalysis) -> DecisionReview:
    assert analysis.decisions is not None
    assert isinstance(analysis.decisions, DecisionReview)
    return analysis.decisions


@pytest.fixture(scope="module")
def reports(analysis: GameAnalysis) -> list[BidReport]:
    assert analysis.dealt is not None
    hands, _ = analysis.dealt
    return [bid(hands[s], seat=s, skats=SKATS, worlds=WORLDS, seed=SEED) for s in range(3)]


def test_each_seat_s_verdict_is_bid_s(decisions: DecisionReview, reports: list[BidReport]) -> None:
    for seat, (judged, report) in enumerate(zip(decisions.bidding, reports, strict=True)):
        assert judged.seat == seat
        assert (judged.limit, judged.limit_tournament) == (report.max_bid(False), report.max_bid(True))
        limit = report.max_bid(False) or 0
        expected = "overbid" if judged.said > limit else (
            "passed-below" if judged.refused is not None and judged.refused <= limit and report.max_bid(False)
            else "within")
        assert judged.verdict == expected
    assert [b.said for b in decisions.bidding] == [0, 35, 36]  # forehand passed, middlehand held 35
    assert [b.refused for b in decisions.bidding] == [18, 36, None]


def test_the_bidding_cost_follows_the_model(decisions: DecisionReview, reports: list[BidReport]) -> None:
    declarer = decisions.bidding[2]
    value = max(p.score for p in declarations_at(reports[2], 36))
    assert declarer.choice == pytest.approx(value) and declarer.cost == pytest.approx(max(0.0, -value))
    passed = decisions.bidding[1]   # passed at 36: the cost is what declaring at 36 would have gained
    assert passed.choice == 0 and passed.cost == pytest.approx(max(0.0, max(p.score for p in
                                                                             declarations_at(reports[1], 36))))


def test_a_declarer_who_overbid_by_the_table_shows_it(decisions: DecisionReview) -> None:
    declarer = decisions.bidding[2]
    assert declarer.verdict == "overbid" and declarer.limit is not None and declarer.limit < 36
    assert declarer.steps == sum(1 for v in (18, 20, 22, 23, 24, 27, 30, 33, 35, 36) if v > declarer.limit)
    assert declarer.cost > 0
    assert decisions.verdict == "the game was lost in the bidding"
    assert decisions.summary[2].bidding == declarer.cost


def test_the_declaration_review_is_odds_with_the_skat(analysis: GameAnalysis, decisions: DecisionReview) -> None:
    assert analysis.dealt is not None
    hands, skat = analysis.dealt
    report = odds(hands[2], seat=2, skat=skat, worlds=WORLDS, seed=SEED, bid=36)
    expected = {}
    for option in report.options:
        assert option.discard is not None
        expected[option.label, frozenset(option.discard)] = (option.win, option.mean_score)
        for alt in option.alternatives or []:
            expected[option.label, frozenset(alt.discard)] = (alt.win, alt.mean_score)
    declaration = decisions.declaration
    assert declaration is not None and declaration.over == "skat" and declaration.inference == "none"
    listed = [o for o in declaration.alternatives if not o.chosen or (o.label, frozenset(o.discard or ())) in expected]
    assert listed
    for o in listed:
        assert expected[o.label, frozenset(o.discard or ())] == pytest.approx((o.win, o.score))
    best = max(score for _, score in expected.values())
    assert declaration.alternatives[0].score == best


def test_the_alternatives_hold_the_choice_made(analysis: GameAnalysis, decisions: DecisionReview) -> None:
    declaration = decisions.declaration
    assert declaration is not None
    chosen = [o for o in declaration.alternatives if o.chosen]
    assert len(chosen) == 1 and chosen[0] == declaration.choice
    assert chosen[0].declaration == analysis.declaration
    assert set(chosen[0].discard or ()) == set(analysis.discard or ())
    assert decisions.pickup is not None and decisions.pickup.choice == "pickup"


@pytest.mark.parametrize("inference", ["none", "bids"])
def test_a_choice_evaluated_apart_scores_as_odds_does(analysis: GameAnalysis, inference: str) -> None:
    assert analysis.dealt is not None
    hands, skat = analysis.dealt
    bids = analysis.bids if inference == "bids" else ()
    report = odds(hands[2], seat=2, skat=skat, worlds=WORLDS, seed=SEED, bid=36, games=["grand", "null"],
                  inference=inference, bids=bids)
    worlds = _worlds_of(hands[2], 2, skat, WORLDS, SEED, inference, analysis.bids)
    for option in report.options:
        assert option.discard is not None
        mine = _evaluate(Solver(), 2, hands[2] | skat, option.declaration, mask_of(option.discard), 36, worlds)
        assert (mine.win, mine.score) == pytest.approx((option.win, option.mean_score))


def test_no_auction_no_review(analysis: GameAnalysis) -> None:
    game = analyse(GAME, review=False)
    game.bids = ()
    assert review_decisions(game, skats=1, worlds=1) is None


def test_json_table_and_page_carry_the_review(analysis: GameAnalysis) -> None:
    record = analysis.to_json()
    d = record["decisions"]
    assert (d["seed"], d["skats"], d["worlds"]) == (SEED, SKATS, WORLDS)
    assert [set(b) >= {"seat", "limit", "said", "verdict", "cost"} for b in d["bidding"]] == [True] * 3
    assert set(d["pickup"]) >= {"choice", "alternatives", "cost"}
    assert all(set(a) >= {"game", "discard", "announce", "win", "score"} for a in d["declaration"]["alternatives"])
    row = table_row(json.loads(json.dumps(record)))
    assert row is not None and row["verdict"] == d["summary"]["verdict"]
    assert row["bidding_cost_rearhand"] == d["summary"]["seats"][2]["bidding"]
    page = game_page(record, GameFacts.of_analysis(analysis))
    assert page.index('id="decisions"') < page.index("Trick by trick")
    assert "The game was lost in the bidding" in page


def test_the_command_prints_the_review_and_its_json() -> None:
    budget = ("--bid-skats", str(SKATS), "--bid-worlds", str(WORLDS), "--jobs", "1")
    status, out, err = invoke_main("analyse", str(GAME), *budget)
    assert status == 0, err
    text = out.decode()
    assert text.index("Decisions before the first card") < text.index("# trick")
    assert "Verdict: the game was lost in the bidding" in text
    status, out, _ = invoke_main("analyse", str(GAME), *budget, "--json")
    assert status == 0 and json.loads(out)["decisions"]["bidding"][2]["verdict"] == "overbid"
    status, out, _ = invoke_main("analyse", str(GAME), "--no-review", "--json")
    assert status == 0 and "decisions" not in json.loads(out)


def test_the_board_reviews_a_loaded_record(decisions: DecisionReview) -> None:
    body = json.dumps({"text": GAME.read_text(), "skats": SKATS, "worlds": WORLDS, "seed": SEED})
    answer: dict[str, Any] = board_review(body)
    assert answer["decisions"]["bidding"] == [b.to_json() for b in decisions.bidding]
    assert answer["text"][-1] == "Verdict: the game was lost in the bidding"
    with pytest.raises(SkatddError, match="skats"):
        board_review(json.dumps({"text": GAME.read_text(), "skats": 0}))
    with pytest.raises(SkatddError, match="limit"):
        board_review(json.dumps({"text": GAME.read_text(), "skats": 100, "worlds": 100}))


def test_the_panel_names_cards_as_the_pages_do() -> None:
    from skatdd.present.html.render import card_label
    from skatdd.present.review import _label

    assert [_label(c) for c in range(32)] == [card_label(c) for c in range(32)]


def test_a_json_deal_with_bids_is_reviewed_with_a_note() -> None:
    from skatdd.formats.readers import load_deal

    spec = load_deal(GAME.read_text())
    deal = {**spec.to_json(), "bids": [[1, "18"], [0, "p"], [2, "20"], [1, "y"], [2, "22"], [1, "p"]], "bid": 22}
    game = analyse(deal, review=False)
    review = review_decisions(game, skats=1, worlds=2)
    assert review is not None and [b.said for b in review.bidding] == [0, 20, 22]
    assert review.notes and "after the discard" in review.notes[0]
    assert review.declaration is not None and any(o.chosen for o in review.declaration.alternatives)
    game.bids = ()
    assert review_decisions(game, skats=1, worlds=2) is None
