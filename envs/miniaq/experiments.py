"""MinIAQ-II experiments (paper: Askari & Ozcan).  Each writes into Hydra's run directory.

  miniaq_trot   Figs. 5, 6, 8, 9: 5 s of trot at 2.5 Hz -> summary.json, timeseries.csv,
                gait_diagram.png, body_motion.png
  miniaq_turn   Fig. 7: in-place turning (one side reversed) -> summary.json (yaw_rate_deg_s),
                timeseries.csv, yaw.png
  miniaq_gait_sweep  gait patterns x motor speeds with the batch runner -> results.csv, summary.json,
                gait_sweep.png

Every experiment runs with `engine=mujoco` (the twin) or `engine=paper` (the paper's own model,
envs/miniaq/paper.py), with the same output files and columns.  Paper-engine options:
`+paper.clip_normal=true`, `+paper.method=BDF`, `+paper.rtol=1e-8`, `+paper.mu_s=...` (see
`envs.miniaq.paper.simulate`).
"""
from __future__ import annotations

import csv
import math
import time

import numpy as np

from omegaconf import OmegaConf

from envs.core import batch, config
from envs.core import sweep as sw
from envs.core.errors import ConfigError
from envs.core.experiment import launch_kw, options, robot_cls, robot_params, run_kw, sweep_lists
from envs.core.plots import pyplot, save_figure
from envs.miniaq.robot import LEGS, quat_to_euler

LEG_NAMES = {"fl": "front left", "fr": "front right", "hl": "hind left", "hr": "hind right"}


ENGINE_LABELS = {"mujoco": "twin", "paper": "paper model"}
PAPER_KEYS = ("method", "rtol", "atol", "max_step", "clip_normal", "mu_s", "V_s", "V_d", "foot_radius")


def engine_of(cfg) -> str:
    """The configured engine, checked against the robot's (MiniAQ.engines)."""
    return config.validate(cfg)["engine"]


def paper_kw(cfg) -> dict:
    """Optional `paper.*` settings of the paper engine: `+paper.clip_normal=true`."""
    h = cfg.get("paper", None)
    h = OmegaConf.to_container(h, resolve=True) if OmegaConf.is_config(h) else dict(h or {})
    unknown = sorted(set(h) - set(PAPER_KEYS))
    if unknown:
        raise ConfigError(f"paper.{unknown[0]}", h[unknown[0]], f"one of {list(PAPER_KEYS)}")
    return h


def _simulate(robot, cfg, cycles):
    """(run, wall seconds) of one point with the configured engine."""
    if engine_of(cfg) == "paper":
        from envs.miniaq import paper as miniaq_paper
        run = miniaq_paper.simulate(robot, cycles=cycles, **paper_kw(cfg))
        return run, run.wall_s
    kw = dict(run_kw(cfg), cycles=cycles, stop_when_steady=False)
    kw["nthread"] = 1
    t0 = time.perf_counter()
    run = batch.run_point(robot, type(robot), **kw)
    return run, time.perf_counter() - t0


def _summarize(robot, run) -> dict:
    if isinstance(run, batch.Run):
        return robot.summarize(run)
    from envs.miniaq import paper as miniaq_paper
    return miniaq_paper.summarize(run)


def _single(cfg):
    """The robot point and the run of `experiment.duration` seconds (whole cycles, at least)."""
    cls = robot_cls(cfg)
    robot = cls(**robot_params(cfg))
    engine_of(cfg)
    paper_kw(cfg)
    duration = float(options(cfg)["duration"])
    run, wall = _simulate(robot, cfg, max(2, math.ceil(duration / robot.period - 1e-9)))
    if run.error:
        raise RuntimeError(f"simulation failed: {run.error}")
    return robot, run, duration, wall


def _engine_name(run) -> str:
    return "mujoco" if isinstance(run, batch.Run) else "paper"


def _base_summary(robot, run, duration, wall) -> dict:
    s = _summarize(robot, run)
    sim_time = float(run.t[-1])
    return dict(s, engine=_engine_name(run), gait=robot.cfg["gait"] if robot.cfg["phase_deg"] is None else "custom",
                phase_deg=[math.degrees(p) for p in robot.phases], f=robot.cfg["f"],
                direction_left=robot.cfg["direction_left"], direction_right=robot.cfg["direction_right"],
                duration=duration, sim_time=sim_time, wall_s=wall, real_time_factor=sim_time / wall)


def trot(cfg, out) -> dict:
    """Straight trot (or any gait): trajectory, roll/pitch, gait diagram."""
    robot, run, duration, wall = _single(cfg)
    s = _base_summary(robot, run, duration, wall)
    spc = robot.samples_per_cycle
    g = robot.gait(run, slice(spc, len(run.t)))
    summary = dict(
        speed=s["speed"], roll_amplitude_deg=s["roll_amplitude_deg"], pitch_amplitude_deg=s["pitch_amplitude_deg"],
        max_loop_gap=s["max_loop_gap"],
        duty_factor={leg: v for leg, v in zip(LEGS, g.duty_factor)},
        support_fraction={str(k): g.support_fraction[k] for k in (2, 3, 4)},
        support_fraction_below_2=g.support_fraction[0] + g.support_fraction[1],
        drag_fraction={leg: v for leg, v in zip(LEGS, g.drag_fraction)},
        intended_duty_factor=0.5, intended_support_fraction={"2": 1.0, "3": 0.0, "4": 0.0},
        **{k: v for k, v in s.items() if k in (
            "yaw_rate_deg_s", "drift_y", "roll_mean_deg", "pitch_mean_deg", "height_mean", "motor_torque_max",
            "motor_saturated_fraction", "crank_lag_max_deg", "gait", "phase_deg", "f", "direction_left",
            "direction_right", "duration", "sim_time", "wall_s", "real_time_factor", "cycles", "engine")})
    summary["metrics_window"] = "cycles 2..end (the first cycle is settling)"
    write_timeseries(robot, run, duration, out / "timeseries.csv")
    plot_body_motion(robot, run, duration, out / "body_motion.png")
    plot_gait_diagram(robot, run, duration, out / "gait_diagram.png")
    sw.write_json(out / "summary.json", summary)
    return summary


def turn(cfg, out) -> dict:
    """In-place turning: one side's motors reversed (Fig. 7)."""
    robot, run, duration, wall = _single(cfg)
    s = _base_summary(robot, run, duration, wall)
    pos = run.sensor("torso_pos")
    keep = run.t <= duration + 1e-9
    summary = dict(yaw_rate_deg_s=s["yaw_rate_deg_s"],
                   centroid_path_length=float(np.sum(np.linalg.norm(np.diff(pos[keep, :2], axis=0), axis=1))),
                   centroid_displacement=float(np.linalg.norm(pos[keep][-1, :2] - pos[0, :2])),
                   **{k: v for k, v in s.items() if k in (
                       "max_loop_gap", "roll_amplitude_deg", "pitch_amplitude_deg", "motor_torque_max", "gait",
                       "phase_deg", "f", "direction_left", "direction_right", "duration", "sim_time", "wall_s",
                       "real_time_factor", "cycles", "engine")})
    write_timeseries(robot, run, duration, out / "timeseries.csv")
    plot_yaw(robot, run, duration, s["yaw_rate_deg_s"], out / "yaw.png")
    sw.write_json(out / "summary.json", summary)
    return summary


def gait_sweep(cfg, out) -> dict:
    """Gait patterns x motor speeds: speed, turning drift, support pattern (results.csv)."""
    cls = robot_cls(cfg)
    extra = ("speed", "yaw_rate_deg_s", "drift_y", "support_2", "support_3", "support_4", "roll_amplitude_deg",
             "pitch_amplitude_deg")
    if engine_of(cfg) == "paper":
        points = [{**robot_params(cfg), **combo} for combo in sw.grid(sweep_lists(cfg))]
        robots = [cls(**pt) for pt in points]
        key = list(dict.fromkeys(list(sweep_lists(cfg)) + list(cls.columns)))
        rows, stats = sw.run_rows(robots, out, key=key, simulate=_paper_engine(cfg), extra_columns=extra,
                                  progress=cfg.run.progress)
        stats["engine"] = "paper"
    else:
        rows, stats = sw.run_sweep(cls, robot_params(cfg), sweep_lists(cfg), out, run_kw=run_kw(cfg), launch=launch_kw(cfg),
                                   extra_columns=extra, progress=cfg.run.progress)
    plot_sweep(rows, out / "gait_sweep.png")
    summary = dict(stats, errors=sum(1 for r in rows if r.get("error")),
                   speed={f"{r['gait']}@{r['f']:g}Hz": r["speed"] for r in rows},
                   yaw_rate_deg_s={f"{r['gait']}@{r['f']:g}Hz": r["yaw_rate_deg_s"] for r in rows})
    sw.write_json(out / "summary.json", summary)
    return summary


def _paper_engine(cfg):
    """The paper engine for sweep.run_rows: the points one after the other (cycles = run.cycles)."""
    from envs.miniaq import paper as miniaq_paper

    kw = paper_kw(cfg)
    cycles = int(cfg.run.cycles)

    def simulate(robots, add) -> int:
        for j, r in enumerate(robots):
            run = miniaq_paper.simulate(r, cycles=cycles, **kw)
            add(j, {} if run.error else miniaq_paper.summarize(run), run.error)
        return 0
    return simulate


# ---- outputs ------------------------------------------------------------------------------
def timeseries(robot, run, duration) -> dict:
    keep = run.t <= duration + 1e-9
    pos = run.sensor("torso_pos")[keep]
    eul = np.degrees(np.unwrap(quat_to_euler(run.sensor("torso_quat")[keep]), axis=0))
    g = robot.gait(run, keep)
    cols = {"t": run.t[keep], "x": pos[:, 0], "y": pos[:, 1], "z": pos[:, 2],
            "roll_deg": eul[:, 0], "pitch_deg": eul[:, 1], "yaw_deg": eul[:, 2]}
    gaps = robot.loop_gaps(run)[keep]
    for j, leg in enumerate(LEGS):
        cols[f"{leg}_contact"] = g.contact[:, j].astype(int)
        cols[f"{leg}_push"] = g.push[:, j].astype(int)
        cols[f"{leg}_normal_force"] = run.sensor(f"{leg}_touch")[keep, 0]
        cols[f"{leg}_crank_deg"] = np.degrees(run.sensor(f"{leg}_crank_pos")[keep, 0])
        cols[f"{leg}_motor_torque"] = run.sensor(f"{leg}_motor_torque")[keep, 0]
        cols[f"{leg}_loop_gap"] = gaps[:, j]
    return cols


def write_timeseries(robot, run, duration, path) -> None:
    cols = timeseries(robot, run, duration)
    names = list(cols)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(names)
        for i in range(len(cols["t"])):
            w.writerow([_fmt(cols[n][i]) for n in names])


def _fmt(v):
    return int(v) if isinstance(v, (np.integer, int)) else f"{float(v):.9g}"


def plot_body_motion(robot, run, duration, path) -> None:
    plt = pyplot()
    c = timeseries(robot, run, duration)
    fig, ax = plt.subplots(2, 2, figsize=(11, 6))
    ax[0, 0].plot(c["t"], c["roll_deg"], color="tab:blue")
    ax[0, 0].set_ylabel("roll [deg]")
    ax[0, 0].set_title("Fig. 5(a): roll")
    ax[1, 0].plot(c["t"], c["pitch_deg"], color="tab:orange")
    ax[1, 0].set_ylabel("pitch [deg]")
    ax[1, 0].set_xlabel("t [s]")
    ax[1, 0].set_title("Fig. 5(b): pitch")
    ax[0, 1].plot(c["x"] * 1e3, c["y"] * 1e3, color="tab:green")
    ax[0, 1].set_xlabel("x [mm]")
    ax[0, 1].set_ylabel("y [mm]")
    ax[0, 1].set_title("Fig. 6: centroid trajectory (top view)")
    ax[0, 1].axis("equal")
    ax[1, 1].plot(c["t"], c["x"] * 1e3, label="x")
    ax[1, 1].plot(c["t"], c["y"] * 1e3, label="y")
    ax[1, 1].plot(c["t"], c["z"] * 1e3, label="z")
    ax[1, 1].set_xlabel("t [s]")
    ax[1, 1].set_ylabel("[mm]")
    ax[1, 1].legend()
    ax[1, 1].set_title("centroid position")
    for a in ax.flat:
        a.grid(alpha=0.3)
    fig.suptitle(f"MinIAQ-II {ENGINE_LABELS[_engine_name(run)]}, {robot.cfg['gait']} at {robot.cfg['f']:g} Hz")
    save_figure(fig, path, dpi=110)


def _bars(ax, y, segs, t, color_push="tab:green", color_drag="tab:red", h=0.35):
    dt = t[1] - t[0] if len(t) > 1 else 0.0
    for a, b, code in segs:
        ax.broken_barh([(t[a], t[b - 1] - t[a] + dt)], (y - h / 2, h),
                       color=color_push if code > 0 else color_drag, lw=0)


def plot_gait_diagram(robot, run, duration, path) -> None:
    """Figs. 8-9: intended vs achieved contact per leg; green = friction pushes forward, red = drags."""
    from envs.core import metrics

    plt = pyplot()
    keep = run.t <= duration + 1e-9
    t = run.t[keep]
    g = robot.gait(run, keep)
    ideal = metrics.gait_diagram(robot.intended_contact(t), np.ones((len(t), 4)))
    spc = robot.samples_per_cycle
    n = len(run.t)
    last = slice(n - spc - 1, n)                     # the last full stride
    tl = run.t[last] - run.t[last][0]
    gl = robot.gait(run, last)
    il = metrics.gait_diagram(robot.intended_contact(run.t[last]), np.ones((len(tl), 4)))
    fig, ax = plt.subplots(1, 2, figsize=(13, 4.5), gridspec_kw=dict(width_ratios=[2.2, 1]))
    for a, tt, gg, ii, title in ((ax[0], t, g, ideal, f"Fig. 8: {duration:g} s"),
                                 (ax[1], tl / robot.period, gl, il, "Fig. 9: one stride (last cycle)")):
        labels = []
        for j, leg in enumerate(LEGS):
            y0 = 2 * (3 - j)
            _bars(a, y0 + 0.5, ii.segments[j], tt, color_push="0.6")
            _bars(a, y0, gg.segments[j], tt)
            labels += [(y0 + 0.5, f"{leg} intended"), (y0, f"{leg} actual")]
        a.set_yticks([p for p, _ in labels], [s for _, s in labels], fontsize=8)
        a.set_title(title)
        a.set_xlabel("t [s]" if a is ax[0] else "stride phase")
    txt = "duty factor " + ", ".join(f"{leg} {d:.2f}" for leg, d in zip(LEGS, gl.duty_factor))
    sf = gl.support_fraction
    txt += f"\nlegs on floor: 2: {sf[2]:.2f}  3: {sf[3]:.2f}  4: {sf[4]:.2f}  <2: {sf[0] + sf[1]:.2f} (intended trot: 2: 1.00)"
    fig.text(0.01, 0.01, txt, fontsize=8, family="monospace")
    fig.suptitle(f"MinIAQ-II {ENGINE_LABELS[_engine_name(run)]} gait diagram ({robot.cfg['gait']}, {robot.cfg['f']:g} Hz): "
                 "grey = intended, green = friction pushes forward, red = drags backward", fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_yaw(robot, run, duration, rate, path) -> None:
    plt = pyplot()
    c = timeseries(robot, run, duration)
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    ax[0].plot(c["t"], c["yaw_deg"], label=ENGINE_LABELS[_engine_name(run)])
    ax[0].plot(c["t"], rate * c["t"], "k--", lw=0.8, label=f"{rate:.1f} deg/s")
    ax[0].set_xlabel("t [s]")
    ax[0].set_ylabel("yaw [deg]")
    ax[0].set_title("Fig. 7: yaw during in-place turning")
    ax[0].legend()
    ax[1].plot(c["x"] * 1e3, c["y"] * 1e3)
    ax[1].set_xlabel("x [mm]")
    ax[1].set_ylabel("y [mm]")
    ax[1].axis("equal")
    ax[1].set_title("centroid path")
    for a in ax:
        a.grid(alpha=0.3)
    save_figure(fig, path, dpi=110)


def plot_sweep(rows, path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(1, 3, figsize=(14, 4))
    for gait in dict.fromkeys(r["gait"] for r in rows):
        rs = sorted((r for r in rows if r["gait"] == gait), key=lambda r: r["f"])
        f = [r["f"] for r in rs]
        ax[0].plot(f, [r["speed"] * 1e3 for r in rs], "o-", label=gait)
        ax[1].plot(f, [r["yaw_rate_deg_s"] for r in rs], "o-", label=gait)
        ax[2].plot(f, [r["support_2"] for r in rs], "o-", label=gait)
    for a, lab in zip(ax, ("speed [mm/s]", "yaw rate [deg/s] (drift)", "fraction of time on 2 legs")):
        a.set_xlabel("motor frequency f [Hz]")
        a.set_ylabel(lab)
        a.grid(alpha=0.3)
    ax[0].legend()
    save_figure(fig, path, dpi=110)
