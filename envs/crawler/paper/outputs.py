"""Crawler per-sample time series (timeseries.csv of the main experiment), through the shared writer
(envs/core/runs/timeseries.py): the prescribed inputs, the declared channels (central link x, z, theta,
phi1, phi2, contact flags), each foot's normal force, and here each foot's position and velocity."""
from __future__ import annotations

import numpy as np

from ...core.runs import timeseries as ts
from ..robot import FORWARD, Crawler


def timeseries(robot: Crawler, run) -> dict:
    """Columns (samples_per_cycle a cycle): t [s]; the prescribed inputs phi*_ref_deg; the channels
    x, z [m] (MuJoCo x, z of the central link), theta_deg, phi*_deg, contact1/2 (0/1); per foot its
    normal force [N], position x along the direction of travel [m] and tangential velocity [m/s];
    power [W] (positive motor power, envs/core/model/energy.py)."""
    ref = np.degrees(robot.controls(run.t)[:, :2])
    feet = {}
    for i in (1, 2):
        feet[f"foot{i}_x"] = FORWARD * run.sensor(f"foot{i}_pos")[:, 0]
        feet[f"foot{i}_vel"] = FORWARD * run.sensor(f"foot{i}_vel")[:, 0]
    return ts.columns(robot, run, inputs={"phi1_ref_deg": ref[:, 0], "phi2_ref_deg": ref[:, 1]}, extra=feet)
