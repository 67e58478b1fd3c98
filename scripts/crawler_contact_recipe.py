#!/usr/bin/env python
"""Measure the crawler contact recipe: S(omega) vs timestep, cone, impratio and noslip.

Prints one table (mm) per variant against the finest timestep and the
quasi-static ideal stride; the numbers behind models/crawler/README.md.

  python scripts/crawler_contact_recipe.py [--quick]
"""
from __future__ import annotations

import argparse
import sys
import time

import _cli  # noqa: F401  (puts the repo on sys.path)
import mujoco
import numpy as np

from envs.core import batch
from envs.crawler.robot import Crawler, ideal_stride

OMEGAS = [0.3, 1.0, 2.0, 3.2, 5.1, 8.0, 12.0, 16.0]


def variant(cone=None, noslip=None, lateral=True):
    """A Crawler whose spec is edited for one recipe variant (for measurement only)."""

    class Variant(Crawler):
        def spec(self):
            s = super().spec()
            if cone is not None:
                s.option.cone = cone
            if noslip is not None:
                s.option.noslip_iterations = noslip
            if not lateral:   # without the passive lateral slide noslip has no effect (measured)
                s.delete(s.joint("lateral"))
            return s

        def model_key(self):
            return super().model_key() + (cone, noslip, lateral)

    return Variant


def measure(cls, omegas, **params):
    runs = batch.run_points([dict(omega=w, **params) for w in omegas], cls, cycles=20,
                            stop_when_steady=True)
    return np.array([r.robot.summarize(r)["S"] for r in runs])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer variants")
    args = ap.parse_args(argv)
    omegas = OMEGAS
    print("ideal quasi-static stride (mm):", f"{1e3 * ideal_stride(Crawler(omega=0.3).inputs, 0.187, 0.17):.2f}")
    print("omega (rad/s):          " + " ".join(f"{w:7.1f}" for w in omegas))
    t0 = time.perf_counter()
    ref = measure(Crawler, omegas, timestep=2.5e-5)
    print(f"{'dt=2.5e-5 (reference)':24s}" + " ".join(f"{1e3 * s:7.2f}" for s in ref))
    rows = [("dt=5e-5", Crawler, dict(timestep=5e-5)),
            ("dt=1e-4", Crawler, dict(timestep=1e-4)),
            ("dt=2e-4 (default)", Crawler, dict()),
            ("dt=5e-4", Crawler, dict(timestep=5e-4))]
    rows_no_noslip = [("dt=1e-4, no noslip", variant(noslip=0), dict(timestep=1e-4))]
    if not args.quick:
        rows += rows_no_noslip + [("impratio=10", Crawler, dict(impratio=10.0)),
                 ("impratio=1", Crawler, dict(impratio=1.0)),
                 ("pyramidal, impratio=1", variant(cone=mujoco.mjtCone.mjCONE_PYRAMIDAL, noslip=0),
                  dict(impratio=1.0)),
                 ("no noslip", variant(noslip=0), dict()),
                 ("no lateral slide", variant(lateral=False), dict()),
                 ("no lateral, no noslip", variant(noslip=0, lateral=False), dict())]
    for name, cls, kw in rows:
        S = measure(cls, omegas, **kw)
        print(f"{name:24s}" + " ".join(f"{1e3 * s:7.2f}" for s in S)
              + f"   max|dS| {1e3 * np.max(np.abs(S - ref)):.2f} mm")
    print(f"wall {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
