#!/usr/bin/env python
"""MP4 of a gait with a camera that follows the robot.

  python scripts/render.py [--cycles 3] [--out gait.mp4] [hydra overrides, e.g. robot.omega=5]
"""
from __future__ import annotations

import argparse
import sys

import _cli


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cycles", type=float, default=3.0, help="periods to film (default 3)")
    ap.add_argument("--fps", type=int, default=30)
    ap.add_argument("--speed", type=float, default=1.0, help="playback speed factor (default real time)")
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=360)
    ap.add_argument("--out", default="gait.mp4", help="output MP4 path (default gait.mp4)")
    ap.add_argument("--shadows", action="store_true", help="draw shadows (slower with software rendering)")
    ap.add_argument("--reflections", action="store_true", help="draw floor reflections (slower likewise)")
    args, overrides = ap.parse_known_args(argv)
    from envs.core import render

    robot = _cli.robot_or_exit(overrides)
    info = render.render_video(robot, args.out, cycles=args.cycles, fps=args.fps, speed=args.speed,
                               width=args.width, height=args.height, shadows=args.shadows,
                               reflections=args.reflections)
    print(f"wrote {info['path']}: {info['frames']} frames, {info['bytes']} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
