#!/usr/bin/env python
"""Real-time factor of every robot's per-step paths: the stepper (what the viewer runs between
syncs) and the video (stepper + offscreen rendering + encoding).  RTF = simulated s / wall s;
>= 1 means the viewer and the video keep up with real time on this machine.

  python scripts/bench_realtime.py [--seconds 2] [--video-seconds 1] [--robots crawler snake ...]

Prints one line per robot and a last machine-readable line `rtf_stepper_<robot>=... rtf_video_<robot>=...`.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile
import time

import _cli  # noqa: F401  (GL backend chosen before MuJoCo)

import gaittwin
from gaittwin.core.view.render import render_video
from gaittwin.core.model.stepper import Stepper


def stepper_rtf(robot, seconds: float) -> float:
    step = Stepper(robot)
    n = max(1, round(seconds / step.model.opt.timestep))
    step(min(n, 100))                                   # warm-up (first chunk of controls)
    t0 = time.perf_counter()
    step(n)
    return n * step.model.opt.timestep / (time.perf_counter() - t0)


def video_rtf(robot, seconds: float) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        info = render_video(robot, pathlib.Path(tmp) / "bench.mp4", cycles=seconds / robot.period)
        return info["sim_time"] / (time.perf_counter() - t0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="simulated seconds for the stepper")
    ap.add_argument("--video-seconds", type=float, default=1.0, help="simulated seconds filmed")
    ap.add_argument("--robots", nargs="*", default=list(gaittwin.ROBOTS))
    args = ap.parse_args(argv)
    out = []
    for name in args.robots:
        r = gaittwin.robot_class(name)()
        s, v = stepper_rtf(r, args.seconds), video_rtf(r, args.video_seconds)
        print(f"{name:8s} dt={r.timestep:.3g} s  stepper RTF {s:7.2f}   video RTF {v:6.2f}")
        out += [f"rtf_stepper_{name}={s:.3g}", f"rtf_video_{name}={v:.3g}"]
    print(" ".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
