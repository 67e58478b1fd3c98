"""The optimiser on MinIAQ-II's gait (Sec. III: the robot trots; the gait analysis relates phase patterns to support and
speed): the leg phase pattern (offsets of fr, hl, hr; fl at 0) that maximises the speed, and the one that minimises
the cost of transport, at the paper's 2.5 Hz, by miniaq_optimize from the trot, compared with the trot.  The paper
claims no optimum; the rows are consistency with its choice.  Tolerances (stated before any run):

  M-opt-speed   the trot's speed >= (1 - TROT_REL) x the fastest pattern found, TROT_REL = 20 % (the trot is the
                paper's working gait: a pattern much faster than it would question the choice or the twin)
  M-opt-cot     the trot's cost of transport <= (1 + TROT_REL) x the cheapest pattern found
  M-opt-ref     the fastest pattern re-simulated on the paper's model: its speed there >= the trot's there (the twin's
                optimum is an optimum of the reference too), REF_REL = 20 % below allowed

Budgets (full / reduced): CMA-ES 37 / 19 candidates (batch 6), run.cycles 6 / 4 (stop_when_steady false).
"""
from __future__ import annotations

import math

from ...core.report.report import CONSISTENCY, Context, Range, Row, Tol, fmt

PAPER = {"gait": ("Sec. III", "the robot walks with a trot (diagonal legs in phase, pairs 180 deg apart) at 2.5 Hz")}
TROT_REL, REF_REL = 0.20, 0.20
TROT = [0.0, 180.0, 180.0, 0.0]


def optimum(ctx: Context, objective: str) -> dict:
    res, _ = ctx.run("miniaq_optimize", f"miniaq_opt_{objective}", {
        "robot.phase_deg": TROT, "robot.f": 2.5, "experiment.objective": objective,
        "experiment.budget": ctx.g(37, 19), "experiment.batch": 6, "experiment.sensitivity": 0,
        "experiment.reference": objective == "speed", "run.cycles": ctx.g(6, 4), "run.stop_when_steady": False})
    return res.summary


def claims_miniaq_optimize(ctx: Context) -> list[Row]:
    fast, cheap = optimum(ctx, "speed"), optimum(ctx, "cost_of_transport")
    rows = []
    for rid, s, what in (("M-opt-speed", fast, "speed"), ("M-opt-cot", cheap, "cost of transport")):
        best, trot = s.get("objective", math.nan), s.get("start_objective") or math.nan
        ratio = trot / best if best else math.nan
        rng = Range(1 - TROT_REL, math.inf) if what == "speed" else Range(-math.inf, 1 + TROT_REL)
        pattern = [0.0] + [s["optimum"][f"phase_deg[{i}]"] for i in (1, 2, 3)] if s.get("optimum") else None
        rows.append(Row(rid, f"the trot's {what} / the best phase pattern's (miniaq_optimize at 2.5 Hz, from the trot)",
                        *PAPER["gait"], kind=CONSISTENCY, value=ratio, ref=rng,
                        tol=Tol(0, 0, f"a range: within {fmt(100 * TROT_REL)} % of the best found"),
                        twin=f"trot {fmt(trot)}, best {fmt(best)} at phases {fmt(pattern)} deg",
                        reference="the best pattern found on the twin"))
    ref = fast.get("reference") or {}
    ratio = ref.get("objective", math.nan) / ref["start_objective"] if ref.get("start_objective") else math.nan
    rows.append(Row("M-opt-ref", "the fastest pattern's speed on the paper's model / the trot's there", *PAPER["gait"],
                    kind=CONSISTENCY, value=ratio, ref=Range(1 - REF_REL, math.inf),
                    tol=Tol(0, 0, "a range: the twin's optimum no more than 20 % slower than the trot on the reference"),
                    twin=f"{fmt(ref.get('objective'))} m/s on the paper model"
                         + (f" ({ref['error']})" if ref.get("error") else ""), reference="the trot on the paper's model"))
    return rows


CLAIMS = [("MinIAQ-II: phase patterns (miniaq_optimize)", claims_miniaq_optimize)]
