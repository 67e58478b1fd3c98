"""Interactive MuJoCo viewer: the gait in real time, with live signals and keys.

  gaittwin view [--duration SECONDS] [--fps N] [hydra overrides, e.g. robot=miniaq robot.f=3]

Needs a display: without one it says how to run under Xvfb (`xvfb-run -a gaittwin view`)
and exits 2.  On screen: robot, gait, time, speed, motor power, the live real-time factor (a
warning when behind real time) and figures (progress, inputs, contact normal forces, motor power,
loop gap for robots with loops).  Keys: space pause, - / = rate, right arrow step (paused),
backspace reset, page up / down the gait parameter (envs/core/view/viewer.py).  At the end it prints
the real-time factor of the whole session.
"""
from __future__ import annotations

import argparse
import sys
import threading
import time

from .common import robot_or_exit


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=float, default=None, help="close after this many wall seconds")
    ap.add_argument("--fps", type=float, default=30.0, help="viewer frames per second")
    ap.add_argument("--shadows", action="store_true", help="shadows and reflections (slow without a GPU)")
    ap.add_argument("--render-nice", type=int, default=10, choices=range(0, 20), metavar="0..19",
                    help="CPU niceness added to the render thread (default 10): on a busy machine frames "
                         "drop before the physics falls behind real time")
    args, overrides = ap.parse_known_args(argv)
    robot = robot_or_exit(overrides)
    from ..core.view import viewer as live
    if not live.has_display():               # before GLFW: no error dialog, no MUJOCO_LOG.TXT
        print(live.HINT, file=sys.stderr)
        return 2
    import mujoco
    import mujoco.viewer

    s = live.Session(robot, fps=args.fps)
    model, data = s.model, s.data
    before = set(threading.enumerate())
    frame, warned = 0, -10.0
    with mujoco.viewer.launch_passive(model, data, key_callback=s.key) as v:
        live.lower_priority(set(threading.enumerate()) - before, args.render_nice)
        v.cam.type = mujoco.mjtCamera.mjCAMERA_TRACKING
        v.cam.trackbodyid = s.robot.camera_body
        v.cam.distance, v.cam.azimuth, v.cam.elevation = 1.6 * model.stat.extent, 90, -12
        if not args.shadows:                  # software GL (Xvfb) spends most of a frame on these
            for flag in (mujoco.mjtRndFlag.mjRND_SHADOW, mujoco.mjtRndFlag.mjRND_REFLECTION):
                v.user_scn.flags[flag] = 0    # (the viewer copies user_scn's flag changes at sync)
        start = time.perf_counter()
        s._anchor = (start, data.time)
        while v.is_running():
            t0 = time.perf_counter()
            if args.duration is not None and t0 - start >= args.duration:
                break
            s.advance()                       # steps outside the lock: the render thread draws the synced scene
            if frame % 4 == 0:                # texts and figures at a quarter of the frame rate
                v.set_texts(s.texts())
                v.set_figures(s.figures(v.viewport))
            v.sync()
            frame += 1
            if s.behind and t0 - warned > 5:
                print(f"warning: behind real time: {s.rtf:.2f}x (the machine is too slow or too busy)", flush=True)
                warned = t0
            time.sleep(max(0.0, 1 / args.fps - (time.perf_counter() - t0)))
        wall = time.perf_counter() - start
    for t in set(threading.enumerate()) - before:   # the render thread must not outlive us
        if t is not threading.current_thread():
            t.join(timeout=10)
    print(f"viewer closed after {wall:.1f} s wall, {data.time:.2f} s simulated: real-time factor "
          f"{data.time / wall:.3f} (timestep {model.opt.timestep:.3g} s; lowest 1-s window {s.min_rtf:.2f})")
    return 0
