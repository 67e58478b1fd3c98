"""MinIAQ-II experiments (paper: Askari & Ozcan): computations returning a Result (tables, plots from
envs/miniaq/paper/outputs.py, summary) that the shell writes into Hydra's run directory.

  miniaq_trot   Figs. 5, 6, 8, 9: 5 s of trot at 2.5 Hz -> summary.json, timeseries.csv,
                gait_diagram.png, body_motion.png
  miniaq_turn   Fig. 7: in-place turning (one side reversed) -> summary.json (yaw_rate_deg_s),
                timeseries.csv, yaw.png
  miniaq_gait_sweep  gait patterns x motor speeds with the batch runner -> results.csv, summary.json,
                gait_sweep.png
  miniaq_geometry_map  support pattern and speed over the assumed ground link l1 x theta1 ->
                results.csv, summary.json, geometry_map.png (envs/miniaq/paper/geometry_map.py)

Every experiment runs with `engine=mujoco` (the twin) or `engine=paper` (the paper's own model,
envs/miniaq/paper/model.py), with the same output files and columns.  Paper-engine options:
`+paper.clip_normal=true`, `+paper.method=BDF`, `+paper.rtol=1e-8`, `+paper.mu_s=...` (see
`gaittwin.miniaq.paper.model.simulate`).
"""
from __future__ import annotations

import math
import time
from functools import partial

import numpy as np


from ...core.engines import batch
from ...core.model import energy
from ...core.runs import config
from ...core.runs import sweep as sw
from ...core.runs.experiment import Result, options, robot_cls, robot_params, run_kw, runner, runner_kw
from .outputs import (ENGINE_LABELS, engine_name, plot_body_motion, plot_gait_diagram,  # noqa: F401
                                  plot_gait_diagram_engines, plot_sweep, plot_yaw, timeseries)
from ..robot import LEGS

LEG_NAMES = {"fl": "front left", "fr": "front right", "hl": "hind left", "hr": "hind right"}


def engine_of(job) -> str:
    """The configured engine, checked against the robot's (MiniAQ.engines); a point the paper engine
    would run (engine=paper, or experiment.compare) is checked against what that model has."""
    engine = config.validate(job)["engine"]
    if engine == "paper" or options(job).get("compare"):
        from .model import check_supported
        check_supported(robot_params(job))
    return engine


def paper_kw(job) -> dict:
    """Optional `paper.*` settings of the paper engine: `+paper.clip_normal=true`."""
    return dict(config.validate(job).paper)      # checked against PaperOptions (envs/miniaq/config.py)


def _simulate(robot, job, cycles, engine=None, out=None):
    """(run, wall seconds) of one point with the configured engine (or `engine`); a twin's run given `out`
    is timeseries.csv's point there (sweep.run_point records its engine: summary.json's engine_split)."""
    if (engine or engine_of(job)) == "paper":
        from . import model as miniaq_paper
        run = miniaq_paper.simulate(robot, cycles=cycles, **paper_kw(job))
        return run, run.wall_s
    kw = dict(runner_kw(run_kw(job)), cycles=cycles, stop_when_steady=False)
    kw["nthread"] = 1
    t0 = time.perf_counter()
    run = sw.run_point(robot, out, "timeseries.csv", ("gait", "f"), kw=kw)
    return run, time.perf_counter() - t0


def _summarize(robot, run) -> dict:
    if isinstance(run, batch.Run):
        return robot.summarize(run)
    from . import model as miniaq_paper
    return miniaq_paper.summarize(run)


def _single(job, out):
    """The robot point and the run of `experiment.duration` seconds (whole cycles, at least); a twin's run is
    recorded as timeseries.csv's (summary.json's engine_split names the engine that ran it)."""
    cls = robot_cls(job)
    robot = cls(**robot_params(job))
    engine_of(job)
    paper_kw(job)
    duration = float(options(job)["duration"])
    run, wall = _simulate(robot, job, max(2, math.ceil(duration / robot.period - 1e-9)), out=out)
    if run.error:
        raise RuntimeError(f"simulation failed: {run.error}")
    return robot, run, duration, wall


def _base_summary(job, robot, run, duration, wall) -> dict:
    """engine: the one that ran (mujoco, warp, paper; under engine=auto envs/core/experiment.compute writes `auto`
    and names it in engine_split)."""
    s = _summarize(robot, run)
    sim_time = float(run.t[-1])
    return dict(s, engine=engine_name(run), max_penetration=run.max_penetration, error=run.problem,
                all_healthy=run.problem is None,
                gait=robot.cfg["gait"] if robot.cfg["phase_deg"] is None else "custom",
                phase_deg=[math.degrees(p) for p in robot.phases], f=robot.cfg["f"],
                direction_left=robot.cfg["direction_left"], direction_right=robot.cfg["direction_right"],
                duration=duration, sim_time=sim_time, wall_s=wall, real_time_factor=sim_time / wall)


@runner("miniaq_trot")
def trot(job, out) -> Result:
    """Straight trot (or any gait): trajectory, roll/pitch, gait diagram."""
    robot, run, duration, wall = _single(job, out)
    s = _base_summary(job, robot, run, duration, wall)
    spc = robot.samples_per_cycle
    g = robot.gait(run, slice(spc, len(run.t)))
    summary = dict(
        speed=s["speed"], roll_amplitude_deg=s["roll_amplitude_deg"], pitch_amplitude_deg=s["pitch_amplitude_deg"],
        max_loop_gap=s["max_loop_gap"],
        duty_factor={leg: v for leg, v in zip(LEGS, g.duty_factor)},
        support_fraction={k: g.support_fraction[k] for k in (2, 3, 4)},
        support_fraction_below_2=g.support_fraction[0] + g.support_fraction[1],
        drag_fraction={leg: v for leg, v in zip(LEGS, g.drag_fraction)},
        intended_duty_factor=0.5, intended_support_fraction={2: 1.0, 3: 0.0, 4: 0.0},
        **{k: v for k, v in s.items() if k in (
            "yaw_rate_deg_s", "drift_y", "roll_mean_deg", "pitch_mean_deg", "height_mean", "motor_torque_max",
            "motor_saturated_fraction", "crank_lag_max_deg", "gait", "phase_deg", "f", "direction_left",
            "direction_right", "duration", "sim_time", "wall_s", "real_time_factor", "cycles", "engine",
            "max_penetration", "error", "all_healthy") + energy.METRICS})
    summary["metrics_window"] = "cycles 2..end (the first cycle is settling); energy: the steady cycles"
    plots = {"body_motion.png": partial(plot_body_motion, robot, run, duration),
             "gait_diagram.png": partial(plot_gait_diagram, robot, run, duration),
             **_compare(robot, job, run, duration, summary)}
    return Result(summary, tables={"timeseries.csv": timeseries(robot, run, duration)}, plots=plots)


def _compare(robot, job, run, duration, summary) -> dict:
    """experiment.compare: the other engine too, its numbers in the summary; returns the plot of
    both gait diagrams stacked."""
    if not options(job)["compare"]:
        return {}
    other = "paper" if engine_name(run) != "paper" else "mujoco"
    run2, _ = _simulate(robot, job, run.cycles, engine=other)
    if run2.error:
        raise RuntimeError(f"simulation failed ({other}): {run2.error}")
    s2 = _summarize(robot, run2)
    summary["other_engine"] = dict(engine=other, **{k: s2[k] for k in COMPARE_KEYS if k in s2},
                                   support_fraction={k: s2[f"support_{k}"] for k in (2, 3, 4)})
    return {"gait_diagram_engines.png": partial(plot_gait_diagram_engines, robot,
                                                {engine_name(run): run, other: run2}, duration)}


COMPARE_KEYS = ("speed", "roll_amplitude_deg", "pitch_amplitude_deg", "yaw_rate_deg_s", "support_2", "support_3",
                "support_4", "support_le1") + tuple(f"{leg}_{k}" for k in ("duty_factor", "drag_fraction",
                                                                          "touchdowns_per_cycle") for leg in LEGS)


@runner("miniaq_turn")
def turn(job, out) -> Result:
    """In-place turning: one side's motors reversed (Fig. 7)."""
    robot, run, duration, wall = _single(job, out)
    s = _base_summary(job, robot, run, duration, wall)
    pos = run.sensor("torso_pos")
    keep = run.t <= duration + 1e-9
    summary = dict(yaw_rate_deg_s=s["yaw_rate_deg_s"],
                   centroid_path_length=float(np.sum(np.linalg.norm(np.diff(pos[keep, :2], axis=0), axis=1))),
                   centroid_displacement=float(np.linalg.norm(pos[keep][-1, :2] - pos[0, :2])),
                   **{k: v for k, v in s.items() if k in (
                       "max_loop_gap", "roll_amplitude_deg", "pitch_amplitude_deg", "motor_torque_max", "gait",
                       "phase_deg", "f", "direction_left", "direction_right", "duration", "sim_time", "wall_s",
                       "real_time_factor", "cycles", "engine", "max_penetration", "error", "all_healthy")})
    plots = {"yaw.png": partial(plot_yaw, robot, run, duration, s["yaw_rate_deg_s"]),
             **_compare(robot, job, run, duration, summary)}
    return Result(summary, tables={"timeseries.csv": timeseries(robot, run, duration)}, plots=plots)


@runner("miniaq_gait_sweep")
def gait_sweep(job, out) -> Result:
    """Gait patterns x motor speeds: speed, turning drift, support pattern (results.csv)."""
    extra = ("speed", "yaw_rate_deg_s", "drift_y", "support_2", "support_3", "support_4", "roll_amplitude_deg",
             "pitch_amplitude_deg")
    paper = engine_of(job) == "paper"              # the paper's model: this robot's own Engine
    rows, stats = sw.simulate(job, out, engine=_paper_engine(job, run_kw(job)) if paper else None,
                              extra_columns=extra)
    if paper:
        stats["engine"] = "paper"
    ok = sw.healthy(rows)               # failed and unhealthy points are left out (stats say how many)
    summary = dict(stats, errors=len(rows) - len(ok),
                   speed={f"{r['gait']}@{r['f']:g}Hz": r["speed"] for r in ok},
                   yaw_rate_deg_s={f"{r['gait']}@{r['f']:g}Hz": r["yaw_rate_deg_s"] for r in ok})
    return Result(summary, plots={"gait_sweep.png": partial(plot_sweep, ok, omitted=len(rows) - len(ok))},
                  rows={"results.csv": rows})


PAPER_METRICS = ("fn_min",) + tuple(f"{leg}_pull_fraction" for leg in LEGS) + (
    "wall_s", "cpu_s", "nfev", "method", "engine")      # columns only the paper engine adds


def _paper_engine(job, kw) -> sw.Engine:
    """The paper engine for sweep.run_rows: the points one after the other (cycles = run.cycles)."""
    import scipy

    from . import model as miniaq_paper

    pk = paper_kw(job)
    cycles = kw["cycles"]

    def simulate(robots, add) -> int:
        for j, r in enumerate(robots):
            run = miniaq_paper.simulate(r, cycles=cycles, **pk)
            values = {} if run.error else miniaq_paper.summarize(run)
            values.update(max_penetration=run.max_penetration, max_loop_gap=None)   # kinematic legs: no loops
            add(j, values, run.problem)
        return 0

    return sw.Engine("paper", simulate, dict(cycles=cycles, paper=pk), metrics=PAPER_METRICS,
                     versions=lambda cls: {"scipy": scipy.__version__})

