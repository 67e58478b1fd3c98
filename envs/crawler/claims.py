"""The crawler paper's quantitative claims (Gamus, Gat & Or), twin against paper and exact model.

Each claim group is a function `claims_<topic>(ctx) -> list[Row]`; the paper's values are
data (`PAPER`: id -> (source, value as stated)).  `CLAIMS` lists the groups for the report
(envs/core/report.py).
"""
from __future__ import annotations

import math

import numpy as np

from envs.core.report import (AGREE, DISAGREE, PARTLY, WITHHELD, Context, Row, band, by_value, fmt,
                              pct, read_csv, rel_err)

PAPER = {
    "C1": ("Sec. IV, Fig. 4(a), Fig. 5(a)", "S almost ideal in range 1 (no number)"),
    "C2": ("Sec. IV, Fig. 4(a), Fig. 5(b)", "S almost cancelled at omega = 5.1 rad/s"),
    "C3": ("Sec. IV, Fig. 4(a), Fig. 5(c)", "S grows slightly in range 3 (no number)"),
    "C4": ("Sec. IV, Fig. 4(b)", "V rises rapidly in range 3 (no number)"),
    "C5": ("Sec. V, Fig. 4(b)", "multiple local extrema of V (>= 2)"),
    "C6": ("Sec. V-VI, Fig. 4(a)", "experiment ~ 0.5 x simulation at low omega; S_mu matches it"),
    "C7": ("Sec. IV, Fig. 6", "psi* -> 0 deg at low omega"),
    "C8": ("Sec. IV, Fig. 6", "psi* ~ 120 deg at high omega"),
    "C9": ("Sec. IV, Fig. 7(a)", "direction reversal (sign change of S) vs omega at phi0 = 145 deg"),
    "C10": ("Sec. IV, Fig. 7(b)", "direction reversal vs phi0 at omega = 9 rad/s"),
    "C11": ("Sec. VI, Fig. 8", "psi* = 16 deg at omega = 0.3"),
    "C12": ("Sec. VI, Fig. 8", "S_mu 50 % below S at psi = 16 deg"),
    "C13": ("Sec. VI, Fig. 8", "psi_mu* = 56 deg at omega = 0.3"),
    "C14": ("Sec. VI, Fig. 8", "S_mu 24 % below S at psi = 56 deg"),
    "C15": ("Sec. VI, Fig. 8/9", "S and S_mu close at high omega (no number)"),
    "C16": ("Sec. VI, Fig. 9", "S_mu at psi_mu* significantly above S_mu at psi* at low omega (no number)"),
    "C17": ("Sec. VII, Fig. 12", "omega <~ 1: any asymmetry m1/m2 != 1 decreases S significantly"),
    "C18": ("Sec. VII, Fig. 12", "mid-range omega: heavier front link (m1 > m2) preferred"),
    "C19": ("Sec. VII, Fig. 12", "high omega: heavier rear link (m2 > m1) preferred"),
    "C20": ("Sec. VIII, App., Fig. 13/14", "withheld"),
    "C21": ("Sec. VIII, App., Fig. 13/14", "withheld"),
}


def claims_crawler_frequency(ctx: Context) -> list[Row]:
    """Fig. 4 and 5: S(omega), V(omega), twin vs the exact hybrid model and the ideal stride."""
    from envs.crawler.robot import Crawler, ideal_stride
    omegas = ctx.g([0.3, 0.5, 1.0, 1.5, 2.0, 2.5, 3.2, 4.0, 5.1, 6.0, 7.0, 8.0, 10.0, 12.0, 14.0, 16.0],
                   [0.3, 2.0, 5.1, 8.0, 16.0])
    s, out = ctx.run("crawler_frequency_sweep", "crawler_fig4",
                     {"run.cycles": ctx.g(40, 20), "run.min_cycles": 3}, {"omega": omegas})
    ctx.plot(out / "S_V_vs_omega.png", "crawler_fig4_S_V.png", "Crawler Fig. 4: S and V vs omega, twin and hybrid model")
    tw = {float(r["omega"]): float(r["S"]) for r in read_csv(out / "results.csv")}
    hy = {float(r["omega"]): float(r["S"]) for r in read_csv(out / "results_hybrid.csv")}
    r0 = Crawler()
    ideal = ideal_stride(r0.inputs, float(r0.p["l0"]), float(r0.p["l"]))
    mm = 1e3
    rows = []
    e = rel_err(tw[0.3], ideal)
    rows.append(Row("C1", "omega = 0.3 rad/s (range 1): S equals the quasi-static ideal stride",
                    *PAPER["C1"], twin=tw[0.3] * mm,
                    reference=f"ideal {fmt(ideal * mm)}; hybrid {fmt(hy[0.3] * mm)}", unit="mm",
                    error=f"{pct(e)} vs ideal", verdict=band(e, 0.03, 0.1),
                    reason="" if abs(e) <= 0.03 else "stick creep of MuJoCo's soft friction"))
    frac = tw[5.1] / tw[0.3]
    rows.append(Row("C2", "S at omega = 5.1 rad/s as a fraction of S(0.3)", *PAPER["C2"],
                    twin=f"{fmt(tw[5.1] * mm)} mm = {pct(frac)}",
                    reference=f"hybrid {fmt(hy[5.1] * mm)} mm = {pct(hy[5.1] / hy[0.3])}",
                    error=f"{pct(frac)} of S(0.3)", verdict=band(frac, 0.05, 0.15),
                    reason="near-cancellation reproduced; sign of the small residual differs from the hybrid model "
                           "(soft contact, brief lift-off)" if abs(frac) <= 0.05 and tw[5.1] * hy[5.1] < 0 else ""))
    dS = tw[16.0] - tw[8.0]
    ok = dS > 0
    rows.append(Row("C3", "S(16) - S(8): S grows slightly in range 3", *PAPER["C3"], twin=dS * mm,
                    reference=f"hybrid {fmt((hy[16.0] - hy[8.0]) * mm)}", unit="mm",
                    error=None, verdict=AGREE if ok else DISAGREE,
                    reason="" if ok else "range 3 is a small difference of large opposing slips (timestep-sensitive)"))
    V = lambda d, w: d[w] * w / (2 * math.pi)
    rows.append(Row("C4", "V(16) / V(8): V rises rapidly in range 3", *PAPER["C4"],
                    twin=f"{fmt(V(tw, 16.0) * mm)} / {fmt(V(tw, 8.0) * mm)} mm/s",
                    reference=f"hybrid {fmt(V(hy, 16.0) * mm)} / {fmt(V(hy, 8.0) * mm)} mm/s",
                    error=None, verdict=AGREE if V(tw, 16.0) > max(V(tw, 8.0), 0) else DISAGREE,
                    reason="" if V(tw, 16.0) > max(V(tw, 8.0), 0) else "see C3"))
    ws = sorted(tw)

    def extrema(d):
        v = np.array([V(d, w) for w in ws])
        return int(np.sum((v[1:-1] - v[:-2]) * (v[2:] - v[1:-1]) < 0))
    n_t, n_h = extrema(tw), extrema(hy)
    rows.append(Row("C5", f"number of interior local extrema of V(omega) on the {len(ws)}-point grid", *PAPER["C5"],
                    twin=n_t, reference=f"hybrid {n_h}", error=None,
                    verdict=AGREE if n_t >= 2 else DISAGREE,
                    reason="" if n_t >= 2 else "grid too coarse to resolve the extrema"))
    return rows


def claims_crawler_psi_map(ctx: Context) -> list[Row]:
    """Fig. 6: psi*(omega) at the low and high ends, twin and hybrid."""
    cyc = {"run.cycles": 40, "run.min_cycles": 3}
    if ctx.reduced:        # two small runs: a bracket around each optimum; 2 cycles at omega = 0.3
        omegas, step = [0.3, 16.0], 15
        s0, _ = ctx.run("crawler_psi_omega_map", "crawler_fig6_lo", {"run.cycles": 2, "run.min_cycles": 2},
                        {"omega": [0.3], "psi_deg": [0, 15, 30, 45]})
        s, out = ctx.run("crawler_psi_omega_map", "crawler_fig6_hi", cyc, {"omega": [16.0], "psi_deg": [60, 90, 120, 150]})
        tw = {0.3: s0["psi_star"]["0.3"], 16.0: s["psi_star"]["16"]}
        hy = {}
    else:
        omegas = [0.3, 1.0, 3.2, 8.0, 16.0]
        psis = [0, 15, 30, 45, 60, 75, 90, 105, 120, 135, 150]
        step = psis[1] - psis[0]
        s, out = ctx.run("crawler_psi_omega_map", "crawler_fig6", cyc, {"omega": omegas, "psi_deg": psis})
        h, _ = ctx.run("crawler_psi_omega_map", "crawler_fig6_hybrid", {**cyc, "engine": "hybrid"},
                       {"omega": omegas, "psi_deg": psis})
        tw = {float(k): v for k, v in s["psi_star"].items()}
        hy = {float(k): v for k, v in h["psi_star"].items()}
    ctx.plot(out / "psi_omega_map.png", "crawler_fig6_psi_omega.png", "Crawler Fig. 6: S over (psi, omega), twin")
    lo, hi = min(omegas), max(omegas)
    e_lo = tw[lo] - 0.0
    ref_lo = f"hybrid {fmt(hy[lo])}" if hy else "hybrid: full report"
    rows = [Row("C7", f"psi*(omega = {fmt(lo)}) (parabola through the grid optimum, psi step {step} deg)",
                *PAPER["C7"], twin=tw[lo], reference=ref_lo, unit="deg", error=f"{fmt(e_lo)} deg",
                verdict=AGREE if abs(e_lo) <= step / 2 else PARTLY if abs(e_lo) <= 30 else DISAGREE,
                reason="omega = 0.3 is the lowest frequency of Fig. 6: there the paper's own Fig. 8 puts the "
                       "S optimum at 16 deg; psi* -> 0 is the quasi-static limit omega -> 0"
                       if abs(e_lo) > step / 2 else "")]
    e_hi = tw[hi] - 120.0
    extra = "; ".join(f"omega {fmt(w)}: {fmt(tw[w])}" for w in omegas if w >= 8)
    rows.append(Row("C8", f"psi*(omega) at high omega (psi step {step} deg)", *PAPER["C8"],
                    twin=f"{extra}",
                    reference=("hybrid " + "; ".join(f"omega {fmt(w)}: {fmt(hy[w])}" for w in omegas if w >= 8))
                    if hy else "hybrid: full report",
                    unit="deg", error=f"{fmt(e_hi)} deg at omega {fmt(hi)}",
                    verdict=AGREE if abs(e_hi) <= max(step, 10) else PARTLY if abs(e_hi) <= 30 else DISAGREE,
                    reason="" if abs(e_hi) <= max(step, 10) else "the optimum is flat near 110-120 deg"))
    return rows


def claims_crawler_reversal(ctx: Context) -> list[Row]:
    """Fig. 7: direction reversal with omega (phi0 = 145 deg) and with phi0 (omega = 9)."""
    a_om = ctx.g([0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0], [2.0, 5.0, 16.0])
    b_phi = ctx.g([100, 105, 110, 115, 120, 125, 130, 135, 140, 145, 150], [110, 130, 150])
    ov = {"experiment.a.omega": a_om, "experiment.b.phi0_deg": b_phi, "run.cycles": 40}
    s, out = ctx.run("crawler_direction_reversal", "crawler_fig7", ov)
    ctx.plot(out / "direction_reversal.png", "crawler_fig7_reversal.png", "Crawler Fig. 7: direction reversal, twin")
    h, _ = ctx.run("crawler_direction_reversal", "crawler_fig7_hybrid", {**ov, "engine": "hybrid"})
    rows = []
    for cid, key, unit, what in (("C9", "reversal_omega", "rad/s", "omega where S changes sign, phi0 = 145 deg, mu = 0.172"),
                                 ("C10", "reversal_phi0_deg", "deg", "phi0 where S changes sign, omega = 9 rad/s, mu = 0.398")):
        t, r = s[key], h[key]
        ok = len(t) >= 1
        rows.append(Row(cid, what, *PAPER[cid], twin=list(t) if t else "no sign change",
                        reference=f"hybrid {fmt(list(r))}", unit=unit,
                        error=f"first crossing {fmt(t[0] - r[0])} {unit} vs hybrid" if t and r else None,
                        verdict=AGREE if ok else DISAGREE,
                        reason=("reversal reproduced; the paper gives the crossing only graphically" +
                                ("; the first crossing differs from the hybrid model's by more than 5 % because S "
                                 "is only a few mm either side of it, where soft and rigid contact differ most"
                                 if t and r and abs(t[0] - r[0]) > 0.05 * abs(r[0]) else "")) if ok
                        else "no sign change on this grid"))
    return rows


def claims_crawler_friction(ctx: Context) -> list[Row]:
    """Fig. 8/9 (eqs. 6-7): S_mu at omega = 0.3 and 16, optimal phases and their losses; Sec. V ratio."""
    psis = ctx.g([0, 16, 20, 32, 56, 72], [20, 56])
    psis_h = ctx.g([0, 16, 32, 56, 72], None)
    psis_hi = ctx.g([0, 30, 60, 90, 120, 150], [60, 120])
    ov = {"run.cycles": ctx.g(20, 2), "run.min_cycles": ctx.g(3, 2)}
    s_lo, out_lo = ctx.run("crawler_friction_robustness", "crawler_fig8_w0.3", ov, {"omega": [0.3], "psi_deg": psis})
    s_hi, out_hi = ctx.run("crawler_friction_robustness", "crawler_fig8_w16", {"run.cycles": ctx.g(40, 15)},
                           {"omega": [16.0], "psi_deg": psis_hi})
    ctx.plot(out_lo / "friction_robustness.png", "crawler_fig8_w0.3.png", "Crawler Fig. 8: S, S_mu vs psi at omega = 0.3, twin")
    h_lo = None
    if not ctx.reduced:
        h_lo, _ = ctx.run("crawler_friction_robustness", "crawler_fig8_w0.3_hybrid", {**ov, "engine": "hybrid"},
                          {"omega": [0.3], "psi_deg": psis_h})
    o = s_lo["optima"][0]
    oh = h_lo["optima"][0] if h_lo else None
    href = lambda k, f=fmt: f"hybrid {f(oh[k])} (psi grid {fmt(psis_h)})" if oh else "hybrid: full report"
    grid = f"psi grid {fmt(psis)} deg"
    rows = [
        Row("C11", f"omega = 0.3: psi maximising nominal S ({grid})", *PAPER["C11"], twin=o["psi_star_deg"],
            reference=href("psi_star_deg"), unit="deg", error=f"{fmt(o['psi_star_deg'] - 16)} deg",
            verdict=AGREE if abs(o["psi_star_deg"] - 16) <= 8 else PARTLY if abs(o["psi_star_deg"] - 16) <= 20 else DISAGREE,
            reason=""),
        Row("C12", "omega = 0.3: 1 - S_mu/S at psi* (eq. 6, mu_i in [0.9, 1.1] mu)", *PAPER["C12"],
            twin=pct(o["loss_at_psi_star"]), reference=href("loss_at_psi_star", pct),
            error=f"{fmt(100 * o['loss_at_psi_star'] - 50)} %-points",
            verdict=band(100 * o["loss_at_psi_star"] - 50, 5, 15), reason=""),
    ]
    dpm = o["psi_mu_star_deg"] - 56
    rob = read_csv(out_lo / "robustness.csv")
    smu = {float(r["psi_deg"]): float(r["S_mu"]) * 1e3 for r in rob}
    flat = (f"S_mu(56) = {fmt(smu[56.0])} mm, S_mu({fmt(o['psi_mu_star_deg'])}) = "
            f"{fmt(smu[float(o['psi_mu_star_deg'])])} mm" if 56.0 in smu else "")
    if abs(dpm) <= 8:
        r13 = ""
    elif oh and oh["psi_mu_star_deg"] == o["psi_mu_star_deg"]:
        r13 = ("twin and exact hybrid model agree, so not a MuJoCo contact effect (" + flat +
               "); eq. 7's min/max depends on how (mu1, mu2) are sampled: here a 3 x 3 grid of "
               "[0.9, 1, 1.1] mu (the paper does not state its sampling)")
    else:
        r13 = ("S_mu(psi): " + flat + "; it depends on which (mu1, mu2) corner slips first, where the "
               "twin's soft friction and the hybrid model's rigid Coulomb law can differ (hybrid: full report)")
    rows.append(Row("C13", f"omega = 0.3: psi maximising S_mu ({grid})", *PAPER["C13"], twin=o["psi_mu_star_deg"],
                    reference=href("psi_mu_star_deg"), unit="deg", error=f"{fmt(dpm)} deg",
                    verdict=AGREE if abs(dpm) <= 8 else PARTLY if abs(dpm) <= 24 else DISAGREE, reason=r13))
    l2 = 100 * o["loss_at_psi_mu_star"]
    rows.append(Row("C14", "omega = 0.3: 1 - S_mu/S at psi_mu*", *PAPER["C14"], twin=pct(o["loss_at_psi_mu_star"]),
                    reference=href("loss_at_psi_mu_star", pct), error=f"{fmt(l2 - 24)} %-points",
                    verdict=band(l2 - 24, 5, 15), reason="" if abs(l2 - 24) <= 5 else "follows C13"))
    oh16 = s_hi["optima"][0]
    l16 = oh16["loss_at_psi_star"]
    rows.append(Row("C15", f"omega = 16: 1 - S_mu/S at psi* = {fmt(oh16['psi_star_deg'])} deg", *PAPER["C15"],
                    twin=pct(l16), reference=None, error=None,
                    verdict=AGREE if abs(l16) <= 0.15 else PARTLY if abs(l16) <= 0.3 else DISAGREE,
                    reason=f"vs {pct(o['loss_at_psi_star'])} at omega = 0.3"))
    gain = o["S_mu_at_psi_mu_star"] / o["S_mu_at_psi_star"] if o["S_mu_at_psi_star"] else math.nan
    rows.append(Row("C16", "omega = 0.3: S_mu(psi_mu*) / S_mu(psi*)", *PAPER["C16"], twin=gain,
                    reference=href("S_mu_at_psi_mu_star", lambda v: fmt(v / oh["S_mu_at_psi_star"])),
                    error=None, verdict=AGREE if gain >= 1.1 else PARTLY if gain > 1.0 else DISAGREE,
                    reason="" if gain >= 1.1 else "psi* and psi_mu* coincide on this grid"
                    if o["psi_star_deg"] == o["psi_mu_star_deg"] else "small S_mu gain on this grid"))
    r20 = by_value(rob, "psi_deg", 20)
    if r20:
        ratio = float(r20[0]["S_mu"]) / float(r20[0]["S"])
        rows.insert(0, Row("C6", "omega = 0.3, psi = 20 deg: S_mu / S (the model's prediction of the experiment)",
                           *PAPER["C6"], twin=ratio, reference="paper: experiment / simulation ~ 0.5",
                           error=f"{fmt(ratio - 0.5)}", verdict=band(ratio - 0.5, 0.1, 0.2), reason=""))
    return rows


def claims_crawler_mass(ctx: Context) -> list[Row]:
    """Fig. 12: S vs m1/m2 at (m1 + m2)/(2 m0) = 0.5, per omega; twin and hybrid."""
    omegas = ctx.g([0.3, 3.2, 5.1, 8.0, 16.0], [0.3, 3.2, 16.0])
    asym = ctx.g([0.5, 0.67, 1.0, 1.5, 2.0], [0.5, 1.0, 2.0])
    ov = {"experiment.mass_ratio": [0.5], "experiment.m1_over_m2": asym, "run.cycles": ctx.g(40, 20), "run.min_cycles": 3}
    lo = {**ov, "run.cycles": ctx.g(40, 2), "run.min_cycles": ctx.g(3, 2)}     # omega = 0.3: slow, steady early
    tw, hy = [], []
    for tag, o, ws in (("lo", lo, [w for w in omegas if w < 1]), ("hi", ov, [w for w in omegas if w >= 1])):
        s, out = ctx.run("crawler_mass_distribution", f"crawler_fig12_{tag}", o, {"omega": ws})
        h, outh = ctx.run("crawler_mass_distribution", f"crawler_fig12_{tag}_hybrid", {**o, "engine": "hybrid"}, {"omega": ws})
        tw += read_csv(out / "results.csv")
        hy += read_csv(outh / "results.csv")
    ctx.plot(out / "mass_distribution.png", "crawler_fig12_mass.png", "Crawler Fig. 11/12: S vs mass asymmetry, twin (omega >= 1)")

    def section(rows, w):
        rs = sorted(by_value(rows, "omega", w), key=lambda r: float(r["m1_over_m2"]))
        return [float(r["m1_over_m2"]) for r in rs], [float(r["S"]) for r in rs]

    def best(rows, w):
        a, S = section(rows, w)
        return a[int(np.nanargmax(S))], max(S)

    rows = []
    a, S = section(tw, 0.3)
    S1 = S[a.index(1.0)]
    worst = max(v for x, v in zip(a, S) if x != 1.0) / S1
    ah, Sh = section(hy, 0.3)
    worst_h = max(v for x, v in zip(ah, Sh) if x != 1.0) / Sh[ah.index(1.0)]
    rows.append(Row("C17", f"omega = 0.3: max over m1/m2 in {fmt([x for x in a if x != 1.0])} of S / S(m1 = m2)",
                    *PAPER["C17"], twin=worst, reference=f"hybrid {fmt(worst_h)}", error=None,
                    verdict=AGREE if worst < 0.8 else PARTLY if worst < 0.95 else DISAGREE, reason=""))
    mids = [w for w in omegas if 1 < w < 10]
    highs = [w for w in omegas if w >= 10]
    for cid, ws, want in (("C18", mids, lambda b: b > 1), ("C19", highs, lambda b: b < 1)):
        bt = [best(tw, w) for w in ws]
        bh = [best(hy, w) for w in ws]
        ok = [want(b[0]) for b in bt]
        same = [a[0] for a in bt] == [b[0] for b in bh]
        rows.append(Row(cid, "S-maximising m1/m2 (grid " + fmt(asym) + ") at omega " + fmt(ws),
                        *PAPER[cid], twin="; ".join(f"omega {fmt(w)}: {fmt(b[0])} (S {fmt(b[1] * 1e3)} mm)" for w, b in zip(ws, bt)),
                        reference="hybrid " + "; ".join(f"omega {fmt(w)}: {fmt(b[0])}" for w, b in zip(ws, bh)),
                        error=None, verdict=AGREE if all(ok) else PARTLY if any(ok) else DISAGREE,
                        reason="" if all(ok) else
                        ("twin and exact hybrid model agree, so not a MuJoCo contact effect: " if same else
                         "twin and hybrid model differ; ") +
                        "both prefer the heavier link 2 (m1/m2 < 1) here; link 1 leads at psi = 20 deg (the robot "
                        "moves towards foot 1), so link 2 is the rear one; the paper does not define front/rear in "
                        "the text (if its 'front' is link 2, C19 flips instead)"))
    return rows


def claims_crawler_feedback(ctx: Context) -> list[Row]:
    """Fig. 13/14: eq. 19 feedback vs open loop at omega = 8 (paper values withheld)."""
    ov = {"experiment.cycles": ctx.g(20, 6)}
    s, out = ctx.run("crawler_feedback", "crawler_fig13", ov)
    ctx.plot(out / "feedback.png", "crawler_fig13_feedback.png", "Crawler Fig. 13/14: feedback vs open loop, twin")
    h, _ = ctx.run("crawler_feedback", "crawler_fig13_hybrid", {**ov, "engine": "hybrid"})
    mm = 1e3
    return [
        Row("C20", "omega = 8: mean S of the last 2 steps, open loop (prescribed angles)", *PAPER["C20"],
            twin=s["S_open"] * mm, reference=f"hybrid {fmt(h['S_open'] * mm)}", unit="mm",
            error=f"{fmt((s['S_open'] - h['S_open']) * mm)} mm vs hybrid", verdict=WITHHELD,
            reason="paper value withheld; twin vs hybrid only"),
        Row("C21", "omega = 8: mean S of the last 2 steps with the eq. 19 feedback (K_v 10, K_P 80, K_D 100, Phi [90, 130] deg)",
            *PAPER["C21"], twin=s["S_feedback"] * mm, reference=f"hybrid {fmt(h['S_feedback'] * mm)}", unit="mm",
            error=f"{fmt((s['S_feedback'] - h['S_feedback']) * mm)} mm vs hybrid", verdict=WITHHELD,
            reason="paper value withheld; the improvement over open loop is reproduced by twin and hybrid"
            if s["S_feedback"] > s["S_open"] and h["S_feedback"] > h["S_open"] else "paper value withheld"),
    ]


CLAIMS = [
    ('Crawler (Gamus, Gat & Or): Fig. 4', claims_crawler_frequency),
    ('Crawler: Fig. 6', claims_crawler_psi_map),
    ('Crawler: Fig. 7', claims_crawler_reversal),
    ('Crawler: Figs. 8/9, Sec. V-VI', claims_crawler_friction),
    ('Crawler: Fig. 12', claims_crawler_mass),
    ('Crawler: Figs. 13/14', claims_crawler_feedback),
]
