"""The search strategies (envs/core/analysis/search.py) shared by the optimiser and the identification's global
stage: each strategy's candidate sequence at a fixed seed is pinned, so any change to a sequence (which would
change the stored rows of both callers) fails here.  Tolerance, stated before comparing: 1e-12 absolute on each
coordinate (the pinned values are printed to 12 decimals)."""
from __future__ import annotations

import types

import numpy as np
import pytest

from gaittwin.core.analysis import identify_search, optimize
from gaittwin.core.analysis import search as s

ATOL = 1e-12
LO, HI, X0 = np.array([0.0, -1.0]), np.array([2.0, 1.0]), np.array([0.5, 0.25])

CMAES = [("cmaes 0", [0.5, 0.25]), ("cmaes 0", [0.764736492131, 0.051477908864]),
         ("cmaes 0", [1.958462712205, 0.098744722238]), ("cmaes 0", [0.612561935502, 0.052078025332]),
         ("cmaes 0", [0.284702631799, 0.612082961566]), ("cmaes 1", [1.306341613805, 0.661779874397]),
         ("cmaes 1", [0.691682174947, 0.810898145561]), ("cmaes 1", [1.266554959536, 0.339711365206]),
         ("cmaes 1", [1.058684787764, 0.362205858067])]


class Log:
    """An evaluator (loss: squared distance to (1.2, -0.3)) that records every candidate and batch."""

    def __init__(self):
        self.seen, self.sizes = [], []

    def __call__(self, X, stage):
        self.sizes.append(len(X))
        self.seen += [(stage, np.asarray(x, float)) for x in X]
        return [dict(loss=float(np.sum((np.asarray(x) - [1.2, -0.3]) ** 2))) for x in X]


def _check(seen, want):
    assert [a for a, _ in seen] == [a for a, _ in want]
    np.testing.assert_allclose(np.array([x for _, x in seen]), np.array([x for _, x in want]), rtol=0, atol=ATOL)


def test_grid():
    ev = Log()
    s.batches(ev, s.grid([[0.0, 1.0], [-1.0, 0.5, 1.0]]), 4, "grid")
    _check(ev.seen, [("grid", [a, b]) for a in (0.0, 1.0) for b in (-1.0, 0.5, 1.0)])
    assert ev.sizes == [4, 2]


def test_lhs():
    ev = Log()
    s.batches(ev, s.lhs(X0, LO, HI, 3, 5), 2, "lhs")
    _check(ev.seen, [("lhs", [0.5, 0.25]), ("lhs", [0.796664717503, -0.871960526491]),
                     ("lhs", [1.656449625972, 0.142799079941]), ("lhs", [0.630712865079, 0.744420746143])])
    assert ev.sizes == [2, 2]


def test_cmaes_start_in_first_generation():
    pytest.importorskip("cmaes")
    ev = Log()
    s.cmaes(ev, X0, LO, HI, 9, 4, 0.3, 5, "loss")
    _check(ev.seen, CMAES)
    assert ev.sizes == [5, 4]


def test_zoom():
    ev = Log()
    s.zoom(ev, LO[:1], HI[:1], 8, 4, "loss")
    _check(ev.seen, [("zoom 0", [0.0]), ("zoom 0", [2 / 3]), ("zoom 0", [4 / 3]), ("zoom 0", [2.0]),
                     ("zoom 1", [0.0]), ("zoom 1", [4 / 9]), ("zoom 1", [8 / 9]), ("zoom 1", [4 / 3])])


def test_optimiser_population_rule():
    """optimize.search: population `batch`, whole generations while the budget (the start included) lasts."""
    pytest.importorskip("cmaes")
    ev = Log()
    p = types.SimpleNamespace(opts=dict(method="cmaes", budget=9, batch=4, seed=5, sigma0=0.3), lo=LO, hi=HI, x0=X0,
                              vars=[None, None], evaluate=ev)
    assert optimize.search(p) == "cmaes"
    _check(ev.seen, CMAES)


def test_identify_population_rule():
    """identify's global stage: population min(batch, n_global) (at least 2), n_global candidates besides the
    nominal, which rides with the first generation; every row carries its x."""
    pytest.importorskip("cmaes")
    ev = Log()
    p = types.SimpleNamespace(names=["a", "b"], nominal=types.SimpleNamespace(cfg=dict(a=0.5, b=0.25)), lo=LO, hi=HI,
                              evaluate=lambda X: [dict(r, cost=r["loss"]) for r in ev(X, "")])
    rows = identify_search.global_stage(p, dict(n_global=8, batch=4, seed=5), "cmaes", {})
    _check([(f"cmaes {i // 5}", r["x"]) for i, r in enumerate(rows)], CMAES)
    assert ev.sizes == [5, 4]
