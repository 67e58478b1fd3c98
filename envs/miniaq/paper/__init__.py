"""MinIAQ-II's paper: its reference engine (the paper's model), experiments, fidelity claims and twin
mutations.  What the package provides is listed here and collected by envs/registry.py.  Only modules
are imported here (geometry_map.geometry_map bound in the package's namespace would hide its module)."""
from . import claims, compare, experiments, geometry_map, mutations, optimize

EXPERIMENTS = {             # experiment name (configs/experiment/miniaq/<name>.yaml) -> runner(job, out)
    "miniaq_trot": experiments.trot,
    "miniaq_turn": experiments.turn,
    "miniaq_gait_sweep": experiments.gait_sweep,
    "miniaq_geometry_map": geometry_map.geometry_map,
    "miniaq_optimize": optimize.optimize,
}
CLAIMS = claims             # the fidelity claims: CLAIMS (title, function), PAPER values, OMITTED statements
MUTATIONS = mutations.MUTATIONS
REFERENCE_VIDEO = compare.reference     # render --compare: the paper's model's motion on the twin's MJCF

__all__ = ["CLAIMS", "EXPERIMENTS", "MUTATIONS", "REFERENCE_VIDEO"]
