"""BOLT's figures: each function draws one PNG from an experiment's computed values
(envs/bolt/paper/experiments.py) into the path it is given."""
from __future__ import annotations

import numpy as np

from ..kinematics import loop_kinematics
from ...core.view.plots import pyplot, save_figure, style


def foot_path(r, full, twin, err, s_twin, h_twin, path) -> None:
    """Fig. 5(b): the twin's foot path in {B} over the closed form."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(full[:, 0], full[:, 1], "k-", lw=2.5, alpha=0.35, label="closed form (Phi_1..Phi_4)")
    ax.plot(twin[:, 0], twin[:, 1], "-", color="tab:red", lw=1, label="MuJoCo twin")
    k0 = loop_kinematics(np.array([r.p.theta_1_0]), r.geometry)["F"][0]
    ax.plot(k0.real, k0.imag, "o", color="tab:blue", label="q_1 = theta_1_0")
    ax.set_aspect("equal")
    style(ax, "foot x in {B} [m]", "foot y in {B} [m]",
          f"BOLT foot path (Fig. 5b): stride {s_twin * 1e3:.1f} mm, height {h_twin * 1e3:.1f} mm; "
          f"max error {err.max() * 1e3:.3f} mm", legend=True, legend_size=8, title_size=9)
    save_figure(fig, path, dpi=120)


def body_xy(r, ts, s, path) -> None:
    """Fig. 12 (a, b): body x and y over time."""
    plt = pyplot()
    t, stance = ts["t"], ts["foot_force"] > 0
    T = r.period
    fig, ax = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    ax[0].plot(t, ts["x"])
    ax[0].set_ylabel("x_b [m]")
    ax[0].set_title(f"BOLT running, crank period {T:g} s: {s['speed']:.2f} m/s, stride time "
                    f"{s['stride_time'] * 1e3:.0f} ms", fontsize=10)
    ax[1].plot(t, ts["y"])
    ax[1].fill_between(t, ts["y"].min(), ts["y"].max(), where=stance, color="0.85", label="stance")
    finish_time_plot(fig, ax, "y_b [m]", path)


def phase_portraits(r, ts, s, path) -> None:
    """Fig. 12 (c, d): phase portraits (limit cycles) of height and crank angle."""
    plt = pyplot()
    t = ts["t"]
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
    fig.suptitle(f"BOLT twin, crank period {r.period:g} s: phase portraits (Fig. 12c, d)", fontsize=10)
    save_figure(fig, path, dpi=120)


def angles(r, ts, s, path) -> None:
    """Figs. 13, 14: crank angle (commanded and actual) and the dependent angles."""
    plt = pyplot()
    t = ts["t"]
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
    fig.suptitle(f"BOLT twin, crank period {r.period:g} s: crank and dependent angles (Figs. 13, 14)", fontsize=10)
    save_figure(fig, path, dpi=120)


def loop_error(r, ts, s, path) -> None:
    """Fig. 11: loop-closure errors."""
    plt = pyplot()
    t, stance = ts["t"], ts["foot_force"] > 0
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(t, ts["loop_gap_B"] * 1e3, lw=1, label="loop 1 gap |B_hfe - B_femur|")
    ax.plot(t, ts["loop_gap_G"] * 1e3, lw=1, label="loop 2 gap |G_kfe - G_tibia|")
    ax.fill_between(t, 0, max(ts["loop_gap_B"].max(), ts["loop_gap_G"].max()) * 1e3, where=stance,
                    color="0.9", label="stance")
    style(ax, "t [s]", "loop-closure error [mm]", f"Loop-closure error (Fig. 11): max {s['max_loop_gap'] * 1e3:.2f} mm",
          legend=True, legend_size=8, title_size=10)
    save_figure(fig, path, dpi=120)


def torque_power(r, ts, s, path) -> None:
    """Crank torque and power against their limits: tau_max in flight, P_max in stance (Sec. 5.1)."""
    plt = pyplot()
    t, stance = ts["t"], ts["foot_force"] > 0
    fig, ax = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    ax[0].plot(t, ts["crank_torque"], lw=0.8)
    for v in (-r.p.tau_max, r.p.tau_max):
        ax[0].axhline(v, color="r", lw=0.8, ls="--", label="tau_max (flight)" if v > 0 else None)
    ax[0].fill_between(t, ts["crank_torque"].min(), ts["crank_torque"].max(), where=stance, color="0.9",
                       label="stance")
    ax[0].set_ylabel("crank torque [N m]")
    ax[0].legend(fontsize=8)
    ax[0].set_title(f"BOLT twin, crank torque and power (Sec. 5.1 limits), crank period {r.period:g} s\n"
                    f"flight: peak |tau| {s['peak_torque_flight']:.1f} N m, |P| {s['peak_power_flight']:.0f} W; "
                    f"stance: peak |tau| {s['peak_torque_stance']:.1f} N m, |P| {s['peak_power_stance']:.0f} W",
                    fontsize=9)
    ax[1].plot(t, ts["crank_power"], lw=0.8)
    for v in (-r.p.P_max, r.p.P_max):
        ax[1].axhline(v, color="r", lw=0.8, ls="--", label="P_max (stance)" if v > 0 else None)
    ax[1].fill_between(t, ts["crank_power"].min(), ts["crank_power"].max(), where=stance, color="0.9",
                       label="stance")
    finish_time_plot(fig, ax, "crank power [W]", path)


def peak_panels(ax, f, col, limits, xlabel: str | None = None) -> None:
    """Peak torque and power per phase against the configured point's limits (tau_max, P_max; they were
    drawn at the defaults 30 N m, 1350 W whatever the run's) (the speed-sweep and treadmill plots)."""
    for a, key, label, lim, name in ((ax[1, 0], "peak_torque", "peak |torque| [N m]", limits[0], "tau_max = {:g} N m"),
                                     (ax[1, 1], "peak_power", "peak |power| [W]", limits[1], "P_max = {:g} W")):
        a.plot(f, col(f"{key}_flight"), "o-", label="flight (limit: torque)")
        a.plot(f, col(f"{key}_stance"), "s-", label="stance (limit: power)")
        a.axhline(lim, color="r", ls="--", lw=0.8, label=name.format(lim))
        a.set_ylabel(label)
        if xlabel:
            a.set_xlabel(xlabel)
        a.legend(fontsize=8)


def finish_time_plot(fig, ax, ylabel: str, path) -> None:
    """The lower panel's labels and legend, a grid on both, and the PNG."""
    ax[1].set_ylabel(ylabel)
    ax[1].set_xlabel("t [s]")
    ax[1].legend(fontsize=8)
    for a in ax:
        a.grid(alpha=0.3)
    save_figure(fig, path, dpi=120)


def _per_crank_rate(rows):
    """(crank rate [rev/s], a column getter col(key, scale), figure, 2 x 3 axes) of rows sorted by crank period."""
    f = np.array([1.0 / r["crank_period"] for r in rows])
    col = lambda key, k=1.0: np.array([float(r[key]) for r in rows]) * k   # noqa: E731
    fig, ax = pyplot().subplots(2, 3, figsize=(13, 6), sharex=True)
    return f, col, fig, ax


def speed_sweep(rows, omitted, limits, engine, path) -> None:
    """Speed, stride time, duty factor, peak torque/power and loop gap per crank rate; the title names the engine."""
    rows = sorted((r for r in rows if isinstance(r.get("speed"), float)), key=lambda r: r["crank_period"])
    if not rows:
        return
    f, col, fig, ax = _per_crank_rate(rows)
    steady = np.array([bool(r["steady"]) for r in rows], dtype=bool)
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
    peak_panels(ax, f, col, limits)
    ax[1, 2].plot(f, col("max_loop_gap", 1e3), "o-")
    ax[1, 2].axhline(0.1, color="r", ls="--", lw=0.8, label="max_loop_gap")
    ax[1, 2].set_ylabel("max loop gap [mm]")
    ax[1, 2].legend(fontsize=8)
    for a in ax.flat:
        a.grid(alpha=0.3)
    for a in ax[1]:
        a.set_xlabel("crank rate [rev/s]")
    fig.suptitle(f"BOLT speed sweep on the ground, {'the paper model (engine=paper)' if engine == 'paper' else 'twin'} "
                 "(paper: 0.5-3.2 m/s on the treadmill)"
                 + (f"; {omitted} failed/flagged points omitted (results.csv: error)" if omitted else ""),
                 fontsize=10)
    save_figure(fig, path, dpi=120)


def treadmill(rows, target, T_target, limits, path) -> None:
    """The in-place belt speed, stride time and peak torque/power per crank rate."""
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
    peak_panels(ax, f, col, limits, xlabel="commanded crank rate [rev/s]")
    for a in ax.flat:
        a.grid(alpha=0.3)
    fig.suptitle("BOLT on the treadmill: belt speed for in-place running (Sec. 6.1-6.2)", fontsize=10)
    save_figure(fig, path, dpi=120)


def twin_vs_paper(rows, tol_speed, tol_duty, bumper, path) -> None:
    """Twin and paper model per crank rate: speed, duty factor, touch-downs per revolution, stride time,
    stance impulse, peak stance torque; the compared points (the paper model at one touch-down per revolution)
    ringed."""
    rows = sorted(rows, key=lambda r: r["crank_period"])
    if not rows:
        return
    f, col, fig, ax = _per_crank_rate(rows)
    both = np.array([bool(r["compared"]) for r in rows], dtype=bool)
    panels = (("speed", "speed [m/s]", 1.0), ("duty_factor", "duty factor", 1.0),
              ("touchdowns_per_revolution", "touch-downs / revolution", 1.0), ("stride_time", "stride time [ms]", 1e3),
              ("stance_impulse", "stance impulse [N s / touch-down]", 1.0),
              ("peak_torque_stance", "stance peak torque [N m]", 1.0))
    for a, (key, label, k) in zip(ax.flat, panels):
        a.plot(f, col(f"{key}_twin", k), "o-", label="twin (MuJoCo)")
        a.plot(f, col(f"{key}_paper", k), "s--", label="paper model (SPF, engine=paper)")
        if both.any():
            a.plot(f[both], col(f"{key}_paper", k)[both], "o", mfc="none", mec="k", ms=11, label="compared")
        a.set_ylabel(label)
        a.grid(alpha=0.3)
    ax[0, 0].legend(fontsize=7)
    for a in ax[1]:
        a.set_xlabel("crank rate [rev/s]")
    rig = "no bumper" if bumper is None else f"boom bumper at {bumper:g} m"
    fig.suptitle(f"BOLT twin vs paper model, {rig} (target where the paper model runs 1 touch-down/rev: "
                 f"speed within {tol_speed:.0%}, duty within {tol_duty:g})", fontsize=10)
    save_figure(fig, path, dpi=120)


def speed_vs_stride_time(paper_rows, twin_rows, path, twin_off_gait=()) -> None:
    """Speed against the *measured* stride time: the paper model per rule set (`rule_set`: run.speed_stride_curve's
    rows, or the zero-force reference's), the twin (bolt_speed_sweep's results rows, joined by a line), and the
    twin's points off its one-touch-down-per-revolution gait (`twin_off_gait`: open markers, not joined); the crank
    period each point ran at written beside it.  Failed runs (error, or no measured stride time) are left out and
    counted in the title."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
    ok = lambda r: not r.get("error") and r.get("stride_time") == r.get("stride_time") and r.get("speed") == r.get("speed")  # noqa: E731
    groups = [("twin (MuJoCo, bolt_speed_sweep)", [r for r in twin_rows if ok(r)], "k", "o-")]
    if twin_off_gait:
        groups.append(("twin, not one touch-down per revolution", [r for r in twin_off_gait if ok(r)], "k", "o"))
    labels = sorted({r["rule_set"] for r in paper_rows})
    marks = ("s--", "^-", "v-", "D-", "P-", "X-", "<-", ">-")
    for i, label in enumerate(labels):
        groups.append((f"paper model: {label}", [r for r in paper_rows if r["rule_set"] == label and ok(r)],
                       f"C{i}", marks[i % len(marks)]))
    for label, rows, color, mark in groups:
        rows = sorted(rows, key=lambda r: float(r["stride_time"]))
        if not rows:
            continue
        x = np.array([float(r["stride_time"]) for r in rows]) * 1e3
        y = np.array([float(r["speed"]) for r in rows])
        ax.plot(x, y, mark, color=color, label=label, ms=5, lw=1, **({"mfc": "none"} if mark == "o" else {}))
        for r, xi, yi in zip(rows, x, y):
            ax.annotate(f"{float(r['crank_period']):g}", (xi, yi), fontsize=6, xytext=(3, 3), textcoords="offset points",
                        color=color)
    failed = sum(not ok(r) for r in list(paper_rows) + list(twin_rows) + list(twin_off_gait))
    style(ax, "measured stride time [ms]", "speed [m/s]",
          "BOLT: speed against the measured stride time (labels: crank period [s])"
          + (f"\n{failed} run(s) without a measured stride time left out" if failed else ""),
          legend=True, legend_size=7, title_size=9)
    save_figure(fig, path, dpi=120)
