"""Snake experiments (paper: Sun, Ma & Wang, inchworm gait).  Each writes into Hydra's run directory.

  table1      kinematic alpha_max, f_max, d_unit for each n (eqs. 11-14), beside Table 1
  table2      f, d_unit, d and the twin's Delta x over 10 periods, loss (d - dx)/d, beside Table 2
  calibrate   grid over the floor friction mu (and the step time T_step) on Table 2's n=4 rows
  sweep       any grid of robot parameters (n, alpha_deg, T_step, ...) with plots
"""
from __future__ import annotations

import math

import numpy as np

from envs.core import sweep as sw
from envs.core.errors import ConfigError
from envs.core.experiment import launch_kw, robot_cls, robot_params, run_kw, sweep_lists
from envs.core.plots import pyplot, save_figure
from envs.snake.robot import alpha_max, d_unit, energy_loss

# ---- the paper's numbers ----------------------------------------------------------------
TABLE1 = {  # n: (alpha_max_deg, f_max, d_unit)
    4: (74.6, 0.53, 2.40), 5: (58.5, 0.52, 2.87), 6: (48.2, 0.52, 3.35), 7: (41.1, 0.52, 3.79),
    8: (35.8, 0.53, 4.31), 9: (31.7, 0.53, 4.82), 10: (28.5, 0.53, 5.25), 11: (25.9, 0.54, 5.87),
}
TABLE2 = {  # (n, alpha_deg): (f, d_unit, dx_mm or None, d_mm, loss_percent or None)
    (4, 30): (0.218, 0.455, 332.5, 382.2, 13), (4, 45): (0.333, 0.956, 711.7, 803.0, 11),
    (4, 58): (0.430, 1.567, 1197.8, 1316.3, 9),
    (5, 30): (0.283, 0.858, None, 720.7, None), (5, 45): (0.424, 1.824, None, 1532.2, None),
    (5, 58): (0.519, 2.831, None, 2378.0, None),
}
TABLE2_COLUMNS = ("n", "alpha_deg", "f", "d_unit", "d", "dx", "loss")


def _real_time_factor(rows, stats, nthread) -> dict:
    sim = sum(float(r["cycles"]) * float(r["T_step"]) * (float(r["N"]) - float(r["n"]) + 2) for r in rows
              if r.get("cycles") is not None)
    wall = stats["wall_s"]
    if not stats["computed"] or wall <= 0:
        return dict(sim_time_s=sim, real_time_factor=math.nan, real_time_factor_per_thread=math.nan)
    return dict(sim_time_s=sim, real_time_factor=sim / wall, real_time_factor_per_thread=sim / wall / nthread)


# ---- Table 1 ------------------------------------------------------------------------------
def table1(cfg, out) -> dict:
    """alpha_max (eq. 14) and f, d_unit at alpha_max for each n in sweep.n."""
    ns = [int(v) for v in sweep_lists(cfg).get("n", list(TABLE1))]
    for n in ns:
        if n < 2 or n != float(n):
            raise ConfigError("sweep.n", n, "integers >= 2")
    rows = []
    for n in ns:
        a = alpha_max(n)
        paper = TABLE1.get(n, (None, None, None))
        rows.append(dict(n=n, alpha_max_deg=math.degrees(a), f_max=energy_loss(n, a), d_unit=d_unit(n, a),
                         paper_alpha_max_deg=paper[0], paper_f_max=paper[1], paper_d_unit=paper[2]))
    out.mkdir(parents=True, exist_ok=True)
    cols = ["n", "alpha_max_deg", "f_max", "d_unit", "paper_alpha_max_deg", "paper_f_max", "paper_d_unit"]
    sw.write_csv(out / "results.csv", cols, rows)
    lines = ["| n | alpha_max [deg] twin / paper | f_max twin / paper | d_unit twin / paper |", "|---|---|---|---|"]
    for r in rows:
        p = lambda v, fmt: "-" if v is None else format(v, fmt)
        lines.append(f"| {r['n']} | {r['alpha_max_deg']:.2f} / {p(r['paper_alpha_max_deg'], '.1f')} | "
                     f"{r['f_max']:.3f} / {p(r['paper_f_max'], '.2f')} | {r['d_unit']:.3f} / {p(r['paper_d_unit'], '.2f')} |")
    (out / "table1.md").write_text("\n".join(lines) + "\n")
    _plot_table1(rows, out / "table1.png")
    summary = dict(points=len(rows), table1={str(r["n"]): {k: r[k] for k in cols[1:]} for r in rows})
    print("\n".join(lines))
    return summary


def _plot_table1(rows, path):
    plt = pyplot()
    n = [r["n"] for r in rows]
    fig, ax = plt.subplots(1, 3, figsize=(11, 3.4))
    for a, key, pk, name in ((ax[0], "alpha_max_deg", "paper_alpha_max_deg", "alpha_max [deg]"),
                             (ax[1], "f_max", "paper_f_max", "f_max"), (ax[2], "d_unit", "paper_d_unit", "d_unit")):
        a.plot(n, [r[key] for r in rows], "o-", label="equations (twin)")
        pn = [r["n"] for r in rows if r[pk] is not None]
        a.plot(pn, [r[pk] for r in rows if r[pk] is not None], "s", mfc="none", color="k", label="paper Table 1")
        a.set_xlabel("n")
        a.set_title(name)
        a.grid(alpha=0.3)
    ax[0].legend()
    save_figure(fig, path, dpi=120)


# ---- Table 2 ------------------------------------------------------------------------------
def _sweep(cfg, out, extra=TABLE2_COLUMNS[2:] + ("dx_period", "V", "tracking_error_deg", "clearance_min")):
    cls = robot_cls(cfg)
    kw = run_kw(cfg)
    rows, stats = sw.run_sweep(cls, robot_params(cfg), sweep_lists(cfg), out, run_kw=kw, launch=launch_kw(cfg),
                               extra_columns=extra, progress=cfg.run.progress)
    from envs.core.batch import available_cores
    nthread = kw["nthread"] or available_cores()
    stats.update(_real_time_factor(rows, stats, nthread), nthread=nthread)
    errors = [r.get("error") for r in rows if r.get("error")]
    return rows, stats, errors


def _failed_line(r, ncols) -> str:
    return f"| {int(r['n'])} | {r['alpha_deg']:g} |" + " - |" * (ncols - 3) + f" failed: {r['error']} |"


def table2(cfg, out) -> dict:
    """Twin's Delta x over 10 periods for Table 2's (n, alpha) with the calibrated floor."""
    rows, stats, errors = _sweep(cfg, out)
    lines = ["| n | alpha [deg] | f twin / paper | d_unit twin / paper | d [mm] twin / paper | "
             "Delta x [mm] twin / paper | loss [%] twin / paper |", "|---|---|---|---|---|---|---|"]
    ok = sw.healthy(rows)               # failed and unhealthy points: a 'failed' line, no numbers
    for r in rows:
        if r.get("error"):
            lines.append(_failed_line(r, 7))
            continue
        pf, pd, pdx, pdd, pl = TABLE2.get((int(r["n"]), int(round(r["alpha_deg"]))), (None,) * 5)
        p = lambda v, fmt: "-" if v is None else format(v, fmt)
        lines.append(f"| {int(r['n'])} | {r['alpha_deg']:g} | {r['f']:.3f} / {p(pf, '.3f')} | "
                     f"{r['d_unit']:.3f} / {p(pd, '.3f')} | {r['d'] * 1e3:.1f} / {p(pdd, '.1f')} | "
                     f"{r['dx'] * 1e3:.1f} / {p(pdx, '.1f') if pdx is not None else 'withheld'} | "
                     f"{r['loss'] * 100:.1f} / {p(pl, '.0f') if pl is not None else 'withheld'} |")
    (out / "table2.md").write_text("\n".join(lines) + "\n")
    _plot_table2(ok, out / "table2.png")
    summary = dict(stats, errors=errors, mu=float(rows[0]["mu"]) if rows else math.nan,
                   table2={f"n{int(r['n'])}_alpha{r['alpha_deg']:g}": {k: r[k] for k in TABLE2_COLUMNS[2:]}
                           for r in ok})
    print("\n".join(lines))
    return summary


def _plot_table2(rows, path):
    plt = pyplot()
    fig, ax = plt.subplots(1, 2, figsize=(10, 3.6))
    for n, c in ((4, "tab:blue"), (5, "tab:orange")):
        rs = sorted([r for r in rows if int(r["n"]) == n], key=lambda r: r["alpha_deg"])
        if not rs:
            continue
        a = [r["alpha_deg"] for r in rs]
        ax[0].plot(a, [r["d"] * 1e3 for r in rs], "--", color=c, label=f"n={n} theory d")
        ax[0].plot(a, [r["dx"] * 1e3 for r in rs], "o-", color=c, label=f"n={n} twin Delta x")
        ax[1].plot(a, [r["loss"] * 100 for r in rs], "o-", color=c, label=f"n={n} twin")
        pa = [k[1] for k in TABLE2 if k[0] == n and TABLE2[k][2] is not None]
        if pa:
            ax[0].plot(pa, [TABLE2[(n, x)][2] for x in pa], "s", mfc="none", color=c, label=f"n={n} paper Delta x")
            ax[1].plot(pa, [TABLE2[(n, x)][4] for x in pa], "s", mfc="none", color=c, label=f"n={n} paper")
    ax[0].set_ylabel("displacement over 10 periods [mm]")
    ax[1].set_ylabel("loss (d - Delta x)/d [%]")
    for a in ax:
        a.set_xlabel("alpha [deg]")
        a.grid(alpha=0.3)
        a.legend(fontsize=7)
    save_figure(fig, path, dpi=120)


# ---- calibration ----------------------------------------------------------------------------
def calibrate(cfg, out) -> dict:
    """Pick mu (and T_step) minimising the RMS loss error on Table 2's n=4 rows.

    Every grid point (mu, T_step, alpha) is simulated; for each (mu, T_step) the RMS of
    (twin loss - paper loss) over alpha in {30, 45, 58} deg is computed; the best pair
    is written to calibration.json.
    """
    lists = sweep_lists(cfg)
    for n in lists.get("n", [cfg.robot.n]):
        if int(n) != 4:
            raise ConfigError("sweep.n", n, "[4] (the paper gives measured Delta x for n=4 only)")
    for a in lists.get("alpha_deg", [cfg.robot.alpha_deg]):
        if (4, int(round(float(a)))) not in TABLE2:     # before anything is simulated
            raise ConfigError("sweep.alpha_deg", a, "[30, 45, 58] (Table 2's measured rows)")
    rows, stats, errors = _sweep(cfg, out)
    rows = sw.healthy(rows)             # failed and unhealthy points do not enter the fit (stats: failed)
    # calibrated parameters: mu, T_step and any other swept robot parameter except alpha_deg / n
    names = ["mu", "T_step"] + [k for k in lists if k not in ("mu", "T_step", "alpha_deg", "n")]
    groups: dict = {}
    for r in rows:
        key = tuple(r[k] for k in names)
        paper = TABLE2[(4, int(round(r["alpha_deg"])))]
        groups.setdefault(key, []).append((r["loss"] - paper[4] / 100.0, r["alpha_deg"], r["loss"]))
    table = []
    for key, errs in sorted(groups.items()):
        e = np.array([x[0] for x in errs])
        table.append(dict(zip(names, key), rms_loss_error=float(np.sqrt(np.mean(e**2))),
                          losses={f"{x[1]:g}": x[2] for x in errs}))
    best = min(table, key=lambda d: d["rms_loss_error"], default=None)
    summary = dict(stats, errors=errors, best=best, grid=table)
    sw.write_json(out / "calibration.json", summary)
    if table:
        _plot_calibration(table, out / "calibration.png")
    return summary


def _plot_calibration(table, path):
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    other = [k for k in table[0] if k not in ("mu", "rms_loss_error", "losses")]
    for key in sorted({tuple(d[k] for k in other) for d in table}):
        ds = sorted([d for d in table if tuple(d[k] for k in other) == key], key=lambda d: d["mu"])
        ax.plot([d["mu"] for d in ds], [d["rms_loss_error"] * 100 for d in ds], "o-",
                label=", ".join(f"{k}={v:g}" for k, v in zip(other, key)))
    ax.set_xlabel("floor friction mu")
    ax.set_ylabel("RMS(loss twin - loss paper) [%-points], n=4")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6, ncol=2)
    save_figure(fig, path, dpi=120)


# ---- sweeps ------------------------------------------------------------------------------
def sweep(cfg, out) -> dict:
    """Any grid (n, alpha_deg, T_step, mu, ...): results.csv, one plot per swept parameter."""
    rows, stats, errors = _sweep(cfg, out)
    lists = sweep_lists(cfg)
    ok = sw.healthy(rows)               # failed and unhealthy points are left out (stats say how many)
    for name in lists:
        _plot_sweep(ok, name, [k for k in lists if k != name], out / f"sweep_{name}.png")
    summary = dict(stats, errors=errors, max_tracking_error_deg=sw.nanmax(r["tracking_error_deg"] for r in ok),
                   min_clearance=sw.nanmin(r["clearance_min"] for r in ok))
    return summary


def _plot_sweep(rows, x, others, path):
    plt = pyplot()
    groups: dict = {}
    for r in rows:
        groups.setdefault(tuple((k, r[k]) for k in others), []).append(r)
    fig, ax = plt.subplots(1, 3, figsize=(13, 3.6))
    for key, rs in groups.items():
        rs = sorted(rs, key=lambda r: r[x])
        lab = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in key) or "twin"
        xs = [r[x] for r in rs]
        ax[0].plot(xs, [r["dx_period"] * 1e3 for r in rs], "o-", label=lab)
        ax[0].plot(xs, [r["d"] * 100 for r in rs], ":", color=ax[0].lines[-1].get_color())
        ax[1].plot(xs, [r["V"] * 1e3 for r in rs], "o-", label=lab)
        ax[2].plot(xs, [r["loss"] * 100 for r in rs], "o-", label=lab)
    ax[0].set_ylabel("Delta x per period [mm] (dotted: l d_unit)")
    ax[1].set_ylabel("mean speed [mm/s]")
    ax[2].set_ylabel("loss (d - Delta x)/d [%]")
    for a in ax:
        a.set_xlabel(x)
        a.grid(alpha=0.3)
    ax[0].legend(fontsize=7)
    save_figure(fig, path, dpi=120)
