"""engine=warp against the C engine (engine=mujoco) on a small sweep of every robot: kernel compile
time, Warp steps/s and the metrics' differences, each against its stated tolerance.

    .venv/bin/python scripts/warp_agreement.py [--device cpu] [--cold] [--robots crawler snake miniaq]

--cold: a fresh Warp kernel cache (measures the first-ever compile; otherwise the cache in
~/.cache/warp makes it a load).  Needs the extra: pip install -e ".[gpu]" -c constraints.txt
"""
from __future__ import annotations

import argparse
import math
import tempfile
import time
import warnings

# Each robot's small sweep (two points that differ in a per-world model field, short periods, a few
# thousand steps: cycles x steps per cycle) and the metrics compared, with their tolerance:
# |warp - C| <= abs + rel * |C|.
SWEEPS = {   # robot: (base point, swept parameter, values, cycles)
    "crawler": (dict(omega=16.0), "mu", [0.172, 0.398], 2),        # 2 x 2000 steps
    "snake": (dict(T_step=0.25), "mu", [0.3, 0.6], 1),             # 1 x 12000 steps
    "miniaq": (dict(f=4.0), "mu_d", [0.3, 0.5], 2),                # 2 x 2600 steps
    "bolt": (dict(crank_period=0.3), "bumper_height", [None], 1),  # refused (closed_loop)
}
TOL = {   # metric: (abs, rel); float32 against float64, the same contacts: S to ~1e-6 m expected
    "S": (2e-5, 1e-3), "V": (2e-5, 1e-3),
    "foot1_slip_forward": (0.01, 0), "foot1_slip_backward": (0.01, 0), "foot1_stick": (0.01, 0),
    "foot2_slip_forward": (0.01, 0), "foot2_slip_backward": (0.01, 0), "foot2_stick": (0.01, 0),
    "foot1_liftoff": (0.01, 0), "foot2_liftoff": (0.01, 0),                 # fractions: 2 samples in 200
    "d": (2e-5, 1e-3), "dx": (2e-5, 1e-3),
    "speed": (2e-5, 1e-3), "drift_y": (2e-5, 1e-2), "yaw_rate_deg_s": (0.05, 1e-2),
    "max_loop_gap": (2e-6, 0.1), "max_penetration": (2e-6, 0.02),
}


def within(metric, c, w) -> bool:
    a, r = TOL[metric]
    return abs(w - c) <= a + r * abs(c)


def compare(robot: str, device=None, chunk=1000):
    """(rows of [robot, point, metric, C, warp, |diff|, tol, ok], compile_s, warp steps/s, C steps/s)."""
    import envs
    from envs.core import batch
    from envs.core.errors import ConfigError
    cls = envs.robot_class(robot)
    base, name, vals, cycles = SWEEPS[robot]
    pts = [dict(base, **({name: v} if v is not None else {})) for v in vals]
    kw = dict(cycles=cycles, stop_when_steady=False, chunk=chunk)
    t = time.perf_counter()
    c = batch.run_points(pts, cls, **kw)
    c_s = time.perf_counter() - t
    steps = sum(r.cycles * r.robot.steps_per_cycle for r in c)
    try:    # compile: the first step of one world (kernels compiled or loaded from the cache)
        from envs.core import warp_batch
        compile_s = warp_batch.first_step(cls(**pts[0]), device)
    except ConfigError as e:
        return [[robot, "-", "refused", "", "", "", "", str(e)]], math.nan, math.nan, steps / c_s
    t = time.perf_counter()
    w = batch.run_points(pts, cls, engine="warp", device=device, **kw)
    w_s = time.perf_counter() - t
    rows = []
    for rc, rw, p in zip(c, w, pts):
        sc, sw = rc.robot.summarize(rc), rw.robot.summarize(rw)
        sc["max_penetration"], sw["max_penetration"] = rc.max_penetration, rw.max_penetration
        for k in sc:
            if k in TOL and isinstance(sc[k], (int, float)) and sw.get(k) is not None:
                a, r = TOL[k]
                rows.append([robot, f"{name}={p.get(name)}", k, sc[k], sw[k], abs(sw[k] - sc[k]),
                             a + r * abs(sc[k]), within(k, sc[k], sw[k]) and not rw.problem])
    return rows, compile_s, steps / w_s, steps / c_s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default=None, help="Warp device (default: cuda if usable, else cpu)")
    ap.add_argument("--cold", action="store_true", help="a fresh Warp kernel cache: the first-ever compile")
    ap.add_argument("--robots", nargs="*", default=list(SWEEPS))
    a = ap.parse_args(argv)
    warnings.filterwarnings("ignore")
    import warp as wp
    wp.config.quiet = True
    if a.cold:
        wp.config.kernel_cache_dir = tempfile.mkdtemp(prefix="warp-cache-")
    from envs.core import warp_engine
    dev = warp_engine.device(a.device)
    print(f"device {dev}; sweeps and cycles in SWEEPS; tolerance |warp - C| <= abs + rel*|C| (TOL in this script)")
    bad = 0
    for robot in a.robots:
        t = time.perf_counter()
        rows, comp, wsps, csps = compare(robot, a.device)
        total = time.perf_counter() - t
        print(f"\n{robot}: warp {wsps:.0f} world-steps/s, C {csps:.0f} steps/s, first call (compile or cache "
              f"load, put_model, one step) {comp:.1f} s, total {total:.0f} s")
        print("| robot | point | metric | C engine | warp | abs diff | tolerance | ok |\n|---|---|---|---|---|---|---|---|")
        for r in rows:
            if r[2] == "refused":
                print(f"| {robot} | - | refused | | | | | {r[-1]} |")
                continue
            bad += not r[-1]
            print(f"| {robot} | {r[1]} | {r[2]} | {r[3]:.6g} | {r[4]:.6g} | {r[5]:.2g} | {r[6]:.2g} | "
                  f"{'ok' if r[-1] else 'FAIL'} |")
    print(f"\n{'all within tolerance' if not bad else f'{bad} comparisons over tolerance'}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
