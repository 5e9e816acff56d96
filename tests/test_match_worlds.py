"""The worlds PIMC players used, in ``match``'s records and summary (skatdd.play.worlds_used).

* each game's ``worlds`` has one entry per card: the worlds of the PIMC
  decision behind it (at most N), ``null`` for the other cards; the deal's
  ``worlds_used`` adds each program's decisions up, ``null`` for a program
  that is no PIMC player;
* the same lines whatever ``--jobs``; the summary (JSON and text) shows each
  PIMC player's mean worlds per searched decision, and nothing for the others;
* records of earlier versions (no ``worlds_used``, read by ``--resume``) count nothing.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import skatdd
from cli_runner import run_skatdd
from skatdd.play.deals import generated_deal
from skatdd.play.summary import MatchSummary

TT = ("--tt-mb", "16")


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def per_label(record: dict[str, Any], seed: int) -> dict[str, list[int]]:
    """The non-null ``worlds`` entries of a generated deal's games, by the label of the seat that played the card."""
    deal = generated_deal(seed, int(record["id"].split("-")[1]))
    found: dict[str, list[int]] = {"A": [], "B": []}
    for game in record["games"]:
        assert len(game["worlds"]) == len(game["cards"])
        declarer = game["declarer_player"]
        defender = "B" if declarer == "A" else "A"
        pos = deal.start_position()
        for card, used in zip(game["cards"], game["worlds"], strict=True):
            label = declarer if pos.to_move == deal.declarer else defender
            if used is not None:
                found[label].append(used)
            pos.play(skatdd.parse_card(card))
    return found


@pytest.fixture(scope="module")
def pimc_random(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, dict[str, Any]]]:
    """``match pimc:8 random`` over three deals with --jobs 1 and 2: (lines, summary JSON) each."""
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path_factory.mktemp("worlds") / f"jobs{jobs}.jsonl"
        proc = run_skatdd("match", "pimc:8", "random", "--deals", "3", "--seed", "5", "--jobs", jobs,
                          "-o", str(out), "--json", *TT)
        assert proc.returncode == 0, proc.stderr
        outputs.append((out.read_text(), json.loads(proc.stdout)))
    return outputs


def test_each_card_of_a_pimc_player_records_its_worlds(pimc_random: list[tuple[str, dict[str, Any]]]) -> None:
    records = lines_of(pimc_random[0][0])
    assert len(records) == 3
    for record in records:
        used = record["worlds_used"]
        assert used["B"] is None  # random searches nothing
        found = per_label(record, 5)
        assert found["B"] == []
        assert used["A"] == {"decisions": len(found["A"]), "worlds": sum(found["A"]), "max": max(found["A"])}
        assert used["A"]["decisions"] > 0 and all(1 <= n <= 8 for n in found["A"])


def test_the_counts_are_the_same_whatever_jobs(pimc_random: list[tuple[str, dict[str, Any]]]) -> None:
    assert pimc_random[0] == pimc_random[1]


def test_the_summary_shows_the_mean_worlds_per_decision(pimc_random: list[tuple[str, dict[str, Any]]]) -> None:
    lines, summary = pimc_random[0]
    records = lines_of(lines)
    decisions = sum(r["worlds_used"]["A"]["decisions"] for r in records)
    worlds = sum(r["worlds_used"]["A"]["worlds"] for r in records)
    assert summary["a"]["worlds"] == {"decisions": decisions, "mean": round(worlds / decisions, 4),
                                      "max": max(r["worlds_used"]["A"]["max"] for r in records)}
    assert summary["b"]["worlds"] is None
    again = MatchSummary(players={"A": "pimc:8", "B": "random"})
    for record in records:
        again.add(record)
    rows = str(again).splitlines()
    head = next(i for i, line in enumerate(rows) if line.startswith("PIMC worlds per searched decision"))
    assert rows[head + 1].split() == ["mean", f"{worlds / decisions:.2f}", "-"]
    assert rows[head + 3].split() == ["decisions", "searched", str(decisions), "-"]


def test_both_players_counted_apart() -> None:
    """Two PIMC players: each card's worlds go to the program whose seat played it, each within its N."""
    result = skatdd.match("pimc:3", "pimc:6,full", 2, seed=4)
    for record in result.records:
        found = per_label(record, 4)
        for label, n in (("A", 3), ("B", 6)):
            assert record["worlds_used"][label] == {"decisions": len(found[label]), "worlds": sum(found[label]),
                                                    "max": max(found[label])}
            assert all(1 <= used <= n for used in found[label])
    assert result.summary.to_json()["b"]["worlds"]["max"] <= 6


def test_players_that_search_no_worlds_show_nothing() -> None:
    result = skatdd.match("heuristic", "random", 2, seed=3)
    for record in result.records:
        assert record["worlds_used"] == {"A": None, "B": None}
        assert [game["worlds"] for game in record["games"]] == [None, None]
    summary = result.summary.to_json()
    assert summary["a"]["worlds"] is None and summary["b"]["worlds"] is None
    assert "worlds" not in str(result.summary)


def test_records_of_earlier_versions_count_nothing(pimc_random: list[tuple[str, dict[str, Any]]],
                                                   tmp_path: Path) -> None:
    summary = MatchSummary(players={"A": "pimc:8", "B": "random"})
    for record in lines_of(pimc_random[0][0]):
        del record["worlds_used"]
        summary.add(record)
    assert summary.deals == 3 and summary.to_json()["a"]["worlds"] is None
