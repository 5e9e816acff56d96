"""A/B CPU benchmark of adaptive PIMC (issue 33): whole ``skatdd match`` runs, and single decisions.

Matches (``--match``): ``skatdd match A random`` on the same deals for each
A in ``pimc:N`` (adaptive), ``pimc:N,full`` (every one of the N worlds) and,
with ``--before SRC``, ``pimc:N`` of another source tree (the code before:
``git worktree add --detach /tmp/before <commit>`` and copy this tree's
compiled ``src/skatdd/engine/*.so`` into it when solver/ did not change).
The runs are interleaved A, B, C, A, B, C, ... ``--reps`` times; each
prints the CPU time (user + sys) of the command and its workers, and the
medians come last, with the load average.  Decisions (``--decisions``):
generated deals played out by the first player named, every player asked
for its card on the same states; CPU per decision (median, mean, total)
and, for the adaptive players, the worlds each decision used.  With
``--before SRC`` the decisions run in fresh processes, before and after in
turn ``--reps`` times, and each player's CPU is given against the first
player's of the same run, in total and at the median decision, and against
itself before (each run after over the run before it, the median of those).
With ``--paired`` too, the two codes run at once in two processes, each
deal's decisions timed in one and then the other: a burst of load from
elsewhere falls on both, and every decision's time after is paired with
its time before (its engine work is the same when the decisions are).

    python benchmarks/bench_adaptive.py --match --worlds 30 --deals 40 --reps 3 --before /tmp/before/src
    python benchmarks/bench_adaptive.py --decisions 6 --worlds 10 pimc:10 pimc:10,full pimc:10+bids
    python benchmarks/bench_adaptive.py --decisions 10 --reps 3 --before /tmp/before/src pimc:10 pimc:10+bids
    python benchmarks/bench_adaptive.py --decisions 10 --reps 5 --paired --before /tmp/before/src pimc:10 pimc:30

Not part of the test run; timings on a loaded machine measure the load, so
compare CPU, not wall time.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from command_timing import timed_command  # beside this script

ROOT = Path(__file__).resolve().parent.parent


def match_cpu(a: str, b: str, *, deals: int, seed: int, jobs: int, src: str | None) -> tuple[float, float, dict]:
    """``(CPU s, wall s, summary)`` of one ``skatdd match`` run, with ``PYTHONPATH=src`` when given."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    with tempfile.TemporaryDirectory() as folder:
        cpu, wall, out = timed_command(["match", a, b, "--deals", str(deals), "--seed", str(seed), "--jobs",
                                        str(jobs), "-o", str(Path(folder) / "m.jsonl"), "--json"], env=env, cwd=folder)
    return cpu, wall, json.loads(out)


def run_matches(args: argparse.Namespace) -> None:
    n = args.worlds
    cases = [(f"pimc:{n}", args.after, "after"), (f"pimc:{n},full", args.after, "full")]
    if args.before:
        cases.insert(0, (f"pimc:{n}", args.before, "before"))
    cpu: dict[str, list[float]] = collections.defaultdict(list)
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}: skatdd match A {args.opponent} --deals "
          f"{args.deals} --seed {args.seed} --jobs {args.jobs}", flush=True)
    for rep in range(args.reps):
        for player, src, label in cases:
            seconds, wall, summary = match_cpu(player, args.opponent, deals=args.deals, seed=args.seed,
                                               jobs=args.jobs, src=src)
            cpu[label].append(seconds)
            edge = summary["edge"]["score"]
            print(f"  rep {rep + 1} {label:6} {player:14} {seconds:7.1f} s CPU {wall:7.1f} s wall, edge "
                  f"{edge['mean']:+.1f} {edge['ci']}, load {os.getloadavg()[0]:.2f}", flush=True)
    base = statistics.median(cpu["before"]) if "before" in cpu else None
    for label, values in cpu.items():
        ratio = f", {statistics.median(values) / base:.2f}x before" if base else ""
        print(f"median {label:6} {statistics.median(values):7.1f} s CPU{ratio}")


def decision_stats(names: list[str], deals: int, seed: int) -> dict[str, dict[str, float]]:
    """Per player: decisions, median and mean ms, total s of CPU, and the worlds used (mean, median; 0 if none)."""
    from bench_advanced_players import time_decisions  # beside this script; imports skatdd

    times, used = time_decisions(names, deals, seed)
    stats = {}
    for name in names:
        ms = [t * 1000 for t in times[name]]
        worlds = used[name] or [0]
        stats[name] = {"decisions": len(ms), "median": statistics.median(ms), "mean": statistics.mean(ms),
                       "total": sum(ms) / 1000, "worlds_mean": statistics.mean(worlds),
                       "worlds_median": statistics.median(worlds)}
    return stats


def serve_deals(names: list[str], seed: int) -> None:
    """``--serve``: for each deal number read from stdin, one JSON line of each player's CPU seconds per decision."""
    from bench_advanced_players import time_decisions  # beside this script; imports skatdd

    for line in sys.stdin:
        index = int(line)
        times, _ = time_decisions(names, index, seed, first=index)
        print(json.dumps(times), flush=True)


def run_decisions_paired(args: argparse.Namespace, names: list[str]) -> None:
    """``--decisions`` with ``--before`` and ``--paired``: both codes in two processes at once, each deal's
    decisions timed in one and then the other (the order alternating), ``--reps`` times over the deals, so a
    burst of load from elsewhere falls on both alike; per player, the sum after over the sum before."""
    workers = {}
    for label, src in (("before", args.before), ("after", args.after)):
        env = dict(os.environ)
        if src:
            env["PYTHONPATH"] = src
        workers[label] = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve", "--seed",
                                           str(args.seed), *names], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          text=True, env=env)
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}: {args.decisions} deals of --seed {args.seed}, "
          f"{args.reps} passes, the two codes in turn deal by deal", flush=True)
    sums = {(label, name): [0.0] * args.reps for label in workers for name in names}
    per_decision: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    for rep in range(args.reps):
        for index in range(1, args.decisions + 1):
            order = ["before", "after"] if (index + rep) % 2 else ["after", "before"]
            for label in order:
                worker = workers[label]
                assert worker.stdin is not None and worker.stdout is not None
                worker.stdin.write(f"{index}\n")
                worker.stdin.flush()
                times = json.loads(worker.stdout.readline())
                for name in names:
                    sums[label, name][rep] += sum(times[name])
                    per_decision[label, name].extend(times[name])
        shown = [f"{name} {sums['after', name][rep] / sums['before', name][rep]:.3f}x" for name in names]
        print(f"  pass {rep + 1}: after/before " + ", ".join(shown) + f", load {os.getloadavg()[0]:.2f}", flush=True)
    for worker in workers.values():
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait()
    for name in names:
        ratios = [a / b for a, b in zip(sums["after", name], sums["before", name], strict=True)]
        before, after = per_decision["before", name], per_decision["after", name]
        paired = [a / b for a, b in zip(after, before, strict=True)]  # the same decision in both codes
        print(f"after/before {name:16} {statistics.median(ratios):.3f}x in total ({min(ratios):.3f}-{max(ratios):.3f}),"
              f" {statistics.median(paired):.3f}x the median decision's ratio ({len(paired)} decisions); median "
              f"{statistics.median(before) * 1000:.2f} ms before, {statistics.median(after) * 1000:.2f} ms after")


def run_decisions(args: argparse.Namespace) -> None:
    names = args.players or [f"pimc:{args.worlds}", f"pimc:{args.worlds},full"]
    if args.serve:
        serve_deals(names, args.seed)
        return
    if args.before and args.paired:
        run_decisions_paired(args, names)
        return
    if args.before:
        run_decisions_ab(args, names)
        return
    stats = decision_stats(names, args.decisions, args.seed)
    if args.json:
        print(json.dumps(stats))
        return
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}: {args.decisions} deals of --seed {args.seed}")
    for name in names:
        s = stats[name]
        shown = f", worlds used: mean {s['worlds_mean']:.1f}, median {s['worlds_median']:g}" \
            if s["worlds_mean"] else ""
        print(f"{name:16} {s['decisions']:g} decisions, median {s['median']:.1f} ms, mean {s['mean']:.1f} ms,"
              f" total {s['total']:.2f} s CPU{shown}")


def run_decisions_ab(args: argparse.Namespace, names: list[str]) -> None:
    """``--decisions`` with ``--before``: the code before and after in turn, ``--reps`` fresh processes each.

    Each side's every player against the first named, per run: the ratio of the
    total CPU and of the median decision; the medians of the runs come last.
    """
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}: {args.decisions} deals of --seed {args.seed}, "
          f"{args.reps} runs each, interleaved", flush=True)
    ratios: dict[tuple[str, str], list[tuple[float, float]]] = collections.defaultdict(list)
    figures: dict[tuple[str, str], list[tuple[float, float]]] = collections.defaultdict(list)  # (total, median)
    for rep in range(args.reps):
        for label, src in (("before", args.before), ("after", args.after)):
            env = dict(os.environ)
            if src:
                env["PYTHONPATH"] = src
            command = [sys.executable, str(Path(__file__).resolve()), "--decisions", str(args.decisions), "--seed",
                       str(args.seed), "--json", *names]
            run = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
            stats = json.loads(run.stdout.strip().splitlines()[-1])
            base = stats[names[0]]
            shown = []
            for name in names:
                s = stats[name]
                ratio = (s["total"] / base["total"], s["median"] / base["median"])
                ratios[label, name].append(ratio)
                figures[label, name].append((s["total"], s["median"]))
                shown.append(f"{name} {s['median']:.2f} ms median, {s['total']:.2f} s total ({ratio[0]:.2f}x, "
                             f"{ratio[1]:.2f}x)")
            print(f"  rep {rep + 1} {label:6} " + "; ".join(shown) + f", load {os.getloadavg()[0]:.2f}", flush=True)
    for (label, name), values in ratios.items():
        totals, medians = [v[0] for v in values], [v[1] for v in values]
        print(f"median {label:6} {name:16} {statistics.median(totals):.2f}x {names[0]} in total "
              f"({min(totals):.2f}-{max(totals):.2f}), {statistics.median(medians):.2f}x at the median "
              f"({min(medians):.2f}-{max(medians):.2f})")
    for name in names:  # each player after against itself before, run by run (the runs in turn are pairs)
        pairs = list(zip(figures["before", name], figures["after", name], strict=True))
        totals = [after[0] / before[0] for before, after in pairs]
        medians = [after[1] / before[1] for before, after in pairs]
        print(f"after/before {name:16} {statistics.median(totals):.3f}x in total ({min(totals):.2f}-{max(totals):.2f}), "
              f"{statistics.median(medians):.3f}x at the median ({min(medians):.2f}-{max(medians):.2f}); "
              f"median totals {statistics.median(b[0] for b, _ in pairs):.2f} s before, "
              f"{statistics.median(a[0] for _, a in pairs):.2f} s after")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("players", nargs="*", help="--decisions: the players (default pimc:N and pimc:N,full)")
    parser.add_argument("--match", action="store_true", help="A/B whole matches against --opponent")
    parser.add_argument("--decisions", type=int, metavar="DEALS", help="time single decisions over DEALS deals")
    parser.add_argument("--worlds", type=int, default=30)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", help="src folder of the code before (PYTHONPATH for the 'before' runs; with "
                        "--decisions: the two codes in turn, --reps runs each, ratios to the first player)")
    parser.add_argument("--json", action="store_true", help="--decisions: one JSON line of the figures")
    parser.add_argument("--paired", action="store_true", help="--decisions with --before: both codes at once in "
                        "two processes, deal by deal in turn (a burst of load falls on both)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # a --paired worker
    parser.add_argument("--after", help="src folder of the code after (default: the installed skatdd)")
    args = parser.parse_args()
    if args.match:
        run_matches(args)
    if args.decisions or args.serve:
        run_decisions(args)


if __name__ == "__main__":
    main()
