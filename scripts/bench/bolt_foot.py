#!/usr/bin/env python
"""BOLT's feet side by side: CPU seconds per simulated second and the twin-vs-paper-model table.

For each foot (configs/robot/foot/<foot>.yaml: soft, plastic, coulomb, coulomb_implicit):
* cost: bolt_running's point (crank period --cost-period, 0.284 s) for --cost-revolutions revolutions in the C
  engine's batch runner, one thread, CPU time of this process (time.process_time), so a loaded machine slows the
  wall clock but less the number; --repeats interleaved rounds (every foot once a round), the median the reading,
  its ratio to the first foot's median printed;
* the viewer's physics loop, headless: `gaittwin view robot=bolt`'s Stepper (Bolt.feedback and mj_step every step)
  at the default point, --viewer-seconds simulated in frames of 1/60 s; its real-time factor (simulated s per
  wall s, and per CPU s: what a quiet core would give);
* the table: bolt_twin_vs_paper's setting (bumper 0.40 m, 6 revolutions from rest, metrics over the last 3) at the
  six compared crank periods against the paper model's committed run (models/bolt/paper_reference.csv), judged by
  bolt_twin_vs_paper's own `compare` with its declared tolerances (speed 10 %, duty 0.05).

    .venv/bin/python scripts/bench/bolt_foot.py [--feet soft coulomb coulomb_implicit] [--periods 0.6 ...] [--no-table] [--no-cost]
        [--cost-revolutions 20] [--repeats 5] [--viewer-seconds 1]
        [--set timestep=1.25e-5 ...] [--python-hook]

--set overrides a robot parameter for every foot after its group (a dt ladder: --set timestep=1.25e-5);
--python-hook runs the Coulomb foot's Python hook instead of the native one.  FOOT@python (the first of the default
--feet: soft@python, the soft foot as the runner stepped it before the C loop, issue 37's "today's default foot";
coulomb_implicit is the default since 2026-11-28)
runs the runner's and Stepper's Python loop (GAITTWIN_NATIVE_LOOP=0); a bare FOOT runs Bolt.native_loop where the C
library builds.  The bar of issue 37: the accurate foot (coulomb_implicit) <= 3x soft@python, read in steady state
(20 revolutions, the model compiled before the clock, the median of 5 rounds: the defaults).  Prints `uptime`'s load first.
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import statistics
import sys
import time

import yaml

from gaittwin.bolt import coulomb_foot
from gaittwin.bolt.config import TwinVsPaper
from gaittwin.bolt.paper.twin_vs_paper import compare
from gaittwin.bolt.robot import Bolt
from gaittwin.core.engines import batch
from gaittwin.core.model.paths import CONFIGS, MODELS
from gaittwin.core.model.stepper import Stepper

PERIODS = (0.6, 0.5, 0.4, 0.3, 0.25, 0.2)
CYCLES = 6   # bolt_twin_vs_paper's run.cycles


def foot_params(foot: str) -> dict:
    """The robot parameters of configs/robot/foot/<foot>.yaml (the group's overrides of bolt.yaml)."""
    cfg = yaml.safe_load((CONFIGS / "robot" / "foot" / f"{foot}.yaml").read_text()) or {}
    return {k: v for k, v in cfg.items() if k != "defaults"}


def cost(params: dict, period: float, revolutions: int) -> tuple:
    """(CPU s per simulated s, steps per revolution) of one bolt_running point."""
    r = Bolt(**dict(params, crank_period=period))
    r.model()                    # compiled (and cached) before the clock starts: the cost of stepping alone
    t0 = time.process_time()
    (run,) = batch.run_points([r], Bolt, cycles=revolutions, nthread=1, stop_when_steady=False)
    cpu = time.process_time() - t0
    if run.error:
        raise SystemExit(f"cost run failed: {run.error}")
    return cpu / (revolutions * period), r.steps_per_cycle


def viewer_rtf(params: dict, seconds: float) -> tuple:
    """(simulated s per wall s, per CPU s) of the viewer's Stepper at bolt.yaml's point with `params`."""
    step = Stepper(Bolt(**params))
    per_frame = max(1, round(1 / 60 / step.model.opt.timestep))
    step(per_frame)                                   # warm-up (the first chunk of controls)
    frames = max(1, round(seconds * 60))
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(frames):
        step(per_frame)
    sim = frames * per_frame * step.model.opt.timestep
    return sim / (time.perf_counter() - t0), sim / (time.process_time() - c0)


def reference() -> dict:
    with open(MODELS / "bolt" / "paper_reference.csv") as f:
        return {float(r["crank_period"]): {k: float(v) if k != "error" and k != "foot" and k != "method" else v
                                           for k, v in r.items()} for r in csv.DictReader(f)}


def table(params: dict, periods, ref: dict) -> list:
    robots = [Bolt(**dict(params, crank_period=T)) for T in periods]
    tol_speed, tol_duty = TwinVsPaper.speed_tolerance, TwinVsPaper.duty_tolerance
    rows = []
    for r, run in zip(robots, batch.run_points(robots, Bolt, cycles=CYCLES, nthread=1, stop_when_steady=False)):
        tw = {} if run.error else r.summarize(run)
        flagged = run.problem or (r.run_error(tw) if tw else run.error) or ""
        pa = ref[r.period]
        rows.append(dict(T=r.period, tw=tw, pa=pa, flagged=flagged, **compare(tw, pa, tol_speed, tol_duty, flagged)))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--feet", nargs="*", default=["soft@python", "soft", "coulomb", "coulomb_implicit"])
    ap.add_argument("--periods", nargs="*", type=float, default=list(PERIODS))
    ap.add_argument("--cost-period", type=float, default=0.284)
    ap.add_argument("--cost-revolutions", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=5, help="cost rounds; the median is the reading")
    ap.add_argument("--viewer-seconds", type=float, default=1.0, help="0: no viewer measurement")
    ap.add_argument("--no-table", action="store_true")
    ap.add_argument("--no-cost", action="store_true")
    ap.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE")
    ap.add_argument("--python-hook", action="store_true")
    args = ap.parse_args(argv)
    if args.python_hook:
        coulomb_foot.use_native(False)
    over = {k: yaml.safe_load(v) for k, v in (s.split("=", 1) for s in args.set)}
    print("load:", os.getloadavg(), "| hook:", coulomb_foot.backend(), flush=True)
    ref = reference()
    native = os.environ.get("GAITTWIN_NATIVE_LOOP", "1")

    def setup(spec: str) -> dict:
        foot, _, loop = spec.partition("@")        # FOOT@python: the runner's Python loop (GAITTWIN_NATIVE_LOOP=0)
        os.environ["GAITTWIN_NATIVE_LOOP"] = "0" if loop == "python" else native
        return dict(foot_params(foot), bumper_height=0.40, **over)

    if not args.no_cost:   # interleaved rounds (every foot once a round), so a drifting load hits all feet alike
        costs = {spec: [] for spec in args.feet}
        for _ in range(args.repeats):
            for spec in args.feet:
                c, spc = cost(setup(spec), args.cost_period, args.cost_revolutions)
                costs[spec].append(c)
        med = {spec: statistics.median(v) for spec, v in costs.items()}
        base = med[args.feet[0]]
        print(f"cost: CPU s per simulated s at {args.cost_period:g} s, {args.cost_revolutions} revolutions, "
              f"{args.repeats} interleaved rounds (median; each round's value in brackets); load now "
              f"{os.getloadavg()[0]:.2f}", flush=True)
        for spec, v in costs.items():
            print(f"  {spec}: {med[spec]:.3f} [{', '.join(f'{c:.3f}' for c in v)}]  {med[spec] / base:.2f}x "
                  f"{args.feet[0]}", flush=True)
    for spec in args.feet:
        params = setup(spec)
        if args.viewer_seconds > 0:
            wall, cpu = viewer_rtf({k: v for k, v in params.items() if k != "bumper_height"}, args.viewer_seconds)
            print(f"{spec}: viewer physics loop (Stepper, 60 frames/s, {args.viewer_seconds:g} s): real-time factor "
                  f"{wall:.3f} (wall), {cpu:.3f} (CPU)", flush=True)
        if args.no_table:
            continue
        print(f"{spec}: twin / paper model, speed [m/s] / duty (error: % of the paper speed, duty); tolerances "
              f"stated first: speed 10 %, duty 0.05", flush=True)
        rows = table(params, args.periods, ref)
        for row in rows:
            tw, pa = row["tw"], row["pa"]
            print(f"  {row['T']:5g} s | {tw.get('speed', math.nan):.3f} / {tw.get('duty_factor', math.nan):.4f} "
                  f"(td/rev {tw.get('touchdowns_per_revolution', math.nan):.2f}) | {pa['speed']:.3f} / "
                  f"{pa['duty_factor']:.4f} | {100 * row['speed_rel_diff']:+.1f} %, {row['duty_diff']:+.4f} | "
                  f"{'within' if row['within_target'] else 'MISS'}{' ' + row['flagged'] if row['flagged'] else ''}",
                  flush=True)
        ok = all(r["within_target"] for r in rows if r["compared"])
        print(f"{spec}: target met at {sum(r['within_target'] for r in rows)} of {len(rows)} periods"
              f"{' (all)' if ok else ''}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
