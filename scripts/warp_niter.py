#!/usr/bin/env python
"""MuJoCo Warp's constraint-solver iterations (`Data.solver_niter`) across the crawler's omega range:
does the crawler's contact recipe (elliptic cone, impratio 100, noslip 10) in float32 at tolerance
1e-6 stop before the iteration cap (`opt.iterations`), or run to it (MuJoCo Warp warned "solver iterations
limit reached" on the H100; 2.9 iterations on average at omega 1 on Warp's CPU device)?

Per omega (and psi): the C engine runs the point to --windows evenly spaced phases of its second cycle (past
the start), each window's state is put into MuJoCo Warp and stepped --steps steps with the point's
own inputs (eq. 5), reading solver_niter after every step.  Printed per omega: mean, max and the
fraction of steps at the cap; the last line is machine-readable (key=value), --summary writes JSON.
Fig. 6's map also sweeps psi (0-180 deg): --psi-deg adds its values (default: the robot's 20 deg).

  python scripts/warp_niter.py [--device cpu|cuda] [--omega 0.3 1 4 8 16] [--psi-deg 20] [--steps 200]
                               [--windows 4] [--mu 0.172] [--summary FILE] [--quick]
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import _cli  # noqa: F401  (GL backend chosen before MuJoCo)
import mujoco
import numpy as np

from gaittwin.crawler.robot import Crawler

OMEGAS = (0.3, 1.0, 4.0, 8.0, 16.0)     # Fig. 6's range, rad/s


def count(omega: float, mu: float, steps: int, windows: int, dev: str, psi_deg: float = 20.0) -> dict:
    """solver_niter of MuJoCo Warp over `windows` windows of `steps` steps in the point's second cycle."""
    import mujoco_warp as mjw
    import warp as wp
    r = Crawler(omega=omega, mu=mu, psi_deg=psi_deg)
    m = r.model()
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, r.initial_state(m), mujoco.mjtState.mjSTATE_INTEGRATION)
    n = r.steps_per_cycle
    starts = [n + (k * n) // windows for k in range(windows)]
    ctrl = r.controls(np.arange(starts[-1] + steps + 1) * r.timestep)
    niter, at = [], 0
    with wp.ScopedDevice(dev):
        M = mjw.put_model(m)
        for s in starts:
            while at < s:                                  # the C engine to the window's start
                d.ctrl[:] = ctrl[at]
                mujoco.mj_step(m, d)
                at += 1
            D = mjw.put_data(m, d, nworld=1, nconmax=max(64, 4 * (m.npair + m.ngeom)))
            for k in range(steps):
                D.ctrl.assign(ctrl[s + k][None].astype(np.float32))
                mjw.step(M, D)
                niter.append(int(D.solver_niter.numpy()[0]))
    a = np.array(niter)
    cap = int(m.opt.iterations)
    return dict(omega=omega, psi_deg=psi_deg, mean=float(a.mean()), max=int(a.max()), at_cap=float((a >= cap).mean()), cap=cap,
                steps=len(a), steps_per_cycle=n)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default=None, help="Warp device (default: cuda if usable, else cpu)")
    ap.add_argument("--omega", type=float, nargs="+", default=list(OMEGAS))
    ap.add_argument("--psi-deg", type=float, nargs="+", default=[20.0], help="psi values (deg), each with every omega")
    ap.add_argument("--mu", type=float, default=0.172)
    ap.add_argument("--steps", type=int, default=200, help="steps per window (>= 1)")
    ap.add_argument("--windows", type=int, default=4, help="windows per omega, spread over its second cycle (>= 1)")
    ap.add_argument("--summary", default=None, help="JSON file to write the counts into")
    ap.add_argument("--quick", action="store_true", help="omega 1 and 16, 2 windows of 20 steps (CI-sized)")
    a = ap.parse_args(argv)
    for name, v in (("--steps", a.steps), ("--windows", a.windows)):
        if v < 1:
            print(f"error: {name} {v}: an integer >= 1", file=sys.stderr)
            return 2
    if any(not 0.3 <= w <= 16.0 for w in a.omega):
        print(f"error: --omega {a.omega}: values in [0.3, 16] rad/s (Fig. 6's range)", file=sys.stderr)
        return 2
    from gaittwin.core.engines import warp_engine
    from gaittwin.core.model.errors import ConfigError
    try:                                   # the crawler's own parameter checks (psi_deg, mu), the device
        [Crawler(omega=w, mu=a.mu, psi_deg=p) for w in a.omega for p in a.psi_deg]
        dev = warp_engine.device(a.device)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.quick:
        a.omega, a.steps, a.windows = [1.0, 16.0], 20, 2
    print(f"device {dev}; crawler mu {a.mu:g}; {a.windows} windows x {a.steps} steps per point in its second cycle")
    print("| omega (rad/s) | psi (deg) | mean solver_niter | max | at the cap | cap | steps |\n|---|---|---|---|---|---|---|")
    rows, t0 = [], time.perf_counter()
    for psi in a.psi_deg:
        for w in a.omega:
            c = count(w, a.mu, a.steps, a.windows, dev, psi)
            rows.append(c)
            print(f"| {w:g} | {psi:g} | {c['mean']:.2f} | {c['max']} | {c['at_cap']:.1%} | {c['cap']} | {c['steps']} |")
    out = dict(device=dev, mu=a.mu, rows=rows, wall_s=time.perf_counter() - t0)
    if a.summary:
        pathlib.Path(a.summary).write_text(json.dumps(out, indent=1))
    a_max = max(r["at_cap"] for r in rows)
    print(f"niter mean={np.mean([r['mean'] for r in rows]):.2f} max={max(r['max'] for r in rows)} "
          f"at_cap_max={a_max:.3f} points={len(rows)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
