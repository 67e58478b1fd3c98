"""The crawler paper's claims on its dynamics: Fig. 5 slip directions, Sec. VII time scaling and
Sec. VIII feedback, Fig. 11 mass ratio (twin against paper and exact model).  Their paper statements are `PAPER` here;
envs/crawler/paper/claims.py merges them into its own and lists these groups in the report's `CLAIMS`."""
from __future__ import annotations

from ...core.report.report import WITHHELD_KIND, Context, Range, Row, Tol, by_value, fmt

MM = 1e3
# twin vs the exact hybrid model, S in mm: the contact recipe's acceptance (models/crawler/README.md)
TOL_S = Tol(1.5, 0.03, "twin-vs-exact acceptance of the contact recipe, max(1.5 mm, 3 %)")

PAPER = {
    "C20": ("Sec. VIII, App., Fig. 13/14", "withheld"),
    "C21": ("Sec. VIII, App., Fig. 13/14", "withheld"),
    "C22": ("Sec. IV, Fig. 5", "range 1: slip only forward; range 2: growing backward slip; range 3: backward "
                               "slip all cycle, both feet forward for a short part"),
    "C25": ("Sec. VIII, App., Fig. 13", "feedback gait converges to a two-step periodic solution"),
    "C24": ("Sec. VII, App., Fig. 11", "S grows almost monotonically as the distal links get lighter"),
    "C26": ("Sec. VII, Fig. 9", "'A significant improvement of S is achieved at the middle- and high-frequency "
                                "ranges' (time scaling)"),
}


def claims_crawler_feedback(ctx: Context) -> list[Row]:
    """Fig. 13/14: eq. 19 feedback vs open loop at omega = 8 (paper values withheld)."""
    ov = {"experiment.cycles": ctx.g(20, 6)}
    res, out = ctx.run("crawler_feedback", "crawler_fig13", ov)
    ctx.plot(out / "feedback.png", "crawler_fig13_feedback.png", "Crawler Fig. 13/14: feedback vs open loop, twin")
    hres, _ = ctx.run("crawler_feedback", "crawler_fig13_hybrid", {**ov, "engine": "hybrid"})
    s, h = res.summary, hres.summary

    def period(seq, n=4):      # smallest p in 1..3 with S_k = S_(k-p) over the last n steps (0: none)
        rel = lambda x, y: abs(x - y) <= 2e-5 + 2e-3 * abs(y)     # crawler_feedback's steady criterion  # noqa: E731
        for p in (1, 2, 3):
            if len(seq) >= n + p and all(rel(seq[-k], seq[-k - p]) for k in range(1, n + 1)):
                return p
        return 0
    pt, ph = period(s["S_feedback_seq"]), period(h["S_feedback_seq"])
    from .claims_statements import c35_row, mm
    band = c35_row(ctx, s, ov["experiment.cycles"])
    improves = lambda d: None not in (d["S_open"], d["S_feedback"]) and d["S_feedback"] > d["S_open"]  # noqa: E731
    last = lambda d: fmt([x * MM for x in d["S_feedback_seq"][-4:]])  # noqa: E731
    return [
        Row("C20", "omega = 8: mean S of the last 2 steps, open loop (prescribed angles)", *PAPER["C20"],
            kind=WITHHELD_KIND, value=mm(s["S_open"]), ref=mm(h["S_open"]), reference=f"hybrid {fmt(mm(h['S_open']))}",
            unit="mm", reason="paper value withheld; twin vs hybrid only"),
        Row("C21", "omega = 8: mean S of the last 2 steps with the eq. 19 feedback (K_v 10, K_P 80, K_D 100, "
                   "Phi [90, 130] deg)", *PAPER["C21"], kind=WITHHELD_KIND, value=mm(s["S_feedback"]),
            ref=mm(h["S_feedback"]), reference=f"hybrid {fmt(mm(h['S_feedback']))}", unit="mm",
            reason="paper value withheld; the improvement over open loop is reproduced by twin and hybrid"
            if improves(s) and improves(h) else "paper value withheld"),
        Row("C25", "omega = 8, eq. 19 feedback: period (in steps) of the steady gait over the last 4 steps "
                   "(0: not periodic within 3 steps)", *PAPER["C25"], value=pt, target=2, ref=ph,
            twin=f"{pt} (last steps {last(s)} mm)", reference=f"hybrid {ph} (last steps {last(h)} mm)",
            tol=Tol(0, 0, "a period: exact; steps equal within crawler_feedback's steady criterion 2e-3 relative"),
            reason="" if pt == ph == 2 else "the paper's two-step solution is not reproduced by the project's "
                                             "exact model either" if ph != 2 else
                   "the exact model settles on the two-step solution, the twin's steps still drift"),
        band,
    ]


def claims_crawler_time_scaling(ctx: Context) -> list[Row]:
    """Sec. VII / Fig. 9: time-scaled inputs (eq. 8) improve S at mid and high omega."""
    trials = ctx.g(48, 8)
    ov = {"experiment.omega": ctx.g([3.2, 8.0, 16.0], [3.2, 16.0]), "experiment.n_trials": trials,
          "experiment.psi_baseline": ctx.g([0, 20, 40, 60, 80, 100, 120], [20, 100]), "run.cycles": ctx.g(30, 15)}
    res, out = ctx.run("crawler_time_scaling", "crawler_time_scaling", ov)
    ctx.plot(out / "fig10_time_scaling.png", "crawler_fig10_time_scaling.png", "Crawler Fig. 10: time-scaled gait, twin")
    best = res.summary.get("best") or []
    tol = Tol(0, 0, "a range: 'significant' read as a 20 % gain")
    g = [float(b["gain"]) for b in best]
    from .claims_statements import c33_row, c34_row
    return [Row("C26", "S(best time-scaled input) / S(best alpha = 0 input) at omega " + fmt([b["omega"] for b in best]) +
                f" (Optuna TPE, {trials} trials after the alpha = 0 psi grid; proxy for 'significant improvement': "
                ">= 1.2)", *PAPER["C26"], value=g or None, target=Range(1.2), tol=tol,
                twin="; ".join(f"omega {fmt(b['omega'])}: x{fmt(b['gain'])} ({fmt(b['value_base'] * MM)} -> "
                               f"{fmt(b['value_best'] * MM)} mm)" for b in best) or None,
                reason=C26_READING + ("; a finite search gives a lower bound of the gain" if g and min(g) < 1.2 else "")),
            c33_row(ctx, next(b for b in best if b["omega"] == 3.2), ov["run.cycles"]),
            c34_row(next(b for b in best if b["omega"] == 3.2))]


C26_READING = ("Sec. VII: 'A significant improvement of S is achieved at the middle- and high-frequency ranges' (Fig. 9, "
               "purple); earlier reports' exact x1 at omega 8 and 16 was a search bug (trials after the first omega "
               "scored from the wrong rows; fixed in envs/crawler/paper/time_scaling.py), not the budget")


def claims_crawler_slip(ctx: Context) -> list[Row]:
    """C22, Fig. 5: the slip directions per range from crawler_slip_pattern, twin and exact model."""
    res, out = ctx.run("crawler_slip_pattern", "crawler_fig5", {"run.cycles": ctx.g(12, 6)}, {})
    ss, modes = res.summary, res.table("results.csv")      # modes: one row per (engine, omega, foot)
    ctx.plot(out / "slip_pattern_16.png", "crawler_fig5_slip_16.png", "Crawler Fig. 5: contact modes at omega = 16, "
             "twin (top) and exact model")

    tw, ex = c22_value(ss["claims"]["mujoco"], modes, "mujoco"), c22_value(ss["claims"]["hybrid"], modes, "hybrid")
    return [Row("C22", "Fig. 5 slip directions: " + "; ".join(C22_PARTS), *PAPER["C22"], value=tw,
                target=C22_TARGET, ref=ex,
                tol=Tol(0.02, 0.0, "mode fractions: the twin's velocity threshold disagrees with the exact model's "
                                   "own mode log on <= 1.4 % of the cycle"),
                reference=f"hybrid {fmt(ex)}", reason="" if ss.get("hybrid_modes_match_log") else
                "the exact model's sampled modes differ from its own log")]


# C22's value, element by element, and its targets (fixed before comparing; envs/crawler/paper/slip_pattern.py's bounds)
C22_PARTS = ("range 1: backward slip distance / S at omega 0.3 (<= 0.02)",
             "range 2: growth of the backward-slip fraction (summed over the feet) from omega 0.3 to 5.1 (>= 0.1)",
             "range 2, 3: the smaller foot's backward-slip fraction at omega 5.1 and at 16 (>= 0.1 each)",
             "range 3: fraction of the cycle both feet slip forward together at omega 16 (in (0, 0.25]: 'a short "
             "part'; > 0 read as at least 0.5 % of the cycle)")
C22_TARGET = [Range(hi=0.02), Range(lo=0.1), Range(lo=0.1), Range(lo=0.1), Range(0.005, 0.25)]


def c22_value(claims: list, modes: list, engine: str) -> list:
    """C22's value from crawler_slip_pattern's statements of one engine and its mode table (rows per engine,
    omega, foot with slip_backward)."""
    stat = lambda prefix: next(c["value"] for c in claims if c["statement"].startswith(prefix))  # noqa: E731
    back = lambda w: [r["slip_backward"] for r in modes if r["engine"] == engine and r["omega"] == w]  # noqa: E731
    return [stat("range 1: backward slip distance"), sum(back(5.1)) - sum(back(0.3)), min(back(5.1)), min(back(16.0)),
            stat("range 3: for a short portion of the cycle both feet slip forward")]


def claims_crawler_mass_ratio(ctx: Context) -> list[Row]:
    """Fig. 11: S vs the distal-to-centre mass ratio at m1 = m2; lighter distal links, larger S."""
    ratios = [0.25, 0.5, 1.0]
    omegas = ctx.g([3.2, 8.0, 16.0], [3.2, 16.0])
    ov = {"experiment.mass_ratio": ratios, "experiment.m1_over_m2": [1.0], "run.cycles": ctx.g(40, 20),
          "run.min_cycles": 3}
    res, _ = ctx.run("crawler_mass_distribution", "crawler_fig11", ov, {"omega": omegas})
    h, _ = ctx.run("crawler_mass_distribution", "crawler_fig11_hybrid", {**ov, "engine": "hybrid"}, {"omega": omegas})

    def curves(result):  # omega -> S (mm) over the mass ratios, lightest distal links first
        rs = result.table("results.csv")
        return {w: [r["S"] * MM for r in sorted(by_value(rs, "omega", w), key=lambda r: r["mass_ratio"])]
                for w in omegas}

    return [c24_row(omegas, ratios, curves(res), curves(h))]


def c24_row(omegas, ratios, ct: dict, ch: dict) -> Row:
    """C24 from S curves (omega -> S [mm] over `ratios`, lightest distal links first), twin and exact model.

    The value is, per omega, S(lightest) - S(heaviest): 'grows almost monotonically' read as a trend whose
    direction is right at every omega (a sign: exact bound 0, stated before comparing); a reversed trend
    fails whatever its size, dips between the end points are allowed ('almost')."""
    net = lambda c: [S[0] - S[-1] for S in c.values()]  # noqa: E731
    dt, dh = net(ct), net(ch)
    show = lambda c: "; ".join(f"omega {fmt(w)}: {fmt(S)}" for w, S in c.items())  # noqa: E731
    bad = [w for w, x in zip(ct, dt) if x < 0]
    return Row("C24", f"per omega {fmt(omegas)}: S(mass ratio {fmt(ratios[0])}) - S({fmt(ratios[-1])}) (m1 = m2; "
                      "proxy for 'grows almost monotonically as the distal links get lighter': positive at every "
                      "omega, dips between allowed)", *PAPER["C24"], value=dt, target=Range(0.0), ref=dh, tol=TOL_S,
               twin=f"{fmt(dt)} (S: {show(ct)})", reference=f"hybrid {fmt(dh)} (S: {show(ch)})", unit="mm",
               reason="" if not bad else f"S falls as the distal links get lighter at omega {fmt(bad)}; the exact "
                      "model " + ("shows the same" if all(x < 0 for w, x in zip(ch, dh) if w in bad) else
                                  "does not"))
