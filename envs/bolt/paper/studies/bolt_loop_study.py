#!/usr/bin/env python
"""Measure the BOLT loop-closure recipe: loop gap and speed per crank period vs the settings.

The two `connect` equalities that close BOLT's loops are soft (MuJoCo's solref/solimp):
their gap grows with the loads through the loops, i.e. with the crank rate and the
impacts.  This prints

  1. the max loop gap (mm, every step of the run, start-up included) and the running
     speed (m/s) at each crank period of the speed sweep for each setting (time step,
     solref time constant, solimp d_min/d_max, integrator);
  2. a time-step convergence table: the chosen impedance with the time constant tied to
     the step (2 dt), and with it fixed, for dt = 0.2 ... 0.025 ms, and the speed change
     against the finest step.

The numbers behind models/bolt/README.md ("Loop closure").

  python -m gaittwin.bolt.paper.studies.bolt_loop_study [--quick] [--cycles N] [key=value ...]

key=value pairs are Bolt parameters applied to every run (e.g. mass_set=hardware).
"""
from __future__ import annotations

import argparse
import time

import mujoco
import numpy as np
import yaml

from ....core.engines import batch
from ...robot import Bolt
from ....core.model.paths import experiment_files

SWEEP = experiment_files()["bolt_speed_sweep"]
REGULAR = 0.2   # s: crank periods from which the ground gait is period-1 (speed comparable across settings)


def periods() -> list[float]:
    return [float(T) for T in yaml.safe_load(SWEEP.read_text())["sweep"]["crank_period"]]


def variant(integrator=None):
    """Bolt with another integrator (for measurement only)."""
    if integrator is None:
        return Bolt

    class Variant(Bolt):
        def spec(self):
            s = super().spec()
            s.option.integrator = integrator
            return s

        def model_key(self):
            return super().model_key() + (int(integrator),)

    return Variant


def measure(cls, Ts, cycles, **params):
    """(gap mm, speed m/s, error) per crank period."""
    runs = batch.run_points([dict(crank_period=T, **params) for T in Ts], cls, cycles=cycles)
    out = []
    for run in runs:
        if run.error:
            out.append((np.nan, np.nan, run.error))
            continue
        s = run.robot.summarize(run)
        out.append((1e3 * s["max_loop_gap"], s["speed"], None))
    return out


def setting(dt, tc, dmin, dmax):
    return dict(timestep=dt, loop_timeconst=tc, loop_dmin=dmin, loop_dmax=dmax)


def cell(g, v, err):
    return f"{'ERR':>11s}" if err else f"{g:6.3f}/{v:4.2f}"


def table(title, rows, Ts, cycles, base, ref=None):
    print(f"\n{title}")
    print("cells: max loop gap [mm] / speed [m/s]; 'max' = worst gap over the periods")
    if ref:
        print(f"|dv|: speed change [m/s] against '{ref}', max over the crank periods >= {REGULAR:g} s "
              f"(one touch-down per revolution) and over all (the faster gaits are irregular)")
    print(f"{'setting':34s}" + "".join(f"{T:>12g}" for T in Ts) + f"{'max':>8s}"
          + (f"{'|dv|>=' + format(REGULAR, 'g'):>9s}{'|dv|all':>9s}" if ref else "") + f"{'wall':>7s}")
    results = {}
    for name, cls, kw in rows:
        t0 = time.perf_counter()
        res = measure(cls, Ts, cycles, **{**base, **kw})
        results[name] = res
        gaps = [g for g, _, e in res if not e]
        line = f"{name:34s}" + "".join(f"{cell(*r):>12s}" for r in res) + f"{max(gaps) if gaps else np.nan:8.3f}"
        if ref:
            rv = results.get(ref) or res
            dv = [(Ts[i], abs(v - rv[i][1])) for i, (_, v, e) in enumerate(res) if not e and not rv[i][2]]
            slow = [x for T, x in dv if T >= REGULAR]
            line += f"{max(slow) if slow else np.nan:9.3f}{max(x for _, x in dv) if dv else np.nan:9.3f}"
        print(line + f"{time.perf_counter() - t0:6.0f}s", flush=True)
        errs = [f"{Ts[i]:g} s: {e}" for i, (_, _, e) in enumerate(res) if e]
        if errs:
            print("    errors: " + "; ".join(errs))
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer settings, periods and strides")
    ap.add_argument("--cycles", type=int, default=15, help="crank revolutions per run (default 15)")
    args, extra = ap.parse_known_args(argv)
    base = {k: yaml.safe_load(v) for k, v in (a.split("=", 1) for a in extra)}
    Ts = periods()
    cycles = args.cycles
    if args.quick:
        Ts, cycles = [0.6, 0.3, 0.15, 0.1], min(cycles, 6)
    d = Bolt(**base).p
    print(f"BOLT loop study: crank periods {Ts} s, {cycles} revolutions each, from rest; "
          f"chosen: dt {d['timestep'] * 1e3:g} ms, loop solref {d['loop_timeconst'] * 1e3:g} ms, "
          f"solimp {d['loop_dmin']:g}/{d['loop_dmax']:g}; limit max_loop_gap {Bolt.max_loop_gap * 1e3:g} mm"
          + (f"; parameters {base}" if base else ""))
    t0 = time.perf_counter()
    imp = mujoco.mjtIntegrator
    rows = [("old: dt .2, tc 2, d .95/.99", Bolt, setting(2e-4, 2e-3, 0.95, 0.99)),
            ("dt .2, tc 1, d .95/.99", Bolt, setting(2e-4, 1e-3, 0.95, 0.99)),
            ("dt .2, tc .4, d .95/.99", Bolt, setting(2e-4, 4e-4, 0.95, 0.99)),
            ("dt .2, tc .4, d .99/.999", Bolt, setting(2e-4, 4e-4, 0.99, 0.999)),
            ("dt .2, tc 2, d .999/.9999", Bolt, setting(2e-4, 2e-3, 0.999, 0.9999)),
            ("dt .1, tc .2, d .95/.99", Bolt, setting(1e-4, 2e-4, 0.95, 0.99)),
            ("dt .1, tc .2, d .99/.999 (chosen)", Bolt, setting(1e-4, 2e-4, 0.99, 0.999)),
            ("dt .1, tc .2, d .999/.9999", Bolt, setting(1e-4, 2e-4, 0.999, 0.9999)),
            ("dt .1, tc .4, d .99/.999", Bolt, setting(1e-4, 4e-4, 0.99, 0.999)),
            ("  same, Euler", variant(imp.mjINT_EULER), setting(1e-4, 2e-4, 0.99, 0.999)),
            ("  same, implicit", variant(imp.mjINT_IMPLICIT), setting(1e-4, 2e-4, 0.99, 0.999)),
            ("  same, RK4", variant(imp.mjINT_RK4), setting(1e-4, 2e-4, 0.99, 0.999))]
    if args.quick:
        rows = [rows[0], rows[3], rows[6]]
    table("1. Settings (dt and solref time constant tc in ms; solimp d_min/d_max; implicitfast unless named)",
          rows, Ts, cycles, base)
    conv = [("tc = 2 dt: dt .025, tc .05", Bolt, setting(2.5e-5, 5e-5, 0.99, 0.999)),
            ("tc = 2 dt: dt .05, tc .1", Bolt, setting(5e-5, 1e-4, 0.99, 0.999)),
            ("tc = 2 dt: dt .1, tc .2 (chosen)", Bolt, setting(1e-4, 2e-4, 0.99, 0.999)),
            ("tc = 2 dt: dt .2, tc .4", Bolt, setting(2e-4, 4e-4, 0.99, 0.999)),
            ("tc .2 fixed: dt .025", Bolt, setting(2.5e-5, 2e-4, 0.99, 0.999)),
            ("tc .2 fixed: dt .05", Bolt, setting(5e-5, 2e-4, 0.99, 0.999))]
    if args.quick:
        conv = [conv[1], conv[2]]
    table("2. Time-step convergence (d .99/.999; speed change against the finest step, first row)",
          conv, Ts, cycles, base, ref=conv[0][0])
    print(f"\nwall {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
