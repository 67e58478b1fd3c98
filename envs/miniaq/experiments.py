"""MinIAQ-II experiments (paper: Askari & Ozcan).  Each writes into Hydra's run directory.

  miniaq_trot   Figs. 5, 6, 8, 9: 5 s of trot at 2.5 Hz -> summary.json, timeseries.csv,
                gait_diagram.png, body_motion.png
  miniaq_turn   Fig. 7: in-place turning (one side reversed) -> summary.json (yaw_rate_deg_s),
                timeseries.csv, yaw.png
  miniaq_gait_sweep  gait patterns x motor speeds with the batch runner -> results.csv, summary.json,
                gait_sweep.png
  miniaq_geometry_map  support pattern and speed over the assumed ground link l1 x theta1 ->
                results.csv, summary.json, geometry_map.png

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
from envs.miniaq.robot import LEGS, foot_path, fourbar, quat_to_euler

LEG_NAMES = {"fl": "front left", "fr": "front right", "hl": "hind left", "hr": "hind right"}


ENGINE_LABELS = {"mujoco": "twin", "paper": "paper model"}
PAPER_KEYS = ("method", "rtol", "atol", "max_step", "clip_normal", "mu_s", "V_s", "V_d", "foot_radius", "stiffness",
              "damping")


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


def _simulate(robot, cfg, cycles, engine=None):
    """(run, wall seconds) of one point with the configured engine (or `engine`)."""
    if (engine or engine_of(cfg)) == "paper":
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
    if options(cfg)["compare"]:
        other = "paper" if _engine_name(run) == "mujoco" else "mujoco"
        run2, _ = _simulate(robot, cfg, run.cycles, engine=other)
        if run2.error:
            raise RuntimeError(f"simulation failed ({other}): {run2.error}")
        s2 = _summarize(robot, run2)
        summary["other_engine"] = dict(engine=other, **{k: s2[k] for k in COMPARE_KEYS if k in s2})
        plot_gait_diagram_engines(robot, {_engine_name(run): run, other: run2}, duration,
                                  out / "gait_diagram_engines.png")
    sw.write_json(out / "summary.json", summary)
    return summary


COMPARE_KEYS = ("speed", "roll_amplitude_deg", "pitch_amplitude_deg", "yaw_rate_deg_s", "support_2", "support_3",
                "support_4", "support_le1") + tuple(f"{leg}_{k}" for k in ("duty_factor", "drag_fraction",
                                                                          "touchdowns_per_cycle") for leg in LEGS)


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


# ---- geometry map ----------------------------------------------------------------------------
MAP_COLUMNS = ("speed", "drift_y", "yaw_rate_deg_s", "support_2", "support_3", "support_4", "support_le1",
               "support_ge3", "roll_amplitude_deg", "pitch_amplitude_deg", "height_mean") \
    + tuple(f"{leg}_{k}" for k in ("duty_factor", "drag_fraction", "touchdowns_per_cycle") for leg in LEGS)
GEOMETRY_COLUMNS = ("stride", "step_height", "height", "length", "width")


def leg_geometry(robot) -> dict:
    """What the ground link sets besides the gait: foot path (stride, step height), the robot's
    height (lowest foot to highest joint, A or C) and length (hind-most to front-most leg point over
    a cycle) and width (between the leg planes, set by pivot_y only), all in m."""
    p = robot.p
    path = foot_path(p)
    th = np.linspace(0.0, 2 * math.pi, 721)
    _, C, _, _ = fourbar(th, p["l1"], p["theta1"], p["l2"], p["l3"], p["l4"])
    A = p["l1"] * np.array([math.cos(p["theta1"]), math.sin(p["theta1"])])
    xs = np.r_[C[:, 0], A[0], path["x_min"], path["x_max"]]
    return dict(stride=path["stride"], step_height=path["step_height"],
                height=float(max(A[1], C[:, 1].max()) - path["z_min"]),
                length=float(2 * p["pivot_x"] + xs.max() - xs.min()), width=float(2 * p["pivot_y"]))


def geometry_map(cfg, out) -> dict:
    """Trot over l1 x theta1 (experiment.l1, experiment.theta1_deg) with the configured engine.

    Points that are not a valid MinIAQ-II (not Grashof, feet not below the body) are listed in
    summary.json ("invalid") and drawn as crosses; every simulated point is a results.csv row with
    the same columns in both engines (MAP_COLUMNS + the geometry).
    """
    cls = robot_cls(cfg)
    opt = options(cfg)
    engine = engine_of(cfg)
    kw = paper_kw(cfg)
    base = robot_params(cfg)
    robots, meta, invalid = [], [], []
    for l1 in opt["l1"]:
        for th1 in opt["theta1_deg"]:
            try:
                r = cls(**{**base, "l1": float(l1), "theta1_deg": float(th1)})
            except ConfigError as e:
                invalid.append(dict(l1=float(l1), theta1_deg=float(th1), reason=str(e)))
                continue
            robots.append(r)
            meta.append(leg_geometry(r))
    if not robots:
        raise ConfigError("experiment.l1", opt["l1"], "at least one valid (l1, theta1) point", "no valid geometry")
    key = ["l1", "theta1_deg"]

    def keep(s):
        s = dict(s)
        if s:
            s["support_ge3"] = s.get("support_3", 0.0) + s.get("support_4", 0.0)
        return {k: s.get(k) for k in MAP_COLUMNS}

    if engine == "paper":
        from envs.miniaq import paper as miniaq_paper

        cycles = int(cfg.run.cycles)

        def simulate(todo, add) -> int:
            for j, r in enumerate(todo):
                run = miniaq_paper.simulate(r, cycles=cycles, **kw)
                add(j, {} if run.error else keep(miniaq_paper.summarize(run)), run.error)
            return 0
    else:
        inner = sw.batch_engine(run_kw(cfg))

        def simulate(todo, add) -> int:
            return inner(todo, lambda j, s, err=None: add(j, keep(s) if s else {}, err))
    rows, stats = sw.run_rows(robots, out, key=key, simulate=simulate, meta=meta,
                              extra_columns=GEOMETRY_COLUMNS + MAP_COLUMNS, progress=cfg.run.progress)
    h, tol, three = opt["height"], opt["height_tol"], opt["three_legs"]
    good = [r for r in rows if not r.get("error")]
    tripod = [r for r in good if r["support_ge3"] >= three]
    height_ok = [r for r in good if abs(r["height"] - h) <= tol]
    size_ok = [r for r in height_ok if abs(r["length"] - opt["length"]) <= opt["length_tol"]]

    def hind_drag(r):
        hind, front = (r["hl_duty_factor"] + r["hr_duty_factor"]) / 2, (r["fl_duty_factor"] + r["fr_duty_factor"]) / 2
        return r["support_ge3"] >= three and hind >= opt["hind_duty"] and hind > front and r["speed"] > 0
    paper_like = [r for r in good if hind_drag(r)]
    default = _default_point(cls)
    summary = dict(stats, engine=engine, points=len(rows) + len(invalid), simulated=len(rows), invalid=invalid,
                   errors=sum(1 for r in rows if r.get("error")), three_legs_threshold=three,
                   three_legged=[_pt(r) for r in tripod], matches_height=[_pt(r) for r in height_ok],
                   three_legged_and_height=[_pt(r) for r in tripod if abs(r["height"] - h) <= tol],
                   matches_height_and_length=[_pt(r) for r in size_ok],
                   three_legged_and_size=[_pt(r) for r in tripod if r in size_ok],
                   paper_pattern=[_pt(r) for r in paper_like],
                   paper_pattern_and_size=[_pt(r) for r in paper_like if r in size_ok],
                   paper_pattern_and_height=[_pt(r) for r in paper_like if r in height_ok],
                   default_point=default,
                   support_ge3_range=[min(r["support_ge3"] for r in good), max(r["support_ge3"] for r in good)]
                   if good else None,
                   speed_range=[min(r["speed"] for r in good), max(r["speed"] for r in good)] if good else None)
    plot_geometry_map(rows, invalid, opt, engine, default, out / "geometry_map.png")
    sw.write_json(out / "summary.json", summary)
    return summary


def _default_point(cls) -> dict:
    return dict(l1=cls.defaults["l1"], theta1_deg=cls.defaults["theta1_deg"])


def _pt(r) -> dict:
    return dict(l1=r["l1"], theta1_deg=r["theta1_deg"], support_ge3=r["support_ge3"], speed=r["speed"],
                height=r["height"], length=r["length"], hind_duty=(r["hl_duty_factor"] + r["hr_duty_factor"]) / 2,
                front_duty=(r["fl_duty_factor"] + r["fr_duty_factor"]) / 2)


def plot_geometry_map(rows, invalid, opt, engine, default, path) -> None:
    """Time on >= 3 legs, hind duty factor, speed and robot height over (theta1, l1)."""
    plt = pyplot()
    l1s = sorted(set(float(v) for v in opt["l1"]))
    ths = sorted(set(float(v) for v in opt["theta1_deg"]))
    panels = (("support_ge3", "time on >= 3 legs", "viridis", 1.0), ("hind_duty", "hind duty factor", "viridis", 1.0),
              ("speed", "speed [mm/s]", "plasma", 1e3), ("height", "robot height [mm]", "coolwarm", 1e3))
    fig, ax = plt.subplots(1, 4, figsize=(18, 4.2))
    for a, (k, title, cmap, sc) in zip(ax, panels):
        Z = np.full((len(l1s), len(ths)), np.nan)
        for r in rows:
            if r.get("error"):
                continue
            v = (r["hl_duty_factor"] + r["hr_duty_factor"]) / 2 if k == "hind_duty" else r[k]
            Z[l1s.index(float(r["l1"])), ths.index(float(r["theta1_deg"]))] = v * sc
        im = a.imshow(Z, origin="lower", aspect="auto", cmap=cmap,
                      extent=(-0.5, len(ths) - 0.5, -0.5, len(l1s) - 0.5),
                      **(dict(vmin=0, vmax=1) if k in ("support_ge3", "hind_duty") else {}))
        fig.colorbar(im, ax=a, shrink=0.85)
        for i, l1 in enumerate(l1s):
            for j, th in enumerate(ths):
                if not np.isnan(Z[i, j]):
                    a.text(j, i, f"{Z[i, j]:.2g}", ha="center", va="center", fontsize=6, color="w")
        for bad in invalid:
            a.plot(ths.index(bad["theta1_deg"]), l1s.index(bad["l1"]), "kx", ms=8)
        if default["l1"] in l1s and default["theta1_deg"] in ths:
            a.plot(ths.index(default["theta1_deg"]), l1s.index(default["l1"]), "s", mfc="none", mec="r", ms=14, mew=1.5)
        a.set_xticks(range(len(ths)), [f"{t:g}" for t in ths])
        a.set_yticks(range(len(l1s)), [f"{v * 1e3:g}" for v in l1s])
        a.set_xlabel("theta1 [deg]")
        a.set_ylabel("l1 [mm]")
        a.set_title(title, fontsize=10)
    if ax[3].images:
        h = opt["height"] * 1e3
        ax[3].set_title(f"robot height [mm] (paper {h:g})", fontsize=10)
    fig.suptitle(f"MinIAQ-II {ENGINE_LABELS[engine]}: trot at 2.5 Hz over the assumed ground link "
                 "(x: not a valid crank-rocker / feet not below the body; red square: default)", fontsize=10)
    save_figure(fig, path, dpi=110)


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


def plot_gait_diagram_engines(robot, runs: dict, duration, path) -> None:
    """Figs. 8-9 with both engines stacked: per leg, the intended contact (grey), then each engine's
    contact coloured as the paper (green: friction pushes the body forward, red: drags it back)."""
    from envs.core import metrics

    plt = pyplot()
    spc = robot.samples_per_cycle
    engines = list(runs)
    fig, ax = plt.subplots(1, 2, figsize=(14, 5.5), gridspec_kw=dict(width_ratios=[2.2, 1]))
    texts = []
    for a, whole in ((ax[0], True), (ax[1], False)):
        labels = []
        block = len(engines) + 1.6
        for j, leg in enumerate(LEGS):
            y0 = block * (3 - j)
            first = True
            for k, eng in enumerate(engines):
                run = runs[eng]
                n = len(run.t)
                sl = run.t <= duration + 1e-9 if whole else slice(n - spc - 1, n)
                t = run.t[sl]
                tt = t if whole else (t - t[0]) / robot.period
                g = robot.gait(run, sl)
                if first:
                    ideal = metrics.gait_diagram(robot.intended_contact(t), np.ones((len(t), 4)))
                    _bars(a, y0 + len(engines), ideal.segments[j], tt, color_push="0.6")
                    labels.append((y0 + len(engines), f"{leg} intended"))
                    first = False
                y = y0 + len(engines) - 1 - k
                _bars(a, y, g.segments[j], tt)
                labels.append((y, f"{leg} {ENGINE_LABELS[eng]}"))
                if not whole and j == 0:
                    sf = g.support_fraction
                    texts.append(f"{ENGINE_LABELS[eng]:>11s}: duty " + " ".join(
                        f"{lg} {d:.2f}" for lg, d in zip(LEGS, g.duty_factor))
                        + f" | on 2/3/4 legs {sf[2]:.2f}/{sf[3]:.2f}/{sf[4]:.2f}, < 2 {sf[0] + sf[1]:.2f} | drag "
                        + " ".join(f"{lg} {d:.2f}" for lg, d in zip(LEGS, g.drag_fraction)))
        a.set_yticks([p for p, _ in labels], [s for _, s in labels], fontsize=7)
        a.set_title(f"Fig. 8: {duration:g} s" if whole else "Fig. 9: one stride (last cycle)")
        a.set_xlabel("t [s]" if whole else "stride phase")
    fig.text(0.01, 0.01, "\n".join(texts), fontsize=7.5, family="monospace")
    fig.suptitle(f"MinIAQ-II gait diagram, {' vs '.join(ENGINE_LABELS[e] for e in engines)} "
                 f"({robot.cfg['gait']}, {robot.cfg['f']:g} Hz): grey = intended, green = friction pushes forward, "
                 "red = drags backward", fontsize=10)
    fig.tight_layout(rect=(0, 0.07, 1, 0.95))
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
