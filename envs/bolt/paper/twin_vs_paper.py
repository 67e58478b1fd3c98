"""bolt_twin_vs_paper: the twin (MuJoCo) and the paper's own model (engine=paper,
envs/bolt/paper/run.py) at the same inputs over crank periods: speed, stride time, touch-downs per
revolution, duty factor, stance impulse, peak torque/power by phase, constraint error.  The
comparison's tolerances are declared (experiment.speed_tolerance, experiment.duty_tolerance) and
applied where the paper model runs one touch-down per revolution (the twin must run it too).  Plot: envs/bolt/plots.twin_vs_paper."""
from __future__ import annotations

import math
import time
from functools import partial

from . import model as paper, run as paper_run, plots
from ...core.model.errors import ConfigError
from ...core.runs import sweep as sw
from ...core.runs.experiment import Result, options, robot_cls, robot_params, run_kw, runner, runner_kw, sweep_lists

METRICS = ("speed", "stride_time", "touchdowns_per_revolution", "duty_factor", "stance_impulse",
           "peak_torque_flight", "peak_torque_stance", "peak_power_flight", "peak_power_stance", "max_loop_gap")
COLUMNS = (("crank_period",) + tuple(f"{m}_{e}" for m in METRICS for e in ("twin", "paper"))
           + ("slide_fraction_paper", "painleve_impasses_paper", "speed_rel_diff", "duty_diff", "compared",
              "within_target", "error_twin", "error_paper"))


def one_touchdown(touchdowns_per_revolution) -> bool:
    """The gait the target compares: one touch-down per crank revolution (NaN: no)."""
    return abs(float(touchdowns_per_revolution) - 1.0) < 1e-9


def compare(tw: dict, pa: dict, tol_speed: float, tol_duty: float, flagged: str = "") -> dict:
    """The twin-vs-paper-model target, tolerances given first: compared wherever the paper model runs one touch-down per
    revolution; within it only if the twin does too (a twin that misses that gait, or failed: {}, fails the target
    there), is not health-flagged (`flagged`: its error_twin, e.g. a penetration over the limit: its metrics are
    kept but never count), |v_twin - v_paper| <= tol_speed |v_paper| and |duty_twin - duty_paper| <= tol_duty
    (NaN fails)."""
    one = lambda s: one_touchdown(s.get("touchdowns_per_revolution", math.nan))   # noqa: E731
    nan = math.nan
    compared = one(pa)
    dv = (tw.get("speed", nan) - pa["speed"]) / abs(pa["speed"]) if compared and pa["speed"] else nan
    dd = tw.get("duty_factor", nan) - pa["duty_factor"] if compared else nan
    return dict(speed_rel_diff=dv, duty_diff=dd, compared=compared,
                within_target=bool(compared and not flagged and one(tw) and abs(dv) <= tol_speed
                                   and abs(dd) <= tol_duty))


@runner("bolt_twin_vs_paper")
def run(job, out) -> Result:
    """results.csv (one row per crank period, twin and paper side by side), summary.json,
    twin_vs_paper.png."""
    if job.engine != "mujoco":
        raise ConfigError("engine", job.engine, "mujoco (bolt_twin_vs_paper runs the twin and the paper model)")
    cls = robot_cls(job)
    params = robot_params(job)
    ex = options(job)
    tol_speed, tol_duty = float(ex["speed_tolerance"]), float(ex["duty_tolerance"])
    periods = [float(T) for T in sweep_lists(job).get("crank_period", [params["crank_period"]])]
    robots = [cls(**dict(params, crank_period=T)) for T in periods]     # validation before anything runs
    opts = paper.check_job(params, robots, dict(job.paper))
    kw = runner_kw(run_kw(job))
    kw["stop_when_steady"] = False
    t0 = time.perf_counter()
    twins = sw.run_points(robots, out, "results.csv", ["crank_period"], kw=kw)
    rows = []
    for r, tr in zip(robots, twins):
        tw = {} if tr.error else r.summarize(tr)
        pr = paper_run.simulate(r, kw["cycles"], **opts)
        pa = {} if pr.error else paper_run.summarize(pr)
        row = dict(crank_period=r.period, error_twin=tr.problem or (r.run_error(tw) if tw else tr.error) or "",
                   error_paper=pr.error or "")
        for m in METRICS:
            row[f"{m}_twin"], row[f"{m}_paper"] = tw.get(m, math.nan), pa.get(m, math.nan)
        row["slide_fraction_paper"] = pa.get("slide_fraction", math.nan)
        row["painleve_impasses_paper"] = pa.get("painleve_impasses", math.nan)
        row.update(compare(tw, pa, tol_speed, tol_duty, row["error_twin"]))
        rows.append(row)
        if job.run.progress:
            print(f"crank period {r.period:g} s: speed twin {row['speed_twin']:+.3f}, paper {row['speed_paper']:+.3f} m/s",
                  flush=True)
    cmp_ = [r for r in rows if r["compared"]]
    summary = dict(engine="mujoco+paper", paper_options=opts, cycles=kw["cycles"], wall_s=time.perf_counter() - t0,
                   speed_tolerance=tol_speed, duty_tolerance=tol_duty, compared_crank_periods=[r["crank_period"] for r in cmp_],
                   target_met=bool(cmp_) and all(r["within_target"] for r in cmp_),
                   speed_by_crank_period={f"{r['crank_period']:g}": dict(twin=r["speed_twin"], paper=r["speed_paper"])
                                          for r in rows},
                   duty_by_crank_period={f"{r['crank_period']:g}": dict(twin=r["duty_factor_twin"],
                                                                       paper=r["duty_factor_paper"]) for r in rows},
                   flagged={f"{r['crank_period']:g}": (r["error_twin"] + " " + r["error_paper"]).strip()
                            for r in rows if r["error_twin"] or r["error_paper"]})
    summary["all_healthy"] = not summary["flagged"]
    return Result(summary, tables={"results.csv": (COLUMNS, rows)},
                  plots={"twin_vs_paper.png": partial(plots.twin_vs_paper, rows, tol_speed, tol_duty, params.get("bumper_height"))})
