#!/usr/bin/env python
"""The viewer's timestep per robot: the gait's speed at larger steps against the reference step,
and the stepper's real-time factor at each (what the viewer runs between frames).

  python scripts/studies/viewer_timestep_study.py [--robots crawler snake bolt miniaq] [--factors 1 2 4 8]

Speed: the robot's progress over the last `window` cycles / their duration (batch runner, the
robot at defaults with robot.timestep = factor x its reference timestep).  Accepted when within
5 % of the reference step's speed (tolerance stated before comparing) and the run is
healthy.  RTF = simulated s / wall s of gaittwin.core.model.stepper.Stepper, single thread; the machine and
its load are printed with it.  The chosen step is each robot's `viewer_timestep` (its README).
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))   # scripts/: _cli
import _cli  # noqa: E402,F401  (the project's checks; gaittwin chooses the GL backend)

import gaittwin
from gaittwin.core.engines import batch
from gaittwin.core.model.stepper import Stepper

TOL = 0.05                                         # |speed / reference speed - 1| allowed
CYCLES = {"crawler": (3, 2), "snake": (2, 1), "bolt": (12, 4), "miniaq": (10, 4)}   # cycles, window


def speed(robot, cycles, window) -> tuple[float, str | None]:
    run = batch.run_point(robot, type(robot), cycles=cycles, nthread=1)
    if run.problem:
        return float("nan"), run.problem
    return float(run.cycle_values[-window:].mean() / robot.period), None


def rtf(robot, seconds=1.0) -> float:
    step = Stepper(robot)
    n = max(1, round(seconds / step.model.opt.timestep))
    step(min(n, 100))
    t0 = time.perf_counter()
    step(n)
    return n * step.model.opt.timestep / (time.perf_counter() - t0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--robots", nargs="*", default=sorted(gaittwin.ROBOTS))
    ap.add_argument("--factors", nargs="*", type=float, default=[1, 2, 4, 8])
    args = ap.parse_args(argv)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; tolerance {TOL:.0%}", flush=True)
    for name in args.robots:
        cls = gaittwin.robot_class(name)
        ref_dt = cls.defaults["timestep"]
        cycles, window = CYCLES.get(name, (4, 2))
        v_ref = None
        for f in args.factors:
            try:
                r = cls(timestep=ref_dt * f)
            except gaittwin.ConfigError as e:           # a step the robot's own checks refuse
                print(f"{name:8s} timestep x{f:g}: REJECTED ({e})", flush=True)
                continue
            v, err = speed(r, cycles, window)
            v_ref = v if v_ref is None else v_ref
            dev = v / v_ref - 1
            ok = err is None and abs(dev) <= TOL
            print(f"{name:8s} timestep {r.timestep:.4g} s (x{f:g})  speed {v * 1e3:9.3f} mm/s  {dev:+7.2%}  "
                  f"RTF {rtf(r):6.2f}  {'ok' if ok else 'REJECTED'} {err or ''}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
