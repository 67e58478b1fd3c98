"""Bolt's paper: its reference engine (the paper's model), experiments, fidelity claims, plots and
twin mutations.  What the package provides is listed here and collected by envs/registry.py.  Only
modules are imported here (a function bound in the package's namespace could hide a module of the same
name)."""
from . import claims, experiments, mutations, optimize, twin_vs_paper

EXPERIMENTS = {             # experiment name (configs/experiment/bolt/<name>.yaml) -> runner(job, out)
    "bolt_foot_path": experiments.foot_path,
    "bolt_running": experiments.running,
    "bolt_speed_sweep": experiments.speed_sweep,
    "bolt_treadmill": experiments.treadmill,
    "bolt_twin_vs_paper": twin_vs_paper.run,
    "bolt_optimize": optimize.optimize,
}
CLAIMS = claims             # the fidelity claims: CLAIMS (title, function), PAPER values, OMITTED statements
MUTATIONS = mutations.MUTATIONS
REFERENCE_VIDEO = None      # render --compare: none filmed for Bolt

__all__ = ["CLAIMS", "EXPERIMENTS", "MUTATIONS", "REFERENCE_VIDEO"]
