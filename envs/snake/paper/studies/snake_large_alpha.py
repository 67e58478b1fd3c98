#!/usr/bin/env python
"""Why the snake twin loses more at the largest alpha (n = 5, fidelity row S2.5.trend).

One period per point on the calibrated floor (mu, T_step: envs/snake/paper/calibration.py), alpha 30/45/58 deg, and
one change at a time: the step time doubled, a 10x stiffer servo, half the section mass, 1.5x the friction.
Prints per point the loss (d - Delta x)/d, Delta x, d, the servo's largest tracking error and the lowest
section clearance (negative: inside the floor).  About 2 min on 2 cores.  Findings: models/snake/README.md
("Loss at large alpha").
"""
from __future__ import annotations

import argparse
import sys

from ....core.engines import batch
from .. import calibration as cal
from ...robot import Snake


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=5)
    ap.add_argument("--cycles", type=int, default=1)
    a = ap.parse_args(argv)
    base = {k: cal.fitted()[k] for k in ("mu", "T_step")}
    variants = {"calibrated": {}, "T_step x2": {"T_step": 2 * base["T_step"]}, "kp, kv x10": {"kp": 2e4, "kv": 60.0},
                "m x0.5": {"m": 0.11}, "mu x1.5": {"mu": 1.5 * base["mu"]}}
    print(f"n = {a.n}, calibrated {base}, {a.cycles} period(s) per point")
    print("| change | alpha [deg] | loss [%] | Delta x [mm] | d [mm] | tracking error [deg] | min clearance [mm] |")
    print("|---|---|---|---|---|---|---|")
    for name, v in variants.items():
        rs = [Snake(**{**base, **v, "n": a.n, "alpha_deg": al}) for al in (30.0, 45.0, 58.0)]
        for r, run in zip(rs, batch.run_points(rs, Snake, cycles=a.cycles, stop_when_steady=False)):
            s = r.summarize(run)
            print(f"| {name} | {r.cfg['alpha_deg']:g} | {100 * s['loss']:.2f} | {1e3 * s['dx']:.1f} | {1e3 * s['d']:.1f} | "
                  f"{s['tracking_error_deg']:.3f} | {1e3 * s['clearance_min']:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
