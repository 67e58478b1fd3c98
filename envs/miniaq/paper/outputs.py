"""MinIAQ-II experiment outputs: the time series and the figures (Figs. 5-9 of the paper)."""
from __future__ import annotations

import numpy as np

from ...core.engines import batch
from ...core.view.plots import pyplot, save_figure
from ...core.runs.progress import ENGINE_LABELS  # noqa: F401  (what each engine is called)
from ..robot import LEGS, quat_to_euler



def engine_name(run) -> str:
    """mujoco or warp (the twin, on the engine that stepped it), or paper (the paper's model)."""
    return run.engine if isinstance(run, batch.Run) else "paper"


def timeseries(robot, run, duration) -> dict:
    keep = run.t <= duration + 1e-9
    pos = run.sensor("torso_pos")[keep]
    eul = np.degrees(np.unwrap(quat_to_euler(run.sensor("torso_quat")[keep]), axis=0))
    g = robot.gait(run, keep)
    cols = {"t": run.t[keep], "x": pos[:, 0], "y": pos[:, 1], "z": pos[:, 2],
            "roll_deg": eul[:, 0], "pitch_deg": eul[:, 1], "yaw_deg": eul[:, 2]}
    gaps = robot.loop_gaps(run)[keep]
    ref = np.degrees(robot.inputs(run.t[keep])[0])          # the prescribed crank angles (the inputs)
    for j, leg in enumerate(LEGS):
        cols[f"{leg}_crank_ref_deg"] = ref[:, j]
        cols[f"{leg}_contact"] = g.contact[:, j].astype(int)
        cols[f"{leg}_push"] = g.push[:, j].astype(int)
        cols[f"{leg}_normal_force"] = run.sensor(f"{leg}_touch")[keep, 0]
        cols[f"{leg}_crank_deg"] = np.degrees(run.sensor(f"{leg}_crank_pos")[keep, 0])
        cols[f"{leg}_motor_torque"] = run.sensor(f"{leg}_motor_torque")[keep, 0]
        cols[f"{leg}_loop_gap"] = gaps[:, j]
    # positive motor power, W (each motor drives its crank directly: as envs/core/model/energy.py's power)
    cols["power"] = sum(np.maximum(0.0, run.sensor(f"{leg}_motor_torque")[keep, 0]
                                   * run.sensor(f"{leg}_crank_vel")[keep, 0]) for leg in LEGS)
    return cols


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
    fig.suptitle(f"MinIAQ-II {ENGINE_LABELS[engine_name(run)]}, {robot.cfg['gait']} at {robot.cfg['f']:g} Hz")
    save_figure(fig, path, dpi=110)


def _bars(ax, y, segs, t, color_push="tab:green", color_drag="tab:red", h=0.35):
    dt = t[1] - t[0] if len(t) > 1 else 0.0
    for a, b, code in segs:
        ax.broken_barh([(t[a], t[b - 1] - t[a] + dt)], (y - h / 2, h),
                       color=color_push if code > 0 else color_drag, lw=0)


def plot_gait_diagram(robot, run, duration, path) -> None:
    """Figs. 8-9: intended vs achieved contact per leg; green = friction pushes forward, red = drags."""
    from ...core.model import metrics

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
    fig.suptitle(f"MinIAQ-II {ENGINE_LABELS[engine_name(run)]} gait diagram ({robot.cfg['gait']}, {robot.cfg['f']:g} Hz): "
                 "grey = intended, green = friction pushes forward, red = drags backward", fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_gait_diagram_engines(robot, runs: dict, duration, path) -> None:
    """Figs. 8-9 with both engines stacked: per leg, the intended contact (grey), then each engine's
    contact coloured as the paper (green: friction pushes the body forward, red: drags it back)."""
    from ...core.model import metrics

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
    ax[0].plot(c["t"], c["yaw_deg"], label=ENGINE_LABELS[engine_name(run)])
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


def plot_sweep(rows, path, omitted: int = 0) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(1, 3, figsize=(14, 4))
    if omitted:
        fig.suptitle(f"{omitted} failed/unhealthy points omitted (results.csv: error)", fontsize=9)
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
