#!/usr/bin/env python
"""Speed of the shared batch runner on the crawler, at the default (validated) timestep.

Prints, all measured in this run:
  (1) raw single-thread mujoco.rollout steps/s, constant control
  (2) the batch runner's steps/s on a sweep (one thread, then all threads)
  (3) a naive Python loop's steps/s (controls computed and mj_step called per step)
the ratios (2)/(1) and (2)/(3), and the wall time of the full psi-omega map of the
crawler paper's Fig. 6 (psi 0-180 deg x omega 0.3-16 rad/s, 10 cycles each).
The last line is machine-readable:
  batch/raw=<ratio> batch/python=<ratio> fig6_map_s=<seconds>

With --engine warp the rest of the command line goes to scripts/bench_warp.py: MuJoCo Warp against
the C batch runner on the same machine, ratios first (homogeneous batch, Fig. 6 map end to end,
sweep loop against the bare step; see its --help).

  python scripts/bench.py [--map-n 40] [--threads N] [--quick]
  python scripts/bench.py --engine warp [bench_warp.py's options]
"""
from __future__ import annotations

import argparse
import sys
import time

import _cli  # noqa: F401  (GL backend chosen before MuJoCo)
import mujoco
import numpy as np
from mujoco import rollout

from gaittwin.core.engines import batch
from gaittwin.crawler.robot import Crawler


def raw_rollout(nsim: int, nstep: int) -> float:
    r = Crawler(omega=3.2)
    m = r.model()
    d = mujoco.MjData(m)
    full = np.empty((nsim, mujoco.mj_stateSize(m, mujoco.mjtState.mjSTATE_FULLPHYSICS)))
    data = mujoco.MjData(m)
    r.initial_pose(m, data)
    mujoco.mj_forward(m, data)
    mujoco.mj_getState(m, data, full[0], mujoco.mjtState.mjSTATE_FULLPHYSICS)
    full[:] = full[0]
    ctrl = r.controls(np.zeros(1))[None]                    # constant control
    with rollout.Rollout(nthread=0) as ro:                   # nthread=0: the calling thread only
        t0 = time.perf_counter()
        ro.rollout(m, d, full, ctrl, nstep=nstep)
        wall = time.perf_counter() - t0
    return nsim * nstep / wall


def python_loop(nstep: int) -> float:
    r = Crawler(omega=3.2)
    m = r.model()
    d = mujoco.MjData(m)
    r.initial_pose(m, d)
    mujoco.mj_forward(m, d)
    dt = m.opt.timestep
    t0 = time.perf_counter()
    for k in range(nstep):
        d.ctrl[:] = r.controls(np.array([k * dt]))[0]
        mujoco.mj_step(m, d)
        _ = d.sensordata.copy()
    return nstep / (time.perf_counter() - t0)


def sweep_points(n_omega: int, n_psi: int):
    return [dict(omega=float(w), psi_deg=float(p))
            for w in np.linspace(0.3, 16.0, n_omega) for p in np.linspace(0.0, 180.0, n_psi)]


def batch_runner(points, cycles: int, nthread: int) -> tuple[float, float]:
    robots = [Crawler(**p) for p in points]
    steps = sum(cycles * r.steps_per_cycle for r in robots)
    t0 = time.perf_counter()
    batch.run_points(robots, Crawler, cycles=cycles, nthread=nthread)
    wall = time.perf_counter() - t0
    return steps / wall, wall


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--map-n", type=int, default=40, help="psi and omega points of the Fig. 6 map (default 40x40)")
    ap.add_argument("--threads", type=int, default=None, help="threads for the all-thread runs (default: cores)")
    ap.add_argument("--quick", action="store_true", help="short measurements (smoke test)")
    ap.add_argument("--engine", choices=("mujoco", "warp"), default="mujoco",
                    help="warp: scripts/bench_warp.py with the remaining options (extra .[gpu])")
    args, rest = ap.parse_known_args(argv)
    if args.engine == "warp":
        import bench_warp
        return bench_warp.main(rest + (["--quick"] if args.quick else []) +
                               (["--threads", str(args.threads)] if args.threads else []) +
                               (["--map-n", str(args.map_n)] if args.map_n != 40 else []))
    if rest:
        ap.error(f"unrecognized arguments: {' '.join(rest)}")
    nthreads = args.threads or batch.available_cores()
    nstep = 20_000 if args.quick else 200_000

    raw = raw_rollout(4, nstep // 4)
    print(f"(1) raw mujoco.rollout, 1 thread, constant control: {raw:12,.0f} steps/s")
    pts = sweep_points(3, 4) if args.quick else sweep_points(6, 8)
    cyc = 2 if args.quick else 3
    b1, _ = batch_runner(pts, cyc, 1)
    print(f"(2) batch runner sweep ({len(pts)} points), 1 thread: {b1:12,.0f} steps/s")
    bn, _ = batch_runner(pts, cyc, nthreads)
    print(f"(2) batch runner sweep, {nthreads} threads:           {bn:12,.0f} steps/s  "
          f"(x{bn / b1:.2f} of 1 thread)")
    py = python_loop(nstep // 10)
    print(f"(3) naive Python loop (ctrl + mj_step per step):   {py:12,.0f} steps/s")
    print(f"ratios: batch/raw = {b1 / raw:.3f} (1 thread each), batch/python = {b1 / py:.2f} (1 thread each)")
    n = max(2, args.map_n)
    pts = sweep_points(n, n)
    sps, wall = batch_runner(pts, 10, nthreads)
    print(f"Fig. 6 map: {n}x{n} points x 10 cycles, {nthreads} threads: {wall:.1f} s ({sps:,.0f} steps/s)")
    print(f"batch/raw={b1 / raw:.3f} batch/python={b1 / py:.2f} fig6_map_s={wall:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
