"""Interactive MuJoCo viewer: the gait in real time, with live signals and keys.

  gaittwin view [--duration SECONDS | --sim-duration SECONDS] [--fps N] [hydra overrides, e.g. robot=miniaq robot.f=3]

Needs a display: without one it says how to run under Xvfb (`xvfb-run -a gaittwin view`)
and exits 2.  The window fills the screen (GLFW's video mode), MuJoCo's panels hidden (tab /
shift+tab show them), the camera framed on the robot.  On screen: robot, gait, time, speed, motor
power, the real-time factor over the last 2 s (a warning when behind real time), the keys, and
figures of the last 5 s (progress, servo targets, contact normal forces, motor power, loop gap for
robots with loops).  Keys: space pause, - / = rate, right arrow step (paused), backspace reset,
page up / down the gait parameter (envs/core/view/viewer.py).  It prints one line when the window
is up (its size, the start-up time) and, at the end, the real-time factor of the whole session.
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
    ap.add_argument("--sim-duration", type=float, default=None, help="close after this many simulated seconds")
    ap.add_argument("--fps", type=float, default=30.0, help="viewer frames per second")
    ap.add_argument("--shadows", action="store_true", help="shadows and reflections (slow without a GPU)")
    ap.add_argument("--render-nice", type=int, default=10, choices=range(0, 20), metavar="0..19",
                    help="CPU niceness added to the render threads (default 10): on a busy machine frames "
                         "drop before the physics falls behind real time")
    args, overrides = ap.parse_known_args(argv)
    for flag in ("duration", "sim_duration", "fps"):
        value = getattr(args, flag)
        if value is not None and not value > 0:
            print(f"error: --{flag.replace('_', '-')}={value:g} is not allowed: allowed range is (0, inf)",
                  file=sys.stderr)
            return 2
    robot = robot_or_exit(overrides)
    from ..core.view import viewer as live
    if not live.has_display():               # before GLFW: no error dialog, no MUJOCO_LOG.TXT
        print(live.HINT, file=sys.stderr)
        return 2
    import mujoco
    import mujoco.viewer

    scr = live.screen()                       # the monitor's video mode; the window opens maximized
    s = live.Session(robot, fps=args.fps, scale=scr[2] if scr else 100)
    model, data = s.model, s.data
    before, tids = set(threading.enumerate()), live.thread_ids()
    frame, warned = 0, -10.0
    with mujoco.viewer.launch_passive(model, data, key_callback=s.key, show_left_ui=False,
                                      show_right_ui=False) as v:
        live.lower_priority(live.thread_ids() - tids, args.render_nice)   # the render thread and GL's own
        if scr and live.fill_screen(scr[0], scr[1]):   # no window manager (Xvfb): sized by us
            until = time.perf_counter() + 5.0             # the render thread takes the new size
            while v.is_running() and (v.viewport.width, v.viewport.height) != scr[:2] and time.perf_counter() < until:
                time.sleep(0.02)
        v.cam.type = mujoco.mjtCamera.mjCAMERA_TRACKING
        v.cam.trackbodyid = s.robot.camera_body
        v.cam.azimuth, v.cam.elevation = live.AZIMUTH, live.ELEVATION
        com = data.subtree_com[s.robot.camera_body].copy()
        points = live.robot_points(model, data) - com
        framed = (None, None)                 # (viewport size, distance) of the last framing
        if not args.shadows:
            for flag in (mujoco.mjtRndFlag.mjRND_SHADOW, mujoco.mjtRndFlag.mjRND_REFLECTION):
                v.user_scn.flags[flag] = 0    # (the viewer copies user_scn's flag changes at sync)
        painter = live.Painter(v, args.render_nice)
        start = time.perf_counter()
        s._anchor = (start, data.time)
        while v.is_running():
            t0 = time.perf_counter()
            if args.duration is not None and t0 - start >= args.duration:
                break
            if args.sim_duration is not None and data.time >= args.sim_duration:
                break
            vp = v.viewport
            size = (vp.width, vp.height) if vp is not None else None
            if size and size[0] > 0 and size != framed[0] and framed[1] in (None, v.cam.distance):
                lay = s.layout(vp)            # (re)frame on a new window size, unless the user zoomed
                view = live.Rect(vp.left, vp.bottom, vp.width, vp.height)
                v.cam.distance = live.frame_distance(points, (0, 0, 0), view, lay.free, model.vis.global_.fovy)
                if framed[0] is None:
                    age = live.process_age()
                    print(f"viewer: window {vp.width}x{vp.height}, font scale {s.scale}"
                          + (f", up {age:.1f} s after the process started" if age is not None else ""), flush=True)
                framed = (size, v.cam.distance)
            s.advance()                       # steps outside the lock: the render thread draws the synced scene
            if frame % 4 == 0:                # texts and figures at a quarter of the frame rate
                painter.put(s.texts(), s.figures(vp))
            v.sync()
            frame += 1
            if s.behind and t0 - warned > 5:
                print(f"warning: behind real time: {s.rtf:.2f}x (the machine is too slow or too busy)", flush=True)
                warned = t0
            time.sleep(max(0.0, 1 / args.fps - (time.perf_counter() - t0)))
        wall = time.perf_counter() - start
        painter.close()
    for t in set(threading.enumerate()) - before:   # the render thread must not outlive us
        if t is not threading.current_thread():
            t.join(timeout=10)
    print(f"viewer closed after {wall:.1f} s wall, {data.time:.2f} s simulated: real-time factor "
          f"{data.time / wall:.3f} (timestep {model.opt.timestep:.3g} s; lowest {live.RTF_WINDOW:g}-s window "
          f"{s.min_rtf:.2f})")
    return 0
