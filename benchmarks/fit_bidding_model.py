"""Fit the bidding model's win chances (skatdd.analysis.inference.bids.COEFFICIENTS) against double-dummy results.

For each sample: a uniformly random deal and seat; the seat's ten dealt cards
are judged for one contract (suit: a suit with at least four trumps, chosen
uniformly among them; grand: at least one jack; null: danger at most 8); the
seat picks up the skat, discards what :func:`skatdd.tools.generate.evaluate_contract`
chooses, and the contract is solved double-dummy with forehand leading (the
declarer wins with 61 points, null with no trick).  A logistic regression of
the win on :func:`skatdd.analysis.inference.bids.hand_features` (Newton's method, a
small ridge) gives each family's coefficients.

Run:  python benchmarks/fit_bidding_model.py --samples 3000 --seed 1
It prints the coefficients (paste them into COEFFICIENTS), the fit's mean
log-likelihood against the base rate's, and a calibration table (predicted
against observed win rate by fifths of the prediction).
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time

from skatdd.analysis.inference.bids import FEATURES, hand_features
from skatdd.core.position import Position
from skatdd.core.rules import JACKS, Game, suit_mask
from skatdd.engine.solve import Solver
from skatdd.tools.generate import evaluate_contract, random_deal
from skatdd.tools.generate import null_danger as _null_danger

Sample = tuple[tuple[float, ...], int]


def _danger(hand: int) -> int:
    return sum(_null_danger([r for r in range(8) if hand >> (s * 8 + r) & 1]) for s in range(4))


def contract_for(family: str, hand: int, rng: random.Random) -> Game | None:
    """The contract a sample of *family* judges *hand* for, ``None`` when the hand does not qualify."""
    if family == "suit":
        suits = [s for s in range(4) if (hand & (JACKS | suit_mask(s))).bit_count() >= 4]
        return Game(rng.choice(suits)) if suits else None
    if family == "grand":
        return Game.GRAND if hand & JACKS else None
    return Game.NULL if _danger(hand) <= 8 else None


def samples(family: str, n: int, rng: random.Random, solver: Solver) -> list[Sample]:
    """*n* (features, won) pairs of *family*."""
    out: list[Sample] = []
    while len(out) < n:
        hands, skat = random_deal(rng)
        seat = rng.randrange(3)
        hand = hands[seat]
        game = contract_for(family, hand, rng)
        if game is None:
            continue
        discard = evaluate_contract(hand | skat, game, forehand=seat == 0).discard
        played = list(hands)
        played[seat] = (hand | skat) & ~discard
        solver.clear()
        won = solver.declarer_wins(Position(game, seat, played, discard, leader=0))
        out.append((hand_features(hand, game, forehand=seat == 0), int(won)))
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(data: list[Sample], ridge: float = 1e-2, rounds: int = 25) -> list[float]:
    """Logistic regression coefficients by Newton's method with an L2 *ridge* (the intercept not penalised)."""
    k = len(data[0][0])
    w = [0.0] * k
    for _ in range(rounds):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in data:
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x, strict=True))))))
            for i in range(k):
                grad[i] += (y - p) * x[i]
                for j in range(k):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        for i in range(1, k):
            grad[i] -= ridge * w[i]
            hess[i][i] += ridge
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return w


def report(family: str, data: list[Sample], w: list[float]) -> None:
    """Coefficients, log-likelihoods and a calibration table on stdout."""
    preds = [1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True)))) for x, _ in data]
    ys = [y for _, y in data]
    base = sum(ys) / len(ys)
    ll = sum(math.log(p if y else 1 - p) for p, y in zip(preds, ys, strict=True)) / len(ys)
    ll0 = base * math.log(base) + (1 - base) * math.log(1 - base)
    print(f"{family}: {len(data)} samples, win rate {base:.3f}, mean log-likelihood {ll:.4f} (base rate {ll0:.4f})")
    print(f'    "{family}": ({", ".join(f"{c:.3f}" for c in w)}),')
    print("    " + " ".join(f"{name}={c:+.2f}" for name, c in zip(FEATURES[family], w, strict=True)))
    order = sorted(range(len(preds)), key=preds.__getitem__)
    for q in range(5):
        part = order[q * len(order) // 5:(q + 1) * len(order) // 5]
        print(f"    fifth {q + 1}: predicted {sum(preds[i] for i in part) / len(part):.3f} "
              f"observed {sum(ys[i] for i in part) / len(part):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=3000, help="samples per family")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--families", default="suit,grand,null")
    args = parser.parse_args()
    solver = Solver(tt_mb=16)
    for i, family in enumerate(args.families.split(",")):
        started = time.process_time()
        data = samples(family, args.samples, random.Random(args.seed * 100 + i), solver)
        report(family, data, fit(data))
        print(f"    {time.process_time() - started:.1f} s CPU", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
