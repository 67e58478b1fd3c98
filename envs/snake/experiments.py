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
    """Fit mu and T_step to Table 2's n=4 losses (envs/snake/calibration.py: data, objective, region).

    Every grid point (mu, T_step, alpha) is simulated; for each (mu, T_step) the RMS of
    (twin loss - paper loss) over alpha in {30, 45, 58} deg is computed; the best point and the
    confidence region (objective within calibration.DELTA of the best) go to calibration.json
    (the committed copy is envs/snake/calibration.json), the objective map to calibration.png.
    """
    from envs.snake import calibration as cal
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
    table = cal.grid_table(rows, names)
    reg = cal.region(table, cal.DELTA, names) if table else None
    summary = dict(stats, errors=errors, names=names, timestep=float(cfg.robot.timestep),
                   cycles=int(cfg.run.cycles), data={f"{a:g}": v for a, v in cal.fit_rows().items()},
                   best=reg.best if reg else None, region=reg.summary() if reg else None, grid=table)
    sw.write_json(out / "calibration.json", summary)
    if reg is not None:
        _plot_calibration(table, reg, out / "calibration.png")
    return summary


def _plot_calibration(table, reg, path):
    """Objective map over (mu, T_step), the confidence region outlined, the best point marked."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.6, 4.8))
    x, y = reg.names[0], reg.names[1]
    pts = [d for d in table if math.isfinite(d["rms_loss_error"])]
    px, py = np.array([d[x] for d in pts]), np.array([d[y] for d in pts])
    pz = np.array([100 * d["rms_loss_error"] for d in pts])
    lo = 100 * reg.best["rms_loss_error"]
    levels = sorted({lo, lo + 100 * reg.delta} | {v for v in (2, 3, 5, 8, 13, 20, 30, 50) if v > lo + 100 * reg.delta})
    if len(pts) >= 3 and np.ptp(px) > 0 and np.ptp(py) > 0:
        cs = ax.tricontourf(px, py, np.clip(pz, None, levels[-1]), levels=levels, cmap="viridis_r", extend="max")
        fig.colorbar(cs, ax=ax, label="RMS(loss twin - loss paper) [%-points], n = 4")
    ax.scatter(px, py, c="k", s=8)
    for a, b, z in zip(px, py, pz):
        ax.annotate(f"{z:.1f}", (a, b), fontsize=6, xytext=(2, 2), textcoords="offset points")
    mem = np.array([[d[x], d[y]] for d in reg.members])
    ax.plot(mem[:, 0], mem[:, 1], "o", mfc="none", mec="r", ms=9, label=f"region: objective <= min + {100 * reg.delta:g}")
    ext = [(e[x], e[y]) for e in reg.extremes]
    if len(ext) >= 3:
        c = np.mean(ext, axis=0)
        ext = sorted(ext, key=lambda p: math.atan2((p[1] - c[1]) / (np.ptp(mem[:, 1]) or 1), (p[0] - c[0]) / (np.ptp(mem[:, 0]) or 1)))
        ax.fill(*zip(*ext), fc=(1, 0, 0, 0.1), ec="r", lw=1.5)
    ax.plot(reg.best[x], reg.best[y], "r*", ms=14, label=f"best: {x} = {reg.best[x]:g}, {y} = {reg.best[y]:g} ({lo:.2f})")
    ax.set_xlabel("floor friction mu" if x == "mu" else x)
    ax.set_ylabel("step time T_step [s]" if y == "T_step" else y)
    ax.legend(fontsize=7, loc="upper right")
    save_figure(fig, path, dpi=120)


def plot_calibration_file(data: dict, path) -> None:
    """calibration.png from a calibration.json (e.g. the committed merged refit)."""
    from envs.snake import calibration as cal
    _plot_calibration(data["grid"], cal.region(data["grid"], cal.DELTA, tuple(data["names"])), path)


# ---- predictions as intervals over the calibration's confidence region ----------------------------
def intervals(cfg, out) -> dict:
    """Every point of the sweep grid simulated at each extreme point of the committed calibration
    region (envs/snake/calibration.py): per point [min, max] of Delta x, loss and speed, and the
    value at the fitted point; each labelled calibration (Table 2's n = 4 rows) or prediction."""
    from envs.snake import calibration as cal
    reg = cal.load()
    lists = sweep_lists(cfg)
    points = [{**robot_params(cfg), **c} for c in sw.grid(lists)]
    robots = cal.extreme_robots(points, reg)
    key = list(dict.fromkeys(list(lists) + list(reg.names) + list(robot_cls(cfg).columns)))
    rows, stats = sw.run_rows(robots, out, key=key, engine=sw.batch_engine(run_kw(cfg), **launch_kw(cfg)),
                              progress=cfg.run.progress)
    res = cal.intervals(points, rows, reg, ("dx", "loss", "V"))
    lines = ["| n | N | alpha [deg] | kind | Delta x [mm] fit [min, max] | loss [%] fit [min, max] | "
             "V [mm/s] fit [min, max] | paper loss [%] |", "|---|---|---|---|---|---|---|---|"]
    for r in res:
        n, a = int(r["n"]), float(r["alpha_deg"])
        paper = TABLE2.get((n, int(round(a))), (None,) * 5)[4] if int(r["N"]) == 8 else None
        r["kind"] = "calibration" if paper is not None else "prediction"
        iv = lambda k, s: f"{r[k + '_fit'] * s:.1f} [{r[k][0] * s:.1f}, {r[k][1] * s:.1f}]"
        lines.append(f"| {n} | {int(r['N'])} | {a:g} | {r['kind']} | {iv('dx', 1e3)} | {iv('loss', 100)} | "
                     f"{iv('V', 1e3)} | {'-' if paper is None else paper} |" + (f" failed: {r['error']}" if r["error"] else ""))
    (out / "intervals.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return dict(stats, region=reg.summary(), intervals=res)


# ---- timestep convergence ----------------------------------------------------------------------
def convergence(cfg, out) -> dict:
    """The generic sweep over sweep.timestep (and Table 2's points), then per (n, alpha, other
    swept parameters) the loss at each timestep and its change when the step is halved, and the
    calibration objective (n = 4 rows) at each timestep: convergence.md, summary `convergence`."""
    from envs.snake import calibration as cal
    summary = sweep(cfg, out)
    rows = sw.healthy(sw.read_csv(out / "results.csv"))
    others = [k for k in sweep_lists(cfg) if k not in ("timestep", "n", "alpha_deg")]
    groups: dict = {}
    for r in rows:
        key = (int(float(r["n"])), float(r["alpha_deg"])) + tuple(float(r[k]) for k in others)
        groups.setdefault(key, {})[float(r["timestep"])] = 100 * float(r["loss"])
    dts = sorted({dt for g in groups.values() for dt in g}, reverse=True)
    head = ["n", "alpha [deg]"] + others + [f"loss @ {dt * 1e3:g} ms" for dt in dts] + ["|change| at the last halving"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    table = []
    for key, g in sorted(groups.items()):
        ls = [g.get(dt, math.nan) for dt in dts]
        ch = [abs(b - a) for a, b in zip(ls, ls[1:])]
        table.append(dict(zip(["n", "alpha_deg"] + others, key), losses=dict(zip(map(str, dts), ls)), changes=ch))
        lines.append("| " + " | ".join(f"{v:g}" for v in key) + " | " + " | ".join(f"{v:.2f}" for v in ls)
                     + f" | {ch[-1] if ch else math.nan:.2f} |")
    objective = {}          # calibration objective per timestep (and other swept values), n = 4 rows
    for key in {k[2:] for k in groups if k[0] == 4}:
        for dt in dts:
            losses = {int(round(k[1])): g[dt] / 100 for k, g in groups.items() if k[0] == 4 and k[2:] == key and dt in g}
            objective.setdefault(str(key), {})[str(dt)] = 100 * cal.objective(losses)
    lines += ["", "calibration objective RMS(loss twin - paper) [%-points], n = 4 rows:", ""]
    lines += [f"- {k if k != '()' else 'objective'}: " + ", ".join(f"{float(dt) * 1e3:g} ms: {v:.2f}" for dt, v in o.items()) for k, o in objective.items()]
    (out / "convergence.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return dict(summary, timesteps=dts, convergence=table, objective=objective)


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
