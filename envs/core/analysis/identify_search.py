"""The global stage of a fit (envs/core/analysis/identify.py): where the local least-squares stage starts.

`experiment.search`:
  grid    the cartesian product of `sweep.<fitted parameter>` lists (alone: the nominal is not added): what a fit to a
          small table wants (the snake's Table 2 refit, whose confidence region is drawn on its grid);
          chosen whenever a fitted parameter is swept
  lhs     a seeded Latin hypercube of n_global candidates over the search box (and the nominal)
  cmaes   CMA-ES (the `cmaes` package, Optuna's CMA-ES sampler's engine) in box-normalised coordinates,
          started at the nominal with sigma0 = SIGMA0 of the box, one generation per batched rollout
          (population min(`batch`, n_global), at least 2), whole generations until n_global candidates
          (the nominal first, in the first generation's batch)
  auto    (default) cmaes when the package is installed and n_global >= AUTO_CMAES_MIN, else lhs
The strategies are the optimiser's (envs/core/analysis/search.py).  Every candidate goes through Problem.evaluate
(the store); the returned rows carry their x.
"""
from __future__ import annotations

import numpy as np

from . import search
from ..model.errors import ConfigError

SEARCHES = ("auto", "lhs", "cmaes", "grid")
SIGMA0 = 0.3                  # CMA-ES initial step, in units of the search box's width
# Measured (docs/identify.md): with 16 and 48 candidates CMA-ES reached a lower cost than the Latin hypercube in all
# four hard comparisons (BOLT m_5 + contact_timeconst, MinIAQ-II mu_d + kp); with 2-3 candidates (the CI fits, a
# population of 2-3) it did worse (BOLT m_5 0.6 % off and not claimed, MinIAQ-II kp 13 % off, where LHS gave 0.05 %, 1 %).
AUTO_CMAES_MIN = 16


def have_cmaes() -> bool:
    try:
        import cmaes  # noqa: F401
    except ImportError:
        return False
    return True


def choose(opts, sweep: dict, names) -> str:
    """The global stage to use (ConfigError for a swept non-fitted parameter or cmaes without its package)."""
    other = [k for k in sweep if k not in names]
    if other:
        raise ConfigError(f"sweep.{other[0]}", sweep[other[0]],
                          f"a list for a fitted parameter {list(names)} only (the grid global stage)")
    s = opts["search"]
    if sweep:
        if s not in ("auto", "grid"):
            raise ConfigError("experiment.search", s, "'grid' or 'auto' when a fitted parameter is swept")
        return "grid"
    if s == "grid":
        raise ConfigError("experiment.search", s, f"lhs, cmaes or auto without sweep lists of the fitted {list(names)}")
    if s == "cmaes" and not have_cmaes():
        raise ConfigError("experiment.search", s, "lhs or auto (the cmaes package is not installed: pip install cmaes)")
    if s == "auto":
        return "cmaes" if have_cmaes() and int(opts["n_global"]) >= AUTO_CMAES_MIN else "lhs"
    return s


def grid_box(names, lo, hi, sweep: dict, bounds: dict):
    """The search box of a grid global stage: a default box widened to cover the grid; a grid value
    outside an explicit `experiment.bounds.<name>` is refused (ConfigError)."""
    lo, hi = lo.copy(), hi.copy()
    for j, k in enumerate(names):
        if k not in sweep:
            continue
        a, z = min(sweep[k]), max(sweep[k])
        if k in bounds and (a < lo[j] or z > hi[j]):
            raise ConfigError(f"sweep.{k}", sweep[k], f"values inside experiment.bounds.{k} = [{lo[j]:g}, {hi[j]:g}]")
        lo[j], hi[j] = min(lo[j], a), max(hi[j], z)
    return lo, hi


def global_stage(p, opts, method: str, sweep: dict) -> list[dict]:
    """Every candidate row of the global stage, each with its x (config units)."""
    x0 = np.array([p.nominal.cfg[k] for k in p.names], float)
    n, b = int(opts["n_global"]), int(opts["batch"])

    def evaluate(X, stage):
        return [dict(r, x=np.asarray(x, float)) for x, r in zip(X, p.evaluate(X))]

    if method == "grid":
        return search.batches(evaluate, search.grid([sweep.get(k, [x0[j]]) for j, k in enumerate(p.names)]), b, method)
    if method == "lhs" or n == 0:
        return search.batches(evaluate, search.lhs(x0, p.lo, p.hi, n, int(opts["seed"])), b, method)
    return search.cmaes(evaluate, x0, p.lo, p.hi, n + 1, max(2, min(b, n)), SIGMA0, int(opts["seed"]), "cost")
