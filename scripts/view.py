#!/usr/bin/env python
"""Interactive MuJoCo viewer with the gait running in real time.

  python scripts/view.py [--duration SECONDS] [hydra overrides, e.g. experiment=... robot.omega=5]

Needs a display (or Xvfb).  Several physics steps run per viewer sync.
"""
from __future__ import annotations

import argparse
import sys
import threading
import time

import _cli


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=float, default=None, help="close after this many wall seconds")
    ap.add_argument("--fps", type=float, default=60.0, help="viewer syncs per second")
    args, overrides = ap.parse_known_args(argv)
    robot = _cli.robot_or_exit(overrides)
    import mujoco
    import mujoco.viewer

    from envs.core.stepper import Stepper

    step = Stepper(robot)
    model, data = step.model, step.data
    steps_per_sync = max(1, int(round(1.0 / args.fps / model.opt.timestep)))
    before = set(threading.enumerate())
    start = time.perf_counter()
    with mujoco.viewer.launch_passive(model, data) as viewer:
        viewer.cam.type = mujoco.mjtCamera.mjCAMERA_TRACKING
        viewer.cam.trackbodyid = robot.camera_body
        viewer.cam.distance, viewer.cam.azimuth, viewer.cam.elevation = 1.6 * model.stat.extent, 90, -12
        while viewer.is_running():
            wall = time.perf_counter() - start
            if args.duration is not None and wall >= args.duration:
                break
            if data.time < wall:                 # real time: catch up, then sync
                step(steps_per_sync)
                viewer.sync()
            else:
                time.sleep(min(0.005, data.time - wall))
    # The passive viewer's render thread can crash the interpreter at exit if it
    # is still running: join it (and any helper threads it started) here.
    for t in set(threading.enumerate()) - before:
        if t is not threading.current_thread():
            t.join(timeout=10)
    print(f"viewer closed after {time.perf_counter() - start:.1f} s wall, {data.time:.2f} s simulated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
