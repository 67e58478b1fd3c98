"""miniaq_optimize: the shared optimiser (envs/core/analysis/optimize.py) with MinIAQ-II's parts: its speed and
the paper's own rigid-body model (envs/miniaq/paper/model.py) as the reference engine."""
from __future__ import annotations

from ...core.analysis import optimize as opt
from ...core.runs import sweep as sw
from ...core.runs.experiment import run_kw, runner
from .experiments import _paper_engine


def reference(job, out, points):
    """The points on the paper's model (the run's store, reference_paper.csv)."""
    rows, _ = sw.simulate(job, out, points=points, engine=_paper_engine(job, run_kw(job)), key=["phase_deg", "f"],
                          filename="reference_paper.csv", progress=False)
    return rows, "paper"


HOOKS = opt.Hooks(speed="speed", reference=reference)


@runner("miniaq_optimize")
def optimize(job, out):
    return opt.run(job, out, HOOKS)
