"""Results print themselves: ``str(result)`` is what the command prints (issue #31, item 3).

For a golden case of every command that prints a result (tests/golden_cases.py), the API is called with the
same arguments and the result's text compared with the case's golden standard output, byte for byte after
masking the wall-clock times as the golden test does.  ``bid`` and ``match`` have no golden case: their
command runs here beside the API.  Also: the text renderers are reached without importing skatdd.present
first, and GameSpec's repr reads as card codes and evaluates back.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import skatdd
from cli_runner import ROOT, command_imports, run_python, run_skatdd
from golden_cases import CASES, DEAL, GAME, README_BEST_DEAL, README_ODDS_HAND, mask_timings
from skatdd import Game, GameSpec, Solver
from skatdd.analysis.review.api import review_decisions
from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.scoring import matadors as count_matadors
from skatdd.formats.position_input import advice_position, apply_played, read_position
from skatdd.play.summary import MatchSummary
from skatdd.present.best import best_text

TT = 128  # the CLI's default --tt-mb: the node counts in the reports are those of a fresh table this size


def golden(name: str) -> str:
    """The golden standard output of case *name*, without its final newline (click.echo adds it)."""
    text = CASES[name].out_path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return text[:-1]


def masked(text: str) -> str:
    return mask_timings(text.encode()).decode()


def test_analyse() -> None:
    solver = Solver(tt_mb=TT)
    analysis = skatdd.analyse((ROOT / GAME).read_text(encoding="utf-8"), solver=solver)
    # The command adds the review of the decisions before the first card (here at the golden case's budget).
    analysis.decisions = review_decisions(analysis, skats=2, worlds=3, jobs=1, solver=solver)
    assert masked(str(analysis)) == golden("analyse-game")


def test_advise() -> None:
    read = read_position(str(ROOT / DEAL), game=(Game.DIAMONDS, False), declarer=0)
    pos = advice_position(read, played="HA C9", after=None)
    advice = skatdd.advise(pos, read.spec.declaration(), worlds=20, seed=1,
                           solver=Solver(tt_mb=TT), jobs=1)
    assert masked(str(advice)) == golden("advise-deal-played")


def test_best_one_seat_and_its_element() -> None:
    reports = skatdd.best(README_BEST_DEAL, declarer=1, bid=36, solver=Solver(tt_mb=TT))
    assert masked(best_text(reports)) == golden("best-readme")
    assert masked(str(reports[0])) in golden("best-readme")


def test_odds() -> None:
    report = skatdd.odds(" ".join(README_ODDS_HAND), seat=0, worlds=6, seed=0, jobs=1, solver=Solver(tt_mb=TT),
                         points=True)
    assert masked(str(report)) == golden("odds-readme")


def test_null_ouvert() -> None:
    result = skatdd.null_ouvert("C7 C9 S7 S9 ST SA H7 H9 D7 D9", declarer="F", skat="HJ SQ", jobs=1)
    assert masked(str(result)) == golden("null-ouvert-readme-guess")


@pytest.mark.parametrize(("name", "game", "declarer", "played", "mode"), [
    ("solve-deal-diamonds-all", Game.DIAMONDS, 0, "", "all"),
    ("solve-deal-readme-spades-played", Game.SPADES, 1, "HA", "all"),
    ("solve-deal-null-ouvert-win", Game.NULL, 2, "", "win"),
])
def test_solve(name: str, game: Game, declarer: int, played: str, mode: str) -> None:
    read = read_position(str(ROOT / DEAL), game=(game, game is Game.NULL), declarer=declarer)
    pos = read.position
    if played:
        apply_played(pos, played)
    result = Solver(tt_mb=TT).solve(pos, mode)  # type: ignore[arg-type]
    # The command's last line adds the table size the result does not know.
    assert masked(str(result)) + f"   transposition table: {TT} MiB" == golden(name)
    assert result.position == pos and result.position is not pos


def test_a_solve_result_without_its_position_says_so() -> None:
    result = Solver(tt_mb=16).solve(read_position(str(ROOT / DEAL), game=(Game.GRAND, False), declarer=0).position)
    result.position = None
    with pytest.raises(ValueError, match="without its position"):
        str(result)


SCORE_CASES = [
    (("--game", "clubs", "--hand", "--announce", "schwarz", "--matadors", "3", "--points", "120", "--tricks", "10"),
     (Game.CLUBS, True, ("schwarz",), False), {"matadors": 3, "points": 120, "tricks": 10}),
    (("--game", "diamonds", "--cards", "CJ D7 D8 HA HT HK SA ST C7 C8 S7 S8", "--points", "70", "--bid", "27"),
     (Game.DIAMONDS, False, (), False),
     {"matadors": count_matadors(Game.DIAMONDS, mask_of(parse_cards("CJ D7 D8 HA HT HK SA ST C7 C8 S7 S8"))),
      "points": 70, "bid": 27}),
    (("--game", "null-ouvert", "--hand", "--tricks", "1"), (Game.NULL, True, (), True), {"tricks": 1}),
]


@pytest.mark.parametrize(("args", "declared", "played"), SCORE_CASES)
def test_score_prints_the_commands_report(args: tuple[str, ...], declared: tuple[Game, bool, tuple[str, ...], bool],
                                          played: dict[str, int]) -> None:
    run = run_skatdd("score", *args)
    assert run.returncode == 0, run.stderr
    game, hand, announce, ouvert = declared
    score = skatdd.score(skatdd.Declaration.from_options(game, hand=hand, announce=announce, ouvert=ouvert), **played)
    assert str(score) + "\n" == run.stdout


def test_bid_prints_its_report() -> None:
    args = ("CJ SJ HJ CA CT C9 SA ST H7 D8", "--seat", "F", "--skats", "2", "--worlds", "2", "--seed", "3",
            "--jobs", "1", "--scoring", "list")
    run = run_skatdd("bid", *args)
    assert run.returncode == 0, run.stderr
    report = skatdd.bid(args[0], seat="F", skats=2, worlds=2, seed=3, jobs=1, scoring="list", solver=Solver(tt_mb=TT))
    assert masked(str(report) + "\n") == masked(run.stdout)


def test_match_summary_prints_the_commands_summary(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    run = run_skatdd("match", "heuristic", "random", "--deals", "2", "--seed", "4", "--jobs", "1", "-o", str(out))
    assert run.returncode == 0, run.stderr
    summary = MatchSummary(players={"A": "heuristic", "B": "random"})
    for line in out.read_text(encoding="utf-8").splitlines():
        summary.add(json.loads(line))
    assert str(summary) + "\n" == run.stdout
    result = skatdd.match("heuristic", "random", 2, seed=4)
    assert str(result) + "\n" == run.stdout


def test_a_result_prints_without_importing_present_first() -> None:
    code = ("import sys, skatdd\nr = skatdd.null_ouvert('C7 C8 C9 S7 S8 S9 H7 H8 D7 D8', declarer='F', skat='CA SA', jobs=1)\n"
            "assert 'skatdd.present.texts' not in sys.modules\nprint(str(r).splitlines()[1])")
    run = run_python(code)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Verdict: UNBEATABLE")


def _printable_classes() -> list[type]:
    """Every result class of the package that prints itself (all renderers imported first)."""
    import skatdd.present.texts  # noqa: F401  (imports every result module with its renderer)
    from skatdd.core.printable import Printable

    found, todo = [], list(Printable.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted({cls for cls in found if cls.__module__.startswith("skatdd.")}, key=lambda c: c.__qualname__)


@pytest.mark.parametrize("cls", _printable_classes(), ids=lambda cls: cls.__qualname__)
def test_each_result_class_prints_from_its_own_renderer_module(cls: type) -> None:
    # A fresh interpreter: the class's module, then the one renderer module the package root names for it.
    code = (f"import importlib, skatdd\nfrom skatdd.core import printable\n"
            f"cls = getattr(importlib.import_module({cls.__module__!r}), {cls.__qualname__!r})\n"
            f"importlib.import_module(skatdd.RENDERER_MODULES[{cls.__module__!r}])\n"
            f"assert printable._lookup(cls) is not None\n")
    run = run_python(code)
    assert run.returncode == 0, run.stderr


def test_a_command_imports_only_its_own_renderer_and_logic() -> None:
    # The start-up of a command is part of every answer (a bot calling the CLI per move): null-ouvert's
    # text needs neither the other commands' renderers nor the single-dummy families.
    shown, loaded = command_imports("null-ouvert", "C7 C8 C9 S7 S8 S9 H7 H8 D7 D8", "--declarer", "F",
                                    "--skat", "CA SA", "--jobs", "1")
    assert "Verdict: UNBEATABLE" in shown
    assert not loaded & {"skatdd.present.texts", "skatdd.present.bid", "skatdd.analysis.advise.api",
                         "skatdd.analysis.inference.api", "skatdd.formats.readers"}


@pytest.mark.parametrize("text", [(ROOT / GAME).read_text(encoding="utf-8"),
                                  *(ROOT / "examples" / "positions.jsonl").read_text(encoding="utf-8").splitlines()])
def test_game_spec_repr_is_readable_and_evaluates_back(text: str) -> None:
    spec = skatdd.parse_deal(text)
    shown = repr(spec)
    assert "hands=['" in shown and "Game." not in shown
    assert eval(shown, {"GameSpec": GameSpec}) == spec


def test_game_spec_str_is_deal_text() -> None:
    spec = skatdd.load_deal(str(ROOT / DEAL), game=Game.DIAMONDS, declarer=0)
    assert str(spec) == (ROOT / DEAL).read_text(encoding="utf-8").strip()
    assert skatdd.parse_deal(str(spec), game=Game.DIAMONDS, declarer=0) == spec
