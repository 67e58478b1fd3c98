"""Crawler Section VII: time-scaled inputs (eq. 8) optimised with Bayesian optimisation (Fig. 10)."""
from __future__ import annotations

import math
from functools import partial

import numpy as np

from ...core.model.errors import ConfigError
from ...core.runs.experiment import Result, robot_params, runner
from . import plots
from .engines import engine_of, exp_cfg, hybrid_kw, simulate_rows, valid_S
from ..friction import friction_set


# ---- Section VII: time scaling + Bayesian optimisation ---------------------------------------
def _robust_points(p, eps, sampling):
    """The point p over the friction uncertainty set of S_mu (envs/crawler/friction.py)."""
    return [{**p, "mu1": m1, "mu2": m2} for m1, m2 in friction_set(float(p["mu"]), eps, sampling=sampling)]


@runner("crawler_time_scaling")
def time_scaling(job, out) -> Result:
    """Optuna (TPE) over (alpha, Upsilon, psi) per omega for S (or S_mu): results.csv (every trial),
    best.csv (baseline alpha=0 best-psi vs optimum, gain), fig10_time_scaling.png."""
    import warnings

    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    base = robot_params(job)
    omegas = exp_cfg(job, "omega")
    n_trials, batch = int(exp_cfg(job, "n_trials")), int(exp_cfg(job, "batch"))
    objective = exp_cfg(job, "objective")
    eps, sampling = float(exp_cfg(job, "eps")), exp_cfg(job, "sampling")
    k = len(friction_set(float(base["mu"]), eps, sampling=sampling)) if objective == "S_mu" else 1   # rows a trial
    psi_base = exp_cfg(job, "psi_baseline")
    bounds = exp_cfg(job, "bounds")
    seed = int(exp_cfg(job, "seed"))
    state = dict(n=0)
    D = getattr(optuna.distributions, "FloatDistribution", None) or optuna.distributions.UniformDistribution
    dists = {n: D(*bounds[n]) for n in bounds}

    def evaluate(params_list):
        """Objective of each parameter dict (S or S_mu), through run_rows (rows recorded)."""
        pts = []
        for p in params_list:
            pts.extend(_robust_points(p, eps, sampling) if objective == "S_mu" else [p])
        rows, _ = simulate_rows(job, pts, out, progress=False)
        vals = []
        for i in range(len(params_list)):
            S = np.array([valid_S(r) for r in rows[i * k:(i + 1) * k]])      # failed/unhealthy: NaN
            vals.append(float(0.5 * (np.nanmin(S) + np.nanmax(S))) if np.isfinite(S).any() else math.nan)
        state["n"] += len(pts)
        return vals

    best_rows = []
    for w in omegas:
        pb = [{**base, "omega": w, "psi_deg": float(ps), "alpha": 0.0, "upsilon_deg": 0.0} for ps in psi_base]
        vb = evaluate(pb)
        jb = int(np.nanargmax(vb))
        study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
        for j, ps in enumerate(psi_base):   # the alpha = 0 baseline seeds the search (not `k`: evaluate's k)
            study.add_trial(optuna.trial.create_trial(
                params=dict(alpha=0.0, upsilon_deg=0.0, psi_deg=float(ps)),
                distributions=dists,
                value=vb[j] if np.isfinite(vb[j]) else -1.0))
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
    fig_w = float(exp_cfg(job, "fig10_omega"))
    b = next((r for r in best_rows if abs(r["omega"] - fig_w) < 1e-9), best_rows[0])
    summary = dict(engine=engine_of(job), objective=objective, simulations=state["n"], best=best_rows)
    if objective == "S_mu":
        summary.update(sampling=sampling, eps=eps)
    return Result(summary, tables={"best.csv": (list(best_rows[0].keys()), best_rows)},
                  plots={"fig10_time_scaling.png": partial(plots.fig10, fig10_traces(base, b, job), b)})


def fig10_traces(base, b, job) -> list:
    """Fig. 10's last-cycle traces of the exact model, without (alpha = 0, dashed) and with (solid)
    the best time scaling: [(style, t, q (n, 2), vx (n, 2))]."""
    from . import hybrid as H
    out = []
    for style, p in (("--", dict(psi_deg=b["psi_base_deg"], alpha=0.0, upsilon_deg=0.0)),
                     ("-", dict(psi_deg=b["psi_deg"], alpha=b["alpha"], upsilon_deg=b["upsilon_deg"]))):
        run = H.simulate({**base, "omega": b["omega"], **p}, cycles=int(job.run.cycles), **hybrid_kw(job))
        spc = H.SAMPLES_PER_CYCLE
        sl = slice(max(0, len(run.t) - spc - 1), len(run.t))
        out.append((style, run.t[sl] - run.t[sl][0], run.q[sl, 3:5], run.vx[sl, :2]))
    return out
