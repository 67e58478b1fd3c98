"""Crawler per-sample time series (timeseries.csv of the main experiment): inputs, joint angles,
body pose, feet, contact forces and motor power of one twin run."""
from __future__ import annotations

import numpy as np

from envs.core import batch, energy
from envs.core.experiment import robot_params, run_kw
from envs.crawler.robot import FORWARD, Crawler


def timeseries(robot: Crawler, run) -> dict:
    """Columns (samples_per_cycle a cycle): t [s]; the prescribed inputs phi*_ref_deg and the
    measured phi*_deg; the central link's pose x, y [m] (MuJoCo x, z) and theta_deg; per foot its
    position x along the direction of travel [m], tangential velocity [m/s] and normal force [N];
    power [W] (positive motor power, envs/core/energy.py)."""
    ref = np.degrees(robot.controls(run.t)[:, :2])
    pos = run.sensor("center_pos")
    cols = {"t": run.t, "phi1_ref_deg": ref[:, 0], "phi2_ref_deg": ref[:, 1],
            "phi1_deg": np.degrees(run.sensor("phi1")[:, 0]), "phi2_deg": np.degrees(run.sensor("phi2")[:, 0]),
            "x": pos[:, 0], "y": pos[:, 2], "theta_deg": np.degrees(run.sensor("theta")[:, 0])}
    for i in (1, 2):
        cols[f"foot{i}_x"] = FORWARD * run.sensor(f"foot{i}_pos")[:, 0]
        cols[f"foot{i}_vel"] = FORWARD * run.sensor(f"foot{i}_vel")[:, 0]
        cols[f"foot{i}_normal_force"] = run.sensor(f"foot{i}_touch")[:, 0]
    cols["power"] = energy.power(run.sensordata, run.model)
    return cols


def configured_run(job) -> tuple[Crawler, object]:
    """The twin run of the configured robot point (robot.*, not swept) with the run settings."""
    kw = {k: v for k, v in run_kw(job).items() if k != "retry_failed"}
    kw.pop("engine", None), kw.pop("device", None), kw.pop("nworld", None)   # one point: the C engine
    r = Crawler(**robot_params(job))
    return r, batch.run_point(r, Crawler, **kw)
