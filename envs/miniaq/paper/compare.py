"""MinIAQ-II's reference motion for `render.py --compare`: the paper's model (envs/miniaq/paper/model.py,
one rigid body with massless kinematic legs) shown on the twin's own MJCF, beside the twin.

The paper's model has no MuJoCo state: each frame sets a second copy of the twin's joints from it --
the torso's free joint from its centroid position and Z-Y-X Euler angles (linear between the
paper run's samples), each leg's crank at the paper's prescribed crank angle and the four-bar's
coupler and rocker from the twin's own position analysis (`MiniAQ.leg_angles`), so the legs close.
"""
from __future__ import annotations

import math

import numpy as np

from ..paper_laws import euler_to_quat
from ..robot import LEGS, MiniAQ

LABEL = "paper model (Askari & Ozcan)"


def reference(robot: MiniAQ, duration: float):
    """(set_state(model, data, t), label): the paper model's pose at time t as the twin's joints."""
    from . import model as paper
    cycles = max(1, math.ceil(duration / robot.period - 1e-9) + 1)
    run = paper.simulate(robot, cycles=cycles)
    if run.error:
        raise RuntimeError(f"the paper model failed: {run.error}")
    model_ = paper.Model(run.params)
    X = run.X

    def set_state(model, data, t):
        x = np.array([np.interp(t, run.t, X[:, i]) for i in range(6)])
        root = data.joint("root")
        root.qpos[:3] = x[:3]
        root.qpos[3:] = euler_to_quat(x[3:6])
        th, _ = model_.crank(np.array([t]))
        for leg, th2 in zip(LEGS, th[:, 0]):
            for part, q in zip(("crank", "coupler", "rocker"), robot.leg_angles(th2)):
                data.joint(f"{leg}_{part}").qpos[0] = q
        data.qvel[:] = 0.0
    return set_state, LABEL
