"""Timing of ``skatdd null-ouvert`` on a fixed set of hands (pytest-benchmark).

Run:  python -m pytest benchmarks/bench_nullouvert.py --benchmark-only \
          --benchmark-timer time.process_time
      (add ``-k unknown`` for the hand games, ``-k known`` for known skats)

Each round analyses one hand from scratch with fresh tables of the default
size (32 MiB with a known skat, 128 MiB without)
(single-threaded); ``test_known_skat_every_world`` also solves every class
of worlds when the honest proof alone would settle the count; ``time.process_time`` measures CPU time, so other load
on the machine does not inflate the figures.  The set mixes safe hands,
hands with gaps, long suits, a singleton ace and every seat.
"""
from __future__ import annotations

import pytest

from skatdd.engine.nullouvert import analyse

# (id, hand, skat, declarer seat)
KNOWN = [
    ("low-safe-M", "C7 C8 C9 S7 S8 S9 H7 H8 D7 D8", "CA SA", 1),
    ("low-safe-F", "C7 C8 C9 S7 S8 S9 H7 H8 D7 D8", "CA SA", 0),
    ("gaps-F", "C7 C9 CJ S7 S9 SJ H7 H9 D7 D9", "HA DA", 0),
    ("gaps-R", "C7 C9 S7 S9 SJ H7 H8 HT D7 D8", "CA DA", 2),
    ("gaps-lead-F", "C7 C9 S7 S9 SJ H7 H8 HT D7 D8", "CA DA", 0),
    ("long-clubs-M", "C7 C8 C9 CT CJ CQ S7 S9 H7 H8", "CA SA", 1),
    ("ace-C-M", "CA C8 C9 S7 S8 S9 H7 H8 D7 D8", "CT SA", 1),
    ("two-gaps-R", "C7 C8 CT S7 S9 H7 H8 HT D7 DJ", "CA SA", 2),
    ("guess-F", "C7 C9 S7 S9 ST SA H7 H9 D7 D9", "HJ SQ", 0),
]

UNKNOWN = [
    ("low-safe-M", "C7 C8 C9 S7 S8 S9 H7 H8 D7 D8", None, 1),
    ("gaps-F", "C7 C9 CJ S7 S9 SJ H7 H9 D7 D9", None, 0),
    ("two-gaps-R", "C7 C8 CT S7 S9 H7 H8 HT D7 DJ", None, 2),
    ("long-clubs-M", "C7 C8 C9 CT CJ CQ S7 S9 H7 H8", None, 1),
    ("gaps-R", "C7 C9 S7 S9 SJ H7 H8 HT D7 D8", None, 2),
    ("gaps-lead-F", "C7 C9 S7 S9 SJ H7 H8 HT D7 D8", None, 0),
    ("ace-C-M", "CA C8 C9 S7 S8 S9 H7 H8 D7 D8", None, 1),
]


def run(hand: str, skat: str | None, seat: int, exhaustive: bool = False) -> float:
    r = analyse(hand, declarer=seat, skat=skat, exhaustive=exhaustive)
    return r.seconds


@pytest.mark.parametrize("name,hand,skat,seat", KNOWN, ids=[k[0] for k in KNOWN])
def test_known_skat(benchmark, name: str, hand: str, skat: str, seat: int) -> None:
    benchmark.extra_info.update(hand=hand, skat=skat, seat=seat)
    benchmark.pedantic(run, args=(hand, skat, seat), rounds=3, iterations=1)


@pytest.mark.parametrize("name,hand,skat,seat", UNKNOWN, ids=[k[0] for k in UNKNOWN])
def test_unknown_skat(benchmark, name: str, hand: str, skat: None, seat: int) -> None:
    benchmark.extra_info.update(hand=hand, skat=skat, seat=seat)
    benchmark.pedantic(run, args=(hand, skat, seat), rounds=1, iterations=1)


@pytest.mark.parametrize("name,hand,skat,seat", KNOWN, ids=[k[0] for k in KNOWN])
def test_known_skat_every_world(benchmark, name: str, hand: str, skat: str, seat: int) -> None:
    """Solving every class of worlds even when the honest proof makes it unnecessary."""
    benchmark.extra_info.update(hand=hand, skat=skat, seat=seat)
    benchmark.pedantic(run, args=(hand, skat, seat, True), rounds=3, iterations=1)
