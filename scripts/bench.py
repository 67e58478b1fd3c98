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

With --engine warp (extra .[gpu]) it instead compares, in one run, MuJoCo Warp (engine=warp, on
--device, default cuda if usable else cpu) with the CPU batch runner on the same sweep (psi x omega
in [8, 16] rad/s, --cycles cycles): steps/s and points/s of each, and the Fig. 6 map's wall time
on Warp, extrapolated from a measured batch step of the map's own worlds (labelled so; --map-full
runs it).  Last line:  warp_steps_s=... cpu_steps_s=... warp/cpu=... fig6_map_warp_s=...

  python scripts/bench.py [--map-n 40] [--threads N] [--quick]
  python scripts/bench.py --engine warp [--sweep-n 8] [--cycles 2] [--device cpu] [--nworld N] [--map-full]
"""
from __future__ import annotations

import argparse
import sys
import time

import _cli  # noqa: F401  (repo on sys.path, GL backend chosen)
import mujoco
import numpy as np
from mujoco import rollout

from envs.core import batch
from envs.crawler.robot import Crawler


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


def engine_sweep(points, cycles: int, **kw) -> tuple[float, float]:
    """(steps/s, wall s) of the batch runner on `points` (kw: engine=warp, device, nworld, nthread)."""
    robots = [Crawler(**p) for p in points]
    steps = sum(cycles * r.steps_per_cycle for r in robots)
    t0 = time.perf_counter()
    batch.run_points(robots, Crawler, cycles=cycles, stop_when_steady=False, **kw)
    wall = time.perf_counter() - t0
    return steps / wall, wall


def warp_map_estimate(points, cycles: int, device, nworld, chunk: int = 500) -> tuple[float, float, int]:
    """(estimated wall s, measured s per batch step, worlds) of `points` on Warp: one pool of the map's
    own worlds (per-world timestep and inputs) is stepped 2 chunks (the first compiles/captures), the
    second timed; the run lasts max(longest point, total steps / worlds) batch steps."""
    from envs.core import warp_batch, warp_engine
    robots = [Crawler(**p) for p in points]
    models = [r.model() for r in robots]
    dev = warp_engine.device(device)
    nw = min(len(robots), int(nworld or warp_engine.NWORLD["cuda" if dev.startswith("cuda") else "cpu"]))
    distinct = list({id(m): m for m in models}.values())
    pool = warp_batch._Pool(distinct, nw, chunk, min(r.steps_per_cycle // r.samples_per_cycle for r in robots), dev)
    for k in range(nw):
        pool.load(k, robots[k], models[k])
    pool.push()
    ctrl = np.stack([r.controls(np.arange(chunk) * r.timestep) for r in robots[:nw]], axis=1)
    loops = np.zeros((0, 2), np.int32)
    pool.run_chunk(ctrl, loops)
    t0 = time.perf_counter()
    pool.run_chunk(ctrl, loops)
    per_step = (time.perf_counter() - t0) / chunk
    steps = [cycles * r.steps_per_cycle for r in robots]
    return max(max(steps), sum(steps) / nw) * per_step, per_step, nw


def warp_main(args) -> int:
    from envs.core import warp_engine
    dev = warp_engine.device(args.device)
    nthreads = args.threads or batch.available_cores()
    n = 2 if args.quick else args.sweep_n
    pts = [dict(omega=float(w), psi_deg=float(p)) for w in np.linspace(8.0, 16.0, n) for p in np.linspace(0, 180, n)]
    print(f"sweep: {len(pts)} crawler points (psi 0-180 deg x omega 8-16 rad/s), {args.cycles} cycles each")
    from envs.core import warp_batch
    first = warp_batch.first_step(Crawler(**pts[0]), dev)
    print(f"warp first step on {dev} (kernel compile or cache load, put_model, one step): {first:.1f} s")
    ws, ww = engine_sweep(pts, args.cycles, engine="warp", device=dev, nworld=args.nworld)
    print(f"warp  ({dev}, {min(len(pts), args.nworld or warp_engine.NWORLD[dev.split(':')[0]])} worlds): "
          f"{ws:12,.0f} steps/s {len(pts) / ww:8.2f} points/s  wall {ww:.1f} s")
    cs, cw = engine_sweep(pts, args.cycles, nthread=nthreads)
    print(f"mujoco (C batch runner, {nthreads} threads):  {cs:12,.0f} steps/s {len(pts) / cw:8.2f} points/s  "
          f"wall {cw:.1f} s")
    print(f"warp/cpu = {ws / cs:.2f}")
    m = max(2, args.map_n)
    mp = sweep_points(m, m)
    if args.map_full:
        _, fig6 = engine_sweep(mp, 10, engine="warp", device=dev, nworld=args.nworld)
        print(f"Fig. 6 map on warp: {m}x{m} points x 10 cycles: {fig6:.1f} s (measured)")
    else:
        fig6, per_step, nw = warp_map_estimate(mp, 10, dev, args.nworld)
        print(f"Fig. 6 map on warp: {m}x{m} points x 10 cycles: {fig6:.0f} s EXTRAPOLATED from a measured batch step "
              f"of {nw} of its worlds ({per_step * 1e3:.2f} ms/step; --map-full measures it)")
    print(f"warp_steps_s={ws:.0f} cpu_steps_s={cs:.0f} warp/cpu={ws / cs:.3f} fig6_map_warp_s={fig6:.1f} device={dev}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--map-n", type=int, default=40, help="psi and omega points of the Fig. 6 map (default 40x40)")
    ap.add_argument("--threads", type=int, default=None, help="threads for the all-thread runs (default: cores)")
    ap.add_argument("--quick", action="store_true", help="short measurements (smoke test)")
    ap.add_argument("--engine", choices=("mujoco", "warp"), default="mujoco",
                    help="warp: MuJoCo Warp against the CPU batch runner (extra .[gpu])")
    ap.add_argument("--device", default=None, help="warp: the Warp device (default: cuda if usable, else cpu)")
    ap.add_argument("--nworld", type=int, default=None, help="warp: worlds per batch (default 8 cpu, 4096 cuda)")
    ap.add_argument("--sweep-n", type=int, default=8, help="warp: n x n points of the comparison sweep")
    ap.add_argument("--cycles", type=int, default=2, help="warp: cycles per point of the comparison sweep")
    ap.add_argument("--map-full", action="store_true", help="warp: run the whole Fig. 6 map (else extrapolated)")
    args = ap.parse_args(argv)
    if args.engine == "warp":
        return warp_main(args)
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
