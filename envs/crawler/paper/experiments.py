"""Crawler experiments (paper: Gamus, Gat & Or): computations returning a Result (tables, plots from
envs/crawler/paper/plots.py, summary) that the shell writes into Hydra's run directory.

Every experiment runs with `engine=mujoco` (the MuJoCo twin, native batch runner)
or `engine=hybrid` (the paper's exact hybrid model, envs/crawler/paper/hybrid.py, points
in a process pool) and writes the same results.csv columns either way.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np

from ...core.runs import progress, sweep as sw
from ...core.model.errors import ConfigError
from ...core.runs.experiment import Result, robot_params, runner, sweep_lists
from ...core.runs.timeseries import configured_run
from . import outputs, plots
from ..config import ENGINES
from .engines import column, engine_of, exp_cfg, grid_points, simulate_rows, valid_S
from ..friction import friction_set, is_nominal


# ---- Fig. 4 ------------------------------------------------------------------------
@runner("crawler_frequency_sweep")
def frequency_sweep(job, out) -> Result:
    """Fig. 4: S and V vs omega.  results.csv, S_V_vs_omega.png, summary.json.

    experiment.overlay (default: hybrid; null: none): also run the other engine into
    results_<engine>.csv and draw its curve (Fig. 4 with the hybrid curve).
    """
    engine = engine_of(job)
    overlay = exp_cfg(job, "overlay")
    if overlay and overlay not in ENGINES:
        raise ConfigError("experiment.overlay", overlay, f"one of {list(ENGINES)} or null")
    if overlay and overlay == engine:
        raise ConfigError("experiment.overlay", overlay, f"an engine other than engine={engine}, or null")
    n = len(grid_points(job))
    progress.stages([(engine, n)] + ([(overlay, n)] if overlay else []))    # one ETA over both bars
    rows, stats = simulate_rows(job, grid_points(job), out)
    curves = {engine: rows}
    if overlay:
        curves[overlay], o_stats = simulate_rows(job, grid_points(job), out, engine=overlay,
                                                 filename=f"results_{overlay}.csv")
    ok = sw.healthy(rows)               # failed and unhealthy points are left out (stats say how many)
    extra = [k for k in sweep_lists(job) if k != "omega"]    # more sweep keys: one curve, one S each
    by = "point" if extra else "omega"          # S_by_omega: {"1": S}; S_by_point: {"omega=1,psi_deg=0": S}

    def label(r):
        return sw.point_label(r, ["omega"] + extra) if extra else f"{r['omega']:g}"
    summary = dict(stats, all_steady=bool(ok) and all(bool(r["steady"]) for r in ok),
                   **{f"S_by_{by}": {label(r): r["S"] for r in ok}})
    if engine in sw.BATCH_ENGINES:
        summary["max_tracking_error_deg"] = sw.nanmax(r["tracking_error_deg"] for r in ok)
    if overlay:
        summary[f"S_by_{by}_{overlay}"] = {label(r): r["S"] for r in sw.healthy(curves[overlay])}
        summary[f"failed_points_{overlay}"] = len(curves[overlay]) - len(sw.healthy(curves[overlay]))
        summary[f"wall_s_{overlay}"] = o_stats.get("wall_s")     # wall_s is the twin's alone
        summary[f"reused_{overlay}"] = o_stats.get("reused")     # of them from the store (not timed)
    drawn = {(f"{e}, {lab}" if lab else e): part for e, rs in curves.items()      # a curve per extra-key value
             for lab, part in sw.by_extra_keys(sw.healthy(rs), extra).items()}
    draw = partial(plots.s_v, drawn, sum(len(rs) - len(sw.healthy(rs)) for rs in curves.values()))
    stored = {"results.csv": rows, **({f"results_{overlay}.csv": curves[overlay]} if overlay else {})}
    tables = {}
    if engine in sw.BATCH_ENGINES:      # one twin run's time series: the configured robot point (robot.*)
        r, run = configured_run(job, out)
        if not run.error:
            tables["timeseries.csv"] = outputs.timeseries(r, run)
        summary["timeseries_point"] = {"omega": r.cfg["omega"], "cycles": run.cycles, "error": run.error}
    return Result(summary, tables=tables, plots={"S_V_vs_omega.png": draw}, rows=stored)


# ---- twin vs hybrid ------------------------------------------------------------------
def tolerance(S_ref, abs_mm=1.5, rel=0.03):
    return np.maximum(abs_mm * 1e-3, rel * np.abs(S_ref))


@runner("crawler_twin_vs_hybrid")
def twin_vs_hybrid(job, out) -> Result:
    """S(omega) from both engines: comparison.csv (error table), twin_vs_hybrid.png."""
    pts = grid_points(job)
    main = engine_of(job)
    twin = main if main in ("warp", "auto") else "mujoco"        # the twin on the engine asked for
    progress.stages([(twin if e == "mujoco" else e, len(pts)) for e in ENGINES])
    runs = {e: simulate_rows(job, pts, out, engine=twin if e == "mujoco" else e, filename=f"results_{e}.csv")
            for e in ENGINES}
    main_rows = runs["mujoco" if main in ("warp", "auto") else main][0]
    tol_abs, tol_rel = float(exp_cfg(job, "tol_abs_mm")), float(exp_cfg(job, "tol_rel"))
    table = []
    for rm, rh in zip(runs["mujoco"][0], runs["hybrid"][0]):
        Sm, Sh = valid_S(rm), valid_S(rh)          # NaN for a failed or unhealthy point: never 'within'
        tol = float(tolerance(Sh, tol_abs, tol_rel))
        table.append(dict(omega=rm["omega"], psi_deg=rm["psi_deg"], S_mujoco_mm=Sm * 1e3, S_hybrid_mm=Sh * 1e3,
                          err_mm=(Sm - Sh) * 1e3, tol_mm=tol * 1e3, within=bool(abs(Sm - Sh) <= tol),
                          steady_mujoco=rm["steady"], steady_hybrid=rh["steady"],
                          liftoff_frac_mujoco=max(sw.num(rm["foot1_liftoff"]), sw.num(rm["foot2_liftoff"])),
                          fn_min_hybrid=min(sw.num(rh["foot1_fn_min"]), sw.num(rh["foot2_fn_min"])),
                          error="; ".join(f"{e}: {r['error']}" for e, r in (("mujoco", rm), ("hybrid", rh))
                                          if r.get("error"))))
    err = np.array([t["err_mm"] for t in table])
    summary = dict(engine=main, points=len(pts), wall_s={e: runs[e][1]["wall_s"] for e in ENGINES},
                   max_abs_err_mm=sw.nanmax(np.abs(err)),
                   failed_points={e: runs[e][1]["failed_points"] for e in ENGINES},
                   all_healthy=all(runs[e][1]["all_healthy"] for e in ENGINES),
                   all_within=bool(all(t["within"] for t in table)),
                   failing_omega=[t["omega"] for t in table if not t["within"]], table=table)
    return Result(summary, tables={"results.csv": (list(main_rows[0].keys()) if main_rows else [], main_rows),
                                   "comparison.csv": (list(table[0].keys()) if table else [], table)},
                  plots={"twin_vs_hybrid.png": partial(plots.twin_vs_hybrid, table, tol_abs, tol_rel)})


# ---- Fig. 6: psi-omega map ------------------------------------------------------------
def _optimum(xs, ys):
    """argmax over the grid (refine with a finer sweep.psi_deg: S(psi) has a kink at psi = 0,
    where the gait is symmetric and S = 0, so interpolating across it would overshoot)."""
    ys = np.asarray(ys, float)
    if not np.isfinite(ys).any():
        return math.nan, math.nan
    j = int(np.nanargmax(ys))
    return float(xs[j]), float(ys[j])


@runner("crawler_psi_omega_map")
def psi_omega_map(job, out) -> Result:
    """Fig. 6: S over (psi, omega); psi_star.csv with the S-optimal phase per omega."""
    pts = grid_points(job)
    rows, stats = simulate_rows(job, pts, out)
    omegas = sorted({r["omega"] for r in rows})
    psis = sorted({r["psi_deg"] for r in rows})
    S = np.full((len(psis), len(omegas)), np.nan)
    for r in rows:
        S[psis.index(r["psi_deg"]), omegas.index(r["omega"])] = valid_S(r)     # failed/unhealthy: NaN
    star = []
    for j, w in enumerate(omegas):
        p, s = _optimum(psis, S[:, j])
        star.append(dict(omega=w, psi_star_deg=p, S_star=s))
    summary = dict(stats, psi_star={f"{s['omega']:g}": s["psi_star_deg"] for s in star},
                   S_star_mm={f"{s['omega']:g}": s["S_star"] * 1e3 for s in star})
    return Result(summary, tables={"psi_star.csv": (["omega", "psi_star_deg", "S_star"], star)}, rows={"results.csv": rows},
                  plots={"psi_omega_map.png": partial(plots.psi_omega_map, omegas, psis, S, star, engine_of(job))})


# ---- Fig. 7: direction reversal ---------------------------------------------------------
def zero_crossings(x, y):
    x, y = np.asarray(x, float), np.asarray(y, float)
    out = []
    for i in range(len(x) - 1):
        if np.isfinite(y[i:i + 2]).all() and y[i] * y[i + 1] < 0:
            out.append(float(x[i] - y[i] * (x[i + 1] - x[i]) / (y[i + 1] - y[i])))
        elif y[i] == 0:
            out.append(float(x[i]))
    return out


@runner("crawler_direction_reversal")
def direction_reversal(job, out) -> Result:
    """Fig. 7: (a) S vs omega at phi0=145 deg, mu=0.172 (results.csv);
    (b) S vs phi0 at omega=9 rad/s, mu=0.398 (results_phi0.csv)."""
    a, b = exp_cfg(job, "a"), exp_cfg(job, "b")
    base = robot_params(job)
    pa = [{**base, **a["fixed"], "omega": w} for w in a["omega"]]
    pb = [{**base, **b["fixed"], "phi0_deg": p} for p in b["phi0_deg"]]
    progress.stages([(engine_of(job), len(pa)), (engine_of(job), len(pb))])
    ra, sa = simulate_rows(job, pa, out)
    rb, sb = simulate_rows(job, pb, out, filename="results_phi0.csv")
    stored = {"results.csv": ra, "results_phi0.csv": rb}
    ra, rb = sw.healthy(ra), sw.healthy(rb)     # failed and unhealthy points are left out (summary says)
    wa, Sa = column(ra, "omega"), column(ra, "S")
    pb_, Sb = column(rb, "phi0_deg"), column(rb, "S")
    summary = dict(engine=engine_of(job), wall_s=sa["wall_s"] + sb["wall_s"],
                   failed_points=sa["failed_points"] + sb["failed_points"],
                   all_healthy=sa["all_healthy"] and sb["all_healthy"], failed=sa["failed"] + sb["failed"],
                   reversal_omega=zero_crossings(wa, Sa), reversal_phi0_deg=zero_crossings(pb_, Sb),
                   S_vs_omega_mm={f"{w:g}": s * 1e3 for w, s in zip(wa, Sa)},
                   S_vs_phi0_mm={f"{p:g}": s * 1e3 for p, s in zip(pb_, Sb)})
    draw = partial(plots.direction_reversal, a, b, wa, Sa, pb_, Sb, engine_of(job))
    return Result(summary, plots={"direction_reversal.png": draw}, rows=stored)


# ---- Fig. 8/9, eqs. 6-7: friction robustness ------------------------------------------------
@runner("crawler_friction_robustness")
def friction_robustness(job, out) -> Result:
    """S over the friction uncertainty set (envs/crawler/friction.py: `experiment.sampling` ratio,
    mu1/mu2 in {1 + eps k}, or eq7, mu_i in {(1 + eps k) mu}) per (omega, psi): S_min, S_max,
    S_mu (eq. 6); psi*(omega) and psi_mu*(omega).  results.csv (every point), robustness.csv, optima.csv."""
    eps, sampling = float(exp_cfg(job, "eps")), exp_cfg(job, "sampling")
    base = robot_params(job)
    mu = float(base["mu"])
    combos = friction_set(mu, eps, exp_cfg(job, "levels"), sampling)
    pts = [{**p, "mu1": m1, "mu2": m2} for p in grid_points(job) for m1, m2 in combos]
    rows, stats = simulate_rows(job, pts, out)
    groups = {}
    for r in rows:
        groups.setdefault((r["omega"], r["psi_deg"]), []).append(r)
    rob = []
    for (w, psi), rs in sorted(groups.items()):
        Ss = np.array([valid_S(r) for r in rs])               # failed/unhealthy points: NaN
        nom = [valid_S(r) for r in rs if is_nominal(r["mu1"], r["mu2"], mu)]
        Smin, Smax = sw.nanmin(Ss), sw.nanmax(Ss)
        rob.append(dict(omega=w, psi_deg=psi, S=nom[0] if nom else math.nan, S_min=Smin, S_max=Smax,
                        S_mu=0.5 * (Smin + Smax), failed_points=sum(1 for r in rs if r.get("error"))))
    optima = []
    for w in sorted({r["omega"] for r in rob}):
        rs = sorted([r for r in rob if r["omega"] == w], key=lambda r: r["psi_deg"])
        psis = [r["psi_deg"] for r in rs]
        if not (np.isfinite([r["S"] for r in rs]).any() and np.isfinite([r["S_mu"] for r in rs]).any()):
            continue                      # every point of this omega failed
        jS = int(np.nanargmax([r["S"] for r in rs]))
        jM = int(np.nanargmax([r["S_mu"] for r in rs]))
        optima.append(dict(omega=w, psi_star_deg=psis[jS], S_at_psi_star=rs[jS]["S"], S_mu_at_psi_star=rs[jS]["S_mu"],
                           loss_at_psi_star=1 - rs[jS]["S_mu"] / rs[jS]["S"],
                           psi_mu_star_deg=psis[jM], S_at_psi_mu_star=rs[jM]["S"], S_mu_at_psi_mu_star=rs[jM]["S_mu"],
                           loss_at_psi_mu_star=1 - rs[jM]["S_mu"] / rs[jM]["S"]))
    summary = dict(stats, sampling=sampling, eps=eps, friction_set=[list(c) for c in combos], optima=optima)
    return Result(summary, tables={"robustness.csv": (list(rob[0].keys()), rob),
                                   "optima.csv": (list(optima[0].keys()) if optima else [], optima)},
                  plots={"friction_robustness.png": partial(plots.friction_robustness, rob, optima, eps, sampling,
                                                            engine_of(job))},
                  rows={"results.csv": rows})


# ---- Fig. 11/12: mass distribution --------------------------------------------------------
def mass_points(base, ratio, asym):
    """m1, m2 for distal-to-centre ratio (m1+m2)/(2 m0) and asymmetry m1/m2; inertias scale with mass."""
    m0 = float(base["m0"])
    m2 = 2 * ratio * m0 / (1 + asym)
    m1 = asym * m2
    J1 = float(base["J1"]) * m1 / float(base["m1"])
    J2 = float(base["J2"]) * m2 / float(base["m2"])
    return dict(m1=m1, m2=m2, J1=J1, J2=J2)


@runner("crawler_mass_distribution")
def mass_distribution(job, out) -> Result:
    """Fig. 11/12: S over mass ratio x asymmetry for several omega.  results.csv, PNG."""
    ratios, asyms = exp_cfg(job, "mass_ratio"), exp_cfg(job, "m1_over_m2")
    pts, meta = [], []
    for p in grid_points(job):
        for rr in ratios:
            for a in asyms:
                pts.append({**p, **mass_points(p, rr, a)})
                meta.append(dict(mass_ratio=rr, m1_over_m2=a))
    rows, stats = simulate_rows(job, pts, out, meta=meta)
    ws = sorted({r["omega"] for r in rows})
    best = {}
    for w in ws:
        rs = [r for r in rows if r["omega"] == w and np.isfinite(valid_S(r))]
        if rs:
            b = max(rs, key=lambda r: r["S"])
            best[f"{w:g}"] = dict(mass_ratio=b["mass_ratio"], m1_over_m2=b["m1_over_m2"], S_mm=b["S"] * 1e3)
    summary = dict(stats, best=best, mass_preference=mass_preference(rows))
    draw = partial(plots.mass_distribution, rows, ws, ratios, asyms, engine_of(job))
    return Result(summary, plots={"mass_distribution.png": draw}, rows={"results.csv": rows})


FIG12_RATIO = 0.5      # Fig. 12: the section (m1 + m2)/(2 m0) = 0.5


def mass_preference(rows, ratio=FIG12_RATIO) -> dict:
    """Fig. 12 preference per omega on the section mass_ratio = `ratio` (the nearest one run).

    Convention (models/crawler/README.md, "Mass preference"): link 1 carries foot 1 and mass m1
    (eqs. 9, 12), S > 0 is motion towards foot 1, so link 1 is the front link whenever S > 0
    (the paper's "front link m1 > m2").  dS_dlog: central difference of S over ln(m1/m2) at the
    two asymmetries nearest 1 on either side (mm per unit ln); preferred_heavier_link: the
    heavier link of the S-maximal asymmetry (front = m1 > m2, rear = m2 > m1, none = m1 = m2).
    """
    ok = [r for r in rows if np.isfinite(valid_S(r))]
    if not ok:
        return {}
    sec = min({r["mass_ratio"] for r in ok}, key=lambda x: abs(x - ratio))
    out = {}
    for w in sorted({r["omega"] for r in ok}):
        rs = sorted([r for r in ok if r["omega"] == w and r["mass_ratio"] == sec], key=lambda r: r["m1_over_m2"])
        a = np.array([r["m1_over_m2"] for r in rs])
        S = np.array([valid_S(r) for r in rs])
        lo, hi = a < 1, a > 1
        slope = (math.nan if not (lo.any() and hi.any()) else
                 float((S[hi][0] - S[lo][-1]) / math.log(a[hi][0] / a[lo][-1]) * 1e3))
        best = float(a[int(np.argmax(S))])
        out[f"{w:g}"] = dict(mass_ratio=sec, S_mm={f"{x:g}": float(y * 1e3) for x, y in zip(a, S)},
                             dS_dlog_m1_over_m2_mm=slope, best_m1_over_m2=best,
                             preferred_heavier_link="front (m1 > m2)" if best > 1 else
                             "rear (m2 > m1)" if best < 1 else "none (m1 = m2)")
    return out

