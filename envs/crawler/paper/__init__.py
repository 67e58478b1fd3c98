"""The crawler's paper: its reference engine (the exact hybrid model), experiments, fidelity claims,
plots and twin mutations.  What the package provides is listed here and collected by envs/registry.py.
(Only modules are imported here, never a function into the package's namespace: a runner named like its
module, e.g. feedback.feedback, would hide the module from `from gaittwin.crawler.paper import feedback`.)"""
from . import claims, compare, experiments, feedback, mutations, optimize, slip_pattern, time_scaling

EXPERIMENTS = {             # experiment name (configs/experiment/crawler/<name>.yaml) -> runner(job, out)
    "crawler_frequency_sweep": experiments.frequency_sweep,
    "crawler_twin_vs_hybrid": experiments.twin_vs_hybrid,
    "crawler_psi_omega_map": experiments.psi_omega_map,
    "crawler_direction_reversal": experiments.direction_reversal,
    "crawler_friction_robustness": experiments.friction_robustness,
    "crawler_mass_distribution": experiments.mass_distribution,
    "crawler_feedback": feedback.feedback,
    "crawler_slip_pattern": slip_pattern.slip_pattern,
    "crawler_time_scaling": time_scaling.time_scaling,
    "crawler_optimize": optimize.optimize,
}
CLAIMS = claims             # the fidelity claims: CLAIMS (title, function), PAPER values, OMITTED statements
MUTATIONS = mutations.MUTATIONS
REFERENCE_VIDEO = compare.reference     # render --compare: the exact hybrid model's motion on the twin's MJCF

__all__ = ["CLAIMS", "EXPERIMENTS", "MUTATIONS", "REFERENCE_VIDEO"]
