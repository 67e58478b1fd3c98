"""The optimiser on the snake: alpha and the step time T_step for the fastest progress V at each n, within an assumed
servo rate (the paper gives no servo data: 60 deg in 0.17 s, 352.9 deg/s, a common hobby-servo rating; snake_optimize
declares it, envs/snake/paper/optimize.py derives the commanded rate from the inputs).  Tolerances and readings,
stated before any run:

  S-opt-active   consistency: V grows as T_step shrinks at fixed alpha (V = displacement / period), so the fastest
                 gait within the servo rate has the rate at its limit: the optimum's margin is at most
                 ACTIVE_MARGIN = 10 % of the limit (a CMA-ES budget of BUDGET candidates ends near, not on, the boundary)
  S-opt-n        validation of the paper's statement "a wave formed by more links ... lead[s] to greater velocity"
                 (Abstract): the optimal V at n + 1 exceeds that at n (a Range: V*(n + 1) - V*(n) > 0 for each pair)

Budgets (full / reduced): n = 3, 4, 5 / 4, 5; BUDGET = 25 candidates (batch 6), run.cycles = 1 (a period repeats),
alpha in [10 deg, min(70, 0.95 alpha_max(n))], T_step in [0.2, 1.5] s.
"""
from __future__ import annotations

import math

from ...core.report.report import CONSISTENCY, VALIDATION, Context, Range, Row, Tol, fmt
from ..gait import alpha_max

PAPER = {
    "active": ("assumption (no servo data in the paper)", "the fastest gait runs the servos at their rate limit"),
    "n": ("Abstract", "'A wave formed by more links or a greater relative angle ... lead[s] to greater velocity'"),
}
ACTIVE_MARGIN = 0.10
BUDGET, BATCH = 25, 6
RATE = 352.9


def optimum(ctx: Context, n: int) -> dict:
    hi = min(70.0, 0.95 * math.degrees(alpha_max(n)))
    res, _ = ctx.run("snake_optimize", f"snake_opt_n{n}", {
        "robot.n": n, "experiment.variables": {"alpha_deg": [10.0, round(hi, 3)], "T_step": [0.2, 1.5]},
        "experiment.constraints": {"servo_rate_deg_s": {"max": RATE}}, "experiment.budget": BUDGET,
        "experiment.batch": BATCH, "experiment.sensitivity": 0})
    return res.summary


def claims_snake_optimize(ctx: Context) -> list[Row]:
    ns = ctx.g([3, 4, 5], [4, 5])
    sums = {n: optimum(ctx, n) for n in ns}
    margins = [sums[n]["constraint_margins"]["servo_rate_deg_s"]["margin"] / RATE if sums[n].get("optimum")
               else math.nan for n in ns]
    V = [sums[n]["objective"] if sums[n].get("optimum") else math.nan for n in ns]
    rows = [Row("S-opt-active", f"servo-rate margin of the fastest gait / the limit {fmt(RATE)} deg/s, n = {fmt(ns)} "
                                f"(snake_optimize, {BUDGET} candidates each)", *PAPER["active"], kind=CONSISTENCY,
                value=margins, ref=[Range(0.0, ACTIVE_MARGIN)] * len(ns), tol=Tol(0, 0, "a range: [0, 10 %] of the limit"),
                twin=f"{fmt(margins)} (alpha* {fmt([sums[n]['optimum']['alpha_deg'] for n in ns if sums[n].get('optimum')])}"
                     f" deg, T_step* {fmt([sums[n]['optimum']['T_step'] for n in ns if sums[n].get('optimum')])} s)",
                reason="the optimiser's own check: an inactive rate limit at the optimum means the search stopped short")]
    dV = [V[i + 1] - V[i] for i in range(len(ns) - 1)]
    rows.append(Row("S-opt-n", f"optimal V(n + 1) - V(n) within the servo rate, n = {fmt(ns)}", *PAPER["n"],
                    kind=VALIDATION, value=dV, target=[Range(0.0, math.inf)] * len(dV), tol=Tol(0, 0, "a sign"),
                    unit="m/s", twin=f"V* = {fmt(V)} m/s",
                    reason="the paper's statement at fixed alpha, read at each n's own optimum within the servo rate"))
    return rows


CLAIMS = [("Snake: optima (snake_optimize)", claims_snake_optimize)]
