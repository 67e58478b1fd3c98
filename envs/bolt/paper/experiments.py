"""BOLT experiments (paper: Liu & Ben-Tzvi): computations returning their tables, plots (envs/bolt/paper/plots.py)
and summary (gaittwin.core.runs.experiment.Result); the shell writes them into Hydra's run directory."""
from __future__ import annotations

import math
import time
from functools import partial

import numpy as np

from ...core.runs import config
from ...core.model import energy
from ...core.runs import sweep as sw
from ..robot import FORWARD, foot_path as closed_form_foot_path, loop_kinematics, stride_and_height
from ...core.model.errors import ConfigError
from . import plots
from ...core.runs.experiment import Result, options, robot_cls, robot_params, run_kw, runner, runner_kw, sweep_lists


def _twin_engine(job) -> None:
    """engine=paper runs only bolt_speed_sweep: refused here, never silently replaced by the twin."""
    if job.engine == "paper":
        raise ConfigError("engine", job.engine, "mujoco or warp for this experiment (engine=paper: bolt_speed_sweep)")


def _single(job):
    """The robot point of a single-run experiment (a sweep list picks its first value) and run options."""
    _twin_engine(job)
    cls = robot_cls(job)
    lists = sweep_lists(job)
    for k, v in lists.items():
        if k not in cls.defaults:
            raise ConfigError(f"sweep.{k}", v, f"a parameter of {cls.name}: {sorted(cls.defaults)}")
    robots = [cls(**dict(robot_params(job), **combo)) for combo in sw.grid(lists)]   # validation first
    kw = runner_kw(run_kw(job))
    kw["nthread"] = 1 if kw["nthread"] is None else kw["nthread"]
    return cls, robots, kw


# ---- bolt_foot_path ------------------------------------------------------------------
@runner("bolt_foot_path")
def foot_path(job, out) -> Result:
    """Fig. 5(b): body fixed in the air, slow crank: the twin's foot path in {B} against the
    closed-form kinematics.  summary.json, foot_path.csv, foot_path.png."""
    cls, robots, kw = _single(job)
    r = robots[0]
    if not r.p.body_fixed:
        raise ConfigError("robot.body_fixed", r.cfg["body_fixed"], "true for the foot-path experiment")
    kw["stop_when_steady"] = False
    run = sw.run_point(r, out, "foot_path.csv", ["crank_period"], kw=kw)
    q1 = run.sensor("q_1")[:, 0]
    twin = run.sensor("foot_in_B")[:, [0, 2]]
    ref = loop_kinematics(q1, r.geometry)["F"]
    err = np.abs(twin[:, 0] + 1j * twin[:, 1] - ref)
    knee = run.sensor("E_pos")[:, [0, 2]] - run.sensor("P_pos")[:, [0, 2]]    # body fixed: {B} = world, moved to P
    turned = float(np.ptp(q1))
    full = closed_form_foot_path(r.geometry)
    s_twin, h_twin = stride_and_height(twin)
    s_cf, h_cf = stride_and_height(full)
    s = r.summarize(run)
    summary = dict(stride_length=s_twin, step_height=h_twin,
                   stride_length_closed_form=s_cf, step_height_closed_form=h_cf,
                   twin=dict(stride_length=s_twin, step_height=h_twin),
                   closed_form=dict(stride_length=s_cf, step_height=h_cf),
                   max_foot_error=float(err.max()), crank_turned_deg=math.degrees(turned),
                   max_loop_gap=s["max_loop_gap"], crank_period=r.period, samples=len(q1),
                   max_penetration=run.max_penetration, error=run.problem or r.run_error(s))
    summary["all_healthy"] = summary["error"] is None
    table = dict(t=run.t, q_1_deg=np.degrees(q1), foot_x=twin[:, 0], foot_y=twin[:, 1],
                 foot_x_closed_form=ref.real, foot_y_closed_form=ref.imag, error=err, knee_x=knee[:, 0],
                 knee_y=knee[:, 1],
                 loop_gap=r.loop_gaps(run).max(axis=1))
    return Result(summary, tables={"foot_path.csv": table},
                  plots={"foot_path.png": partial(plots.foot_path, r, full, twin, err, s_twin, h_twin)})


# ---- bolt_running ---------------------------------------------------------------------
# the Sec. 5.1 actuator by phase: the flight torque limit, the stance power limit (per-step peaks)
PHASE_COLUMNS = ("peak_torque_flight", "peak_power_flight", "peak_torque_stance", "peak_power_stance",
                 "torque_limit_binds_flight", "power_limit_binds_stance", "peak_foot_force", "impact_force")
TIMESERIES = ("t", "x", "y", "y_dot", "theta_1d_deg", "q_1_deg", "q_1_dot", "q_2_deg", "q_3_deg", "q_4_deg",
              "q_5_deg", "loop_gap_B", "loop_gap_G", "crank_torque", "crank_power", "foot_force",
              "foot_x_B", "foot_y_B", "power")


@runner("bolt_running")
def running(job, out) -> Result:
    """Figs. 11-14: running from rest on the boom.  summary.json, timeseries.csv, plots."""
    cls, robots, kw = _single(job)
    r = robots[0]
    kw["stop_when_steady"] = False
    r.model()                              # compile outside the timing
    t0 = time.perf_counter()
    run = sw.run_point(r, out, "timeseries.csv", ["crank_period"], kw=kw)
    wall = time.perf_counter() - t0
    s = r.summarize(run)
    sim_time = run.cycles * r.period
    ts = _timeseries(r, run)
    summary = dict(speed=s["speed"], stride_time=s["stride_time"], crank_period=r.period,
                   max_loop_gap=s["max_loop_gap"], loop_gap_ok=s["loop_gap_ok"], stride_length=s["stride_length"],
                   strides=run.cycles, steady=s["steady"], duty_factor=s["duty_factor"],
                   touchdowns_per_revolution=s["touchdowns_per_revolution"],
                   **{k: s[k] for k in PHASE_COLUMNS},
                   peak_torque=s["peak_torque"], peak_power=s["peak_power"],
                   peak_stance_power=s["peak_stance_power"], tau_max=r.p.tau_max, P_max=r.p.P_max,
                   limits_ok=s["limits_ok"], min_point_height=s["min_point_height"],
                   max_tracking_error_deg=s["max_tracking_error_deg"],
                   **{k: s[k] for k in energy.METRICS},
                   sim_time=sim_time, wall_s=wall, real_time_factor=sim_time / wall if wall > 0 else math.nan,
                   max_penetration=run.max_penetration, error=run.problem or r.run_error(s))
    summary["all_healthy"] = summary["error"] is None
    figures = (plots.body_xy, plots.phase_portraits, plots.angles, plots.loop_error, plots.torque_power)
    return Result(summary, tables={"timeseries.csv": {c: ts[c] for c in TIMESERIES}},
                  plots={f"{f.__name__}.png": partial(f, r, ts, s) for f in figures})


def _timeseries(r, run) -> dict:
    gaps = r.loop_gaps(run)
    tau = run.sensor("crank_torque")[:, 0]
    w = run.sensor("crank_rate")[:, 0]
    pos = run.sensor("body_pos")
    d = dict(t=run.t, x=FORWARD * pos[:, 0], y=pos[:, 2], y_dot=run.sensor("body_vel")[:, 2],
             theta_1d_deg=np.degrees(r.controls(run.t)[:, 0]), q_1_dot=w,
             loop_gap_B=gaps[:, 0], loop_gap_G=gaps[:, 1], crank_torque=tau, crank_power=tau * w,
             foot_force=run.sensor("foot_touch")[:, 0],
             foot_x_B=run.sensor("foot_in_B")[:, 0], foot_y_B=run.sensor("foot_in_B")[:, 2],
             power=energy.power(run.sensordata, run.model))       # W, positive motor power
    for i in range(1, 6):
        d[f"q_{i}_deg"] = np.degrees(run.sensor(f"q_{i}")[:, 0])
    return d


# ---- bolt_speed_sweep -----------------------------------------------------------------
SWEEP_COLUMNS = ("speed", "stride_time", "crank_period_measured", "duty_factor", "max_loop_gap", "loop_gap_ok") + PHASE_COLUMNS + (
    "peak_torque", "peak_power", "peak_stance_power", "stride_length", "steady", "touchdowns_per_revolution",
    "limits_ok")


@runner("bolt_speed_sweep")
def speed_sweep(job, out) -> Result:
    """Speed, stride time, peak torque and power per crank rate.  results.csv, speed_sweep.png."""
    job = config.validate(job)
    cls = robot_cls(job)
    kw = run_kw(job)
    if job.engine == "paper":                      # the paper's model: this robot's own Engine
        from . import model as paper
        points = [cls(**{**robot_params(job), **combo}) for combo in sw.grid(sweep_lists(job))]
        opts = paper.check_job(robot_params(job), points, dict(job.paper))
        rows, stats = sw.simulate(job, out, engine=_paper_engine(kw, opts), extra_columns=SWEEP_COLUMNS)
        stats["engine"] = "paper"
    else:
        rows, stats = sw.simulate(job, out, extra_columns=SWEEP_COLUMNS)
    steps_per_s = stats["steps_per_s"]
    dt = cls(**robot_params(job)).timestep_max
    done = [r for r in sw.healthy(rows) if isinstance(r.get("speed"), float)]   # flagged points left out
    ok = [r for r in done if r["limits_ok"] is True]
    summary = dict(stats, real_time_factor=steps_per_s * dt if steps_per_s == steps_per_s else math.nan,
                   fastest_speed=max((r["speed"] for r in done), default=math.nan),
                   fastest_speed_within_limits=max((r["speed"] for r in ok), default=math.nan),
                   max_loop_gap=sw.nanmax(r["max_loop_gap"] for r in rows),     # over every point
                   flagged={f"{r['crank_period']:g}": r["error"] for r in rows if r["error"]},
                   speed_by_crank_period={f"{r['crank_period']:g}": r.get("speed") for r in done},
                   stride_time_by_crank_period={f"{r['crank_period']:g}": r.get("stride_time") for r in done})
    limits = tuple(robot_params(job)[k] for k in ("tau_max", "P_max"))
    draw = partial(plots.speed_sweep, done, len(rows) - len(done), limits, job.engine)
    return Result(summary, plots={"speed_sweep.png": draw}, rows={"results.csv": rows})


def _paper_engine(kw, opts) -> sw.Engine:
    """The paper model (envs/bolt/paper/run.py) for sweep.run_rows, the points one after the other."""
    import scipy

    from . import model as paper, run as paper_run
    cycles = kw["cycles"]

    def simulate(robots, add) -> int:
        for j, r in enumerate(robots):
            run = paper_run.simulate(r, cycles=cycles, **opts)
            values = {} if run.error else paper_run.summarize(run)
            values.update(max_penetration=0.0, max_loop_gap=values.get("max_loop_gap"))
            add(j, values, run.error)
        return 0

    return sw.Engine("paper", simulate, dict(cycles=cycles, paper=paper.identity_options(opts)), metrics=paper_run.PAPER_METRICS,
                     versions=lambda cls: {"scipy": scipy.__version__})


# ---- bolt_treadmill -------------------------------------------------------------------
TREADMILL_COLUMNS = ("crank_period", "belt_speed", "mean_x_velocity", "iterations", "converged", "revolutions",
                     "stride_time",
                     "crank_period_measured", "duty_factor", "touchdowns_per_revolution", "max_loop_gap",
                     "loop_gap_ok") + PHASE_COLUMNS + ("limits_ok", "max_tracking_error_deg", "steady", "error")


def in_place_belt_speed(cls, params: dict, crank_period: float, kw: dict, *, tol: float, max_iter: int,
                        v0: float | None = None, out=None) -> tuple[dict, list]:
    """The belt speed at which the leg runs in place (mean x velocity of the body over the steady
    window = 0) at one crank period: secant iterations on f(v) = mean x velocity, switching to
    regula falsi (Illinois) once a sign change brackets the root.  v0: first guess (default: the
    ground speed, i.e. f at belt speed 0).  out: the run directory whose results.csv row the runs are
    (each run's engine recorded under the crank period).  Returns (summary of the last run, [(v, f), ...])."""
    def run_at(v):
        r = cls(**dict(params, crank_period=crank_period, belt_speed=float(v)))
        run = sw.run_point(r, out, "results.csv", ["crank_period"], kw=kw)
        if run.error:
            return None, r, run
        return r.summarize(run), r, run

    hist = []
    s, r, run = run_at(0.0 if v0 is None else v0)
    if s is None:
        return dict(error=run.error, belt_speed=0.0 if v0 is None else v0, engine=run.engine), hist
    v_a, f_a = (0.0 if v0 is None else v0), s["speed"]
    hist.append((v_a, f_a))
    best = (abs(f_a), s, r, run)
    v_b = v_a + f_a if f_a == f_a else v_a + 0.5       # a treadmill carries the leg back at its speed
    f_b = None
    lo = hi = None                                     # bracket: (v, f) with f > 0 and f < 0
    for _ in range(max_iter):
        if abs(best[0]) <= tol:
            break
        s, r, run = run_at(v_b)
        if s is None or s["speed"] != s["speed"]:
            break
        f_b = s["speed"]
        hist.append((v_b, f_b))
        if abs(f_b) < best[0]:
            best = (abs(f_b), s, r, run)
        for v, f in ((v_a, f_a), (v_b, f_b)):
            if f > 0 and (lo is None or v > lo[0]):
                lo = (v, f)
            if f < 0 and (hi is None or v < hi[0]):
                hi = (v, f)
        if abs(f_b) <= tol:
            break
        if lo is not None and hi is not None:          # regula falsi inside the bracket
            v_n = lo[0] - lo[1] * (hi[0] - lo[0]) / (hi[1] - lo[1])
        else:                                           # secant, its slope kept near the belt's -1
            slope = (f_b - f_a) / (v_b - v_a) if v_b != v_a else -1.0
            v_n = v_b - f_b / min(max(slope, -3.0), -1 / 3)
        v_a, f_a, v_b = v_b, f_b, v_n
    _, s, r, run = best
    out = dict(s, mean_x_velocity=s["speed"], iterations=len(hist), converged=bool(abs(s["speed"]) <= tol),
               max_penetration=run.max_penetration, error=run.problem or r.run_error(s), engine=run.engine)
    return out, hist


@runner("bolt_treadmill")
def treadmill(job, out) -> Result:
    """Sec. 6.1-6.2: the leg free in x and y on the framing over a treadmill belt; for each crank
    period the belt speed that keeps it running in place.  results.csv, summary.json,
    treadmill.png; the crank period for experiment.target_speed (3.2 m/s)."""
    cls = robot_cls(job)
    params = robot_params(job)
    periods = [float(T) for T in sweep_lists(job).get("crank_period", [params["crank_period"]])]
    _twin_engine(job)
    ex = options(job)
    tol, max_iter, target = float(ex["tolerance"]), int(ex["max_iter"]), float(ex["target_speed"])
    kw = runner_kw(run_kw(job))
    kw["stop_when_steady"] = False
    for T in periods:          # validation before anything runs; the step budget bounds the point's every run
        cls(**dict(params, crank_period=T, belt_speed=0.0)).check_steps(
            max(kw["cycles"], math.ceil(float(ex["min_time"]) / T)), kw["max_steps"], runs=1 + max_iter)
    t0 = time.perf_counter()
    rows, history = [], {}
    for T in periods:
        # at least min_time of running per evaluation: the fast gaits are irregular, their mean
        # velocity needs a long window (the second half of the run)
        kw_T = dict(kw, cycles=max(kw["cycles"], math.ceil(float(ex["min_time"]) / T)))
        s, hist = in_place_belt_speed(cls, params, T, kw_T, tol=tol, max_iter=max_iter, out=out)
        row = {k: s.get(k, math.nan) for k in TREADMILL_COLUMNS}
        row["crank_period"], row["error"], row["revolutions"] = T, s.get("error") or "", kw_T["cycles"]
        rows.append(row)
        history[f"{T:g}"] = [[float(v), float(f)] for v, f in hist]
        if job.run.progress:
            print(f"crank period {T:g} s: belt {row['belt_speed']:.3f} m/s, mean x velocity "
                  f"{row['mean_x_velocity']:+.4f} m/s after {row['iterations']} runs", flush=True)
    ok = [r for r in rows if not r["error"] and r["belt_speed"] == r["belt_speed"]]
    T_target, at_target = _crank_period_for(ok, target)
    summary = dict(points=len(rows), wall_s=time.perf_counter() - t0, tolerance=tol, target_speed=target,
                   mass_set=params.get("mass_set"), crank_period_for_target=T_target, **at_target,
                   max_loop_gap=max((r["max_loop_gap"] for r in ok), default=math.nan),
                   belt_speed_by_crank_period={f"{r['crank_period']:g}": r["belt_speed"] for r in rows},
                   stride_time_by_crank_period={f"{r['crank_period']:g}": r["stride_time"] for r in rows},
                   flagged={f"{r['crank_period']:g}": r["error"] for r in rows if r["error"]},
                   iterations=history)
    return Result(summary, tables={"results.csv": (TREADMILL_COLUMNS, rows)},
                  plots={"treadmill.png": partial(plots.treadmill, rows, target, T_target,
                                                  (params["tau_max"], params["P_max"]))})


def _crank_period_for(rows, target):
    """The crank period at which the in-place belt speed is `target` (linear in crank rate between
    the bracketing points), and what the nearest points say about the actuator there."""
    rows = sorted(rows, key=lambda r: r["crank_period"], reverse=True)   # slow -> fast
    for a, b in zip(rows, rows[1:]):
        va, vb = a["belt_speed"], b["belt_speed"]
        if (va - target) * (vb - target) <= 0 and va != vb:
            fa, fb = 1 / a["crank_period"], 1 / b["crank_period"]
            f = fa + (target - va) * (fb - fa) / (vb - va)
            return 1 / f, dict(target_bracket=[a["crank_period"], b["crank_period"]],
                               target_bracket_belt_speeds=[va, vb],
                               target_bracket_residuals=[a["mean_x_velocity"], b["mean_x_velocity"]],
                               target_bracket_converged=[bool(a["converged"]), bool(b["converged"])],
                               target_limits_ok=bool(a["limits_ok"] and b["limits_ok"]),
                               target_crank_period_measured=[a["crank_period_measured"], b["crank_period_measured"]],
                               target_stance_power_limit_binds=bool(a["power_limit_binds_stance"]
                                                                    or b["power_limit_binds_stance"]))
    return math.nan, dict(target_bracket=None, target_reached=bool(rows and max(r["belt_speed"] for r in rows) >= target))
