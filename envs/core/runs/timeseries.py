"""Per-sample time series of one twin run (`timeseries.csv` of a robot's main experiment): one
writer for every robot, its columns from what each robot already declares.

Columns, in order (output-file convention: SI, angles in degrees with a `_deg` suffix):
  t                      s
  <inputs>               the prescribed inputs, as the robot's caller names them (e.g. phi1_ref_deg)
  <channel>              every observable channel the robot declares (envs/<robot>/channels.py,
                         envs/core/model/channels.py): body pose, joint angles, contact flags; a channel
                         in rad is written as <channel>_deg
  <name>_normal_force    N, each touch sensor `<name>_touch` of the model (contact normal force)
  <extra>                robot-specific columns the caller adds (e.g. feet velocities)
  power                  W, the motors' positive mechanical power (envs/core/model/energy.py)

`configured_run(job, out)` is the one twin run of the configured point (robot.*, not swept) that a main
experiment writes, with the job's run settings (the C engine; at most `cycles` periods when given).
"""
from __future__ import annotations

import mujoco
import numpy as np

from ..model import channels, energy

TOUCH = "_touch"


def columns(robot, run, inputs: dict | None = None, extra: dict | None = None) -> dict:
    """The time series of a finished `batch.Run` of `robot` (module docstring)."""
    cols = {"t": np.asarray(run.t, float), **(inputs or {})}
    for name, ch in channels.channels(robot).items():
        v = np.asarray(ch.read(run), float).reshape(-1)
        cols[f"{name}_deg" if ch.unit == "rad" else name] = np.degrees(v) if ch.unit == "rad" else v
    m = run.model
    for i in range(m.nsensor):
        s = m.sensor(i)
        if m.sensor_type[i] == mujoco.mjtSensor.mjSENS_TOUCH and s.name.endswith(TOUCH):
            cols[s.name[:-len(TOUCH)] + "_normal_force"] = run.sensor(s.name)[:, 0]
    cols.update(extra or {})
    cols["power"] = energy.power(run.sensordata, m)
    n = len(cols["t"])
    bad = [k for k, v in cols.items() if len(v) != n]
    if bad:
        raise ValueError(f"timeseries: columns {bad} do not have one value a sample ({n})")
    return cols


def configured_run(job, out, file: str = "timeseries.csv", cycles: int | None = None):
    """(robot, run): the twin run of the configured robot point (robot.*) with the job's run settings,
    on the C engine, over at most `cycles` periods (None: run.cycles); recorded as the C engine's
    point of out/file, so that summary.json's engine_split says so under engine=warp/auto.  A failed run is
    returned (its caller keeps its sweep's results and says `run.error`); summary.json's `error` names it."""
    from . import sweep
    from ..engines.engines import WARP_KW
    from .experiment import robot_cls, robot_params, run_kw, runner_kw

    kw = {k: v for k, v in runner_kw(run_kw(job)).items() if k not in WARP_KW}
    if cycles is not None:
        kw["cycles"] = min(kw["cycles"], int(cycles))
        kw["min_cycles"] = min(kw["min_cycles"], kw["cycles"])
    cls = robot_cls(job)
    r = cls(**robot_params(job))
    return r, sweep.run_point(r, out, file, list(job.sweep), kw=kw, failed="keep")
