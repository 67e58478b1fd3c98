"""Why BOLT's paper model (engine=paper) runs where it runs: the foot path's two arcs in {B}, and per
crank period the paper model's and the twin's (with and without the Sec. 6.1 bumper) speed,
touch-downs per revolution and the crank angles q_1 at which the foot lands.  Prints tables; run with
nice, ~3 min on a loaded 2-core machine.  models/bolt/README.md "Paper model: why it hops backwards".

    .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_paper_diagnosis [--cycles 4] [--periods 0.2 0.3 0.6] [--foot pinned]
"""
import argparse

import numpy as np


from ...kinematics import loop_kinematics
from ..run import simulate, summarize
from ...robot import Bolt
from ....core.engines import batch


def foot_arcs(r):
    """The foot path in {B} per 30 deg of q_1: x, y (m) and which way x moves with the clockwise crank."""
    q = np.radians(np.arange(0, 360, 30))
    F = loop_kinematics(q, r.geometry)["F"]
    print("| q_1 [deg] | foot x in {B} [m] | foot y in {B} [m] |\n|---|---|---|")
    for qi, f in zip(np.degrees(q), F):
        print(f"| {qi:.0f} | {f.real:+.4f} | {f.imag:+.4f} |")


def landing_angles(t, q1, events):
    return [int(round(np.degrees(np.interp(te, t, q1)) % 360)) for te in events]


def twin(T, bumper, cycles):
    r = Bolt(crank_period=T, bumper_height=bumper)
    run = batch.run_point(r, Bolt, cycles=cycles, nthread=1)
    s = r.summarize(run)
    touch = run.sensor("foot_touch")[:, 0] > 0
    on = np.flatnonzero(touch[1:] & ~touch[:-1]) + 1
    on = on[run.t[on] >= run.t[-1] / 2]
    return s, landing_angles(run.t, run.sensor("q_1")[:, 0], run.t[on]), run.problem


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cycles", type=int, default=4)
    ap.add_argument("--periods", type=float, nargs="+", default=[0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6])
    ap.add_argument("--foot", default="pinned", choices=("pinned", "coulomb"))
    a = ap.parse_args()
    foot_arcs(Bolt(bumper_height=None))
    print("\n| crank period [s] | model | speed [m/s] | touch-downs / rev | duty | landing q_1 [deg], 2nd half | error |")
    print("|---|---|---|---|---|---|---|")
    for T in a.periods:
        run = simulate(Bolt(crank_period=T, bumper_height=None), a.cycles, foot=a.foot)
        s = summarize(run) if not run.error else {}
        td = landing_angles(run.t, run.samples["q_1"], [d["t"] for d in run.touchdowns if d["t"] >= run.t[-1] / 2])
        print(f"| {T:g} | paper ({a.foot}) | {s.get('speed', np.nan):+.3f} | {s.get('touchdowns_per_revolution', np.nan):.2f} "
              f"| {s.get('duty_factor', np.nan):.3f} | {td[:6]} | {run.error or ''} |", flush=True)
        for bumper in (None, 0.40):
            s, td, err = twin(T, bumper, 2 * a.cycles)
            print(f"| {T:g} | twin, bumper {bumper} | {s['speed']:+.3f} | {s['touchdowns_per_revolution']:.2f} "
                  f"| {s['duty_factor']:.3f} | {td[:6]} | {err or ''} |", flush=True)


if __name__ == "__main__":
    main()
