"""The text of ``skatdd bid``: :class:`BidReport` as printed.

:func:`report_lines` is the report; ``str(report)`` is the same text
(registered with :func:`skatdd.core.printable.renders`).
"""
from __future__ import annotations

from skatdd.analysis.bid.api import SKAT_PAIRS
from skatdd.analysis.bid.results import PICK_UP, BidReport, GameOption, Pick
from skatdd.core.printable import renders
from skatdd.core.rules import SEAT_NAMES

from .report import format_hand

__all__ = ["bid_text", "ladder_rows", "report_lines"]


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1f}"


def _label(pick: Pick) -> str:
    """``'grand hand'``, or ``'pick up (grand 12, clubs 8)'``."""
    if pick.games is None:
        return pick.label
    shown = ", ".join(f"{game} {n}" for game, n in sorted(pick.games.items(), key=lambda kv: -kv[1]))
    return f"{PICK_UP} ({shown})"


def _bids(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def _columns(rows: list[list[str]], left: set[int]) -> list[str]:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return [("  " + "  ".join(r[k].ljust(widths[k]) if k in left else r[k].rjust(widths[k])
                              for k in range(len(r)))).rstrip() for r in rows]


#: Rows shown above the highest bid that beats passing before the rest is summarised.
TAIL_ROWS = 3


def ladder_rows(report: BidReport) -> tuple[list[str], list[list[str]], list[tuple[int, int]]]:
    """``(header, rows, spans)`` of the bidding table: consecutive bids with the same figures on one row.

    Each scoring's half shows its best declaration, its win chance and the
    mean that chose it (list: ``score``, tournament: ``points``), and only
    that mean: a higher bid only removes declarations and lowers scores, so
    that mean never rises with the bid.  The other scoring's figure of the
    same declaration would (where the choice changes to one that scores
    better there) and so is left to ``--json``; the win chance may rise too
    (a safer declaration chosen once the bolder one is overbid).
    """
    both = len(report.scorings) > 1
    first = report.scorings[0]
    header = ["bid", f"{'tournament' if first else 'list'}: best declaration", "win", "points" if first else "score"]
    if both:
        header += ["tournament: best declaration", "win", "points"]
    rows: list[list[str]] = []
    spans: list[tuple[int, int]] = []
    for lv in report.levels:
        pick = lv.picks[first]
        cells = [_label(pick), _pct(pick.win), _signed(pick.mean(first))]
        if both:
            other = lv.picks[True]
            same = other.label == pick.label and other.choices == pick.choices
            cells += ["same" if same else _label(other), "" if same else _pct(other.win), _signed(other.tournament)]
        if rows and rows[-1][1:] == cells:
            spans[-1] = (spans[-1][0], lv.bid)
        else:
            rows.append(["", *cells])
            spans.append((lv.bid, lv.bid))
    for row, (a, b) in zip(rows, spans, strict=True):
        row[0] = _bids(a, b)
    return header, rows, spans


def _ladder(report: BidReport) -> list[str]:
    """The bidding table (:func:`ladder_rows`) as lines.

    Bids above the highest that beats passing (in every scoring shown) lose
    on average; after :data:`TAIL_ROWS` such rows one line says how many
    more there are (``--json`` lists every bid).
    """
    header, rows, spans = ladder_rows(report)
    tops = [b for b in (report.max_bid(t) for t in report.scorings) if b is not None]
    keep = next((i for i, (a, _) in enumerate(spans) if a > max(tops, default=0)), len(rows)) + TAIL_ROWS
    out = _columns([header, *rows], {1, 4})
    if keep < len(rows):
        hidden = spans[keep:]
        out = out[:keep + 1]
        out.append(f"  ... {sum(1 for lv in report.levels if lv.bid >= hidden[0][0])} more bids up to "
                   f"{hidden[-1][1]}, every one losing on average (--json lists them all)")
    return out


def _answer(report: BidReport, tournament: bool) -> list[str]:
    name = "tournament" if tournament else "list"
    played = report.play(tournament)
    if played is None:
        return [f"Answer ({name} scoring): pass -- no bid from 18 up has a mean above 0."]
    pick, rule = played
    se = pick.tournament_se if tournament else pick.score_se
    spread = "" if se is None else f" ± {se:.1f}"
    figures = (f"wins {_pct(pick.win)} of the worlds, mean {'points' if tournament else 'score'} "
               f"{pick.mean(tournament):+.1f}{spread}")
    top = report.max_bid(tournament)
    if rule is None:
        return [f"Answer ({name} scoring): bid up to {top} and play {pick.label}: {figures}."]
    return [f"Answer ({name} scoring): bid up to {top}, then pick up the skat: {figures}.",
            f"  What the skat changes: {rule.text} (fits {rule.fits} of {rule.total} skats)."]


def _options(report: BidReport) -> list[str]:
    header = ["game", "hand: win", "score", "picked up: win", "score", "per-world bound: win", "score"]
    rows = [header]
    hands = {(o.decl.game, o.decl.ouvert): o for o in report.options if o.decl.hand}
    picked = {(o.decl.game, o.decl.ouvert): o for o in report.options if not o.decl.hand}
    for key, hand in hands.items():
        up: GameOption | None = picked.get(key)
        rows.append([str(hand.decl), _pct(hand.win), _signed(hand.score),
                     "-" if up is None else _pct(up.win), "-" if up is None else _signed(up.score),
                     "-" if up is None else _pct(up.optimistic_win),
                     "-" if up is None else _signed(up.optimistic_score)])
    return _columns(rows, {0})


def report_lines(report: BidReport) -> list[str]:
    """The readable report, one string per line."""
    out = [f"{SEAT_NAMES[report.seat].capitalize()} holds {format_hand(report.hand)}"]
    skats = (f"all {SKAT_PAIRS} skats" if report.every_skat
             else f"{len(report.skats)} of {SKAT_PAIRS} skats drawn at random (seed {report.seed})")
    out.append(f"{skats}, {report.worlds} worlds each ({len(report.skats) * report.worlds:,} in all), "
               "every game" + (" and discard" if report.picked_up else "") + " solved double-dummy")
    out += ["", *_ladder(report), ""]
    for tournament in report.scorings:
        out += _answer(report, tournament)
    out += ["", "Games at bid 18" + (" (picked up: the honest pick-up; the per-world bound takes the best "
                                      "discard of each world, as odds does)" if report.picked_up else "") + ":"]
    out += _options(report)
    st = report.stegen
    others = ", ".join(f"{g.label} {p:g}" for g, p in st.by_suit.items() if g != st.game)
    out += ["", f"Stegen count: {st.points:g} ({st.game.label}; {others}): {st.rule}."]
    out += ["",
            "Double-dummy: in every world both sides play as if they saw all the cards; every consistent world",
            "counts the same (nothing is inferred from the bidding)."]
    if report.picked_up:
        out.append(f"The pick-up chooses game and discard on its skat's {report.worlds} worlds and is scored on "
                   "the same worlds.")
    out.append("Means are per game; ± is one standard error over the skats.")
    out.append(f"Nodes: {report.nodes:,}   time: {report.seconds:.3f} s")
    return out


@renders(BidReport)
def bid_text(report: BidReport) -> str:
    """What ``skatdd bid`` prints for *report*."""
    return "\n".join(report_lines(report))
