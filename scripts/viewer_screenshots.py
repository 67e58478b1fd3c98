#!/usr/bin/env python
"""Screenshots of each robot's interactive viewer, as a user sees it, for docs/viewer.md.

  python scripts/viewer_screenshots.py [--size 1280x800] [--seconds 6] [--out docs/img] [robot ...]

Starts one Xvfb screen of --size (its framebuffer in a file: Xvfb -fbdir), runs `scripts/view.py
--sim-duration SECONDS` for each robot on it (the window fills the screen), grabs the screen while
it runs and writes the last grab before the window closed (the figures full of history, whatever
the machine's load) to <out>/viewer_<robot>.png.  Prints each robot's start-up time (start to
window up, as the viewer reports it, and from launch) and the viewer's closing line.
Needs Xvfb (Debian/Ubuntu: `apt-get install xvfb`).
"""
from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def read_xwd(path) -> np.ndarray:
    """An XWD file of a 24/32-bit TrueColor screen (what Xvfb -fbdir keeps) as an RGB array."""
    raw = pathlib.Path(path).read_bytes()
    head = np.frombuffer(raw[:100], ">u4")
    size, width, height, order, bpp, stride, ncolors = (int(head[i]) for i in (0, 4, 5, 7, 11, 12, 19))
    masks = head[14:17]
    if bpp != 32:
        raise ValueError(f"{path}: {bpp} bits per pixel, only 32 is read")
    start = size + 12 * ncolors
    px = np.frombuffer(raw[start:start + stride * height], "<u4" if order == 0 else ">u4")
    px = px.reshape(height, stride // 4)[:, :width]
    shifts = [int(m).bit_length() - 8 for m in masks]
    return np.stack([(px >> s) & 0xFF for s in shifts], axis=-1).astype(np.uint8)


def start_xvfb(width: int, height: int, fbdir: str) -> tuple[subprocess.Popen, str]:
    r, w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", f"{width}x{height}x24",
                             "-fbdir", fbdir, "-nolisten", "tcp"], pass_fds=(w,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    if not number:
        raise SystemExit("error: Xvfb did not start")
    return xvfb, f":{number}"


def shoot(robot: str, display: str, fbdir: str, out: pathlib.Path, seconds: float, nice: int) -> None:
    """Run the viewer for `seconds` of simulated time; keep the last screen grabbed while it ran."""
    from PIL import Image
    env = dict(os.environ, DISPLAY=display)
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("MUJOCO_GL", None)
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, str(ROOT / "scripts/view.py"), "--sim-duration", str(seconds),
                          "--render-nice", str(nice), f"robot={robot}"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    line = p.stdout.readline()
    while line and not line.startswith("viewer: window"):
        line = p.stdout.readline()
    if not line:
        p.wait()
        raise SystemExit(f"error: {robot}: the viewer exited before its window was up")
    print(f"{robot}: {line.strip()} ({time.perf_counter() - t0:.1f} s from launch)", flush=True)
    img = None
    while p.poll() is None:
        grab = read_xwd(pathlib.Path(fbdir) / "Xvfb_screen0")
        if grab.any():                           # the window is up (once it closes: Xvfb's black screen)
            img = grab
        time.sleep(0.25)
    rest = p.stdout.read()
    if img is None or p.returncode != 0:
        raise SystemExit(f"error: {robot}: viewer exit {p.returncode}: {rest[-2000:]}")
    path = out / f"viewer_{robot}.png"
    Image.fromarray(img).save(path, optimize=True)
    print(f"{robot}: wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}; "
          + (rest.strip().splitlines() or [""])[-1], flush=True)


def main(argv=None) -> int:
    from gaittwin.registry import ROBOTS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("robots", nargs="*", default=sorted(ROBOTS), help="robots (default: all)")
    ap.add_argument("--size", default="1280x800", help="screen size WxH (default 1280x800)")
    ap.add_argument("--seconds", type=float, default=6.0, help="simulated seconds before the shot (default 6)")
    ap.add_argument("--out", default=str(ROOT / "docs/img"), help="output folder (default docs/img)")
    ap.add_argument("--render-nice", type=int, default=0, choices=range(0, 20), metavar="0..19",
                    help="the viewer's --render-nice (default 0: on a busy machine the screen keeps up)")
    args = ap.parse_args(argv)
    unknown = sorted(set(args.robots) - set(ROBOTS))
    if unknown:
        print(f"error: robot {unknown[0]!r} is not one of {', '.join(sorted(ROBOTS))}", file=sys.stderr)
        return 2
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"error: --size={args.size!r} is not WxH (e.g. 1280x800)", file=sys.stderr)
        return 2
    if shutil.which("Xvfb") is None:
        print("error: Xvfb not found (Debian/Ubuntu: apt-get install xvfb)", file=sys.stderr)
        return 2
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as fbdir:
        xvfb, display = start_xvfb(width, height, fbdir)
        try:
            for robot in args.robots:
                shoot(robot, display, fbdir, out, args.seconds, args.render_nice)
        finally:
            xvfb.terminate()
            xvfb.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
