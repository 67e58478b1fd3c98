"""Crawler experiments (paper: Gamus, Gat & Or).  Each writes into Hydra's run directory.

Every experiment runs with `engine=mujoco` (the MuJoCo twin, native batch runner)
or `engine=hybrid` (the paper's exact hybrid model, envs/crawler_hybrid.py, points
in a process pool) and writes the same results.csv columns either way.
"""
from __future__ import annotations

import math
import time

import numpy as np
from omegaconf import OmegaConf

from envs.core import config, sweep as sw
from envs.crawler.config import ENGINES
from envs.crawler.robot import FORWARD, Crawler
from envs.core.errors import ConfigError
from envs.core.experiment import options, robot_cls, robot_params, run_kw, sweep_lists
from envs.core.plots import pyplot, save_figure

EXTRA = ("S", "V", "steady")


# ---- engine dispatch ----------------------------------------------------------------
def engine_of(cfg) -> str:
    """The configured engine, checked against the robot's (Crawler.engines)."""
    return config.validate(cfg)["engine"]


def hybrid_kw(cfg) -> dict:
    """Optional `hybrid.*` settings (rtol, atol, liftoff): `+hybrid.rtol=1e-8`."""
    h = cfg.get("hybrid", None)
    h = OmegaConf.to_container(h, resolve=True) if OmegaConf.is_config(h) else dict(h or {})
    return {k: h[k] for k in ("rtol", "atol", "liftoff", "baumgarte") if k in h}


def _nthread(cfg) -> int:
    from envs.core.batch import available_cores
    n = cfg.run.get("nthread", None)
    return available_cores() if n is None else max(1, int(n))


def _hybrid_task(i, params, cycles, min_cycles, stop, kw):
    return i, _hybrid_point(params, cycles, min_cycles, stop, kw)


def _hybrid_point(params, cycles, min_cycles, stop, kw):
    import warnings
    warnings.filterwarnings("ignore")
    from envs.crawler import hybrid as H
    run = H.simulate(params, cycles=cycles, min_cycles=min_cycles, stop_when_steady=stop, **kw)
    out = H.summarize(run)
    if run.error:
        out["error"] = run.error
    return out


def run_rows(cfg, points, out, *, engine=None, filename="results.csv", meta=None, progress=None):
    """Simulate `points` (config-parameter dicts) with the configured engine; resumable CSV.

    meta: per-point dicts of extra columns (e.g. mass ratios) written and used as keys.
    Returns (rows in point order, stats).  Rows of both engines have the same columns.
    """
    engine = engine or engine_of(cfg)
    meta = meta or [{} for _ in points]
    full = [{**m, **p} for p, m in zip(points, meta)]
    robots = [Crawler(**p) for p in points]                 # validation first: nothing written on error
    allk = list(dict.fromkeys([k for f in full for k in f]))
    metak = {k for m in meta for k in m}
    varied = [k for k in allk if k in metak or len({repr(f.get(k)) for f in full}) > 1
              or any(f.get(k) != Crawler.defaults.get(k) for f in full)]
    key = list(dict.fromkeys(varied + list(Crawler.columns)))
    simulate = sw.batch_engine(run_kw(cfg)) if engine == "mujoco" else _hybrid_engine(cfg)
    progress = cfg.run.get("progress", False) if progress is None else progress
    rows, stats = sw.run_rows(robots, out, key=key, simulate=simulate, meta=meta, extra_columns=EXTRA,
                              filename=filename, progress=progress)
    stats["engine"] = engine
    if engine != "mujoco":
        stats.pop("steps"), stats.pop("steps_per_s")
    return rows, stats


def _hybrid_engine(cfg):
    """The exact hybrid model as a run_rows engine: points in a process pool, longest first."""
    r = OmegaConf.to_container(cfg.run, resolve=True)
    args = (int(r["cycles"]), int(r["min_cycles"]), bool(r["stop_when_steady"]), hybrid_kw(cfg))

    def simulate(robots, add):
        n = min(_nthread(cfg), len(robots))
        if n <= 1:
            for j, rb in enumerate(robots):
                s = _hybrid_point(rb.cfg, *args)
                add(j, s, s.pop("error", None))
            return 0
        from joblib import Parallel, delayed
        order = sorted(range(len(robots)), key=lambda j: -robots[j].period)     # longest first
        gen = Parallel(n_jobs=n, return_as="generator_unordered")(
            delayed(_hybrid_task)(j, robots[j].cfg, *args) for j in order)
        for j, s in gen:
            add(j, s, s.pop("error", None))
        return 0
    return simulate


def grid_points(cfg, sweep=None):
    base = robot_params(cfg)
    sweep = sweep_lists(cfg) if sweep is None else sweep
    return [{**base, **combo} for combo in sw.grid(sweep)]


def exp_cfg(cfg, name):
    """One declared option of the experiment (envs/crawler/config.py)."""
    return options(cfg)[name]


def _arr(rows, k):
    return np.array([float(r[k]) if r.get(k, "") not in ("", None) else np.nan for r in rows])


# ---- Fig. 4 ------------------------------------------------------------------------
def frequency_sweep(cfg, out) -> dict:
    """Fig. 4: S and V vs omega.  results.csv, S_V_vs_omega.png, summary.json.

    experiment.overlay (default: none): also run the other engine into
    results_<engine>.csv and draw its curve (Fig. 4 with the hybrid curve).
    """
    engine = engine_of(cfg)
    rows, stats = run_rows(cfg, grid_points(cfg), out)
    curves = {engine: rows}
    overlay = exp_cfg(cfg, "overlay")
    if overlay:
        if overlay not in ENGINES:
            raise ConfigError("experiment.overlay", overlay, f"one of {list(ENGINES)} or null")
        curves[overlay], _ = run_rows(cfg, grid_points(cfg), out, engine=overlay, filename=f"results_{overlay}.csv")
    plot_s_v(curves, out / "S_V_vs_omega.png")
    summary = dict(stats, all_steady=all(bool(r["steady"]) for r in rows),
                   S_by_omega={f"{r['omega']:g}": r["S"] for r in rows})
    if engine == "mujoco":
        summary["max_tracking_error_deg"] = max(r["tracking_error_deg"] for r in rows)
    if overlay:
        summary[f"S_by_omega_{overlay}"] = {f"{r['omega']:g}": r["S"] for r in curves[overlay]}
    sw.write_json(out / "summary.json", summary)
    return summary


LABELS = {"mujoco": "MuJoCo twin", "hybrid": "exact hybrid model"}
COLORS = {"mujoco": "tab:blue", "hybrid": "tab:orange"}


def plot_s_v(curves, path) -> None:
    plt = pyplot()
    if isinstance(curves, list):
        curves = {"mujoco": curves}
    fig, ax = plt.subplots(2, 1, figsize=(6, 6), sharex=True)
    for eng, rows in curves.items():
        rows = sorted(rows, key=lambda r: r["omega"])
        w = _arr(rows, "omega")
        S, V = _arr(rows, "S") * 1e3, _arr(rows, "V") * 1e3
        steady = np.array([bool(r["steady"]) for r in rows])
        for a, y in ((ax[0], S), (ax[1], V)):
            a.plot(w, y, "o-", color=COLORS.get(eng), label=LABELS.get(eng, eng), ms=4)
            if (~steady).any():
                a.plot(w[~steady], y[~steady], "x", color="tab:red", label=None)
    for a, name in ((ax[0], "S [mm]"), (ax[1], "V [mm/s]")):
        a.axhline(0, color="k", lw=0.5)
        a.set_ylabel(name)
        a.grid(alpha=0.3)
    ax[0].legend()
    ax[1].set_xlabel("omega [rad/s]")
    ax[0].set_title("Crawler: step distance and velocity vs frequency (Fig. 4)")
    save_figure(fig, path, dpi=120)


# ---- twin vs hybrid ------------------------------------------------------------------
def tolerance(S_ref, abs_mm=3.0, rel=0.03):
    return np.maximum(abs_mm * 1e-3, rel * np.abs(S_ref))


def twin_vs_hybrid(cfg, out) -> dict:
    """S(omega) from both engines: comparison.csv (error table), twin_vs_hybrid.png."""
    pts = grid_points(cfg)
    runs = {e: run_rows(cfg, pts, out, engine=e, filename=f"results_{e}.csv") for e in ENGINES}
    main = engine_of(cfg)
    sw.ResultsFile(out / "results.csv", list(runs[main][0][0].keys()), ["omega"]).rewrite(runs[main][0])
    tol_abs, tol_rel = float(exp_cfg(cfg, "tol_abs_mm")), float(exp_cfg(cfg, "tol_rel"))
    table = []
    for rm, rh in zip(runs["mujoco"][0], runs["hybrid"][0]):
        Sm, Sh = float(rm["S"]), float(rh["S"])
        tol = float(tolerance(Sh, tol_abs, tol_rel))
        table.append(dict(omega=rm["omega"], psi_deg=rm["psi_deg"], S_mujoco_mm=Sm * 1e3, S_hybrid_mm=Sh * 1e3,
                          err_mm=(Sm - Sh) * 1e3, tol_mm=tol * 1e3, within=bool(abs(Sm - Sh) <= tol),
                          steady_mujoco=rm["steady"], steady_hybrid=rh["steady"],
                          liftoff_frac_mujoco=max(float(rm["foot1_liftoff"]), float(rm["foot2_liftoff"])),
                          fn_min_hybrid=min(float(rh["foot1_fn_min"]), float(rh["foot2_fn_min"]))))
    cols = list(table[0].keys()) if table else []
    sw.ResultsFile(out / "comparison.csv", cols, ["omega"]).rewrite(table)
    plt = pyplot()
    fig, ax = plt.subplots(2, 1, figsize=(6.5, 6.5), sharex=True)
    w = np.array([t["omega"] for t in table])
    for k, eng in (("S_mujoco_mm", "mujoco"), ("S_hybrid_mm", "hybrid")):
        ax[0].plot(w, [t[k] for t in table], "o-", ms=4, color=COLORS[eng], label=LABELS[eng])
    err = np.array([t["err_mm"] for t in table])
    tol = np.array([t["tol_mm"] for t in table])
    ax[1].plot(w, err, "o-", ms=4, color="k", label="twin - hybrid")
    ax[1].fill_between(w, -tol, tol, color="tab:green", alpha=0.2, label="target max(3 mm, 3 %)")
    ax[0].set_ylabel("S [mm]")
    ax[1].set_ylabel("error [mm]")
    ax[1].set_xlabel("omega [rad/s]")
    for a in ax:
        a.grid(alpha=0.3)
        a.legend()
    ax[0].set_title("MuJoCo twin vs exact hybrid model (Fig. 4 inputs)")
    save_figure(fig, out / "twin_vs_hybrid.png", dpi=120)
    summary = dict(engine=main, points=len(pts), wall_s={e: runs[e][1]["wall_s"] for e in ENGINES},
                   max_abs_err_mm=float(np.max(np.abs(err))) if len(err) else math.nan,
                   all_within=bool(all(t["within"] for t in table)),
                   failing_omega=[t["omega"] for t in table if not t["within"]], table=table)
    sw.write_json(out / "summary.json", summary)
    return summary


# ---- Fig. 6: psi-omega map ------------------------------------------------------------
def _optimum(xs, ys):
    """argmax over the grid (refine with a finer sweep.psi_deg: S(psi) has a kink at psi = 0,
    where the gait is symmetric and S = 0, so interpolating across it would overshoot)."""
    ys = np.asarray(ys, float)
    if not np.isfinite(ys).any():
        return math.nan, math.nan
    j = int(np.nanargmax(ys))
    return float(xs[j]), float(ys[j])


def psi_omega_map(cfg, out) -> dict:
    """Fig. 6: S over (psi, omega); psi_star.csv with the S-optimal phase per omega."""
    pts = grid_points(cfg)
    rows, stats = run_rows(cfg, pts, out)
    omegas = sorted({r["omega"] for r in rows})
    psis = sorted({r["psi_deg"] for r in rows})
    S = np.full((len(psis), len(omegas)), np.nan)
    for r in rows:
        S[psis.index(r["psi_deg"]), omegas.index(r["omega"])] = r["S"]
    star = []
    for j, w in enumerate(omegas):
        p, s = _optimum(psis, S[:, j])
        star.append(dict(omega=w, psi_star_deg=p, S_star=s))
    sw.ResultsFile(out / "psi_star.csv", ["omega", "psi_star_deg", "S_star"], ["omega"]).rewrite(star)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 5))
    if len(omegas) > 1 and len(psis) > 1:
        cs = ax.contourf(omegas, psis, S * 1e3, levels=20, cmap="viridis")
        fig.colorbar(cs, ax=ax, label="S [mm]")
    ax.plot(omegas, [s["psi_star_deg"] for s in star], "k:o", ms=3, label="psi*(omega)")
    ax.set_xscale("log")
    ax.set_xlabel("omega [rad/s]")
    ax.set_ylabel("psi [deg]")
    ax.set_title(f"Step distance over the psi-omega plane (Fig. 6), engine={engine_of(cfg)}")
    ax.legend()
    save_figure(fig, out / "psi_omega_map.png", dpi=120)
    summary = dict(stats, psi_star={f"{s['omega']:g}": s["psi_star_deg"] for s in star},
                   S_star_mm={f"{s['omega']:g}": s["S_star"] * 1e3 for s in star})
    sw.write_json(out / "summary.json", summary)
    return summary


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


def direction_reversal(cfg, out) -> dict:
    """Fig. 7: (a) S vs omega at phi0=145 deg, mu=0.172 (results.csv);
    (b) S vs phi0 at omega=9 rad/s, mu=0.398 (results_phi0.csv)."""
    a, b = exp_cfg(cfg, "a"), exp_cfg(cfg, "b")
    base = robot_params(cfg)
    pa = [{**base, **a["fixed"], "omega": w} for w in a["omega"]]
    pb = [{**base, **b["fixed"], "phi0_deg": p} for p in b["phi0_deg"]]
    ra, sa = run_rows(cfg, pa, out)
    rb, sb = run_rows(cfg, pb, out, filename="results_phi0.csv")
    wa, Sa = _arr(ra, "omega"), _arr(ra, "S")
    pb_, Sb = _arr(rb, "phi0_deg"), _arr(rb, "S")
    plt = pyplot()
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    ax[0].plot(wa, Sa * 1e3, "o-", ms=4)
    ax[0].set_xlabel("omega [rad/s]")
    ax[0].set_title(f"phi0={a['fixed'].get('phi0_deg')} deg, mu={a['fixed'].get('mu')}")
    ax[1].plot(pb_, Sb * 1e3, "o-", ms=4)
    ax[1].set_xlabel("phi0 [deg]")
    ax[1].set_title(f"omega={b['fixed'].get('omega')} rad/s, mu={b['fixed'].get('mu')}")
    for x in ax:
        x.axhline(0, color="k", lw=0.5)
        x.set_ylabel("S [mm]")
        x.grid(alpha=0.3)
    fig.suptitle(f"Direction reversal (Fig. 7), engine={engine_of(cfg)}")
    save_figure(fig, out / "direction_reversal.png", dpi=120)
    summary = dict(engine=engine_of(cfg), wall_s=sa["wall_s"] + sb["wall_s"],
                   reversal_omega=zero_crossings(wa, Sa), reversal_phi0_deg=zero_crossings(pb_, Sb),
                   S_vs_omega_mm={f"{w:g}": s * 1e3 for w, s in zip(wa, Sa)},
                   S_vs_phi0_mm={f"{p:g}": s * 1e3 for p, s in zip(pb_, Sb)})
    sw.write_json(out / "summary.json", summary)
    return summary


# ---- Fig. 8/9, eqs. 6-7: friction robustness ------------------------------------------------
def friction_robustness(cfg, out) -> dict:
    """S over mu_i in [1-eps, 1+eps] mu (eq. 7) per (omega, psi): S_min, S_max, S_mu (eq. 6);
    psi*(omega) and psi_mu*(omega).  results.csv (every point), robustness.csv, optima.csv."""
    eps = float(exp_cfg(cfg, "eps"))
    levels = exp_cfg(cfg, "levels")
    base = robot_params(cfg)
    mu = float(base["mu"])
    combos = [(1 + eps * i, 1 + eps * j) for i in levels for j in levels]
    pts = []
    for p in grid_points(cfg):
        for f1, f2 in combos:
            pts.append({**p, "mu1": round(mu * f1, 12), "mu2": round(mu * f2, 12)})
    rows, stats = run_rows(cfg, pts, out)
    groups = {}
    for r in rows:
        groups.setdefault((r["omega"], r["psi_deg"]), []).append(r)
    rob = []
    for (w, psi), rs in sorted(groups.items()):
        Ss = np.array([float(r["S"]) for r in rs])
        nom = [float(r["S"]) for r in rs if abs(float(r["mu1"]) - mu) < 1e-9 and abs(float(r["mu2"]) - mu) < 1e-9]
        Smin, Smax = float(np.nanmin(Ss)), float(np.nanmax(Ss))
        rob.append(dict(omega=w, psi_deg=psi, S=nom[0] if nom else math.nan, S_min=Smin, S_max=Smax,
                        S_mu=0.5 * (Smin + Smax)))
    sw.ResultsFile(out / "robustness.csv", list(rob[0].keys()), ["omega", "psi_deg"]).rewrite(rob)
    optima = []
    for w in sorted({r["omega"] for r in rob}):
        rs = sorted([r for r in rob if r["omega"] == w], key=lambda r: r["psi_deg"])
        psis = [r["psi_deg"] for r in rs]
        jS = int(np.nanargmax([r["S"] for r in rs]))
        jM = int(np.nanargmax([r["S_mu"] for r in rs]))
        optima.append(dict(omega=w, psi_star_deg=psis[jS], S_at_psi_star=rs[jS]["S"], S_mu_at_psi_star=rs[jS]["S_mu"],
                           loss_at_psi_star=1 - rs[jS]["S_mu"] / rs[jS]["S"],
                           psi_mu_star_deg=psis[jM], S_at_psi_mu_star=rs[jM]["S"], S_mu_at_psi_mu_star=rs[jM]["S_mu"],
                           loss_at_psi_mu_star=1 - rs[jM]["S_mu"] / rs[jM]["S"]))
    sw.ResultsFile(out / "optima.csv", list(optima[0].keys()), ["omega"]).rewrite(optima)
    plt = pyplot()
    ws = sorted({r["omega"] for r in rob})
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    for k, w in enumerate(ws):
        rs = sorted([r for r in rob if r["omega"] == w], key=lambda r: r["psi_deg"])
        psi = np.array([r["psi_deg"] for r in rs])
        norm = max(abs(np.nanmax([r["S"] for r in rs])), 1e-12)
        c = f"C{k}"
        ax[0].plot(psi, [r["S"] / norm for r in rs], "-", color=c, label=f"S, omega={w:g}")
        ax[0].fill_between(psi, [r["S_min"] / norm for r in rs], [r["S_max"] / norm for r in rs], color=c, alpha=0.2)
        ax[0].plot(psi, [r["S_mu"] / norm for r in rs], "--", color=c, label=f"S_mu, omega={w:g}")
    ax[0].set_xlabel("psi [deg]")
    ax[0].set_ylabel("S / max S")
    ax[0].set_title("Fig. 8: friction robustness vs phase")
    ax[0].legend(fontsize=7)
    ax[0].grid(alpha=0.3)
    o = optima
    ax[1].plot(ws, [x["S_at_psi_star"] * 1e3 for x in o], "-o", color="tab:blue", ms=3, label="S at psi*")
    ax[1].plot(ws, [x["S_mu_at_psi_star"] * 1e3 for x in o], "--", color="tab:blue", label="S_mu at psi*")
    ax[1].plot(ws, [x["S_at_psi_mu_star"] * 1e3 for x in o], "-o", color="k", ms=3, label="S at psi_mu*")
    ax[1].plot(ws, [x["S_mu_at_psi_mu_star"] * 1e3 for x in o], "--", color="k", label="S_mu at psi_mu*")
    ax[1].set_xscale("log")
    ax[1].set_xlabel("omega [rad/s]")
    ax[1].set_ylabel("S [mm]")
    ax[1].set_title("Fig. 9: optimised phases")
    ax[1].legend(fontsize=7)
    ax[1].grid(alpha=0.3)
    fig.suptitle(f"engine={engine_of(cfg)}, mu_i in [{1 - eps:g}, {1 + eps:g}] mu")
    save_figure(fig, out / "friction_robustness.png", dpi=120)
    summary = dict(stats, optima=optima)
    sw.write_json(out / "summary.json", summary)
    return summary


# ---- Fig. 11/12: mass distribution --------------------------------------------------------
def mass_points(base, ratio, asym):
    """m1, m2 for distal-to-centre ratio (m1+m2)/(2 m0) and asymmetry m1/m2; inertias scale with mass."""
    m0 = float(base["m0"])
    m2 = 2 * ratio * m0 / (1 + asym)
    m1 = asym * m2
    J1 = float(base["J1"]) * m1 / float(base["m1"])
    J2 = float(base["J2"]) * m2 / float(base["m2"])
    return dict(m1=m1, m2=m2, J1=J1, J2=J2)


def mass_distribution(cfg, out) -> dict:
    """Fig. 11/12: S over mass ratio x asymmetry for several omega.  results.csv, PNG."""
    ratios, asyms = exp_cfg(cfg, "mass_ratio"), exp_cfg(cfg, "m1_over_m2")
    pts, meta = [], []
    for p in grid_points(cfg):
        for rr in ratios:
            for a in asyms:
                pts.append({**p, **mass_points(p, rr, a)})
                meta.append(dict(mass_ratio=rr, m1_over_m2=a))
    rows, stats = run_rows(cfg, pts, out, meta=meta)
    ws = sorted({r["omega"] for r in rows})
    plt = pyplot()
    fig, ax = plt.subplots(1, len(ws) + 1, figsize=(3.6 * (len(ws) + 1), 3.6), squeeze=False)
    ax = ax[0]
    for k, w in enumerate(ws):
        S = np.full((len(ratios), len(asyms)), np.nan)
        for r in rows:
            if r["omega"] == w:
                S[ratios.index(r["mass_ratio"]), asyms.index(r["m1_over_m2"])] = r["S"]
        im = ax[k].pcolormesh(np.arange(len(asyms)), np.arange(len(ratios)), S * 1e3, shading="nearest", cmap="viridis")
        ax[k].set_xticks(range(len(asyms)), [f"{a:g}" for a in asyms])
        ax[k].set_yticks(range(len(ratios)), [f"{a:g}" for a in ratios])
        ax[k].set_xlabel("m1/m2")
        ax[k].set_ylabel("(m1+m2)/(2 m0)")
        ax[k].set_title(f"omega={w:g}")
        fig.colorbar(im, ax=ax[k], label="S [mm]")
        sec = sorted([r for r in rows if r["omega"] == w and abs(r["mass_ratio"] - 0.5) < 1e-9],
                     key=lambda r: r["m1_over_m2"])
        if sec:
            ax[-1].plot([r["m1_over_m2"] for r in sec], [r["S"] * 1e3 for r in sec], "o-", ms=3, label=f"omega={w:g}")
    ax[-1].set_xscale("log")
    ax[-1].set_xlabel("m1/m2 (ratio 0.5)")
    ax[-1].set_ylabel("S [mm]")
    ax[-1].set_title("Fig. 12")
    ax[-1].legend(fontsize=7)
    ax[-1].grid(alpha=0.3)
    fig.suptitle(f"Mass distribution (Fig. 11/12), engine={engine_of(cfg)}")
    save_figure(fig, out / "mass_distribution.png", dpi=110)
    best = {}
    for w in ws:
        rs = [r for r in rows if r["omega"] == w and np.isfinite(float(r["S"]))]
        if rs:
            b = max(rs, key=lambda r: r["S"])
            best[f"{w:g}"] = dict(mass_ratio=b["mass_ratio"], m1_over_m2=b["m1_over_m2"], S_mm=b["S"] * 1e3)
    summary = dict(stats, best=best)
    sw.write_json(out / "summary.json", summary)
    return summary


# ---- Section VII: time scaling + Bayesian optimisation ---------------------------------------
def _robust_points(p, eps, levels=(-1.0, 0.0, 1.0)):
    mu = float(p["mu"])
    return [{**p, "mu1": mu * (1 + eps * i), "mu2": mu * (1 + eps * j)} for i in levels for j in levels]


def time_scaling(cfg, out) -> dict:
    """Optuna (TPE) over (alpha, Upsilon, psi) per omega for S (or S_mu): results.csv (every trial),
    best.csv (baseline alpha=0 best-psi vs optimum, gain), fig10_time_scaling.png."""
    import warnings

    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    base = robot_params(cfg)
    omegas = exp_cfg(cfg, "omega")
    n_trials, batch = int(exp_cfg(cfg, "n_trials")), int(exp_cfg(cfg, "batch"))
    objective = exp_cfg(cfg, "objective")
    eps = float(exp_cfg(cfg, "eps"))
    psi_base = exp_cfg(cfg, "psi_baseline")
    bounds = exp_cfg(cfg, "bounds")
    seed = int(exp_cfg(cfg, "seed"))
    state = dict(n=0)
    D = getattr(optuna.distributions, "FloatDistribution", None) or optuna.distributions.UniformDistribution
    dists = {n: D(*bounds[n]) for n in bounds}

    def evaluate(params_list):
        """Objective of each parameter dict (S or S_mu), through run_rows (rows recorded)."""
        pts = []
        for p in params_list:
            pts.extend(_robust_points(p, eps) if objective == "S_mu" else [p])
        rows, _ = run_rows(cfg, pts, out, progress=False)
        vals = []
        k = 9 if objective == "S_mu" else 1
        for i in range(len(params_list)):
            S = np.array([float(r["S"]) for r in rows[i * k:(i + 1) * k]])
            vals.append(float(0.5 * (np.nanmin(S) + np.nanmax(S))) if np.isfinite(S).any() else math.nan)
        state["n"] += len(pts)
        return vals

    best_rows = []
    for w in omegas:
        pb = [{**base, "omega": w, "psi_deg": float(ps), "alpha": 0.0, "upsilon_deg": 0.0} for ps in psi_base]
        vb = evaluate(pb)
        jb = int(np.nanargmax(vb))
        study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
        for k, ps in enumerate(psi_base):   # the alpha = 0 baseline seeds the search
            study.add_trial(optuna.trial.create_trial(
                params=dict(alpha=0.0, upsilon_deg=0.0, psi_deg=float(ps)),
                distributions=dists,
                value=vb[k] if np.isfinite(vb[k]) else -1.0))
        done = 0
        while done < n_trials:
            trials = [study.ask(dists)
                      for _ in range(min(batch, n_trials - done))]
            ps = [{**base, "omega": w, **{n: round(t.params[n], 6) for n in bounds}} for t in trials]
            try:
                vals = evaluate(ps)
            except ConfigError:          # geometrically infeasible: evaluate one by one
                vals = []
                for p in ps:
                    try:
                        vals.append(evaluate([p])[0])
                    except ConfigError:
                        vals.append(math.nan)
            for t, v in zip(trials, vals):
                study.tell(t, v if np.isfinite(v) else -1.0)
            done += len(trials)
        bt = study.best_trial
        best_rows.append(dict(omega=w, objective=objective, psi_base_deg=float(psi_base[jb]), value_base=vb[jb],
                              alpha=bt.params["alpha"], upsilon_deg=bt.params["upsilon_deg"],
                              psi_deg=bt.params["psi_deg"],
                              value_best=bt.value, gain=bt.value / vb[jb] if vb[jb] else math.nan,
                              gain_mm=(bt.value - vb[jb]) * 1e3))
    sw.ResultsFile(out / "best.csv", list(best_rows[0].keys()), ["omega"]).rewrite(best_rows)
    fig_w = float(exp_cfg(cfg, "fig10_omega"))
    b = next((r for r in best_rows if abs(r["omega"] - fig_w) < 1e-9), best_rows[0])
    plot_fig10(base, b, out / "fig10_time_scaling.png", cfg)
    summary = dict(engine=engine_of(cfg), objective=objective, simulations=state["n"], best=best_rows)
    sw.write_json(out / "summary.json", summary)
    return summary


def plot_fig10(base, b, path, cfg) -> None:
    """Fig. 10: inputs and foot velocities with and without time scaling (hybrid model traces)."""
    from envs.crawler import hybrid as H
    plt = pyplot()
    fig, ax = plt.subplots(2, 1, figsize=(6.5, 6), sharex=True)
    for style, p in (("--", dict(psi_deg=b["psi_base_deg"], alpha=0.0, upsilon_deg=0.0)),
                     ("-", dict(psi_deg=b["psi_deg"], alpha=b["alpha"], upsilon_deg=b["upsilon_deg"]))):
        run = H.simulate({**base, "omega": b["omega"], **p}, cycles=int(cfg.run.cycles), **hybrid_kw(cfg))
        spc = H.SAMPLES_PER_CYCLE
        sl = slice(max(0, len(run.t) - spc - 1), len(run.t))
        t = run.t[sl] - run.t[sl][0]
        ax[0].plot(t, np.degrees(run.q[sl, 3]), style, color="tab:blue")
        ax[0].plot(t, np.degrees(run.q[sl, 4]), style, color="k")
        ax[1].plot(t, run.vx[sl, 0] * 1e3, style, color="tab:blue")
        ax[1].plot(t, run.vx[sl, 1] * 1e3, style, color="k")
    ax[0].set_ylabel("phi1 (blue), phi2 (black) [deg]")
    ax[1].set_ylabel("x1', x2' [mm/s]")
    ax[1].set_xlabel("t in the last cycle [s]")
    ax[0].set_title(f"Fig. 10: time-scaled (solid) vs alpha=0 (dashed), omega={b['omega']:g} (hybrid model)",
                    fontsize=10)
    for a in ax:
        a.grid(alpha=0.3)
    save_figure(fig, path, dpi=120)


# ---- Section VIII: feedback control ------------------------------------------------------
def feedback(cfg, out) -> dict:
    """Eq. 19 feedback vs open loop at omega=8 (Fig. 13/14): summary.json, results.csv, PNG."""
    from envs.crawler import hybrid as H
    base = robot_params(cfg)
    fb = exp_cfg(cfg, "feedback")
    cycles = int(exp_cfg(cfg, "cycles"))
    engine = engine_of(cfg)
    r = Crawler(**base)
    P = H.Params.from_robot(r)
    law_kw = dict(Kv=fb["Kv"], Kp=fb["Kp"], Kd=fb["Kd"], phi_lim=tuple(math.radians(x) for x in fb["phi_lim_deg"]))
    t0 = time.perf_counter()
    if engine == "hybrid":
        hk = hybrid_kw(cfg)
        open_run = H.simulate(r, cycles=cycles, stop_when_steady=False, **hk)
        fb_run = H.simulate(r, cycles=cycles, stop_when_steady=False, law=H.FeedbackLaw(r.inputs, P, **law_kw), **hk)
        traces = {k: dict(t=x.t, q=x.q[:, 3:], vx=x.vx, ctrl=x.control)
                  for k, x in (("open", open_run), ("feedback", fb_run))}
        seqs = {"open": open_run.cycle_values, "feedback": fb_run.cycle_values}
        errors = {"open": open_run.error, "feedback": fb_run.error}
        liftoff = {"open": open_run.liftoff_t, "feedback": fb_run.liftoff_t}
    else:
        traces, seqs, errors, liftoff = {}, {}, {}, {}
        for k in ("open", "feedback"):
            tr = mujoco_feedback_run(r, law_kw if k == "feedback" else None, cycles)
            traces[k], seqs[k], errors[k], liftoff[k] = tr, tr["S_seq"], None, tr["liftoff_t"]
    navg = int(exp_cfg(cfg, "n_avg"))
    S_open = float(np.mean(seqs["open"][-navg:]))
    S_fb = float(np.mean(seqs["feedback"][-navg:]))
    rows = []
    for k, S in (("open", S_open), ("feedback", S_fb)):
        rows.append({**{c: r.cfg[c] for c in Crawler.columns}, "S": S, "V": S / r.period,
                     "steady": (bool(abs(seqs[k][-1] - seqs[k][-1 - navg]) < 2e-5 + 2e-3 * abs(S))
                                if len(seqs[k]) > navg else False),
                     "control": k})
    sw.ResultsFile(out / "results.csv", list(rows[0].keys()), ["control"]).rewrite(rows)
    plot_feedback(traces, r, H.FeedbackLaw(r.inputs, P, **law_kw), out / "feedback.png", engine)
    summary = dict(engine=engine, omega=r.cfg["omega"], S_open=S_open, S_feedback=S_fb,
                   S_open_seq=[float(x) for x in seqs["open"]], S_feedback_seq=[float(x) for x in seqs["feedback"]],
                   S_seq=[float(x) for x in seqs["feedback"]], n_avg=navg, errors=errors, liftoff_t=liftoff,
                   gains=dict(Kv=fb["Kv"], Kp=fb["Kp"], Kd=fb["Kd"], phi_lim_deg=fb["phi_lim_deg"]),
                   wall_s=time.perf_counter() - t0)
    sw.write_json(out / "summary.json", summary)
    return summary


def mujoco_feedback_run(r: Crawler, law_kw, cycles, v_slip=2e-3):
    """The MuJoCo twin with eq. 19 as the stepper's feedback controller.

    The law gives joint accelerations from the measured state; they are integrated
    into the servo references (position and velocity feed-forward), so the stiff
    servos realise them.  Slip-slip is detected from the measured foot velocities
    (both |x_i'| > v_slip); S_1, S_0 come from the hybrid model's eqs. 20-23 at
    the measured state (the paper's law is model-based).
    """
    import copy

    from dm_control.mujoco import wrapper

    from envs.core.stepper import Stepper
    from envs.crawler import hybrid as H
    P = H.Params.from_robot(r)
    model = H.Model(P, baumgarte=0.0)     # S_1, S_0 only (no constraint drift terms)
    law = H.FeedbackLaw(r.inputs, P, **law_kw) if law_kw else None
    phys = r.physics.from_model(wrapper.MjModel(copy.copy(r.model())))
    cmd = {}

    def controller(m, d, ctrl):
        if law is None:
            return ctrl
        nd = phys.named.data
        q = np.array([nd.qpos[n][0] for n in ("root_x", "root_z", "theta", "phi1", "phi2")])
        qd = np.array([nd.qvel[n][0] for n in ("root_x", "root_z", "theta", "phi1", "phi2")])
        if not cmd:
            cmd["q"], cmd["qd"] = ctrl[:2].copy(), ctrl[2:4].copy()
        v = phys.foot_velocities()
        mode = tuple(int(np.sign(x)) if abs(x) > v_slip else 0 for x in v)
        qdd, _ = law.qdd_c(d.time, q, qd, mode if mode[0] != 0 and mode[1] != 0 else (0, 1), model)
        cmd["qd"] = cmd["qd"] + m.opt.timestep * qdd
        cmd["q"] = cmd["q"] + m.opt.timestep * cmd["qd"]
        out = ctrl.copy()
        out[:2], out[2:4] = cmd["q"], cmd["qd"]
        return out

    step = Stepper(r, phys.model.ptr, phys.data.ptr, controller=controller)
    stride = r.steps_per_cycle // r.samples_per_cycle
    ts, qs, vs, fns = [], [], [], []
    x1_b = [phys.foot_positions()[0, 0]]
    for k in range(1, cycles * r.steps_per_cycle + 1):
        step(1)
        if k % stride == 0:
            ts.append(phys.data.time)
            qs.append(phys.joint_angles())
            vs.append(phys.foot_velocities())
            fns.append(phys.normal_forces())
        if k % r.steps_per_cycle == 0:
            x1_b.append(phys.foot_positions()[0, 0])
    fn = np.array(fns)
    neg = np.flatnonzero((fn <= 1e-6).any(axis=1)) if len(fn) else []
    return dict(t=np.array(ts), q=np.array(qs), vx=np.array(vs), ctrl=None,
                S_seq=FORWARD * np.diff(x1_b), liftoff_t=float(np.array(ts)[neg[0]]) if len(neg) else None)


def plot_feedback(traces, r, law, path, engine) -> None:
    plt = pyplot()
    T = r.period
    fig, ax = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for k, style in (("feedback", "-"), ("open", ":")):
        tr = traces[k]
        t = np.asarray(tr["t"])
        sel = t >= t[-1] - 2 * T
        ax[0].plot(t[sel], np.degrees(tr["q"][sel, 0]), style, color="tab:blue")
        ax[0].plot(t[sel], np.degrees(tr["q"][sel, 1]), style, color="k")
        ax[1].plot(t[sel], tr["vx"][sel, 0] * 1e3, style, color="tab:blue")
        ax[1].plot(t[sel], tr["vx"][sel, 1] * 1e3, style, color="k")
    t = np.asarray(traces["feedback"]["t"])
    tt = t[t >= t[-1] - 2 * T]
    qr = r.inputs(tt)[0]
    ax[0].plot(tt, np.degrees(qr[:, 0]), "--", color="tab:blue", alpha=0.5)
    ax[0].plot(tt, np.degrees(qr[:, 1]), "--", color="k", alpha=0.5)
    vr = np.array([law.v_ref(x)[0] for x in tt])
    ax[1].plot(tt, vr[:, 0] * 1e3, "--", color="tab:blue", alpha=0.5)
    ax[1].plot(tt, vr[:, 1] * 1e3, "--", color="k", alpha=0.5)
    ax[0].set_ylabel("phi1 (blue), phi2 (black) [deg]")
    ax[1].set_ylabel("x1', x2' [mm/s]")
    ax[1].set_xlabel("t [s]")
    ax[0].set_title(f"Fig. 13/14: feedback (solid), open loop (dotted), reference (dashed); {engine}")
    for a in ax:
        a.grid(alpha=0.3)
    save_figure(fig, path, dpi=120)
