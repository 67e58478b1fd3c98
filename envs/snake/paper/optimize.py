"""snake_optimize: the shared optimiser (envs/core/analysis/optimize.py) with the snake's parts: its speed V
and the servo rate of the inputs as a derived quantity (known before simulating), the peak commanded joint
speed over one period.  The paper gives no servo data: the limit snake_optimize declares (envs/snake/config.py)
is an assumed hobby-servo rating, 60 deg in 0.17 s (352.9 deg/s).  The snake has no reference engine."""
from __future__ import annotations

import math

import numpy as np

from ...core.analysis import optimize as opt
from ...core.runs.experiment import runner

SAMPLES_PER_STEP = 200


def servo_rate_deg_s(robot) -> float:
    """The largest commanded joint speed |dq/dt| over one period (deg/s), from the inputs alone."""
    t = np.linspace(0.0, robot.period, SAMPLES_PER_STEP * robot.steps + 1)
    qd = robot.controls(t)[:, robot.p.N - 1:]
    return float(math.degrees(np.abs(qd).max()))


HOOKS = opt.Hooks(speed="V", derived={"servo_rate_deg_s": servo_rate_deg_s})


@runner("snake_optimize")
def optimize(job, out):
    return opt.run(job, out, HOOKS)
