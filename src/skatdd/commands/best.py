"""``skatdd best``: the best contract for a deal with the skat as dealt (docs/cli.md).

DEAL is one of:

* deal text, four groups separated by ``/`` or ``|``: forehand, middlehand,
  rearhand and the skat as dealt;
* a path to a file holding a deal (blank lines and lines starting with ``#``
  are ignored);
* a JSON object with ``hands`` (three ten-card hands) and ``skat`` (the two
  dealt cards), optionally ``declarer`` and ``bid``;
* an ISS game record: its hands and skat as dealt, its declarer and its bid.

The deal's own declarer and bid (JSON, ISS) are the defaults for
``--declarer`` and ``--bid``.  Without a declarer every seat is reported, so
a player can see who should have played.  The analysis is
:func:`skatdd.best.best_contracts`; this module reads the input and prints.

Bad input exits 2 with a one-line message naming the token (a card, a group,
a JSON field, an ISS move).  A progress bar goes to stderr when it is a
terminal; Ctrl-C stops the search (exit 130).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable

import sys

import click

from ..best import Option, SeatReport, best_contracts, option_position
from ..cards import Card, Mask, card_symbol, mask_of, parse_card
from ..deal import parse_deal_text, read_source
from ..errors import CardCountError, DealFormatError, DuplicateCardError, ISSFormatError, SkatddError
from ..report import format_hand, line_lines
from ..rules import SEAT_NAMES, parse_seat
from ..scoring import MIN_BID
from ..solve import Solver
from .common import SEAT, emit_json, json_option, tt_option
from .solve import input_errors

__all__ = ["BestInput", "command", "read_best_deal", "report_lines"]


@dataclass
class BestInput:
    """A deal for ``best``: the hands and skat as dealt, with the deal's own declarer and bid if it names them."""

    hands: list[Mask]
    skat: Mask
    declarer: int | None = None
    bid: int | None = None


# ---------------------------------------------------------------------------
# Reading DEAL


def _cards_field(value: Any, name: str, count: int, seen: dict[Card, str]) -> Mask:
    """Cards of a JSON field (a string or a list of card strings); exactly *count*, none seen before."""
    if isinstance(value, str):
        tokens = value.replace(",", " ").split()
    elif isinstance(value, list) and all(isinstance(t, str) for t in value):
        tokens = list(value)
    else:
        raise DealFormatError(f"field {name} must be a card string or a list of cards, got {value!r}")
    cards = []
    for token in tokens:
        try:
            card = parse_card(token)
        except SkatddError as exc:
            raise type(exc)(f"field {name}: {exc}") from None
        if card in seen:
            raise DuplicateCardError(f"card {token!r} in field {name} appears twice: also in {seen[card]}")
        seen[card] = f"field {name}"
        cards.append(card)
    if len(cards) != count:
        raise CardCountError(f"field {name} has {len(cards)} cards {' '.join(tokens)!r}: expected {count}")
    return mask_of(cards)


def _from_json(text: str) -> BestInput:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DealFormatError(f"the deal is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(obj, dict):
        raise DealFormatError(f"a JSON deal must be an object with 'hands' and 'skat', got {type(obj).__name__}")
    hands_value = obj.get("hands")
    if not isinstance(hands_value, list) or len(hands_value) != 3:
        raise DealFormatError(
            f"field 'hands' must be a list of three ten-card hands (forehand, middlehand, rearhand), got {hands_value!r}"
        )
    if "played" in obj and obj["played"]:
        raise DealFormatError("field 'played' is not allowed: 'best' needs the hands and skat as dealt, before play")
    seen: dict[Card, str] = {}
    hands = [_cards_field(hands_value[i], f"'hands[{i}]' ({SEAT_NAMES[i]})", 10, seen) for i in range(3)]
    skat = _cards_field(obj.get("skat"), "'skat'", 2, seen)
    declarer = None
    if obj.get("declarer") is not None:
        try:
            declarer = parse_seat(obj["declarer"])
        except SkatddError as exc:
            raise type(exc)(f"field 'declarer': {exc}") from None
    bid = obj.get("bid")
    if bid is not None and (isinstance(bid, bool) or not isinstance(bid, int) or bid < MIN_BID):
        raise DealFormatError(f"field 'bid' must be a bid of at least {MIN_BID}, got {bid!r}")
    return BestInput(hands, skat, declarer, bid)


def _from_iss(text: str) -> BestInput:
    from .. import iss

    records = [line for line in text.splitlines() if line.lstrip().startswith("(;")]
    if len(records) > 1:
        raise ISSFormatError(f"the input holds {len(records)} ISS records: expected one")
    record = iss.parse_iss(text)
    if record.hidden_cards:
        raise ISSFormatError(
            f"ISS record {record.id or '?'} hides {record.hidden_cards} cards of the deal ('??'): "
            "'best' needs every hand and the skat"
        )
    return BestInput([mask_of(h) for h in record.hands], mask_of(record.skat), record.declarer, record.bid)


def read_best_deal(arg: str) -> BestInput:
    """Read DEAL (see the module docstring) into a :class:`BestInput`.

    Raises :class:`~skatdd.errors.SkatddError` subclasses whose messages
    name the offending token; errors in a file also name the file.
    """
    raw, path = read_source(arg)
    try:
        text = "\n".join(line for line in raw.splitlines() if line.strip() and not line.lstrip().startswith("#"))
        text = text.strip()
        if not text:
            raise DealFormatError(
                "the deal is empty: expected four groups of cards separated by '/', a JSON object or an ISS record"
            )
        if text.startswith("{"):
            return _from_json(text)
        if text.startswith("(;"):
            return _from_iss(text)
        if path is None and len(re.split(r"[/|]", text)) < 4 and not any(ch.isspace() for ch in text):
            raise DealFormatError(
                f"{text[:60]!r} is neither a file nor a deal: expected a path, a JSON object, an ISS record, "
                "or four groups of cards separated by '/' (forehand / middlehand / rearhand / skat)"
            )
        hands, skat = parse_deal_text(" ".join(text.splitlines()))
        return BestInput([mask_of(h) for h in hands], mask_of(skat))
    except SkatddError as exc:
        if path is None:
            raise
        raise type(exc)(f"{path}: {exc}") from None


# ---------------------------------------------------------------------------
# Readable report


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _cards(cards: list[Card] | None) -> str:
    return " ".join(card_symbol(c) for c in cards) if cards else "-"


def _level(side: str | None) -> str:
    return {"declarer": "declarer", "defenders": "defenders", None: "-"}[side]


def _result(opt: Option) -> str:
    if opt.declarer_wins:
        return "won"
    if opt.game.is_null:
        return "lost"
    assert opt.value is not None
    reached = opt.value >= 61 and ("schneider" not in opt.announce or opt.value >= 90) and (
        "schwarz" not in opt.announce or opt.schwarz == "declarer")
    return "overbid" if reached else "lost"


def _matadors(opt: Option) -> str:
    if opt.game.is_null:
        return "-"
    return f"with {opt.matadors}" if opt.matadors > 0 else f"without {-opt.matadors}"


def _table(report: SeatReport) -> list[str]:
    header = ["", "contract", "discard", "value", "result", "schneider", "schwarz", "matadors", "game value", "score"]
    rows = []
    best_index = report.best_index
    for i, opt in enumerate(report.options):
        rows.append([
            "*" if i == best_index else "", opt.label, _cards(opt.discard),
            "-" if opt.value is None else str(opt.value), _result(opt), _level(opt.schneider), _level(opt.schwarz),
            _matadors(opt), str(opt.game_value), _signed(opt.score),
        ])
    widths = [max(len(r[k]) for r in rows + [header]) for k in range(len(header))]
    right = {3, 8, 9}

    def fmt(row: list[str]) -> str:
        cells = [row[k].rjust(widths[k]) if k in right else row[k].ljust(widths[k]) for k in range(len(row))]
        return ("  " + "  ".join(cells)).rstrip()

    return [fmt(header)] + [fmt(r) for r in rows]


def _best_sentence(report: SeatReport) -> str:
    b = report.best
    what = b.label + (f", discard {_cards(b.discard)}" if b.discard else "")
    if b.game.is_null:
        result = "the declarer takes no trick" if b.declarer_wins else "the defenders force a trick on the declarer"
    else:
        result = f"{b.value} card points"
        if b.schwarz == "declarer":
            result += ", every trick"
        elif b.schwarz == "defenders":
            result += ", no trick"
        result += f", {_result(b)}"
    return f"Best for {SEAT_NAMES[report.declarer]}: {what}: {result}, score {_signed(b.score)}"


def report_lines(report: SeatReport, deal: BestInput) -> list[str]:
    """The readable report of one seat, one string per line."""
    seat = report.declarer
    title = f"{SEAT_NAMES[seat].capitalize()} declares (hand {format_hand(deal.hands[seat])}, skat {format_hand(deal.skat)})"
    if report.bid is not None:
        title += f", bid {report.bid}"
    out = [title, ""]
    out += _table(report)
    out += ["", _best_sentence(report)]
    if report.best.line:
        pos = option_position(report.best, deal.hands, deal.skat, seat)
        out.append("Line of play:" if not report.best.game.is_null or report.best.declarer_wins
                   else "Line of play (to the trick the declarer is forced to take):")
        out += line_lines(pos, report.best.line)
    out += ["", f"Nodes: {report.nodes:,}   time: {report.seconds:.3f} s"]
    return out


def _deal_line(deal: BestInput) -> str:
    groups = [f"{SEAT_NAMES[s]} {format_hand(deal.hands[s])}" for s in range(3)]
    return "Deal: " + " / ".join(groups) + f" / skat {format_hand(deal.skat)}"


def _summary(reports: list[SeatReport]) -> list[str]:
    out = ["Who should play:"]
    for r in reports:
        b = r.best
        what = b.label + (f", discard {_cards(b.discard)}" if b.discard else "")
        out.append(f"  {SEAT_NAMES[r.declarer]:<10}  {_signed(b.score):>5}  {what}")
    top = max(reports, key=lambda r: (r.best.score, -r.declarer))
    out.append(f"  -> {SEAT_NAMES[top.declarer]} (highest score; ties: the earlier seat)")
    return out


# ---------------------------------------------------------------------------
# The command


def _run(deal: BestInput, seats: list[int], bid: int | None, tt_mb: int, all_lines: bool,
         progress: Callable[[int, int], None] | None) -> list[SeatReport]:
    """:func:`best_contracts` for each seat with one shared solver; *progress* spans every seat."""
    solver = Solver(tt_mb=tt_mb)
    reports = []
    for k, seat in enumerate(seats):
        def seat_progress(done: int, total: int, k: int = k) -> None:
            if progress is not None:
                progress(k * total + done, len(seats) * total)
        reports.append(best_contracts(deal.hands, deal.skat, seat, bid=bid, solver=solver, all_lines=all_lines,
                                      progress=seat_progress if progress is not None else None))
    return reports


@click.command("best")
@click.argument("deal")
@click.option("--declarer", type=SEAT,
              help="Seat to analyse: 0/1/2, F/M/R or forehand/middlehand/rearhand "
                   "(default: the deal's declarer, or every seat).")
@click.option("--bid", type=click.IntRange(min=MIN_BID), metavar="N",
              help="The bid: applies the overbid rule and leaves out nulls below it (default: the deal's bid).")
@click.option("--all-lines", is_flag=True,
              help="Give every option its line of play, not only the best (slower).")
@json_option
@tt_option
def command(deal: str, declarer: int | None, bid: int | None, all_lines: bool, as_json: bool, tt_mb: int) -> None:
    """The best contract for DEAL: every game, picked up or hand, scored by the ISkO.

    DEAL is deal text whose fourth group is the skat as dealt
    (forehand / middlehand / rearhand / skat), a file holding one, a JSON
    object with hands and skat, or an ISS game record.

    \b
    Examples:
      skatdd best "CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ" --declarer F
      skatdd best examples/deal.txt --bid 23 --json
    """
    with input_errors():
        data = read_best_deal(deal)
    seat = declarer if declarer is not None else data.declarer
    the_bid = bid if bid is not None else data.bid
    seats = [seat] if seat is not None else [0, 1, 2]

    stderr = sys.stderr
    if stderr.isatty():
        with click.progressbar(length=1000, label="Searching", file=stderr, show_eta=True) as bar:
            state = {"shown": 0}

            def progress(done: int, total: int) -> None:
                target = done * 1000 // max(total, 1)
                if target > state["shown"]:
                    bar.update(target - state["shown"])
                    state["shown"] = target

            reports = _run(data, seats, the_bid, tt_mb, all_lines, progress)
    else:
        reports = _run(data, seats, the_bid, tt_mb, all_lines, None)

    if as_json:
        if seat is not None:
            emit_json(reports[0].to_json())
        else:
            emit_json({"seats": [r.to_json() for r in reports]})
        return
    out = [_deal_line(data), ""]
    for r in reports:
        out += report_lines(r, data) + [""]
    if len(reports) > 1:
        out += _summary(reports)
    click.echo("\n".join(out).rstrip("\n"))
