"""The crawler's reference motion for `render.py --compare`: the paper's exact hybrid model
(envs/crawler/paper/hybrid.py) shown on the twin's own MJCF, beside the twin."""
from __future__ import annotations

import math

import numpy as np

from ..robot import Crawler

LABEL = "exact hybrid model (paper)"
JOINTS = ("root_x", "root_z", "theta", "phi1", "phi2")   # the paper's q = [x, y, theta, phi1, phi2]


def reference(robot: Crawler, duration: float):
    """(set_state(model, data, t), label): the hybrid model's q at time t (linear between its
    samples), as the twin's joints.  The paper's y is the central link's height over the feet; the
    twin's root_z is measured from the body's rest position: root_z = y + foot_radius - z0."""
    from . import hybrid as H
    cycles = max(1, math.ceil(duration / robot.period - 1e-9) + 1)
    run = H.simulate(robot, cycles=cycles, min_cycles=cycles, stop_when_steady=False)
    if run.error:
        raise RuntimeError(f"the exact hybrid model failed: {run.error}")
    z0 = float(robot.model().body("center").pos[2])
    offset = np.array([0.0, robot.p.foot_radius - z0, 0.0, 0.0, 0.0])

    def set_state(model, data, t):
        q = np.array([np.interp(t, run.t, run.q[:, i]) for i in range(5)]) + offset
        for name, v in zip(JOINTS, q):
            data.joint(name).qpos[0] = v
        data.qvel[:] = 0.0
    return set_state, LABEL
