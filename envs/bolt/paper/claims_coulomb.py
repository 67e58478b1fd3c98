"""BOLT's B6c/B6d: the twin with the Coulomb foot (robot/foot=coulomb, models/bolt/README.md
"robot/foot=coulomb: the option") against the paper's own Sec. 4-5 model (engine=paper, envs/bolt/paper/model.py), speed
and duty factor, at every crank period of bolt_twin_vs_paper's sweep where the paper model runs one touch-down per
revolution (full report; reduced: 0.2 s alone).  The runs and their per-period comparison are bolt_twin_vs_paper's
(envs/bolt/paper/twin_vs_paper.py `compare`); the rows hand its numbers to the report's one verdict function.

Listed in envs/bolt/paper/claims.py (`CLAIMS`)."""
from __future__ import annotations

import math

from .twin_vs_paper import one_touchdown
from ...core.report.report import CONSISTENCY, Context, Row, Tol, fmt

# the twin-vs-paper-model target, stated before comparing; the same numbers go to the runner (experiment.speed_tolerance,
# experiment.duty_tolerance), so its within_target and these rows judge one target
TOL_SPEED = Tol(0, 0.10, "the target set before the runs: 10 % of the paper model's speed (experiment.speed_tolerance)")
TOL_DUTY = Tol(0.05, 0, "the target set before the runs: 0.05 duty factor (experiment.duty_tolerance)")
REDUCED_PERIODS = [0.2]          # the reduced report: one period (~20 s on 2 cores; the full sweep ~220 s)

PAPER = {
    "B6c": ("Sec. 4-5 (the paper's model, run by the project)", "no number: the paper's own model's speed"),
    "B6d": ("Sec. 4-5 (the paper's model, run by the project)", "no number: the paper's own model's duty factor"),
}

KIND_WHY = ("twin against a reference derived from the paper (its Sec. 4-5 model, engine=paper), nothing fitted to "
            "it: the option's settings come from its convergence study (gaittwin.bolt.paper.studies.bolt_coulomb_foot), so this is "
            "validation against a derived reference, not calibration; the report counts as `validation` only rows "
            "with a printed paper number, so its kind here is `consistency` (as C9/C10 against the crawler's exact "
            "model)")


def coulomb_rows(table: list[dict], reduced: bool) -> list[Row]:
    """B6c (speed) and B6d (duty factor) from bolt_twin_vs_paper's results.csv rows (robot/foot=coulomb): at the
    periods its `compare` marked compared (the paper model runs one touch-down per revolution), the twin's value,
    or NaN where the twin does not run that gait or is health-flagged (as `compare`: never within the target),
    against the paper model's.  No compared period: 'nothing compared', which disagrees."""
    cmp_ = [r for r in table if r.get("compared")]
    ok = [not r.get("error_twin") and one_touchdown(r["touchdowns_per_revolution_twin"]) for r in cmp_]
    T = [float(r["crank_period"]) for r in cmp_]
    where = (f"crank period {fmt(T)} s" if T else "no crank period (the paper model runs one touch-down per "
             "revolution at none)") + (" (reduced report: 0.2 s only; the full report: every period of "
                                       "bolt_twin_vs_paper's sweep where the paper model runs one touch-down per "
                                       "revolution)" if reduced else
                                       " (every period of bolt_twin_vs_paper's sweep where the paper model runs one "
                                       "touch-down per revolution)")
    skipped = [f"{fmt(r['crank_period'])} s" for r in table if not r.get("compared")]
    bad = [f"{fmt(r['crank_period'])} s: " + (r.get("error_twin") or "twin not one touch-down per revolution")
           for r, g in zip(cmp_, ok) if not g]
    reason = (KIND_WHY + "; BOLT on the boom with the Sec. 6.1 bumper, 6 revolutions from rest, metrics over the "
              "second half" + (f"; not compared (paper model not one touch-down per revolution): {', '.join(skipped)}"
                               if skipped else "") + (f"; twin fails the gait or health there: {'; '.join(bad)}"
                                                      if bad else ""))
    rows = []
    for cid, m, what, unit, tol in (("B6c", "speed", "running speed", "m/s", TOL_SPEED),
                                    ("B6d", "duty_factor", "duty factor", "", TOL_DUTY)):
        v = [float(r[f"{m}_twin"]) if g else math.nan for r, g in zip(cmp_, ok)]
        p = [float(r[f"{m}_paper"]) for r in cmp_]
        rows.append(Row(cid, f"{what}, twin with the Coulomb foot (robot/foot=coulomb) against the paper's own "
                             f"model, at {where}", *PAPER[cid], kind=CONSISTENCY,
                        twin=", ".join(f"{fmt(t)} s: {fmt(x)}" for t, x in zip(T, v)) or "nothing compared",
                        value=v, ref=p, tol=tol, unit=unit,
                        reference="paper model (engine=paper) " + (
                            ", ".join(f"{fmt(t)} s: {fmt(x)}" for t, x in zip(T, p)) or "nothing compared"),
                        reason=reason))
    return rows


def claims_bolt_coulomb(ctx: Context) -> list[Row]:
    """B6c/B6d: bolt_twin_vs_paper with robot/foot=coulomb (its own sweep; reduced: 0.2 s)."""
    ov = {"run.cycles": 6, "experiment.speed_tolerance": TOL_SPEED.rel, "experiment.duty_tolerance": TOL_DUTY.abs}
    res, out = ctx.run("bolt_twin_vs_paper", "bolt_twin_vs_paper_coulomb", ov,
                       None if not ctx.reduced else {"crank_period": REDUCED_PERIODS}, choices=("robot/foot=coulomb",))
    ctx.plot(out / "twin_vs_paper.png", "bolt_twin_vs_paper_coulomb.png",
             "BOLT: twin with the Coulomb foot vs the paper's own model")
    return coulomb_rows(res.table("results.csv"), ctx.reduced)
