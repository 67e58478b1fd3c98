#!/usr/bin/env python
"""What the die spring and the rubber pad do to BOLT's impact forces (README "Compliance").

For each variant -- rigid foot (the paper's model), die spring only, pad only, both --
and each crank period: the impact force (median over the steady strides of each
stride's peak foot force, every step), the run's peak foot force, the spring's
largest compression, speed and loop gap.  Also the static check: the leg standing
still on its foot, the spring's compression and the pad's deflection against
weight / stiffness.

  python -m gaittwin.bolt.paper.studies.bolt_compliance [--quick] [--cycles N] [key=value ...]
"""
from __future__ import annotations

import argparse
import math
import time

import yaml

from ....core.engines import batch
from ... import robot as bolt_robot
from ...robot import Bolt

SPRING = 65000.0    # N/m, Sec. 2.1
PAD = 2.3e5         # N/m, README "Compliance" (estimate)
RIGID = 2e-4        # s: contact time constant of a rigid foot (2 time steps: as stiff as MuJoCo allows)
VARIANTS = [("rigid contact (tc .2 ms)", dict(contact_timeconst=RIGID)),
            ("default contact (tc 1 ms)", {}),
            ("earlier contact (tc 5 ms)", dict(contact_timeconst=5e-3)),
            ("die spring, rigid", dict(spring_stiffness=SPRING, contact_timeconst=RIGID)),
            ("rubber pad", dict(pad_stiffness=PAD)),
            ("spring + pad", dict(spring_stiffness=SPRING, pad_stiffness=PAD))]


def standing(**params) -> dict:
    """Foot force, spring compression and pad deflection of the leg standing still for 1.5 s."""
    r, m, d = bolt_robot.standing(1.5, **params)
    force = float(r.sensor(d.sensordata, m, "foot_touch")[0])
    pad = float(-d.joint("pad").qpos[0]) if r.p.pad_stiffness else float(r.p.foot_radius - r.sensor(d.sensordata, m, "F_pos")[2])
    spring = float(-d.joint("spring").qpos[0]) if r.p.spring_stiffness else 0.0
    return dict(force=force, weight=r.total_mass * 9.81, pad=pad, spring=spring)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer crank periods and strides")
    ap.add_argument("--cycles", type=int, default=20)
    args, extra = ap.parse_known_args(argv)
    base = {k: yaml.safe_load(v) for k, v in (a.split("=", 1) for a in extra)}
    Ts = [0.3, 0.15] if args.quick else [0.6, 0.4, 0.3, 0.2, 0.15, 0.1]
    cycles = min(args.cycles, 8) if args.quick else args.cycles
    t0 = time.perf_counter()
    print(f"BOLT compliance: die spring {SPRING:g} N/m (Sec. 2.1), rubber pad {PAD:g} N/m (estimate); "
          f"{cycles} revolutions from rest" + (f"; parameters {base}" if base else ""))
    print("\nStanding still (crank held at the lowest point of the stance arc, no bumper):")
    print(f"{'variant':28s}{'foot force [N]':>16s}{'weight [N]':>12s}{'spring [mm]':>13s}{'F/k [mm]':>10s}"
          f"{'pad [mm]':>10s}{'F/K [mm]':>10s}")
    for name, kw in VARIANTS:
        s = standing(**base, **kw)
        k, K = kw.get("spring_stiffness"), kw.get("pad_stiffness")
        print(f"{name:28s}{s['force']:16.1f}{s['weight']:12.1f}{s['spring'] * 1e3:13.3f}"
              f"{s['force'] / k * 1e3 if k else math.nan:10.3f}{s['pad'] * 1e3:10.3f}"
              f"{s['force'] / K * 1e3 if K else math.nan:10.3f}")
    print("\nRunning: impact force = median over the steady strides of each stride's peak foot force [N]")
    print(f"{'variant':28s}" + "".join(f"{f'T={T:g} s':>26s}" for T in Ts))
    print(f"{'':28s}" + "".join(f"{'impact/peak N, v m/s':>26s}" for _ in Ts))
    rows = {}
    for name, kw in VARIANTS:
        runs = batch.run_points([dict(base, crank_period=T, **kw) for T in Ts], Bolt, cycles=cycles)
        cells, extra_ = [], []
        for T, run in zip(Ts, runs):
            if run.error:
                cells.append(f"{'ERR':>26s}")
                continue
            r = run.robot
            s = r.summarize(run)
            rows[(name, T)] = s
            cells.append(f"{s['impact_force']:8.0f}/{s['peak_foot_force']:6.0f}, {s['speed']:4.2f}".rjust(26))
            extra_.append(f"gap {s['max_loop_gap'] * 1e3:.3f} mm"
                          + (f", spring {s['max_spring_compression'] * 1e3:.1f} mm" if "max_spring_compression" in s
                             else ""))
        print(f"{name:28s}" + "".join(cells) + "   (" + ", ".join(extra_) + ")", flush=True)
    print(f"\nwall {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
