"""The snake's parameters and its experiments' options: the one declaration of each.

Config names: angles in degrees with a `_deg` suffix, everything else SI
(models/snake/README.md has the provenance of every value).
"""
from __future__ import annotations

import dataclasses
import pathlib
from typing import Any, Dict, List, Optional

from ..core.runs.config import experiment, plain_experiment
from ..core.analysis import optimize
from ..core.analysis.identify import Identify, register
from ..core.analysis.robustness import Robustness, uniform
from . import channels as _channels  # noqa: F401  (declares the observable channels)
from ..core.model.schema import param

TIMINGS = ("cycloidal", "linear")
TABLE2_N4 = pathlib.Path(__file__).with_name("table2_n4.csv")  # Table 2's n = 4 losses, a per-cycle table (+ .json)
COM_OFFSET_HALF_WIDTH = 0.0084   # m, l/10: a section's centre of mass anywhere in its middle fifth (README)


@dataclasses.dataclass
class Params:
    """One snake point."""

    name: str = "snake"
    # gait
    n: int = param(4, ge=2, le=100, note="and at most N - 1")
    alpha_deg: float = param(30.0, "deg", gt=0, lt=180, note="and below alpha_max(n) of eq. 14")
    N: int = param(8, ge=3, le=100, model=True, note="sections (prototype: 8)")
    T_step: float = param(0.5, "s", gt=0, le=100, note="per step (calibrated with mu: envs/snake/paper/calibration.py)")
    timing: str = param("cycloidal", choices=TIMINGS,
                        note="cycloidal: zero joint velocity at step boundaries; linear: the paper's")
    # sections: length, mass, contact capsule radius; floor friction
    l: float = param(0.084, "m", gt=0, le=10, model=True)
    m: float = param(0.22, "kg", gt=0, le=100, model=True)
    r: float = param(0.002, "m", gt=0, lt=1, model=True, note="and below l/2")
    mu: float = param(0.4, gt=0, le=5, model=True, note="calibrated: snake_calibrate, envs/snake/paper/calibration.py")
    mu_links_rel: Optional[List[float]] = param(None, gt=-1, le=4, model=True,
                                                note="each: section k's friction is mu (1 + value k); N values, "
                                                     "link1 (tail) first; null: mu on every section")
    # simulation: timestep, impratio, servo gains
    timestep: float = param(3.125e-5, "s", gt=0, le=2e-3, note="converged: snake_convergence")
    impratio: float = param(100.0, ge=1, le=1e4, model=True)
    kp: float = param(2000.0, "N m/rad", gt=0, le=1e6, model=True)
    kv: float = param(6.0, "N m s/rad", ge=0, le=1e4, model=True)
    # section-floor contact (the sections' geoms win every contact: priority 1, models/snake/README.md)
    contact_timeconst: float = param(0.004, "s", gt=0, le=1, model=True,
                                     note="solref[0] of every section; MuJoCo uses max(this, 2 timestep)")
    contact_dampratio: float = param(1.0, gt=0, le=100, model=True, note="solref[1] of every section")
    # mass distribution (0: every section's centre of mass at its middle)
    com_offset: float = param(0.0, "m", gt=-0.5, lt=0.5, model=True,
                              note="every section's centre of mass from its middle, toward the head; "
                                   "and |com_offset| < l/2")


for _name in ("snake_alpha_sweep", "snake_n_sweep", "snake_step_time_sweep", "snake_servo_sweep"):
    plain_experiment(_name)           # the generic sweep (gaittwin.snake.paper.experiments.sweep), its grid in the YAML
plain_experiment("snake_table1", warp="snake_table1 is closed-form (eqs. 12-14), it simulates nothing")
plain_experiment("snake_table2")
plain_experiment("snake_intervals")
plain_experiment("snake_convergence")


@experiment
@dataclasses.dataclass
class SnakeCalibrate(Identify):
    """The Table 2 refit of mu and T_step (envs/snake/paper/calibration.py): one use of <robot>_identify on the
    per-cycle table envs/snake/table2_n4.csv, its global stage the grid of sweep.mu x sweep.T_step; its runner
    gaittwin.snake.paper.experiments.calibrate (registered under this name)."""

    name: str = "snake_calibrate"
    data: str = param(str(TABLE2_N4), note="Table 2's n = 4 losses (a per-cycle table, envs/core/analysis/cycle_table.py)")
    params: Any = dataclasses.field(default_factory=lambda: ["mu", "T_step"])
    # the committed refit's local stage (calibration.json's local_fit): one start from the best grid point, 1 % steps
    starts: int = param(1, ge=1, le=1000, note="local fits (the committed refit: 1, from the best grid point)")
    max_nfev: int = param(10, ge=1, le=10000, note="least_squares residual evaluations (the committed refit's)")
    fd_rel: float = param(0.01, gt=0, le=0.2, note="finite-difference step, relative (the committed refit's)")


@experiment
@dataclasses.dataclass
class SnakeRobustness(Robustness):
    """Robustness map: stride per period and speed at the n = 4, alpha = 30 deg gait over randomised worlds: floor
    friction (calibrated) and each section's own friction around it, section mass and centre-of-mass
    offset, servo gains, contact softness (distributions stated here; models/snake/README.md "Robustness")."""

    name: str = "snake_robustness"
    spread: Dict[str, Any] = dataclasses.field(default_factory=lambda: {
        **uniform(0.2, "mu"), "mu_links_rel": dict(dist="uniform", abs=0.2, size="N"), **uniform(0.1, "m"),
        **uniform(0.2, "kp", "kv"), **uniform(0.3, "contact_timeconst"),
        "com_offset": dict(dist="uniform", abs=COM_OFFSET_HALF_WIDTH)})
    merit: Dict[str, Any] = dataclasses.field(default_factory=lambda: dict(dx_period="max", V="max"))


register("snake", ["mu", "T_step"])   # identifiable: snake_trajectory, snake_identify (envs/core/analysis/identify.py)
# the servo rate: an assumed hobby-servo rating, 60 deg in 0.17 s (the paper gives no servo data; envs/snake/paper/optimize.py)
optimize.register("snake", variables=dict(alpha_deg=[10.0, 70.0], T_step=[0.2, 1.5]), objective="speed",
                  constraints=dict(servo_rate_deg_s={"max": 352.9}), constraint_mode="reject")
