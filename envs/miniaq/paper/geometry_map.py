"""MinIAQ-II geometry map: support pattern and speed over the assumed ground link (l1, theta1).

The paper does not give the ground link AB; `miniaq_geometry_map` runs the trot over l1 x theta1
in either engine (engine=mujoco|paper) and writes results.csv (the same columns in both engines),
summary.json (the points with the paper's pattern and size) and geometry_map.png.
"""
from __future__ import annotations

import dataclasses
import math
from functools import partial

import numpy as np

from ...core.runs import sweep as sw
from ...core.model.errors import ConfigError
from ...core.runs.experiment import Result, launch_kw, options, robot_cls, robot_params, run_kw, runner
from ...core.view.plots import pyplot, save_figure
from .experiments import engine_of, paper_kw
from .outputs import ENGINE_LABELS
from ..robot import LEGS, foot_path, fourbar

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
    _, C, _, _ = fourbar(th, p.l1, p.theta1, p.l2, p.l3, p.l4)
    A = p.l1 * np.array([math.cos(p.theta1), math.sin(p.theta1)])
    xs = np.r_[C[:, 0], A[0], path["x_min"], path["x_max"]]
    return dict(stride=path["stride"], step_height=path["step_height"],
                height=float(max(A[1], C[:, 1].max()) - path["z_min"]),
                length=float(2 * p.pivot_x + xs.max() - xs.min()), width=float(2 * p.pivot_y))


@runner("miniaq_geometry_map")
def geometry_map(job, out) -> Result:
    """Trot over l1 x theta1 (experiment.l1, experiment.theta1_deg) with the configured engine.

    Points that are not a valid MinIAQ-II (not Grashof, feet not below the body) are listed in
    summary.json ("invalid") and drawn as crosses; every simulated point is a results.csv row with
    the same columns in both engines (MAP_COLUMNS + the geometry).
    """
    cls = robot_cls(job)
    opt = options(job)
    engine = engine_of(job)
    kw = paper_kw(job)
    base = robot_params(job)
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
        if s.get("speed") is not None:
            s["support_ge3"] = s.get("support_3", 0.0) + s.get("support_4", 0.0)
        return {k: s.get(k) for k in MAP_COLUMNS + cls.health_columns() if k in s or k in MAP_COLUMNS}

    if engine == "paper":
        import scipy

        from . import model as miniaq_paper

        cycles = run_kw(job)["cycles"]

        def simulate(todo, add) -> int:
            for j, r in enumerate(todo):
                run = miniaq_paper.simulate(r, cycles=cycles, **kw)
                values = {} if run.error else miniaq_paper.summarize(run)
                values.update(max_penetration=run.max_penetration, max_loop_gap=None)   # no loops
                add(j, keep(values), run.problem)
            return 0
        eng = sw.Engine("paper", simulate, dict(cycles=cycles, paper=kw),
                        versions=lambda c: {"scipy": scipy.__version__})
    else:
        inner = sw.batch_engine(run_kw(job), **launch_kw(job))

        def simulate(todo, add) -> int:
            return inner.simulate(todo, lambda j, s, err=None, **by: add(j, keep(s), err, **by))
        eng = dataclasses.replace(inner, simulate=simulate)
    # the same declared columns in both engines: the geometry, MAP_COLUMNS, health, error
    rows, stats = sw.run_rows(robots, out, key=key, engine=eng, meta=meta, metrics=MAP_COLUMNS,
                              extra_columns=GEOMETRY_COLUMNS, progress=job.run.progress,
                              retry_failed=run_kw(job)["retry_failed"])
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
    return Result(summary, plots={"geometry_map.png": partial(plot_geometry_map, rows, invalid, opt, engine, default)},
                  rows={"results.csv": rows})


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
