"""MP4 of a gait with a camera that follows the robot, a text overlay (robot, gait, time, speed).

  gaittwin render [--cycles N] [--out gait.mp4] [--compare] [hydra overrides, e.g. robot.omega=5]

Default length: at least 3 strides and 4 s (envs/core/view/render.py default_cycles).  An existing
--out is not overwritten: the next free name (gait_2.mp4, ...) is written and said (--force
overwrites); an --out that is a directory or cannot be written is refused before anything is
rendered (one line, exit code 2).  --compare: the twin beside the robot's reference engine in one video (the crawler:
the paper's exact hybrid model; MinIAQ-II: the paper's model).
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys

from .. import registry
from .common import robot_or_exit


def unwritable(out: pathlib.Path) -> str:
    """Why the video cannot be written to `out` (checked before anything is rendered), or ""."""
    if out.is_dir():
        return "it is a directory; name the file, e.g. --out " + str(out / "gait.mp4")
    folder = next(p for p in [out.parent, *out.parent.parents] if p.exists())     # the rest is made
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    probe = folder / f".gaittwin_probe.{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        return f"the folder {folder} cannot be written: {e.strerror or e}"
    return ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cycles", type=float, default=None, help="periods to film (default: >= 3 strides and >= 4 s)")
    ap.add_argument("--fps", type=int, default=30)
    ap.add_argument("--speed", type=float, default=1.0, help="playback speed factor (default real time)")
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=360)
    ap.add_argument("--out", default="gait.mp4", help="output MP4 path (default gait.mp4)")
    ap.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    ap.add_argument("--compare", action="store_true", help="the twin beside the reference engine")
    ap.add_argument("--no-text", action="store_true", help="no text overlay")
    ap.add_argument("--shadows", action="store_true", help="draw shadows (slower with software rendering)")
    ap.add_argument("--reflections", action="store_true", help="draw floor reflections (slower likewise)")
    args, overrides = ap.parse_known_args(argv)
    robot = robot_or_exit(overrides)
    if args.cycles is not None and not args.cycles > 0:
        print(f"error: --cycles={args.cycles:g} is not allowed: allowed range is (0, inf)", file=sys.stderr)
        return 2
    bad = unwritable(pathlib.Path(args.out))
    if bad:
        print(f"error: --out={args.out!r} is not allowed: allowed is a writable file path ({bad})", file=sys.stderr)
        return 2
    compare = None
    if args.compare:
        ref = registry.ROBOTS[robot.name].reference_video      # the robot's paper package's REFERENCE_VIDEO
        if ref is None:
            have = sorted(n for n, e in registry.ROBOTS.items() if e.reference_video)
            print(f"error: --compare: robot={robot.name} has no reference engine to film "
                  f"(allowed: robots with one: {', '.join(have)})", file=sys.stderr)
            return 2
    from ..core.view import render
    cycles = render.default_cycles(robot) if args.cycles is None else args.cycles
    if args.compare:
        compare = ref(robot, cycles * robot.period)
    out = pathlib.Path(args.out)
    if out.exists() and not args.force:
        free = render.free_path(out)
        print(f"{out} exists: writing {free} instead (--force overwrites)")
        out = free
    info = render.render_video(robot, out, cycles=cycles, fps=args.fps, speed=args.speed,
                               width=args.width, height=args.height, shadows=args.shadows,
                               reflections=args.reflections, text=not args.no_text, compare=compare)
    print(f"wrote {info['path']}: {info['frames']} frames, {info['bytes']} bytes, "
          f"{info['cycles']:g} strides ({info['sim_time']:.2f} s)")
    return 0
