"""BOLT's design statements (Sec. 3.2, Fig. 5), checked on the twin's own foot and knee paths.

The twin's paths come from experiment bolt_foot_path (body fixed, crank turned slowly, the MuJoCo loops
closing softly): the foot F and the knee E in the body frame {B} (origin at the crankshaft P).  Every
row states its proxy and tolerance before its value is computed; the paper's sentences are quoted in
`PAPER`.  The group is listed in envs/bolt/paper/claims.py's `CLAIMS`.
"""
from __future__ import annotations

import math

import numpy as np

from ...core.report.report import KINEMATIC, Context, Range, Row, Tol, fmt

PAPER = {
    "B12": ("Sec. 3.2", "'the crank radius proportionally affects the stride length'"),
    "B13": ("Sec. 3.2", "'the distance between the hip and crank joint inversely affects the angle of attack'"),
    "B14": ("Sec. 3.2, Fig. 5(a)", "'the trajectory of the knee is shown to be constrained in the first quadrant'"),
    "B15": ("Sec. 3.2, Fig. 5(b)", "'the flight-phase trajectory ... possess[es] a slight concavity near the apex'"),
    "B16": ("Sec. 3.2, Fig. 5(b)", "'the trajectory still possesses a rapid entrance into the stance phase'"),
}

STEP = 0.05            # relative change of a length for the sensitivities (B12, B13), both ways
STANCE_BAND = 0.05     # the stance phase: foot within this fraction of the step height above its lowest point


def one_revolution(table) -> tuple:
    """(q1 [rad], foot F, knee E as complex x + i y in {B}) of a bolt_foot_path table, in crank order
    (the run turns the crank once)."""
    col = lambda k: np.array([r[k] for r in table], float)  # noqa: E731
    q = np.radians(col("q_1_deg"))
    F = col("foot_x") + 1j * col("foot_y")
    E = col("knee_x") + 1j * col("knee_y")
    return q, F, E


def path_features(F) -> dict:
    """Apex, stance entry and curvature of a closed foot path F (complex, in crank order, one revolution).

    stance: samples within STANCE_BAND x step height of the lowest point; entry: the first stance sample
    after the apex; descent / ascent: the fractions of the revolution from the apex to the stance entry and
    from the stance's end back to the apex; concave: samples whose curvature has the sign opposite to the
    path's dominant one; concave_depth: the largest drop of a concave sample below the apex / step height."""
    y = F.imag
    H = float(np.ptp(y))
    i0 = int(np.argmax(y))
    Fa = np.roll(F[:-1] if abs(F[-1] - F[0]) < 1e-9 else F, -i0)      # start at the apex
    n = len(Fa)
    st = Fa.imag <= Fa.imag.min() + STANCE_BAND * H
    idx = np.flatnonzero(st)
    dx, dy = np.gradient(Fa.real), np.gradient(Fa.imag)
    kap = dx * np.gradient(dy) - dy * np.gradient(dx)                  # the curvature's sign only
    dominant = np.sign(np.sum(np.sign(kap)))
    concave = np.sign(kap) == -dominant
    depth = float((Fa.imag[0] - Fa.imag[concave]).max() / H) if concave.any() else math.nan
    return dict(H=H, entry=Fa[idx[0]], descent=idx[0] / n, ascent=(n - idx[-1]) / n,
                concave_fraction=float(concave.mean()), concave_depth=depth)


def attack_deg(F, hip: complex) -> float:
    """Angle of attack [deg]: the leg's line hip A -> foot F against the vertical, at the stance entry."""
    d = path_features(F)["entry"] - hip
    return math.degrees(math.atan2(abs(d.real), abs(d.imag)))


def claims_bolt_design(ctx: Context) -> list[Row]:
    """Sec. 3.2 sensitivities (B12, B13) and Fig. 5's path shapes (B14-B16), from bolt_foot_path runs."""
    from ..robot import Bolt
    p0 = Bolt().p
    paths = {}
    for key in ("l_1", "l_c"):             # crank radius |PD| = l_1; hip-crank distance |PA| = l_c
        for s in (-1, 1):
            v = float(getattr(p0, key)) * (1 + s * STEP)
            res, _ = ctx.run("bolt_foot_path", f"bolt_design_{key}_{'lo' if s < 0 else 'hi'}",
                             {"run.nthread": 1, f"robot.{key}": v})
            paths[(key, s)] = (v, one_revolution(res.table("foot_path.csv")))
    res, _ = ctx.run("bolt_foot_path", "bolt_design", {"run.nthread": 1})
    q, F, E = one_revolution(res.table("foot_path.csv"))
    rows = []
    # B12: elasticity of the stride length (horizontal extent of the foot path) in the crank radius
    tol12 = Tol(0, 0, "a range: 'proportionally' read as an elasticity d ln(stride) / d ln(l_1) in [0.5, 1.5]")
    st = {s: float(np.ptp(paths[("l_1", s)][1][1].real)) for s in (-1, 1)}
    el = math.log(st[1] / st[-1]) / math.log((1 + STEP) / (1 - STEP))
    rows.append(Row("B12", f"elasticity of the twin's stride length in the crank radius l_1 (l_1 x (1 +/- {fmt(STEP)}), "
                           "foot path of a slow revolution)", *PAPER["B12"], kind=KINEMATIC, value=el, target=Range(0.5, 1.5), tol=tol12,
                    twin=f"{fmt(el)} (stride {fmt(st[-1] * 1e3)} -> {fmt(st[1] * 1e3)} mm)",
                    reason="" if 0.5 <= el <= 1.5 else "the stride does not scale with the crank radius"))
    # B13: the angle of attack's change with the hip-crank distance
    tol13 = Tol(0, 0, "a sign: 'inversely' read as a negative change")
    hip = lambda lc: lc * math.cos(float(p0.theta)) + 1j * lc * math.sin(float(p0.theta))  # noqa: E731
    att = {s: attack_deg(paths[("l_c", s)][1][1], hip(paths[("l_c", s)][0])) for s in (-1, 1)}
    d13 = att[1] - att[-1]
    rows.append(Row("B13", f"change of the angle of attack (hip A -> foot against the vertical at the stance entry) "
                           f"from l_c x {fmt(1 - STEP)} to x {fmt(1 + STEP)} (l_c: hip-crank distance |PA|)",
                    *PAPER["B13"], kind=KINEMATIC, value=d13, target=Range(hi=0.0), tol=tol13, unit="deg",
                    twin=f"{fmt(d13)} ({fmt(att[-1])} -> {fmt(att[1])} deg)",
                    reason="the stance entry is the first point within 5 % of the step height above the path's "
                           "lowest point (body fixed; the paper's impact angle rests on its own ground line)" +
                           ("" if d13 <= 0 else "; the angle grows with l_c")))
    # B14: the knee stays in one quadrant of {B}
    tol14 = Tol(0, 0, "a fraction: every sample")
    quad = np.sign(E.real) * 2 + np.sign(E.imag)
    vals, counts = np.unique(quad, return_counts=True)
    frac = float(counts.max() / len(quad))
    xs, ys = ("x > 0" if np.median(E.real) > 0 else "x < 0"), ("y > 0" if np.median(E.imag) > 0 else "y < 0")
    rows.append(Row("B14", "fraction of a revolution the knee E spends in its one quadrant of {B} (origin P)",
                    *PAPER["B14"], kind=KINEMATIC, value=frac, target=1.0, tol=tol14,
                    twin=f"{fmt(frac)} (quadrant {xs}, {ys}: ahead of and below the crankshaft)",
                    reason="the paper's Fig. 5(a) axes are not in the text; 'first quadrant' is read as 'one "
                           "quadrant, never crossing an axis' (the paper contrasts it with the heuristic design's knee path)"))
    f = path_features(F)
    tol15 = Tol(0, 0, "ranges: a concave stretch exists (>= 1 % of the revolution, at most a quarter: 'slight') "
                      "and lies in the top quarter of the step height ('near the apex')")
    rows.append(Row("B15", "foot path: fraction of the revolution whose curvature is opposite to the path's, and the "
                           "concave stretch's largest drop below the apex / step height", *PAPER["B15"], kind=KINEMATIC,
                    value=[f["concave_fraction"], f["concave_depth"]], target=[Range(0.01, 0.25), Range(0.0, 0.25)],
                    tol=tol15, twin=f"{fmt([f['concave_fraction'], f['concave_depth']])} (step height "
                                    f"{fmt(f['H'] * 1e3)} mm)",
                    reason="" if 0.01 <= f["concave_fraction"] <= 0.25 and f["concave_depth"] <= 0.25 else
                    "no slight concavity near the apex"))
    ratio = f["descent"] / f["ascent"]
    tol16 = Tol(0, 0, "a range: 'rapid entrance' read as a descent from the apex to the stance shorter than the "
                      "ascent from the stance to the apex (ratio < 1)")
    rows.append(Row("B16", "crank-angle fraction from the apex to the stance entry over that from the stance's end to "
                           "the apex", *PAPER["B16"], kind=KINEMATIC, value=ratio, target=Range(0.0, 1.0), tol=tol16,
                    twin=f"{fmt(ratio)} (descent {fmt(f['descent'])}, ascent {fmt(f['ascent'])} of a revolution)",
                    reason="" if ratio < 1 else "the foot enters the stance no faster than it leaves it"))
    return rows
