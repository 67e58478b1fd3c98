"""BOLT experiments (paper: Liu & Ben-Tzvi).  Each writes into Hydra's run directory."""
from __future__ import annotations

import csv
import math
import time

import numpy as np

from envs.core import batch
from envs.core import sweep as sw
from envs.bolt.robot import FORWARD, foot_path as closed_form_foot_path, loop_kinematics, stride_and_height
from envs.core.errors import ConfigError
from envs.core.experiment import launch_kw, options, robot_cls, robot_params, run_kw, sweep_lists
from envs.core.plots import pyplot, save_figure


def _single(cfg):
    """The robot point of a single-run experiment (a sweep list picks its first value) and run options."""
    cls = robot_cls(cfg)
    lists = sweep_lists(cfg)
    for k, v in lists.items():
        if k not in cls.defaults:
            raise ConfigError(f"sweep.{k}", v, f"a parameter of {cls.name}: {sorted(cls.defaults)}")
    robots = [cls(**dict(robot_params(cfg), **combo)) for combo in sw.grid(lists)]   # validation first
    kw = run_kw(cfg)
    kw.pop("retry_failed")
    kw["nthread"] = 1 if kw["nthread"] is None else kw["nthread"]
    return cls, robots, kw


# ---- bolt_foot_path ------------------------------------------------------------------
def foot_path(cfg, out) -> dict:
    """Fig. 5(b): body fixed in the air, slow crank: the twin's foot path in {B} against the
    closed-form kinematics.  summary.json, foot_path.csv, foot_path.png."""
    cls, robots, kw = _single(cfg)
    r = robots[0]
    if not r.p["body_fixed"]:
        raise ConfigError("robot.body_fixed", r.cfg["body_fixed"], "true for the foot-path experiment")
    kw["stop_when_steady"] = False
    run = batch.run_points([r], cls, **kw)[0]
    q1 = run.sensor("q_1")[:, 0]
    twin = run.sensor("foot_in_B")[:, [0, 2]]
    ref = loop_kinematics(q1, r.geometry)["F"]
    err = np.abs(twin[:, 0] + 1j * twin[:, 1] - ref)
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
    gap = r.loop_gaps(run.sensordata, run.model).max(axis=1)
    with open(out / "foot_path.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", "q_1_deg", "foot_x", "foot_y", "foot_x_closed_form", "foot_y_closed_form", "error",
                    "loop_gap"])
        for row in zip(run.t, np.degrees(q1), twin[:, 0], twin[:, 1], ref.real, ref.imag, err, gap):
            w.writerow([repr(float(v)) for v in row])
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(full[:, 0], full[:, 1], "k-", lw=2.5, alpha=0.35, label="closed form (Phi_1..Phi_4)")
    ax.plot(twin[:, 0], twin[:, 1], "-", color="tab:red", lw=1, label="MuJoCo twin")
    k0 = loop_kinematics(np.array([r.p["theta_1_0"]]), r.geometry)["F"][0]
    ax.plot(k0.real, k0.imag, "o", color="tab:blue", label="q_1 = theta_1_0")
    ax.set_aspect("equal")
    ax.set_xlabel("foot x in {B} [m]")
    ax.set_ylabel("foot y in {B} [m]")
    ax.set_title(f"BOLT foot path (Fig. 5b): stride {s_twin * 1e3:.1f} mm, height {h_twin * 1e3:.1f} mm; "
                 f"max error {err.max() * 1e3:.3f} mm", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    save_figure(fig, out / "foot_path.png", dpi=120)
    sw.write_json(out / "summary.json", summary)
    return summary


# ---- bolt_running ---------------------------------------------------------------------
# the Sec. 5.1 actuator by phase: the flight torque limit, the stance power limit (per-step peaks)
PHASE_COLUMNS = ("peak_torque_flight", "peak_power_flight", "peak_torque_stance", "peak_power_stance",
                 "torque_limit_binds_flight", "power_limit_binds_stance", "peak_foot_force", "impact_force")
TIMESERIES = ("t", "x", "y", "y_dot", "theta_1d_deg", "q_1_deg", "q_1_dot", "q_2_deg", "q_3_deg", "q_4_deg",
              "q_5_deg", "loop_gap_B", "loop_gap_G", "crank_torque", "crank_power", "foot_force",
              "foot_x_B", "foot_y_B")


def running(cfg, out) -> dict:
    """Figs. 11-14: running from rest on the boom.  summary.json, timeseries.csv, plots."""
    cls, robots, kw = _single(cfg)
    r = robots[0]
    kw["stop_when_steady"] = False
    r.model()                              # compile outside the timing
    t0 = time.perf_counter()
    run = batch.run_points([r], cls, **kw)[0]
    wall = time.perf_counter() - t0
    s = r.summarize(run)
    sim_time = run.cycles * r.period
    ts = _timeseries(r, run)
    with open(out / "timeseries.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(TIMESERIES)
        for row in zip(*(ts[c] for c in TIMESERIES)):
            w.writerow([repr(float(v)) for v in row])
    summary = dict(speed=s["speed"], stride_time=s["stride_time"], crank_period=r.period,
                   max_loop_gap=s["max_loop_gap"], loop_gap_ok=s["loop_gap_ok"], stride_length=s["stride_length"],
                   strides=run.cycles, steady=s["steady"], duty_factor=s["duty_factor"],
                   touchdowns_per_revolution=s["touchdowns_per_revolution"],
                   **{k: s[k] for k in PHASE_COLUMNS},
                   peak_torque=s["peak_torque"], peak_power=s["peak_power"],
                   peak_stance_power=s["peak_stance_power"], tau_max=r.p["tau_max"], P_max=r.p["P_max"],
                   limits_ok=s["limits_ok"], min_point_height=s["min_point_height"],
                   max_tracking_error_deg=s["max_tracking_error_deg"],
                   sim_time=sim_time, wall_s=wall, real_time_factor=sim_time / wall if wall > 0 else math.nan,
                   max_penetration=run.max_penetration, error=run.problem or r.run_error(s))
    summary["all_healthy"] = summary["error"] is None
    _plot_running(r, ts, s, out)
    sw.write_json(out / "summary.json", summary)
    return summary


def _timeseries(r, run) -> dict:
    gaps = r.loop_gaps(run.sensordata, run.model)
    tau = run.sensor("crank_torque")[:, 0]
    w = run.sensor("crank_rate")[:, 0]
    pos = run.sensor("body_pos")
    d = dict(t=run.t, x=FORWARD * pos[:, 0], y=pos[:, 2], y_dot=run.sensor("body_vel")[:, 2],
             theta_1d_deg=np.degrees(r.controls(run.t)[:, 0]), q_1_dot=w,
             loop_gap_B=gaps[:, 0], loop_gap_G=gaps[:, 1], crank_torque=tau, crank_power=tau * w,
             foot_force=run.sensor("foot_touch")[:, 0],
             foot_x_B=run.sensor("foot_in_B")[:, 0], foot_y_B=run.sensor("foot_in_B")[:, 2])
    for i in range(1, 6):
        d[f"q_{i}_deg"] = np.degrees(run.sensor(f"q_{i}")[:, 0])
    return d


def _plot_running(r, ts, s, out) -> None:
    plt = pyplot()
    t, stance = ts["t"], ts["foot_force"] > 0
    T = r.period
    # Fig. 12 (a, b): body x and y over time
    fig, ax = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    ax[0].plot(t, ts["x"])
    ax[0].set_ylabel("x_b [m]")
    ax[0].set_title(f"BOLT running, crank period {T:g} s: {s['speed']:.2f} m/s, stride time "
                    f"{s['stride_time'] * 1e3:.0f} ms", fontsize=10)
    ax[1].plot(t, ts["y"])
    ax[1].fill_between(t, ts["y"].min(), ts["y"].max(), where=stance, color="0.85", label="stance")
    _finish_time_plot(fig, ax, "y_b [m]", out / "body_xy.png")
    # Fig. 12 (c, d): phase portraits (limit cycles) of height and crank angle
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    late = t >= t[-1] / 2
    ax[0].plot(ts["y"], ts["y_dot"], lw=0.5, color="0.7", label="from rest")
    ax[0].plot(ts["y"][late], ts["y_dot"][late], lw=1.2, color="tab:blue", label="second half")
    ax[0].set_xlabel("y_b [m]")
    ax[0].set_ylabel("dy_b/dt [m/s]")
    q1 = np.mod(-ts["q_1_deg"], 360.0)     # clockwise crank: shown as 0..360 deg of turn
    ax[1].plot(q1, -ts["q_1_dot"], ".", ms=1, color="0.7")
    ax[1].plot(q1[late], -ts["q_1_dot"][late], ".", ms=1.5, color="tab:blue")
    ax[1].set_xlabel("crank turn -q_1 mod 360 [deg]")
    ax[1].set_ylabel("-dq_1/dt [rad/s]")
    ax[0].legend(fontsize=8)
    for a in ax:
        a.grid(alpha=0.3)
    fig.suptitle("Phase portraits (Fig. 12c, d)", fontsize=10)
    save_figure(fig, out / "phase_portraits.png", dpi=120)
    # Figs. 13, 14: crank angle (commanded and actual) and the dependent angles
    fig, ax = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    ax[0].plot(t, np.mod(ts["theta_1d_deg"], 360), "--", lw=1, label="theta_1d (commanded)")
    ax[0].plot(t, np.mod(ts["q_1_deg"], 360), lw=1, label="q_1")
    ax[0].set_ylabel("crank angle mod 360 [deg]")
    ax[0].legend(fontsize=8)
    for i in range(2, 6):
        ax[1].plot(t, np.mod(ts[f"q_{i}_deg"] + 180.0, 360.0) - 180.0, lw=1, label=f"q_{i}")
    ax[1].set_ylabel("dependent angles z, wrapped [deg]")
    ax[1].set_xlabel("t [s]")
    ax[1].legend(fontsize=8, ncol=4)
    for a in ax:
        a.grid(alpha=0.3)
    save_figure(fig, out / "angles.png", dpi=120)
    # Fig. 11: loop-closure errors
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(t, ts["loop_gap_B"] * 1e3, lw=1, label="loop 1 gap |B_hfe - B_femur|")
    ax.plot(t, ts["loop_gap_G"] * 1e3, lw=1, label="loop 2 gap |G_kfe - G_tibia|")
    ax.fill_between(t, 0, max(ts["loop_gap_B"].max(), ts["loop_gap_G"].max()) * 1e3, where=stance,
                    color="0.9", label="stance")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("loop-closure error [mm]")
    ax.set_title(f"Loop-closure error (Fig. 11): max {s['max_loop_gap'] * 1e3:.2f} mm", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    save_figure(fig, out / "loop_error.png", dpi=120)
    # crank torque and power against their limits: tau_max in flight, P_max in stance (Sec. 5.1)
    fig, ax = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    ax[0].plot(t, ts["crank_torque"], lw=0.8)
    for v in (-r.p["tau_max"], r.p["tau_max"]):
        ax[0].axhline(v, color="r", lw=0.8, ls="--", label="tau_max (flight)" if v > 0 else None)
    ax[0].fill_between(t, ts["crank_torque"].min(), ts["crank_torque"].max(), where=stance, color="0.9",
                       label="stance")
    ax[0].set_ylabel("crank torque [N m]")
    ax[0].legend(fontsize=8)
    ax[0].set_title(f"flight: peak |tau| {s['peak_torque_flight']:.1f} N m, |P| {s['peak_power_flight']:.0f} W; "
                    f"stance: peak |tau| {s['peak_torque_stance']:.1f} N m, |P| {s['peak_power_stance']:.0f} W",
                    fontsize=9)
    ax[1].plot(t, ts["crank_power"], lw=0.8)
    for v in (-r.p["P_max"], r.p["P_max"]):
        ax[1].axhline(v, color="r", lw=0.8, ls="--", label="P_max (stance)" if v > 0 else None)
    ax[1].fill_between(t, ts["crank_power"].min(), ts["crank_power"].max(), where=stance, color="0.9",
                       label="stance")
    _finish_time_plot(fig, ax, "crank power [W]", out / "torque_power.png")


def _peak_panels(ax, f, col, xlabel: str | None = None) -> None:
    """Peak torque and power per phase against their limits (the speed-sweep and treadmill plots)."""
    for a, key, label, lim in ((ax[1, 0], "peak_torque", "peak |torque| [N m]", 30.0),
                               (ax[1, 1], "peak_power", "peak |power| [W]", 1350.0)):
        a.plot(f, col(f"{key}_flight"), "o-", label="flight (limit: torque)")
        a.plot(f, col(f"{key}_stance"), "s-", label="stance (limit: power)")
        a.axhline(lim, color="r", ls="--", lw=0.8)
        a.set_ylabel(label)
        if xlabel:
            a.set_xlabel(xlabel)
        a.legend(fontsize=8)


def _finish_time_plot(fig, ax, ylabel: str, path) -> None:
    """The lower panel's labels and legend, a grid on both, and the PNG."""
    ax[1].set_ylabel(ylabel)
    ax[1].set_xlabel("t [s]")
    ax[1].legend(fontsize=8)
    for a in ax:
        a.grid(alpha=0.3)
    save_figure(fig, path, dpi=120)


# ---- bolt_speed_sweep -----------------------------------------------------------------
SWEEP_COLUMNS = ("speed", "stride_time", "crank_period_measured", "duty_factor", "max_loop_gap", "loop_gap_ok") + PHASE_COLUMNS + (
    "peak_torque", "peak_power", "peak_stance_power", "stride_length", "steady", "touchdowns_per_revolution",
    "limits_ok")


def speed_sweep(cfg, out) -> dict:
    """Speed, stride time, peak torque and power per crank rate.  results.csv, speed_sweep.png."""
    cls = robot_cls(cfg)
    kw = run_kw(cfg)
    rows, stats = sw.run_sweep(cls, robot_params(cfg), sweep_lists(cfg), out, run_kw=kw, launch=launch_kw(cfg),
                               extra_columns=SWEEP_COLUMNS, progress=cfg.run.progress)
    steps_per_s = stats["steps_per_s"]
    dt = cls(**robot_params(cfg)).timestep_max
    done = [r for r in sw.healthy(rows) if isinstance(r.get("speed"), float)]   # flagged points left out
    ok = [r for r in done if r["limits_ok"] is True]
    summary = dict(stats, real_time_factor=steps_per_s * dt if steps_per_s == steps_per_s else math.nan,
                   fastest_speed=max((r["speed"] for r in done), default=math.nan),
                   fastest_speed_within_limits=max((r["speed"] for r in ok), default=math.nan),
                   max_loop_gap=sw.nanmax(r["max_loop_gap"] for r in rows),     # over every point
                   flagged={f"{r['crank_period']:g}": r["error"] for r in rows if r["error"]},
                   speed_by_crank_period={f"{r['crank_period']:g}": r.get("speed") for r in done},
                   stride_time_by_crank_period={f"{r['crank_period']:g}": r.get("stride_time") for r in done})
    _plot_sweep(done, out / "speed_sweep.png", omitted=len(rows) - len(done))
    sw.write_json(out / "summary.json", summary)
    return summary


def _plot_sweep(rows, path, omitted: int = 0) -> None:
    plt = pyplot()
    rows = sorted((r for r in rows if isinstance(r.get("speed"), float)), key=lambda r: r["crank_period"])
    if not rows:
        return
    f = np.array([1.0 / r["crank_period"] for r in rows])
    steady = np.array([bool(r["steady"]) for r in rows], dtype=bool)
    col = lambda key, k=1.0: np.array([float(r[key]) for r in rows]) * k   # noqa: E731
    fig, ax = plt.subplots(2, 3, figsize=(13, 6), sharex=True)
    for a, key, label, k in ((ax[0, 0], "speed", "speed [m/s]", 1.0), (ax[0, 1], "stride_time", "stride time [ms]", 1e3),
                             (ax[0, 2], "duty_factor", "duty factor", 1.0)):
        y = col(key, k)
        a.plot(f, y, "o-")
        if (~steady).any():
            a.plot(f[~steady], y[~steady], "x", color="tab:red", label="not steady (per-stride advance varies)")
            a.legend(fontsize=8)
        a.set_ylabel(label)
    ax[0, 1].plot(f, 1e3 / f, "k--", lw=0.8, label="crank period")
    ax[0, 0].axhspan(0.5, 3.2, color="0.92", zorder=0)
    _peak_panels(ax, f, col)
    ax[1, 2].plot(f, col("max_loop_gap", 1e3), "o-")
    ax[1, 2].axhline(0.1, color="r", ls="--", lw=0.8, label="max_loop_gap")
    ax[1, 2].set_ylabel("max loop gap [mm]")
    ax[1, 2].legend(fontsize=8)
    for a in ax.flat:
        a.grid(alpha=0.3)
    for a in ax[1]:
        a.set_xlabel("crank rate [rev/s]")
    fig.suptitle("BOLT speed sweep on the ground (paper: 0.5-3.2 m/s on the treadmill)"
                 + (f"; {omitted} failed/flagged points omitted (results.csv: error)" if omitted else ""),
                 fontsize=10)
    save_figure(fig, path, dpi=120)


# ---- bolt_treadmill -------------------------------------------------------------------
TREADMILL_COLUMNS = ("crank_period", "belt_speed", "mean_x_velocity", "iterations", "converged", "revolutions",
                     "stride_time",
                     "crank_period_measured", "duty_factor", "touchdowns_per_revolution", "max_loop_gap",
                     "loop_gap_ok") + PHASE_COLUMNS + ("limits_ok", "max_tracking_error_deg", "steady", "error")


def in_place_belt_speed(cls, params: dict, crank_period: float, kw: dict, *, tol: float, max_iter: int,
                        v0: float | None = None) -> tuple[dict, list]:
    """The belt speed at which the leg runs in place (mean x velocity of the body over the steady
    window = 0) at one crank period: secant iterations on f(v) = mean x velocity, switching to
    regula falsi (Illinois) once a sign change brackets the root.  v0: first guess (default: the
    ground speed, i.e. f at belt speed 0).  Returns (summary of the last run, [(v, f), ...])."""
    def run_at(v):
        r = cls(**dict(params, crank_period=crank_period, belt_speed=float(v)))
        run = batch.run_point(r, cls, **kw)
        if run.error:
            return None, r, run
        return r.summarize(run), r, run

    hist = []
    s, r, run = run_at(0.0 if v0 is None else v0)
    if s is None:
        return dict(error=run.error, belt_speed=0.0 if v0 is None else v0), hist
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
               max_penetration=run.max_penetration, error=run.problem or r.run_error(s))
    return out, hist


def treadmill(cfg, out) -> dict:
    """Sec. 6.1-6.2: the leg free in x and y on the framing over a treadmill belt; for each crank
    period the belt speed that keeps it running in place.  results.csv, summary.json,
    treadmill.png; the crank period for experiment.target_speed (3.2 m/s)."""
    cls = robot_cls(cfg)
    params = robot_params(cfg)
    periods = [float(T) for T in sweep_lists(cfg).get("crank_period", [params["crank_period"]])]
    for T in periods:                                   # validation before anything runs
        cls(**dict(params, crank_period=T, belt_speed=0.0))
    ex = options(cfg)
    tol, max_iter, target = float(ex["tolerance"]), int(ex["max_iter"]), float(ex["target_speed"])
    kw = run_kw(cfg)
    kw.pop("retry_failed")
    kw["stop_when_steady"] = False
    t0 = time.perf_counter()
    rows, history = [], {}
    for T in periods:
        # at least min_time of running per evaluation: the fast gaits are irregular, their mean
        # velocity needs a long window (the second half of the run)
        kw_T = dict(kw, cycles=max(kw["cycles"], math.ceil(float(ex["min_time"]) / T)))
        s, hist = in_place_belt_speed(cls, params, T, kw_T, tol=tol, max_iter=max_iter)
        row = {k: s.get(k, math.nan) for k in TREADMILL_COLUMNS}
        row["crank_period"], row["error"], row["revolutions"] = T, s.get("error") or "", kw_T["cycles"]
        rows.append(row)
        history[f"{T:g}"] = [[float(v), float(f)] for v, f in hist]
        if cfg.run.progress:
            print(f"crank period {T:g} s: belt {row['belt_speed']:.3f} m/s, mean x velocity "
                  f"{row['mean_x_velocity']:+.4f} m/s after {row['iterations']} runs", flush=True)
    with open(out / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(TREADMILL_COLUMNS))
        w.writeheader()
        for row in rows:
            w.writerow({k: (repr(float(v)) if isinstance(v, (float, np.floating)) else v) for k, v in row.items()})
    ok = [r for r in rows if not r["error"] and r["belt_speed"] == r["belt_speed"]]
    T_target, at_target = _crank_period_for(ok, target)
    summary = dict(points=len(rows), wall_s=time.perf_counter() - t0, tolerance=tol, target_speed=target,
                   mass_set=params.get("mass_set"), crank_period_for_target=T_target, **at_target,
                   max_loop_gap=max((r["max_loop_gap"] for r in ok), default=math.nan),
                   belt_speed_by_crank_period={f"{r['crank_period']:g}": r["belt_speed"] for r in rows},
                   stride_time_by_crank_period={f"{r['crank_period']:g}": r["stride_time"] for r in rows},
                   flagged={f"{r['crank_period']:g}": r["error"] for r in rows if r["error"]},
                   iterations=history)
    _plot_treadmill(rows, target, T_target, out / "treadmill.png")
    sw.write_json(out / "summary.json", summary)
    return summary


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


def _plot_treadmill(rows, target, T_target, path) -> None:
    plt = pyplot()
    rows = sorted((r for r in rows if r["belt_speed"] == r["belt_speed"]), key=lambda r: r["crank_period"])
    if not rows:
        return
    f = np.array([1 / r["crank_period"] for r in rows])
    col = lambda k, s=1.0: np.array([float(r[k]) for r in rows]) * s   # noqa: E731
    fig, ax = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    ax[0, 0].plot(f, col("belt_speed"), "o-", label="in-place belt speed")
    ax[0, 0].axhline(target, color="r", ls="--", lw=0.8, label=f"paper: {target:g} m/s")
    if T_target == T_target:
        ax[0, 0].axvline(1 / T_target, color="r", ls=":", lw=0.8, label=f"crank period {T_target:.3f} s")
    ax[0, 0].axhspan(0.5, 3.2, color="0.92", zorder=0)
    ax[0, 0].set_ylabel("belt speed [m/s]")
    ax[0, 0].legend(fontsize=8)
    ax[0, 1].plot(f, col("stride_time", 1e3), "o-", label="stride time")
    ax[0, 1].plot(f, col("crank_period_measured", 1e3), "s--", label="measured crank period")
    ax[0, 1].plot(f, 1e3 / f, "k:", lw=0.8, label="commanded crank period")
    ax[0, 1].set_ylabel("[ms]")
    ax[0, 1].legend(fontsize=8)
    _peak_panels(ax, f, col, xlabel="commanded crank rate [rev/s]")
    for a in ax.flat:
        a.grid(alpha=0.3)
    fig.suptitle("BOLT on the treadmill: belt speed for in-place running (Sec. 6.1-6.2)", fontsize=10)
    save_figure(fig, path, dpi=120)
