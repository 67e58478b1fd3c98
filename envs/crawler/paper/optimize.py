"""crawler_optimize: the shared optimiser (envs/core/analysis/optimize.py) with the crawler's parts: its speed
V, the friction sets of Sec. VI as robust bands (`robust.set: ratio` or `eq7`, envs/crawler/friction.py;
`aggregate: mid` is the paper's S_mu), and the exact hybrid model as the reference engine."""
from __future__ import annotations

from ...core.analysis import optimize as opt
from ...core.runs.experiment import runner
from ..friction import friction_set
from .engines import simulate_rows


def _band(sampling):
    def band(cfg, eps, levels):
        return [dict(mu1=m1, mu2=m2) for m1, m2 in friction_set(float(cfg["mu"]), eps, levels, sampling)]
    return band


def reference(job, out, points):
    """The points on the exact hybrid model (the run's store, reference_hybrid.csv)."""
    rows, _ = simulate_rows(job, points, out, engine="hybrid", filename="reference_hybrid.csv", progress=False)
    return rows, "hybrid"


HOOKS = opt.Hooks(speed="V", bands={"ratio": _band("ratio"), "eq7": _band("eq7")}, reference=reference)


@runner("crawler_optimize")
def optimize(job, out):
    return opt.run(job, out, HOOKS)
