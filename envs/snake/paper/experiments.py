"""Snake experiments (paper: Sun, Ma & Wang, inchworm gait): computations returning a Result (tables,
plots from envs/snake/paper/plots.py, summary) that the shell writes into Hydra's run directory.

  table1      kinematic alpha_max, f_max, d_unit for each n (eqs. 11-14), beside Table 1
  table2      f, d_unit, d and the twin's Delta x over 10 periods, loss (d - dx)/d, beside Table 2;
              timeseries.csv: 2 periods of the configured point (robot.*)
  calibrate   the floor friction mu and step time T_step fitted to Table 2's n=4 rows (identify)
  sweep       any grid of robot parameters (n, alpha_deg, T_step, ...) with plots
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np

from ...core.runs import sweep as sw, timeseries as ts
from ...core.model.errors import ConfigError
from ...core.runs.experiment import Result, launch_kw, robot_cls, robot_params, run_kw, runner, sweep_lists
from . import plots
from .tables import TABLE1, TABLE2
from ..robot import alpha_max, d_unit, energy_loss

TABLE2_COLUMNS = ("n", "alpha_deg", "f", "d_unit", "d", "dx", "loss")


def _real_time_factor(rows, stats, nthread) -> dict:
    sim = sum(float(r["cycles"]) * float(r["T_step"]) * (float(r["N"]) - float(r["n"]) + 2) for r in rows
              if r.get("cycles") is not None)
    wall = stats["wall_s"]
    if not stats["computed"] or wall <= 0:
        return dict(sim_time_s=sim, real_time_factor=math.nan, real_time_factor_per_thread=math.nan)
    return dict(sim_time_s=sim, real_time_factor=sim / wall, real_time_factor_per_thread=sim / wall / nthread)


# ---- Table 1 ------------------------------------------------------------------------------
@runner("snake_table1")
def table1(job, out) -> Result:
    """alpha_max (eq. 14) and f, d_unit at alpha_max for each n in sweep.n."""
    ns = [int(v) for v in sweep_lists(job).get("n", list(TABLE1))]
    for n in ns:
        if n < 2 or n != float(n):
            raise ConfigError("sweep.n", n, "integers >= 2")
    rows = []
    for n in ns:
        a = alpha_max(n)
        paper = TABLE1.get(n, (None, None, None))
        rows.append(dict(n=n, alpha_max_deg=math.degrees(a), f_max=energy_loss(n, a), d_unit=d_unit(n, a),
                         paper_alpha_max_deg=paper[0], paper_f_max=paper[1], paper_d_unit=paper[2]))
    cols = ["n", "alpha_max_deg", "f_max", "d_unit", "paper_alpha_max_deg", "paper_f_max", "paper_d_unit"]
    lines = ["| n | alpha_max [deg] twin / paper | f_max twin / paper | d_unit twin / paper |", "|---|---|---|---|"]
    for r in rows:
        p = lambda v, fmt: "-" if v is None else format(v, fmt)  # noqa: E731
        lines.append(f"| {r['n']} | {r['alpha_max_deg']:.2f} / {p(r['paper_alpha_max_deg'], '.1f')} | "
                     f"{r['f_max']:.3f} / {p(r['paper_f_max'], '.2f')} | {r['d_unit']:.3f} / {p(r['paper_d_unit'], '.2f')} |")
    summary = dict(points=len(rows), table1={str(r["n"]): {k: r[k] for k in cols[1:]} for r in rows})
    print("\n".join(lines))
    return Result(summary, tables={"results.csv": (cols, rows), "table1.md": "\n".join(lines) + "\n"},
                  plots={"table1.png": partial(plots.table1, rows)})


# ---- Table 2 ------------------------------------------------------------------------------
def _sweep(job, out, extra=TABLE2_COLUMNS[2:] + ("dx_period", "V", "tracking_error_deg", "clearance_min")):
    kw = run_kw(job)
    rows, stats = sw.simulate(job, out, extra_columns=extra)
    from ...core.engines.batch import available_cores
    nthread = kw["nthread"] or available_cores()
    stats.update(_real_time_factor(rows, stats, nthread), nthread=nthread)
    errors = [r.get("error") for r in rows if r.get("error")]
    return rows, stats, errors


def _failed_line(r, ncols) -> str:
    return f"| {int(r['n'])} | {r['alpha_deg']:g} |" + " - |" * (ncols - 3) + f" failed: {r['error']} |"


@runner("snake_table2")
def table2(job, out) -> Result:
    """Twin's Delta x over 10 periods for Table 2's (n, alpha) with the calibrated floor."""
    rows, stats, errors = _sweep(job, out)
    lines = ["| n | alpha [deg] | f twin / paper | d_unit twin / paper | d [mm] twin / paper | "
             "Delta x [mm] twin / paper | loss [%] twin / paper |", "|---|---|---|---|---|---|---|"]
    ok = sw.healthy(rows)               # failed and unhealthy points: a 'failed' line, no numbers
    for r in rows:
        if r.get("error"):
            lines.append(_failed_line(r, 7))
            continue
        pf, pd, pdx, pdd, pl = TABLE2.get((int(r["n"]), int(round(r["alpha_deg"]))), (None,) * 5)
        p = lambda v, fmt: "-" if v is None else format(v, fmt)  # noqa: E731
        lines.append(f"| {int(r['n'])} | {r['alpha_deg']:g} | {r['f']:.3f} / {p(pf, '.3f')} | "
                     f"{r['d_unit']:.3f} / {p(pd, '.3f')} | {r['d'] * 1e3:.1f} / {p(pdd, '.1f')} | "
                     f"{r['dx'] * 1e3:.1f} / {p(pdx, '.1f') if pdx is not None else 'withheld'} | "
                     f"{r['loss'] * 100:.1f} / {p(pl, '.0f') if pl is not None else 'withheld'} |")
    summary = dict(stats, errors=errors, mu=float(rows[0]["mu"]) if rows else math.nan,
                   table2={f"n{int(r['n'])}_alpha{r['alpha_deg']:g}": {k: r[k] for k in TABLE2_COLUMNS[2:]}
                           for r in ok})
    print("\n".join(lines))
    tables = {"table2.md": "\n".join(lines) + "\n"}
    r, run = ts.configured_run(job, out, cycles=TIMESERIES_CYCLES)      # the configured point's time series
    if not run.error:
        tables["timeseries.csv"] = timeseries(r, run)
    summary["timeseries_point"] = dict(n=r.cfg["n"], alpha_deg=r.cfg["alpha_deg"], cycles=run.cycles, error=run.error)
    return Result(summary, tables=tables, plots={"table2.png": partial(plots.table2, ok, TABLE2)},
                  rows={"results.csv": rows})


TIMESERIES_CYCLES = 2       # periods of table2's timeseries.csv (one period: 3 s, 96k steps at the default)


def timeseries(robot, run) -> dict:
    """The shared writer's columns (envs/core/runs/timeseries.py): t, the servo targets phi<k>_ref_deg, centre
    of mass com_x, com_z, joint angles phi<k>_deg, each section's normal force link<k>_normal_force, power."""
    ref = np.degrees(robot.gait(run.t)[0])
    return ts.columns(robot, run, inputs={f"phi{k}_ref_deg": ref[:, k - 1] for k in range(1, robot.p.N)})


# ---- calibration ----------------------------------------------------------------------------
@runner("snake_calibrate")
def calibrate(job, out) -> Result:
    """Fit mu and T_step to Table 2's n=4 losses: envs/core/analysis/identify.py on the per-cycle table
    envs/snake/table2_n4.csv (envs/snake/paper/calibration.py: data, objective, region).

    The global stage is the grid sweep.mu x sweep.T_step; the best grid point and the confidence region
    (objective within calibration.DELTA of the best) go to calibration.json (the committed copy is
    envs/snake/calibration.json) with the local least-squares fit beside them (`local_fit`), the
    objective map to calibration.png; the identification's own outputs (fit.csv, fitted_table.csv,
    identify.png, candidates.csv) beside them.  Calibration, not validation."""
    from ...core.analysis.identify import identify
    from . import calibration as cal
    res = identify(job, out)
    s = res.summary
    data = _table(job)
    names, gait = s["params"], [dict(g) for g in data.gait]
    table = cal.grid_table(res.rows["candidates.csv"], names, gait)
    reg = cal.region(table, cal.DELTA, names) if any(math.isfinite(d["rms_loss_error"]) for d in table) else None
    local = dict(s["fitted"], rms_loss_error=s["residuals"]["loss"]["rms"], identifiable=s["identifiable"],
                 rel_sd=s["rel_sd"], flat_directions=[f["direction"] for f in s["flat_directions"]])
    better = reg is not None and local["rms_loss_error"] < reg.best["rms_loss_error"] - cal.DELTA
    summary = dict(s, kind="calibration", names=names, timestep=float(job.robot.timestep), cycles=int(job.run.cycles),
                   data={f"{g['alpha_deg']:g}": float(v) for g, v in zip(gait, data.values["loss"])},
                   best=reg.best if reg else None, region=reg.summary() if reg else None, grid=table,
                   local_fit=local, local_fit_measurably_better=bool(better))
    cal_json = {k: summary[k] for k in ("kind", "note", "names", "timestep", "cycles", "data", "best", "region",
                                        "local_fit", "local_fit_measurably_better", "grid")}
    return Result(summary, tables={**res.tables, "calibration.json": cal_json}, rows=res.rows,
                  plots={**res.plots, **({"calibration.png": partial(plots.calibration, table, reg)} if reg else {})})


def _table(job):
    from ...core.analysis import cycle_table
    from ...core.runs.experiment import options
    return cycle_table.read(options(job)["data"], robot_cls(job)(**robot_params(job)))


# ---- predictions as intervals over the calibration's confidence region ----------------------------
@runner("snake_intervals")
def intervals(job, out) -> Result:
    """Every point of the sweep grid simulated at each extreme point of the committed calibration
    region (envs/snake/paper/calibration.py): per point [min, max] of Delta x, loss and speed, and the
    value at the fitted point; each labelled calibration (Table 2's n = 4 rows) or prediction."""
    from . import calibration as cal
    reg = cal.load()
    lists = sweep_lists(job)
    points = [{**robot_params(job), **c} for c in sw.grid(lists)]
    robots = cal.extreme_robots(points, reg)
    key = list(dict.fromkeys(list(lists) + list(reg.names) + list(robot_cls(job).columns)))
    rows, stats = sw.run_rows(robots, out, key=key, engine=sw.batch_engine(run_kw(job), **launch_kw(job)),
                              progress=job.run.progress)
    res = cal.intervals(points, rows, reg, ("dx", "loss", "V"))
    lines = ["| n | N | alpha [deg] | kind | Delta x [mm] fit [min, max] | loss [%] fit [min, max] | "
             "V [mm/s] fit [min, max] | paper loss [%] |", "|---|---|---|---|---|---|---|---|"]
    for r in res:
        n, a = int(r["n"]), float(r["alpha_deg"])
        paper = TABLE2.get((n, int(round(a))), (None,) * 5)[4] if int(r["N"]) == 8 else None
        r["kind"] = "calibration" if paper is not None else "prediction"
        iv = lambda k, s: f"{r[k + '_fit'] * s:.1f} [{r[k][0] * s:.1f}, {r[k][1] * s:.1f}]"  # noqa: E731
        lines.append(f"| {n} | {int(r['N'])} | {a:g} | {r['kind']} | {iv('dx', 1e3)} | {iv('loss', 100)} | "
                     f"{iv('V', 1e3)} | {'-' if paper is None else paper} |" + (f" failed: {r['error']}" if r["error"] else ""))
    print("\n".join(lines))
    return Result(dict(stats, region=reg.summary(), intervals=res), tables={"intervals.md": "\n".join(lines) + "\n"},
                  rows={"results.csv": rows})


# ---- timestep convergence ----------------------------------------------------------------------
@runner("snake_convergence")
def convergence(job, out) -> Result:
    """The generic sweep over sweep.timestep (and Table 2's points), then per (n, alpha, other
    swept parameters) the loss at each timestep and its change when the step is halved, and the
    calibration objective (n = 4 rows) at each timestep: convergence.md, summary `convergence`."""
    from . import calibration as cal
    res = sweep(job, out)
    rows = sw.healthy(res.table("results.csv"))          # the typed rows the sweep computed
    others = [k for k in sweep_lists(job) if k not in ("timestep", "n", "alpha_deg")]
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
    print("\n".join(lines))
    return Result(dict(res.summary, timesteps=dts, convergence=table, objective=objective),
                  tables={"convergence.md": "\n".join(lines) + "\n"}, plots=res.plots)


# ---- sweeps ------------------------------------------------------------------------------
@runner("snake_alpha_sweep")
@runner("snake_n_sweep")
@runner("snake_step_time_sweep")
@runner("snake_servo_sweep")
def sweep(job, out) -> Result:
    """Any grid (n, alpha_deg, T_step, mu, ...): results.csv, one plot per swept parameter."""
    rows, stats, errors = _sweep(job, out)
    lists = sweep_lists(job)
    ok = sw.healthy(rows)               # failed and unhealthy points are left out (stats say how many)
    summary = dict(stats, errors=errors, max_tracking_error_deg=sw.nanmax(r["tracking_error_deg"] for r in ok),
                   min_clearance=sw.nanmin(r["clearance_min"] for r in ok))
    return Result(summary, plots={f"sweep_{name}.png": partial(plots.sweep, ok, name, [k for k in lists if k != name])
                                  for name in lists}, rows={"results.csv": rows})
