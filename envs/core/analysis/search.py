"""The search strategies shared by the optimiser (optimize.py) and the identification's global stage
(identify_search.py), in the box [lo, hi] of config units.

`evaluate(X, stage)` runs one batch of candidates and returns one row per candidate; `stage` is the label
the caller stores with them.  The callers choose the population, the budget and the score key:
  grid    the cartesian product of the axes, in batches
  lhs     the start, then a seeded Latin hypercube of n points, in batches
  cmaes   CMA-ES (the `cmaes` package) in the unit box, started at the start point with step sigma0; the
          start goes with the first generation in one batch; whole generations until n candidates in all
  zoom    one variable: `population` points evenly over the box, then over the interval of the best point's two
          neighbours, until n candidates
"""
from __future__ import annotations

import itertools
from typing import Callable

import numpy as np

Evaluate = Callable[[list, str], list]


def batches(evaluate: Evaluate, X, b: int, stage: str) -> list:
    """Rows of X evaluated `b` at a time."""
    rows: list = []
    for i in range(0, len(X), b):
        rows += evaluate(X[i:i + b], stage)
    return rows


def from_unit(lo, hi, u) -> np.ndarray:
    return lo + np.clip(np.asarray(u, float), 0.0, 1.0) * (hi - lo)


def grid(axes) -> list[np.ndarray]:
    return [np.array(c, float) for c in itertools.product(*axes)]


def lhs(x0, lo, hi, n: int, seed: int) -> list[np.ndarray]:
    X = [x0]
    if n:
        from scipy.stats import qmc
        X += list(from_unit(lo, hi, qmc.LatinHypercube(len(x0), seed=seed).random(n)))
    return X


def cmaes(evaluate: Evaluate, x0, lo, hi, n: int, population: int, sigma0: float, seed: int, score: str) -> list:
    """Every row, generation by generation (stage `cmaes <generation>`); rows are ranked by row[score]."""
    from cmaes import CMA
    opt = CMA(mean=(x0 - lo) / (hi - lo), sigma=sigma0, bounds=np.array([[0.0, 1.0]] * len(x0)), seed=seed,
              population_size=population)
    rows: list = []
    gen = 0
    while len(rows) < n:
        U = [opt.ask() for _ in range(population)]
        X = ([] if gen else [x0]) + [from_unit(lo, hi, u) for u in U]
        got = evaluate(X, f"cmaes {gen}")
        opt.tell([(u, r[score]) for u, r in zip(U, got[len(X) - population:])])
        rows += got
        gen += 1
    return rows


def zoom(evaluate: Evaluate, lo, hi, n: int, population: int, score: str) -> list:
    """Every row, round by round (stage `zoom <round>`)."""
    a, z, rows = 0.0, 1.0, []
    while len(rows) < n:
        U = np.linspace(a, z, population)
        got = evaluate([from_unit(lo, hi, [u]) for u in U], f"zoom {len(rows) // population}")
        k = int(np.argmin([r[score] for r in got]))
        step = U[1] - U[0]
        a, z = max(0.0, U[k] - step), min(1.0, U[k] + step)
        rows += got
    return rows
