"""The sampling statistics of ``skatdd odds``: the 95% Wilson interval of a win rate.

A rate over sampled worlds gets a Wilson score interval; a rate over every
consistent world has no sampling error, so its interval is the point
itself.  With worlds weighed by the bidding (``odds --inference bids``) the
interval is taken over the effective sample size of the weights, the usual
approximation for a weighted proportion.
"""
from __future__ import annotations

import math

__all__ = ["Z95", "rate_interval", "wilson_interval"]

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(wins: float, n: float) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion of *wins* in *n* independent trials (*n* > 0)."""
    if n <= 0:
        raise ValueError(f"an interval needs at least one trial, not {n}")
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_interval(wins: float, n: float, exact: bool, sample_size: float | None = None) -> list[float]:
    """``[low, high]`` of the rate *wins* / *n*, rounded to 6 places: the point itself when *exact*.

    *sample_size* (default *n*) is the number of independent trials the
    interval is taken over: the effective sample size of weighted worlds.
    """
    if exact:
        return [wins / n, wins / n]
    if sample_size is None:
        low, high = wilson_interval(wins, n)
    else:
        low, high = wilson_interval(wins / n * sample_size, sample_size)
    return [round(low, 6), round(high, 6)]
