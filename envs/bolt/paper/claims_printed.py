"""BOLT's B6p: speed against the *measured* stride time, the twin against the paper's own model run under Sec. 5.1's
rules as printed (engine=paper, paper.rules=printed: lift-off at a set leg angle, eq. 20 tracking a constant-speed crank
that waits at the attack angle, so the stride time is an outcome; docs/notes/2026-11-28-bolt-printed-rules.md).

The paper model runs bolt_speed_sweep (engine=paper) with the printed rules at each crank period; at every healthy
point with a measured stride time, the twin's speed at that stride time (its own bolt_speed_sweep, speed against
its measured stride time at its points of one touch-down per revolution, linear between them; outside: NaN) is compared with the paper model's.  The
crank period is an input of both sweeps, never picked to match a speed.  The zero-force rules' curve (the committed
reference, models/bolt/paper_reference.csv) is drawn beside it.

Kind: consistency.  The twin against a reference derived from the paper (its Sec. 4-5 model under its printed Sec.
5.1 rules, run by the project), nothing fitted to it; no printed paper number is the target (the paper's stride
time is withheld, B8; its 1.3 m/s is B6's), so by the report's rule it is not `validation` (as B6c/B6d).  Its
open inputs (the lift-off angle: the option's default, the mirror of the leg angle at the attack angle; the crank
speed; K_P, K_D) are the study's (gaittwin.bolt.paper.studies.bolt_printed_rules), not chosen against this row."""
from __future__ import annotations

import math

import numpy as np

from . import plots
from .claims_coulomb import TOL_SPEED
from .studies.bolt_printed_rules import REFERENCE, read
from ...core.report.report import CONSISTENCY, Context, Row, fmt

PAPER = {"B6p": ("Sec. 5.1 (the paper's model under its printed rules, run by the project)",
                 "no number: the paper's own model's speed at its measured stride time")}

PERIODS = [0.3, 0.25, 0.2, 0.15]   # full report (a printed-rules run is minutes on 2 cores)
REDUCED_PERIODS = [0.2]
TWIN_PERIODS = [0.6, 0.5, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.12, 0.1]
PRINTED = {"engine": "paper", "paper.rules": "printed", "paper.foot": "pinned", "robot.bumper_height": None}
# the tolerance, stated before any value was computed: the project's twin-vs-paper-model speed target (B6c's)
TOL = TOL_SPEED


def measured(rows) -> list[dict]:
    """The rows with a healthy run and a measured stride time, sorted by it."""
    ok = [r for r in rows if not r.get("error") and r.get("stride_time") == r.get("stride_time")
          and r.get("speed") == r.get("speed")]
    return sorted(ok, key=lambda r: float(r["stride_time"]))


def twin_curve(twin_rows) -> list[dict]:
    """The twin's speed-vs-stride-time curve: its healthy points of BOLT's gait, one touch-down per crank revolution
    (within B5's 0.05), where stride time and speed are one function (a point of two revolutions a touch-down
    lies on another branch: at 0.15 s the twin's stride is 0.30 s, as at 0.3 s, at 1.8x the speed)."""
    return [r for r in measured(twin_rows) if abs(float(r["touchdowns_per_revolution"]) - 1.0) <= 0.05]


def twin_at(twin_rows, stride_time: float) -> float:
    """The twin's speed at `stride_time` (its `twin_curve`, linear between its points; NaN outside them)."""
    tw = twin_curve(twin_rows)
    x = np.array([float(r["stride_time"]) for r in tw])
    if len(x) < 2 or not x[0] <= stride_time <= x[-1]:
        return math.nan
    return float(np.interp(stride_time, x, [float(r["speed"]) for r in tw]))


def printed_row(paper_rows, twin_rows, reduced: bool) -> Row:
    """B6p from the printed-rules sweep's and the twin's results rows."""
    pts = measured(paper_rows)
    v = [twin_at(twin_rows, float(r["stride_time"])) for r in pts]
    ref = [float(r["speed"]) for r in pts]
    bad = [f"{fmt(r['crank_period'])} s: {r.get('error') or 'no measured stride time'}" for r in paper_rows
           if r not in pts]
    where = lambda r: f"{fmt(float(r['stride_time']) * 1e3)} ms ({fmt(r['crank_period'])} s)"   # noqa: E731
    return Row("B6p", "running speed at the paper model's measured stride time, twin (bolt_speed_sweep, interpolated "
                      "in its measured stride time) against the paper's own model under Sec. 5.1's printed rules "
                      "(engine=paper, paper.rules=printed, pinned foot, no bumper)" +
               (" (reduced report: crank period 0.2 s only)" if reduced else ""), *PAPER["B6p"], kind=CONSISTENCY,
               twin=", ".join(f"{where(r)}: {fmt(x)}" for r, x in zip(pts, v)) or "nothing compared",
               value=v if pts else None, ref=ref if pts else None, tol=TOL, unit="m/s",
               reference="paper model, printed rules: " + (", ".join(
                   f"{where(r)}: {fmt(x)}{'' if r.get('steady') in (True, 'True', 1) else ' (not steady)'}"
                   for r, x in zip(pts, ref)) or "nothing compared"),
               reason="the twin against a reference derived from the paper (its model under its printed rules), no "
                      "printed paper number as target (the paper's stride time is withheld, B8), so consistency (as "
                      "B6c); crank periods are inputs of both sweeps, never picked to match a speed; the lift-off "
                      "angle is the option's default (the mirror of the leg angle at the attack angle q_1 = 0), "
                      "K_P 300, K_D 2 assumed (docs/notes/2026-11-28-bolt-printed-rules.md)" +
                      (f"; left out: {'; '.join(bad)}" if bad else "") + (
                          "" if pts else "; no data: the paper model under the printed rules gives no point with a "
                                         "measured stride time, so nothing is compared (neither agrees nor disagrees)"))


def claims_bolt_printed(ctx: Context) -> list[Row]:
    """B6p: bolt_speed_sweep under the printed rules (engine=paper) and the twin's bolt_speed_sweep; the plot with
    the zero-force reference beside them."""
    periods = ctx.g(PERIODS, REDUCED_PERIODS)
    pr, out = ctx.run("bolt_speed_sweep", "bolt_speed_sweep_paper_printed", dict(PRINTED, **{"run.cycles": 6}),
                      {"crank_period": periods})
    tw, _ = ctx.run("bolt_speed_sweep", "bolt_speed_sweep_stride", {"run.cycles": ctx.g(30, 10)},
                    {"crank_period": ctx.g(TWIN_PERIODS, [0.3, 0.25, 0.2, 0.15])})
    paper_rows = [dict(r, rule_set="printed (no bumper, pinned foot)") for r in pr.table("results.csv")]
    zero = [dict(r, rule_set="zero_force (reference: bumper, Coulomb foot)") for r in read([REFERENCE])]
    png = out / "speed_vs_stride_time.png"
    twin_rows = tw.table("results.csv")
    gait = twin_curve(twin_rows)
    plots.speed_vs_stride_time(paper_rows + zero, gait, png, twin_off_gait=[r for r in twin_rows if r not in gait])
    ctx.plot(png, "bolt_speed_vs_stride_time.png", "BOLT: speed against the measured stride time, twin and paper model "
                                                   "(printed and zero-force rules)")
    return [printed_row(paper_rows, twin_rows, ctx.reduced)]
