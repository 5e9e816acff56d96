"""Memory stays bounded whatever the number of worlds, and a run that could not finish is refused.

The worlds are drawn lazily (skatdd.analysis.worlds.draw.WorldDraw, sample_indices) and
tallied as their results come back; the draws are the ones ``rng.sample``
always gave, so every earlier output stays the same.  Checked here: the
sampler against ``random.Random.sample`` itself, the worlds and the
conditioned draws against the eager code they replace, the memory a draw
takes (tracemalloc) and a real run's (a subprocess's peak RSS while it
works through a million worlds), and the refusals (one line, exit 2,
before any work).
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from skatdd.analysis.advise.api import advise
from skatdd.analysis.odds.api import MAX_KNOWN_SKAT_WORLDS, WorldConditionError, draw_worlds, odds
from skatdd.analysis.worlds.draw import MAX_WORLDS, WorldCountError, WorldDraw, choose_worlds, sample_indices
from skatdd.analysis.worlds.space import View, World, WorldSpace, hand_view, view_of
from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.errors import DealFormatError
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.tools.generate import random_position

ROOT = Path(__file__).resolve().parent.parent
HAND = "CJ SJ HJ CA CT C9 SA ST H7 D8"
FOREHAND = hand_view(0, mask_of(parse_cards(HAND)))                      # 42,678,636 worlds
PICKED_UP = hand_view(0, mask_of(parse_cards(HAND)), mask_of(parse_cards("S7 D7")))  # 184,756 worlds
LATE = view_of(random_position(random.Random(4), game=Game.CLUBS, tricks=4, declarer=1))  # a few hundred


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout)


# --------------------------------------------------------------------------- the same draws as before


@pytest.mark.parametrize(("size", "n"), [
    (10, 0), (10, 3), (10, 10), (1, 1), (85, 10), (86, 10), (100, 6), (5_000, 4_999),  # the pool ...
    (200, 5), (10**6, 50), (184_756, 400), (42_678_636, 60), (42_678_636, 1_000),      # ... and the set
])
def test_sample_indices_are_random_sample(size: int, n: int) -> None:
    for seed in (0, 1, 99):
        lazy, eager = random.Random(seed), random.Random(seed)
        assert list(sample_indices(size, n, lazy)) == eager.sample(range(size), n)
        assert lazy.random() == eager.random()  # the generator was consumed exactly alike


def test_sample_indices_draw_only_when_asked() -> None:
    rng = random.Random(3)
    indices = sample_indices(42_678_636, 1_000_000, rng)
    state = rng.getstate()
    first = [next(indices) for _ in range(3)]
    assert first == random.Random(3).sample(range(42_678_636), 3)  # the first three of the same sample
    assert rng.getstate() != state
    with pytest.raises(ValueError):
        list(sample_indices(3, 4, rng))


def eager_choose(view: View, n: int, rng: random.Random) -> tuple[list[World], bool]:
    """The worlds as choose_worlds drew them before they were streamed."""
    space = WorldSpace(view)
    if len(space) <= n:
        return list(space), True
    return [space[i] for i in rng.sample(range(len(space)), n)], False


def eager_accept(view: View, n: int, rng: random.Random, accept: Callable[[World], bool],
                 cap: int) -> tuple[list[World], bool]:
    """The conditioned draw as odds.draw_worlds made it before, every world in lists and sets."""
    space = WorldSpace(view)
    if len(space) <= cap:
        accepted = [w for w in space if accept(w)]
        if len(accepted) <= n:
            return accepted, True
        return [accepted[i] for i in rng.sample(range(len(accepted)), n)], False
    seen: set[int] = set()
    chosen = []
    while len(chosen) < n:
        index = rng.randrange(len(space))
        if index in seen:
            continue
        seen.add(index)
        if accept(space[index]):
            chosen.append(space[index])
    return chosen, False


@pytest.mark.parametrize(("view", "n"), [(FOREHAND, 25), (PICKED_UP, 40), (LATE, 30), (LATE, 10**6)])
def test_worlds_are_the_ones_drawn_before(view: View, n: int) -> None:
    for seed in (0, 7):
        assert choose_worlds(view, n, random.Random(seed)) == eager_choose(view, n, random.Random(seed))
        draw = WorldDraw(view, n, random.Random(seed))
        chunks = list(draw.chunks(7))
        assert [w for chunk in chunks for w in chunk][:60] == eager_choose(view, n, random.Random(seed))[0][:60]
        assert all(len(c) == 7 for c in chunks[:-1]) and 1 <= len(chunks[-1]) <= 7
        assert len(draw) == min(n, draw.consistent) and draw.exact == (n >= draw.consistent)


def test_conditioned_draws_are_the_ones_drawn_before() -> None:
    def middle_has(card: str) -> Callable[[World], bool]:
        return lambda w: bool(w.hands[1] & mask_of(parse_cards(card)))

    late_card = parse_cards("SA")[0]  # unseen by LATE's mover
    cases = [(FOREHAND, 12, 10_000, middle_has("DA")),                    # rejection sampling
             (PICKED_UP, 20, 1_000, middle_has("HA")),
             (LATE, 5, 10**6, lambda w: bool(w.hands[2] >> late_card & 1)),  # every world tested, some drawn
             (LATE, 10**5, 10**6, lambda w: bool(w.hands[2] >> late_card & 1))]  # ... all of them taken
    for view, n, cap, accept in cases:
        worlds, exact, consistent = draw_worlds(view, n, random.Random(5), accept, max_draws=cap)
        assert (worlds, exact) == eager_accept(view, n, random.Random(5), accept, cap)
        assert consistent == len(WorldSpace(view)) and worlds
    with pytest.raises(WorldConditionError):
        draw_worlds(FOREHAND, 3, random.Random(1), lambda w: False, max_draws=20)


def test_a_draw_is_taken_once() -> None:
    draw = WorldDraw(PICKED_UP, 3, random.Random(1))
    assert len(list(draw)) == 3
    with pytest.raises(RuntimeError):
        list(draw)


# --------------------------------------------------------------------------- memory


def test_a_million_worlds_drawn_lazily_take_little_memory() -> None:
    """A bit per consistent world (5.1 MiB for a hand's 42,678,636), not the worlds: a list of them was ~9 GiB."""
    tracemalloc.start()
    try:
        draw = WorldDraw(FOREHAND, MAX_WORLDS, random.Random(2))
        chunks = draw.chunks(10)
        for _ in range(100):
            assert len(next(chunks)) == 10
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20, f"{peak / 2**20:.1f} MiB"


#: Run in a subprocess: solve the first few chunks of a million-world run, then report the growth of the peak RSS.
PROBE = """
import random, resource, sys
from skatdd.analysis.advise.api import advise
from skatdd.tools.generate import random_deal
from skatdd.analysis.odds.api import odds
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.engine.solve import Solver

class Enough(Exception):
    pass

def ru():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux

def stop_after(k):
    calls = []
    def progress(done, total):
        calls.append(done)
        if len(calls) >= k:
            raise Enough(total)
    return progress

solver = Solver(tt_mb=16)
hands, skat = random_deal(random.Random(1))
first_card = Position(Game.CLUBS, 1, hands, skat)  # forehand, a defender, sees 42,678,636 worlds
start = ru()
try:
    if sys.argv[1] == "odds":
        odds("CJ SJ HJ CA CT C9 SA ST H7 D8", seat=0, games=["grand"], picked_up=False, worlds=1_000_000,
             jobs=1, solver=solver, progress=stop_after(3))
    else:
        advise(first_card, Declaration(Game.CLUBS), worlds=1_000_000,
               solver=solver, progress=stop_after(3))
    print("finished")
except Enough as e:
    print("stopped", e.args[0], ru() - start)
"""


@pytest.mark.parametrize("what", ["odds", "advise"])
def test_a_million_worlds_are_solved_in_bounded_memory(what: str) -> None:
    """The first results of a million-world run come at once, the memory barely grown.

    Before the worlds were streamed, all of them were drawn, encoded and
    queued before the first was solved: hundreds of MiB and a minute.
    """
    proc = subprocess.run([sys.executable, "-c", PROBE, what], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    word, total, grown_kib = proc.stdout.split()
    assert word == "stopped"
    assert int(total) == (100_000 if what == "odds" else 1_000_000)  # odds: tasks of 10 worlds; advise: worlds
    assert int(grown_kib) < 64 * 1024, f"the peak RSS grew by {int(grown_kib) // 1024} MiB"


# --------------------------------------------------------------------------- refused before any work


def one_line_refusal(proc: subprocess.CompletedProcess[str], limit: int) -> None:
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("Error: --worlds ") and f"at most {limit:,}" in proc.stderr


def test_odds_refuses_a_billion_worlds() -> None:
    one_line_refusal(run("odds", HAND, "--seat", "F", "--worlds", "1000000000"), MAX_WORLDS)
    one_line_refusal(run("odds", HAND, "--seat", "F", "--skat", "S7 D7", "--worlds", "1000000000"),
                     MAX_KNOWN_SKAT_WORLDS)


def test_advise_refuses_too_many_worlds_but_takes_all_of_a_few() -> None:
    one_line_refusal(run("advise", "examples/game.iss", "--after", "1", "--worlds", "1000000000"), MAX_WORLDS)
    few = run("advise", "examples/game.iss", "--after", "25", "--worlds", "1000000000", "--json")
    assert few.returncode == 0, few.stderr
    answer = json.loads(few.stdout)
    assert answer["exact"] and answer["evaluated"] == answer["worlds"] == 2


def test_analyse_refuses_too_many_worlds_up_front() -> None:
    one_line_refusal(run("analyse", "examples/game.iss", "--worlds", str(MAX_WORLDS + 1)), MAX_WORLDS)
    one_line_refusal(run("analyse", "tests/data/iss-games.txt", "--worlds", "1000000000"), MAX_WORLDS)


def test_the_api_refuses_too() -> None:
    with pytest.raises(WorldCountError, match="at most 1,000,000"):
        odds(HAND, seat=0, worlds=10**9)
    with pytest.raises(WorldCountError, match="at most 5,000"):
        odds(HAND, seat=0, skat="S7 D7", worlds=MAX_KNOWN_SKAT_WORLDS + 1)
    with pytest.raises(WorldCountError):
        choose_worlds(FOREHAND, MAX_WORLDS + 1, random.Random(0))
    with pytest.raises(DealFormatError):
        WorldDraw(FOREHAND, 0, random.Random(0))
    late = Position(Game.GRAND, 0, [mask_of(parse_cards(h)) for h in ("CJ", "SJ", "HJ")],
                    mask_of(parse_cards("CA CT")))
    assert advise(late, Declaration(Game.GRAND), worlds=10**9).exact  # one card each: a handful of worlds
