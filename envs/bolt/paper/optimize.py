"""bolt_optimize: the shared optimiser (envs/core/analysis/optimize.py) with BOLT's parts: its speed, the paper's
Sec. 4-5 model (envs/bolt/paper/model.py) as the reference engine, and the quantities of Sec. 3's design search
derived from the closed-form kinematics without simulating (envs/bolt/kinematics.py):

  eq4         W1 alpha + W2 sum over theta_1 = 0, 1, ..., 359 deg of |f(theta_1) - f_des(theta_1)|^2 (eq. 4), with
              the assumptions the paper leaves open: f_des is the Table 2 design's own foot path (Fig. 5(b): the
              optimised path "closely traces" the designed one, which is drawn but not given as numbers); alpha
              (rad) the angle of attack at the stance entry (claims_design.attack_deg); W1 = 1, W2 = 1 / (360 x
              (0.01 m)^2), so the trajectory term is the mean squared deviation in units of 1 cm^2; a design whose
              loops do not close at every crank angle has no value
  l_leg       |AE| + |EF| = l_4 + l_5 (eq. 5, bounded by Table 1)
  attack_deg  the angle of attack alone (deg)

`experiment.objective=eq4` with the lengths as variables runs the design search on the kinematics alone
(nothing is simulated); claims_optimize.py runs it under Table 1's bounds."""
from __future__ import annotations

import functools
import math

import numpy as np

from ...core.analysis import optimize as opt
from ...core.runs import sweep as sw
from ...core.runs.experiment import robot_params, run_kw, runner
from ..kinematics import Geometry, loop_kinematics
from .claims_design import attack_deg

SAMPLES = np.radians(np.arange(360.0))           # theta_1 = 0, 1, ..., 359 deg
W1, W2 = 1.0, 1.0 / (360 * 0.01 ** 2)


@functools.lru_cache(maxsize=1)
def designed_path() -> np.ndarray:
    """f_des: the Table 2 design's foot path (the robot's declared lengths) at SAMPLES."""
    from ..robot import Bolt
    return loop_kinematics(SAMPLES, Geometry.of(Bolt().p))["F"]


def _path(robot):
    g = Geometry.of(robot.p)
    k = loop_kinematics(SAMPLES, g)
    if min(k["h2_B"].min(), k["h2_G"].min()) < 0:
        return None, g
    return k["F"], g


def attack(robot) -> float:
    F, g = _path(robot)
    return math.nan if F is None else attack_deg(F, g.l_c * complex(math.cos(g.theta), math.sin(g.theta)))


def eq4(robot) -> float:
    F, g = _path(robot)
    if F is None:
        return math.nan
    return W1 * math.radians(attack(robot)) + W2 * float(np.sum(np.abs(F - designed_path()) ** 2))


def l_leg(robot) -> float:
    return float(robot.p.l_4 + robot.p.l_5)


def reference(job, out, points):
    """The points on the paper's model (the run's store, reference_paper.csv)."""
    from . import model as paper
    from .experiments import _paper_engine
    from ..robot import Bolt
    robots = [Bolt(**p) for p in points]
    opts = paper.check_job(robot_params(job), robots, dict(job.paper))
    rows, _ = sw.simulate(job, out, points=points, engine=_paper_engine(run_kw(job), opts), key=list(Bolt.columns),
                          filename="reference_paper.csv", progress=False)
    return rows, "paper"


HOOKS = opt.Hooks(speed="speed", derived={"eq4": eq4, "l_leg": l_leg, "attack_deg": attack}, reference=reference)


@runner("bolt_optimize")
def optimize(job, out):
    return opt.run(job, out, HOOKS)
