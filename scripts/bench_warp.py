#!/usr/bin/env python
"""MuJoCo Warp (engine=warp) against the C batch runner on the same machine, ratios first
(`scripts/bench.py --engine warp` runs this).  Four sections, each printed and written to the
summary (--summary FILE: JSON, updated as each section finishes, so a killed run keeps the rest):

  a  homogeneous: N crawler points at one omega (robustness-like: mu per world, 16 values in 0.15-0.45), --cycles
     cycles, all N as the worlds of one batch, against the C batch runner on every core; the C side
     runs a subset of the same points (--cpu-points; its steps/s does not depend on how many) --
     ratio warp/cpu of steps/s.  The kernels are loaded (compiled once) before the clock starts.
  c  the sweep loop against the bare physics (the sweep: section a's, from this run or the summary):
     section a's worlds stepped by graph-captured
     `mujoco_warp.step` alone (constant control, no sampling, no health) at the same nworld --
     ratio sweep/bare of steps/s (1.0: the loop costs nothing over the physics).
  h  the sweep loop's host work per chunk, alone (no device): the runner's fold of one chunk's
     samples (section a's crawler point, 100 samples a world per 1000-step chunk) for --nworld
     worlds, in ns per world-step -- what the host adds to each world-step on top of the device's
     (with section c in the same run: host ns against the bare step's ns per world-step).
  b  the crawler paper's Fig. 6 map (--map-n x --map-n points, psi 0-180 deg x omega 0.3-16 rad/s,
     10 cycles, stop when steady as its experiment does) end to end on warp (--map-engine auto: the
     longest points on the C threads at the same time, envs/core/engines/auto_split.py), measured, not
     extrapolated; the summary records the points finished so far every few seconds (a run killed
     by its time limit still says how far it got).

  python scripts/bench_warp.py [--sections a c h b] [--device cuda] [--nworld 16384] [--cycles 10]
                               [--map-n 40] [--summary out/summary.json] [--quick]
Last line of each section:  key=value ... (machine-readable)
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import _cli  # noqa: F401  (GL backend chosen before MuJoCo)
import numpy as np

from gaittwin.core.engines import batch
from gaittwin.crawler.robot import Crawler

OMEGA_A = 16.0      # section a's omega (rad/s): the shortest cycle of the Fig. 6 range


def record(path, key: str, value: dict) -> None:
    """Merge value under key into the JSON summary at path (if any), written whole each time."""
    if not path:
        return
    p = pathlib.Path(path)
    data = json.loads(p.read_text()) if p.exists() else {}
    data[key] = value
    tmp = p.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, default=float))
    tmp.replace(p)


def robots_a(n: int, distinct: int = 16) -> list:
    """n points, `distinct` frictions repeated: the same Robot objects again (each distinct point is
    built, compiled, put on the device and its initial state computed once; the host's per-point
    setup is not what this section measures)."""
    mus = np.linspace(0.15, 0.45, min(n, distinct))
    rs = [Crawler(omega=OMEGA_A, mu=float(m)) for m in mus]
    return [rs[i % len(rs)] for i in range(n)]


def section_a(a, dev: str) -> dict:
    from gaittwin.core.engines import warp_batch
    robots = robots_a(a.nworld)
    first = warp_batch.first_step(robots[0], dev)
    steps = sum(a.cycles * r.steps_per_cycle for r in robots)
    t0 = time.perf_counter()
    batch.run_points(robots, Crawler, cycles=a.cycles, stop_when_steady=False, engine="warp", device=dev,
                     nworld=a.nworld)
    ww = time.perf_counter() - t0
    nthread = a.threads or batch.available_cores()
    sub = robots[:: max(1, len(robots) // a.cpu_points)][: a.cpu_points]
    csteps = sum(a.cycles * r.steps_per_cycle for r in sub)
    t0 = time.perf_counter()
    batch.run_points(sub, Crawler, cycles=a.cycles, stop_when_steady=False, nthread=nthread)
    cw = time.perf_counter() - t0
    res = dict(warp_steps_s=steps / ww, cpu_steps_s=csteps / cw, ratio_warp_cpu=(steps / ww) / (csteps / cw),
               nworld=a.nworld, cycles=a.cycles, omega=OMEGA_A, steps_per_world=a.cycles * robots[0].steps_per_cycle,
               warp_wall_s=ww, warp_first_step_s=first, cpu_points=len(sub), cpu_threads=nthread, cpu_wall_s=cw)
    print(f"(a) warp/cpu = {res['ratio_warp_cpu']:.2f}: warp {res['warp_steps_s']:,.0f} world-steps/s ({a.nworld} "
          f"worlds x {res['steps_per_world']} steps, {ww:.1f} s; first step {first:.1f} s) | C batch runner "
          f"{res['cpu_steps_s']:,.0f} steps/s ({nthread} threads, {len(sub)} of the points, {cw:.1f} s)")
    return res


def bare_step(nworld: int, dev: str, nstep: int, graph_steps: int = 50) -> dict:
    """World-steps/s of graph-captured mujoco_warp.step alone on section a's model at nworld."""
    import mujoco
    import mujoco_warp as mjw
    import warp as wp
    r = Crawler(omega=OMEGA_A, mu=0.3)
    m = r.model()
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, r.initial_state(m), mujoco.mjtState.mjSTATE_INTEGRATION)
    d.ctrl[:] = r.controls(np.zeros(1))[0]
    with wp.ScopedDevice(dev):
        M = mjw.put_model(m)
        D = mjw.put_data(m, d, nworld=nworld, nconmax=max(64, 4 * (m.npair + m.ngeom)))
        mjw.step(M, D)                                           # loads the kernels
        cuda = wp.get_device(dev).is_cuda
        if cuda:
            with wp.ScopedCapture() as cap:
                for _ in range(graph_steps):
                    mjw.step(M, D)
        wp.synchronize_device(dev)
        t0 = time.perf_counter()
        for _ in range(max(1, nstep // graph_steps)):
            if cuda:
                wp.capture_launch(cap.graph)
            else:
                for _ in range(graph_steps):
                    mjw.step(M, D)
        wp.synchronize_device(dev)
        wall = time.perf_counter() - t0
    n = max(1, nstep // graph_steps) * graph_steps
    return dict(bare_steps_s=nworld * n / wall, bare_ms_per_step=wall / n * 1e3, bare_steps=n)


def section_c(a, dev: str, sweep: dict | None) -> dict:
    res = bare_step(a.nworld, dev, a.bare_steps)
    prev = json.loads(pathlib.Path(a.summary).read_text()).get("a_homogeneous") if a.summary and \
        pathlib.Path(a.summary).exists() else None
    if sweep is None and prev and prev.get("nworld") == a.nworld:
        sweep = prev                        # section a's sweep, run earlier into the same summary
    if sweep is None:                       # no section a at this nworld: a short sweep of its own
        b = argparse.Namespace(**{**vars(a), "cycles": 1, "cpu_points": 1})
        sweep = section_a(b, dev)
    res.update(sweep_steps_s=sweep["warp_steps_s"], ratio_sweep_bare=sweep["warp_steps_s"] / res["bare_steps_s"],
               nworld=a.nworld)
    print(f"(c) sweep/bare = {res['ratio_sweep_bare']:.2f}: sweep {res['sweep_steps_s']:,.0f} world-steps/s, bare "
          f"mjw.step (graph-captured on cuda) {res['bare_steps_s']:,.0f} ({res['bare_ms_per_step']:.2f} ms a step, "
          f"{a.nworld} worlds)")
    return res


def section_h(a, bare: dict | None) -> dict:
    """The host's fold of one chunk's samples for a.nworld worlds (envs/core/warp_batch._fold), no device."""
    from gaittwin.core.engines import runs, warp_engine as we
    from gaittwin.core.engines.warp_batch import _fold
    r, chunk = Crawler(omega=OMEGA_A), 1000
    m = r.model()
    nsens, stride = m.nsensordata, r.steps_per_cycle // r.samples_per_cycle
    out = np.random.default_rng(0).normal(size=(a.nworld, chunk // stride + 1, nsens + we.HEALTH)).astype(np.float32)
    out[:, :, nsens + 2:] = 0.0                               # healthy: no non-finite, no overflow
    slots = [runs.Slot(i, r, m) for i in range(a.nworld)]
    ts = []
    for _ in range(4):
        t = time.perf_counter()
        for k, sl in enumerate(slots):
            _fold(sl, out[k, :len(runs.sampled_steps(sl, chunk, 10**6))], nsens, chunk, 10**6, 3, True, {})
        ts.append(time.perf_counter() - t)
    ns = float(np.median(ts)) / (a.nworld * chunk) * 1e9
    res = dict(host_ns_per_world_step=ns, host_ms_per_chunk=float(np.median(ts)) * 1e3, nworld=a.nworld, chunk=chunk)
    line = f"(h) host fold {ns:.1f} ns per world-step ({res['host_ms_per_chunk']:.0f} ms a {chunk}-step chunk, {a.nworld} worlds)"
    if bare:
        res["bare_ns_per_world_step"] = 1e9 / bare["bare_steps_s"]
        res["ratio_host_bare"] = ns / res["bare_ns_per_world_step"]
        line += f"; bare step {res['bare_ns_per_world_step']:.1f} ns per world-step: host/bare = {res['ratio_host_bare']:.2f}"
    print(line)
    return res


def section_b(a, dev: str) -> dict:
    pts = [dict(omega=float(w), psi_deg=float(p))
           for w in np.linspace(a.map_omega_min, 16.0, a.map_n) for p in np.linspace(0.0, 180.0, a.map_n)]
    robots = [Crawler(**p) for p in pts]
    t0, done, last = time.perf_counter(), [0], [0.0]
    state = dict(points=len(pts), omega_min=a.map_omega_min, cycles=a.map_cycles, stop_when_steady=True,
                 finished=0, wall_s=None, engine=a.map_engine)

    record(a.summary, "b_fig6_map", dict(state, elapsed_s=0.0))

    def on_result(i, run):
        done[0] += 1
        now = time.perf_counter() - t0
        if now - last[0] > 5 or done[0] == len(pts):
            last[0] = now
            record(a.summary, "b_fig6_map", dict(state, finished=done[0], elapsed_s=now))

    batch.run_points(robots, Crawler, cycles=a.map_cycles, min_cycles=min(3, a.map_cycles), stop_when_steady=True,
                     engine=a.map_engine, device=dev, nthread=a.threads,
                     nworld=min(len(pts), a.nworld), on_result=on_result)
    wall = time.perf_counter() - t0
    res = dict(state, finished=len(pts), wall_s=wall, nworld=min(len(pts), a.nworld))
    print(f"(b) Fig. 6 map on engine={a.map_engine}: {a.map_n}x{a.map_n} points (omega {a.map_omega_min:g}-16 rad/s), {a.map_cycles} "
          f"cycles, stop when steady: {wall:.1f} s "
          f"(measured end to end)")
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sections", nargs="*", default=["a", "c", "h", "b"], choices=["a", "b", "c", "h"])
    ap.add_argument("--device", default=None, help="Warp device (default: cuda if usable, else cpu)")
    ap.add_argument("--nworld", type=int, default=None, help="worlds (default 16384 on cuda, 8 on cpu)")
    ap.add_argument("--cycles", type=int, default=10, help="section a's cycles per point (default 10)")
    ap.add_argument("--cpu-points", type=int, default=None, help="section a's C subset (default 16 x threads)")
    ap.add_argument("--threads", type=int, default=None, help="C runner threads (default: every core)")
    ap.add_argument("--bare-steps", type=int, default=500, help="section c's timed steps (default 500)")
    ap.add_argument("--map-n", type=int, default=40, help="section b's map size (default 40 x 40)")
    ap.add_argument("--map-cycles", type=int, default=10, help="section b's cycles (default 10, the paper's)")
    ap.add_argument("--map-engine", default="warp", choices=["warp", "auto"],
                    help="section b's engine (auto: the longest points on the C threads, envs/core/engines/auto_split.py)")
    ap.add_argument("--map-omega-min", type=float, default=0.3, help="section b's lowest omega (default 0.3 rad/s)")
    ap.add_argument("--summary", default=None, help="JSON file the sections are written into as they finish")
    ap.add_argument("--warp-log", action="store_true",
                    help="Warp's init and module compile/load lines (quiet otherwise)")
    ap.add_argument("--quick", action="store_true", help="tiny sizes (Warp's CPU device): 4 worlds, 1 cycle, "
                                                         "a 2x2 map at omega 12-16, 1 cycle")
    a = ap.parse_args(argv)
    if not 0.3 <= a.map_omega_min <= 16.0:
        print(f"error: --map-omega-min={a.map_omega_min}: allowed range [0.3, 16] rad/s", file=sys.stderr)
        return 2
    from gaittwin.core.engines import warp_engine
    warp_engine.check_installed()
    dev = warp_engine.device(a.device)
    if a.warp_log:
        from gaittwin.core.engines.warp_law import quiet
        quiet(False)
    cuda = dev.startswith("cuda")
    if a.quick:
        a.nworld, a.cycles, a.bare_steps, a.map_n, a.map_cycles, a.map_omega_min = \
            4 if a.nworld is None else a.nworld, 1, 50, 2, 1, 12.0
    a.nworld = (16384 if cuda else 8) if a.nworld is None else a.nworld
    a.cpu_points = 16 * (a.threads or batch.available_cores()) if a.cpu_points is None else a.cpu_points
    for k, v in (("nworld", a.nworld), ("cycles", a.cycles), ("map_n", a.map_n), ("cpu_points", a.cpu_points),
                 ("map_cycles", a.map_cycles), ("bare_steps", a.bare_steps)):
        if v < 1:
            print(f"error: --{k.replace('_', '-')}={v}: allowed range >= 1", file=sys.stderr)
            return 2
    record(a.summary, "bench_device", dict(device=dev, versions=warp_engine.versions()))
    sweep = bare = None
    for s in a.sections:
        t = time.perf_counter()
        if s == "a":
            sweep = res = section_a(a, dev)
        elif s == "c":
            res = bare = section_c(a, dev, sweep)
        elif s == "h":
            res = section_h(a, bare)
        else:
            res = section_b(a, dev)
        res["section_wall_s"] = time.perf_counter() - t
        record(a.summary, {"a": "a_homogeneous", "b": "b_fig6_map", "c": "c_sweep_vs_bare", "h": "h_host_fold"}[s], res)
        print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in res.items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
