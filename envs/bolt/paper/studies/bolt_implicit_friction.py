"""BOLT's Coulomb foot with friction implicit in the slip (`foot_friction=implicit`, envs/bolt/coulomb_foot.c): its
dt ladder at the six compared crank periods against the committed paper model, judged by the rule written first in
docs/notes/2026-11-28-bolt-implicit-friction.md (the law, R1 the twin-vs-paper target, R2 the dt convergence, R4
the cost; the numbers are there).

Each rung runs bolt_twin_vs_paper's setting (bumper 0.40 m, mu 1, 6 revolutions from rest, metrics over the last 3)
with the loops of --loops (candidate 1 "floor": max(5e-5 s, 2 dt), the option's robot/foot=coulomb_implicit at its
converged 1.25e-5 s; candidate 2 "4dt": 4 dt) and prints, per period, twin speed / duty, the error against
models/bolt/paper_reference.csv (`twin_vs_paper.compare`, speed 10 %, duty 0.05), the share of contact steps that
stick; then R2 for each halving (speed change <= 2 % of the paper speed, duty <= 0.01, at every period).  Rungs
coarser than the option's converged step are run by a study subclass that lifts that one bound (the loop rule
stays).

    nice -n 10 .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_implicit_friction [--loops floor|4dt]
        [--timesteps 1e-4 5e-5 2.5e-5 1.25e-5 6.25e-6] [--periods 0.6 ...] [--integrator euler] [--json OUT]
"""
import argparse
import csv
import json
import math
import os
import time

from ...config import TwinVsPaper
from ...model import COULOMB_LOOP_TIMECONST, MODEL_DIR
from ...robot import Bolt
from ..twin_vs_paper import compare
from ....core.engines import batch

PERIODS = (0.6, 0.5, 0.4, 0.3, 0.25, 0.2)
LADDER = (1e-4, 5e-5, 2.5e-5, 1.25e-5, 6.25e-6)
CYCLES = 6
TOL_STEP_SPEED, TOL_STEP_DUTY = 0.02, 0.01
RULES = ("R1: speed within 10 % of the paper model's, duty within 0.05, one touch-down per revolution, not flagged; "
         "R2: each halving moves speed <= 2 % of the paper speed and duty <= 0.01 at every period")


LOOPS = {"floor": lambda dt: max(COULOMB_LOOP_TIMECONST, 2 * dt), "4dt": lambda dt: 4 * dt}


class LadderBolt(Bolt):
    """Bolt whose implicit Coulomb foot accepts any rung of the ladder (the loops: one of LOOPS, two steps or more)."""

    def check_coulomb(self, law: str, foot: str, max_timestep: float, viewer: float | None = None) -> None:
        assert self.p.loop_timeconst >= 2 * self.p.timestep * (1 - 1e-9), (self.p.loop_timeconst, self.p.timestep)


def params(dt: float, loops: str = "floor", integrator: str = "implicitfast") -> dict:
    return dict(foot_contact="coulomb", foot_friction="implicit", timestep=dt,
                loop_timeconst=LOOPS[loops](dt), bumper_height=0.40, integrator=integrator)


def reference() -> dict:
    with open(MODEL_DIR / "paper_reference.csv") as f:
        return {float(r["crank_period"]): r for r in csv.DictReader(f)}


def judge(robots: list, cls, ref: dict) -> list:
    """One row per robot (a crank period) in bolt_twin_vs_paper's setting: twin metrics, the comparison with the
    paper model (R1) and, for a Coulomb foot, its counters."""
    rows = []
    for r, run in zip(robots, batch.run_points(robots, cls, cycles=CYCLES, nthread=1, stop_when_steady=False)):
        tw = {} if run.error else r.summarize(run)
        flagged = run.problem or (r.run_error(tw) if tw else run.error) or ""
        pa = {k: float(v) for k, v in ref[r.period].items() if k in ("speed", "duty_factor",
                                                                     "touchdowns_per_revolution")}
        foot = next(iter(r.__dict__.get("_coulomb", {}).values()), None)
        rows.append(dict(T=r.period, speed=tw.get("speed", math.nan), duty=tw.get("duty_factor", math.nan),
                         td=tw.get("touchdowns_per_revolution", math.nan), paper=pa, flagged=flagged,
                         contact_steps=getattr(foot, "contact_steps", 0), sticks=getattr(foot, "sticks", 0),
                         **compare(tw, pa, TwinVsPaper.speed_tolerance, TwinVsPaper.duty_tolerance, flagged)))
    return rows


def rung(dt: float, periods, ref: dict, loops: str = "floor", integrator: str = "implicitfast") -> list:
    """One row per period: twin metrics, the comparison and the foot's counters."""
    return judge([LadderBolt(**dict(params(dt, loops, integrator), crank_period=T)) for T in periods], LadderBolt, ref)


def print_rows(rows: list, dt: float) -> None:
    for r in rows:
        print(f"  {r['T']:5g} s | {r['speed']:.4f} / {r['duty']:.4f} (td/rev {r['td']:.2f}) | paper "
              f"{r['paper']['speed']:.4f} / {r['paper']['duty_factor']:.4f} | {100 * r['speed_rel_diff']:+.1f} %, "
              f"{r['duty_diff']:+.4f} | {'within' if r['within_target'] else 'MISS'}"
              f"{' ' + r['flagged'] if r['flagged'] else ''}"
              + (f" | stick {r['sticks']} of {r['contact_steps']} contact steps" if r["contact_steps"] else ""),
              flush=True)
    print(f"  R1 at dt {dt:g}: {sum(r['within_target'] for r in rows)} of {len(rows)} periods", flush=True)


def print_halvings(res: dict, periods) -> None:
    steps = sorted(res, reverse=True)
    for a, b in zip(steps, steps[1:]):
        cells, ok = halving(res[a], res[b])
        print(f"R2 {a:g} -> {b:g}: " + ", ".join(f"{T:g} s {dv:+.2f} %, {dd:+.4f}" for T, (dv, dd)
                                                  in zip(periods, cells)) + f" | {'holds' if ok else 'FAILS'}")


def halving(a: list, b: list) -> tuple:
    """(per-period (speed change in % of the paper speed, duty change), R2 holds at every period)."""
    out, ok = [], True
    for ra, rb in zip(a, b):
        dv = (rb["speed"] - ra["speed"]) / ra["paper"]["speed"]
        dd = rb["duty"] - ra["duty"]
        ok &= bool(not ra["flagged"] and not rb["flagged"] and abs(dv) <= TOL_STEP_SPEED and abs(dd) <= TOL_STEP_DUTY)
        out.append((100 * dv, dd))
    return out, ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timesteps", nargs="*", type=float, default=list(LADDER))
    ap.add_argument("--periods", nargs="*", type=float, default=list(PERIODS))
    ap.add_argument("--loops", choices=sorted(LOOPS), default="floor")
    ap.add_argument("--integrator", choices=("implicitfast", "euler"), default="implicitfast",
                    help="candidate 4 (docs/notes/2026-11-28-bolt-fewer-steps.md): euler")
    ap.add_argument("--json", default="")
    args = ap.parse_args(argv)
    ref = reference()
    print(RULES, flush=True)
    res = {}
    for dt in args.timesteps:
        t0, c0 = time.time(), time.process_time()
        rows = res[dt] = rung(dt, args.periods, ref, args.loops, args.integrator)
        print(f"dt {dt:g} s, loops {LOOPS[args.loops](dt):g} s, {args.integrator} ({time.process_time() - c0:.0f} CPU s, "
              f"{time.time() - t0:.0f} s wall, load {os.getloadavg()[0]:.1f})", flush=True)
        print_rows(rows, dt)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({str(k): v for k, v in res.items()}, f, indent=1)
    print_halvings(res, args.periods)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
