"""The crawler paper's qualitative statements, each checked by a proxy: psi*(omega)
almost monotonic (C30), a symmetric friction perturbation insignificant (C31), direction reversal under
mass asymmetry (C32), the time-scaled gait's slip (C33) and the feedback law's frequency band (C35).

Each row states its proxy and tolerance before its value is computed; `PAPER` quotes the sentence.  C30,
C32, C33 and C35 read runs their groups already make (envs/crawler/paper/claims.py, claims_dynamic.py call the
helpers here); C31 is its own group.
"""
from __future__ import annotations

import math

from ...core.report.report import Context, Range, Row, Tol, fmt

MM = 1e3

PAPER = {
    "C30": ("Sec. IV, Fig. 6", "'The optimum psi*(omega) shifts (almost monotonically in omega) from psi* -> 0 for low "
                               "frequencies ... towards psi* ~ 120 deg as the frequency rises'"),
    "C31": ("Sec. VI", "'A symmetric perturbation mu1 = mu2 = (1 +/- eps) mu was found to insignificantly affect the "
                       "distance S for reasonable eps'"),
    "C32": ("Sec. VII, Fig. 12", "'The preference moves from heavier front link m1 > m2 at mid-range frequencies "
                                 "(where even direction reversal occurs)'"),
    "C33": ("Sec. VII, Fig. 10(b)", "'time-scaled inputs significantly improve S by both increasing x_i' in the "
                                    "advancement direction and reducing slippage in the opposing direction' "
                                    "(omega = 3.2)"),
    "C34": ("Sec. VII, Fig. 10", "'At this frequency, the optimal scaled input achieves this improvement by extending "
                                 "the legs rapidly and retracting them slowly' (omega = 3.2)"),
    "C35": ("Sec. VIII", "'the results require careful tuneup and currently work only for a range of reference input "
                         "frequencies. We deduce that for high frequencies the three-link robot's slippage is strongly "
                         "enforced by the natural dynamics'"),
}


def c30_row(tw: dict, hy: dict, step: float) -> Row:
    """C30 from psi*(omega) [deg] of the Fig. 6 map (twin; exact model shown where run): the largest drop of
    psi* between successive omegas of the grid."""
    tol = Tol(0, 0, f"a range: 'almost monotonically' read as no drop larger than one psi grid step ({fmt(step)} deg, "
                    "a grid argmax's resolution; the paper smooths its curve by a moving average)")
    ws = sorted(tw)
    drop = lambda d: min(d[b] - d[a] for a, b in zip(ws, ws[1:])) if len(ws) > 1 else math.nan  # noqa: E731
    v = drop(tw)
    return Row("C30", f"largest change of psi* between successive omegas {fmt(ws)} (negative: a drop)", *PAPER["C30"],
               value=v, target=Range(-step), tol=tol, unit="deg",
               twin=f"{fmt(v)} (psi*: {fmt([tw[w] for w in ws])} deg)",
               reference=f"hybrid {fmt(drop(hy))} (psi*: {fmt([hy[w] for w in ws])} deg)" if hy else "hybrid: full report",
               reason="" if v >= -step else "psi* falls back by more than a grid step between two omegas")


def claims_crawler_symmetric_friction(ctx: Context) -> list[Row]:
    """C31 (Sec. VI): S with mu1 = mu2 = (1 +/- eps) mu against S at mu, eps = 0.1, at omega 0.3 and 16."""
    from ..robot import Crawler
    eps, mu = 0.1, float(Crawler().p.mu)
    tol = Tol(0, 0, "a range: 'insignificantly' read as |S((1 +/- eps) mu) / S(mu) - 1| <= 0.1, a fifth of the 50 % "
                    "loss the asymmetric perturbation gives at omega 0.3 (C12)")
    mus = [round(mu * (1 - eps), 12), mu, round(mu * (1 + eps), 12)]
    rows = []
    for w, cyc in ((0.3, ctx.g(40, 2)), (16.0, ctx.g(40, 20))):       # omega 0.3: quasi-static, steady in 2 cycles
        res, _ = ctx.run("crawler_frequency_sweep", f"crawler_sym_friction_w{w:g}", {"run.cycles": cyc, "run.min_cycles":
                         min(cyc, 3), "experiment.overlay": None}, {"omega": [w], "mu": mus})
        rows += res.table("results.csv")
    S = {(float(r["omega"]), round(float(r["mu"]), 9)): float(r["S"]) * MM for r in rows}
    rel = [S[(w, round(m, 9))] / S[(w, round(mu, 9))] - 1 for w in (0.3, 16.0) for m in (mus[0], mus[2])]
    worst = max(rel, key=abs)
    return [Row("C31", f"largest |S(mu1 = mu2 = (1 +/- {fmt(eps)}) mu) / S(mu) - 1| over omega 0.3 and 16 (psi 20 deg, "
                       f"mu {fmt(mu)})", *PAPER["C31"], value=abs(worst), target=Range(0.0, 0.1), tol=tol,
                twin=f"{fmt(abs(worst))} (relative changes, omega 0.3 then 16, -eps then +eps: {fmt(rel)}; S(mu): "
                     f"{fmt(S[(0.3, round(mu, 9))])}, {fmt(S[(16.0, round(mu, 9))])} mm)",
                reason="" if abs(worst) <= 0.1 else "the common friction level changes S noticeably")]


def c32_row(tw: list, hy: list, mids: list) -> Row:
    """C32 from crawler_mass_distribution rows (omega, m1_over_m2, S), twin and exact model: the mid-range omegas
    at which S changes sign over the m1/m2 grid."""
    tol = Tol(0, 0, "a count: at least one mid-range omega with a sign change of S over the m1/m2 grid")

    def reversing(rows):
        out = []
        for w in mids:
            S = [float(r["S"]) for r in rows if abs(float(r["omega"]) - w) < 1e-9]
            if S and min(S) < 0 < max(S):
                out.append(w)
        return out
    t, h = reversing(tw), reversing(hy)
    ranges = "; ".join(f"omega {fmt(w)}: S in [{fmt(min(float(r['S']) for r in tw if float(r['omega']) == w) * MM)}, "
                       f"{fmt(max(float(r['S']) for r in tw if float(r['omega']) == w) * MM)}] mm" for w in mids)
    return Row("C32", f"number of mid-range omegas {fmt(mids)} at which S changes sign over the m1/m2 grid "
                      "(direction reversal by mass asymmetry)", *PAPER["C32"], value=len(t), target=Range(1),
               tol=tol, twin=f"{len(t)} (at {fmt(t)}; {ranges})", reference=f"hybrid {len(h)} (at {fmt(h)})",
               reason="" if t else "no reversal on this m1/m2 grid" + (" (the exact model reverses)" if h else ""))


def c33_row(ctx: Context, best: dict, cycles: int) -> Row:
    """C33 from one crawler_time_scaling optimum (`best`: a best.csv row at omega 3.2): per cycle, the feet's
    forward and backward slip distances of the twin, time-scaled optimum minus its alpha = 0 baseline."""
    from ..robot import Crawler
    from .slip_pattern import twin_trace
    tol = Tol(0, 0, "signs: forward slip grows (> 0) and backward slip shrinks (< 0)")
    r0 = Crawler()
    kw = dict(cycles=cycles, min_cycles=3, stop_when_steady=True, max_steps=10 ** 8)
    tr = {}
    for k, p in (("base", dict(psi_deg=best["psi_base_deg"], alpha=0.0, upsilon_deg=0.0)),
                 ("best", dict(psi_deg=best["psi_deg"], alpha=best["alpha"], upsilon_deg=best["upsilon_deg"]))):
        t = twin_trace({**r0.cfg, "omega": best["omega"], **p}, kw, 400, 0.01)
        tr[k] = (sum(t["forward_m"]) * MM, sum(t["backward_m"]) * MM, t["S"] * MM)
    v = [tr["best"][0] - tr["base"][0], tr["best"][1] - tr["base"][1]]
    return Row("C33", f"omega {fmt(best['omega'])}: forward and backward slip distance per cycle (both feet), time-scaled "
                      "optimum minus its alpha = 0 baseline (twin runs of the search's points)", *PAPER["C33"], value=v,
               target=[Range(0.0), Range(hi=0.0)], tol=tol, unit="mm",
               twin=f"{fmt(v)} (forward {fmt(tr['base'][0])} -> {fmt(tr['best'][0])}, backward {fmt(tr['base'][1])} -> "
                    f"{fmt(tr['best'][1])}, S {fmt(tr['base'][2])} -> {fmt(tr['best'][2])} mm)",
               reason="" if v[0] > 0 and v[1] < 0 else "the optimum found gains S another way (or the search found "
                                                          "little gain: C26)")


def c34_row(best: dict) -> Row:
    """C34 from one crawler_time_scaling optimum (omega 3.2): the fraction of the period in which the prescribed
    feet distance D = x2 - x1 (both feet on the floor, eq. 5/8 inputs) grows, i.e. the legs extend."""
    import numpy as np

    from ..robot import Crawler, foot_distance
    tol = Tol(0, 0, "a range: 'extending rapidly, retracting slowly' read as extending for at most 45 % of the period "
                    "(the unscaled sine: 50 %)")

    def extending(**kw):
        r = Crawler(omega=best["omega"], **kw)
        q, _, _ = r.inputs(np.linspace(0.0, r.period, 4001))
        D = foot_distance(q[:, 0], q[:, 1], r.p.l0, r.p.l)
        return float(np.mean(np.diff(D) > 0))
    v = extending(psi_deg=best["psi_deg"], alpha=best["alpha"], upsilon_deg=best["upsilon_deg"])
    v0 = extending(psi_deg=best["psi_base_deg"])
    return Row("C34", f"omega {fmt(best['omega'])}: fraction of the period the legs extend (feet distance growing) "
                      f"under the best time-scaled input (alpha {fmt(best['alpha'])}, Upsilon {fmt(best['upsilon_deg'])} "
                      f"deg, psi {fmt(best['psi_deg'])} deg)", *PAPER["C34"], value=v, target=Range(0.0, 0.45), tol=tol,
               reference=f"alpha = 0 baseline {fmt(v0)}",
               reason="" if v <= 0.45 else "the twin's optimum extends no faster than it retracts")


def mm(S):
    """A crawler_feedback stride [m] in mm; None (that run failed: its error is in the summary) stays None."""
    return None if S is None else S * MM


def feedback_gain(summary: dict) -> float:
    """S with the eq. 19 feedback / S open loop of a crawler_feedback summary; NaN where either run failed (its S is
    None) or the open loop does not advance (a NaN never agrees)."""
    S_open, S_fb = summary["S_open"], summary["S_feedback"]
    return S_fb / S_open if S_open is not None and S_fb is not None and S_open > 0 else math.nan


def c35_row(ctx: Context, at8: dict, cycles: int) -> Row:
    """C35: S with the eq. 19 feedback / S open loop at omega 8 (the paper's working example; C20/C21's run)
    and at omega 16 (high frequency: the paper says the feedback struggles there)."""
    tol = Tol(0, 0, "ranges: 'works' read as a gain >= 1.1 at omega 8; 'only for a range' as no gain (<= 1) at 16")
    ov = {"experiment.cycles": cycles, "robot.omega": 16.0}
    hi, _ = ctx.run("crawler_feedback", "crawler_feedback_w16", ov)
    gh = None
    if not ctx.reduced:
        hh, _ = ctx.run("crawler_feedback", "crawler_feedback_w16_hybrid", {**ov, "engine": "hybrid"})
        gh = feedback_gain(hh.summary)
    g = [feedback_gain(at8), feedback_gain(hi.summary)]
    return Row("C35", "S(eq. 19 feedback) / S(open loop) at omega 8 and 16 (K_v 10, K_P 80, K_D 100, Phi [90, 130] "
                      "deg, psi 20 deg)", *PAPER["C35"], value=g, target=[Range(1.1), Range(hi=1.0)], tol=tol,
               twin=f"{fmt(g)} (S open, feedback: omega 8 {fmt(mm(at8['S_open']))}, {fmt(mm(at8['S_feedback']))}; "
                    f"omega 16 {fmt(mm(hi.summary['S_open']))}, {fmt(mm(hi.summary['S_feedback']))} mm)",
               reference=f"hybrid at omega 16: {fmt(gh)}" if gh is not None else "hybrid: full report",
               reason="" if g[0] >= 1.1 and g[1] <= 1.0 else "the feedback's benefit is not confined to the lower "
                                                              "frequency here" + (" (the exact model gains at omega 16 "
                                                                                  "too)" if gh and gh > 1 else ""))
