"""The snake's paper: its tables, calibration, experiments and fidelity claims.  What the package
provides is listed here and collected by envs/registry.py (the snake has no reference engine
to film).  Only modules are imported here (a function bound in the package's namespace
could hide a module of the same name)."""
from . import claims, experiments, mutations, optimize

EXPERIMENTS = {             # experiment name (configs/experiment/snake/<name>.yaml) -> runner(job, out)
    "snake_table1": experiments.table1,
    "snake_table2": experiments.table2,
    "snake_calibrate": experiments.calibrate,
    "snake_intervals": experiments.intervals,
    "snake_convergence": experiments.convergence,
    "snake_alpha_sweep": experiments.sweep,
    "snake_n_sweep": experiments.sweep,
    "snake_step_time_sweep": experiments.sweep,
    "snake_servo_sweep": experiments.sweep,
    "snake_optimize": optimize.optimize,
}
CLAIMS = claims             # the fidelity claims: CLAIMS (title, function), PAPER values, OMITTED statements
MUTATIONS = mutations.MUTATIONS
REFERENCE_VIDEO = None

__all__ = ["CLAIMS", "EXPERIMENTS", "MUTATIONS", "REFERENCE_VIDEO"]
