"""The snake's figures drawn from computed values (envs/snake/paper/experiments.py), one function per
figure, each drawing into the path it is given."""
from __future__ import annotations

import math

import numpy as np

from ...core.view.plots import pyplot, save_figure


def table1(rows, path) -> None:
    """Table 1: alpha_max, f_max and d_unit per n, equations against the paper."""
    plt = pyplot()
    n = [r["n"] for r in rows]
    fig, ax = plt.subplots(1, 3, figsize=(11, 3.4))
    for a, key, pk, name in ((ax[0], "alpha_max_deg", "paper_alpha_max_deg", "alpha_max [deg]"),
                             (ax[1], "f_max", "paper_f_max", "f_max"), (ax[2], "d_unit", "paper_d_unit", "d_unit")):
        a.plot(n, [r[key] for r in rows], "o-", label="equations (twin)")
        pn = [r["n"] for r in rows if r[pk] is not None]
        a.plot(pn, [r[pk] for r in rows if r[pk] is not None], "s", mfc="none", color="k", label="paper Table 1")
        a.set_xlabel("n")
        a.set_title(name)
        a.grid(alpha=0.3)
    ax[0].legend()
    save_figure(fig, path, dpi=120)


def table2(rows, paper, path) -> None:
    """Table 2: d and Delta x, and the loss, per alpha for n = 4, 5 (paper: Table 2 by (n, alpha))."""
    plt = pyplot()
    fig, ax = plt.subplots(1, 2, figsize=(10, 3.6))
    for n, c in ((4, "tab:blue"), (5, "tab:orange")):
        rs = sorted([r for r in rows if int(r["n"]) == n], key=lambda r: r["alpha_deg"])
        if not rs:
            continue
        a = [r["alpha_deg"] for r in rs]
        ax[0].plot(a, [r["d"] * 1e3 for r in rs], "--", color=c, label=f"n={n} theory d")
        ax[0].plot(a, [r["dx"] * 1e3 for r in rs], "o-", color=c, label=f"n={n} twin Delta x")
        ax[1].plot(a, [r["loss"] * 100 for r in rs], "o-", color=c, label=f"n={n} twin")
        pa = [k[1] for k in paper if k[0] == n and paper[k][2] is not None]
        if pa:
            ax[0].plot(pa, [paper[(n, x)][2] for x in pa], "s", mfc="none", color=c, label=f"n={n} paper Delta x")
            ax[1].plot(pa, [paper[(n, x)][4] for x in pa], "s", mfc="none", color=c, label=f"n={n} paper")
    ax[0].set_ylabel("displacement over 10 periods [mm]")
    ax[1].set_ylabel("loss (d - Delta x)/d [%]")
    for a in ax:
        a.set_xlabel("alpha [deg]")
        a.grid(alpha=0.3)
        a.legend(fontsize=7)
    save_figure(fig, path, dpi=120)


def calibration(table, reg, path) -> None:
    """Objective map over (mu, T_step), the confidence region outlined, the best point marked."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.6, 4.8))
    x, y = reg.names[0], reg.names[1]
    pts = [d for d in table if math.isfinite(d["rms_loss_error"])]
    px, py = np.array([d[x] for d in pts]), np.array([d[y] for d in pts])
    pz = np.array([100 * d["rms_loss_error"] for d in pts])
    lo = 100 * reg.best["rms_loss_error"]
    levels = sorted({lo, lo + 100 * reg.delta} | {v for v in (2, 3, 5, 8, 13, 20, 30, 50) if v > lo + 100 * reg.delta})
    if len(pts) >= 3 and np.ptp(px) > 0 and np.ptp(py) > 0:
        cs = ax.tricontourf(px, py, np.clip(pz, None, levels[-1]), levels=levels, cmap="viridis_r", extend="max")
        fig.colorbar(cs, ax=ax, label="RMS(loss twin - loss paper) [%-points], n = 4")
    ax.scatter(px, py, c="k", s=8)
    for a, b, z in zip(px, py, pz):
        ax.annotate(f"{z:.1f}", (a, b), fontsize=6, xytext=(2, 2), textcoords="offset points")
    mem = np.array([[d[x], d[y]] for d in reg.members])
    ax.plot(mem[:, 0], mem[:, 1], "o", mfc="none", mec="r", ms=9, label=f"region: objective <= min + {100 * reg.delta:g}")
    ext = [(e[x], e[y]) for e in reg.extremes]
    if len(ext) >= 3:
        c = np.mean(ext, axis=0)
        ext = sorted(ext, key=lambda p: math.atan2((p[1] - c[1]) / (np.ptp(mem[:, 1]) or 1), (p[0] - c[0]) / (np.ptp(mem[:, 0]) or 1)))
        ax.fill(*zip(*ext), fc=(1, 0, 0, 0.1), ec="r", lw=1.5)
    ax.plot(reg.best[x], reg.best[y], "r*", ms=14, label=f"best: {x} = {reg.best[x]:g}, {y} = {reg.best[y]:g} ({lo:.2f})")
    ax.set_xlabel("floor friction mu" if x == "mu" else x)
    ax.set_ylabel("step time T_step [s]" if y == "T_step" else y)
    ax.legend(fontsize=7, loc="upper right")
    save_figure(fig, path, dpi=120)


def calibration_file(data: dict, path) -> None:
    """calibration.png from a calibration.json (e.g. the committed merged refit)."""
    from . import calibration as cal
    calibration(data["grid"], cal.region(data["grid"], cal.DELTA, tuple(data["names"])), path)


def sweep(rows, x, others, path) -> None:
    """Delta x per period, speed and loss against one swept parameter, a curve per other setting."""
    plt = pyplot()
    groups: dict = {}
    for r in rows:
        groups.setdefault(tuple((k, r[k]) for k in others), []).append(r)
    fig, ax = plt.subplots(1, 3, figsize=(13, 3.6))
    for key, rs in groups.items():
        rs = sorted(rs, key=lambda r: r[x])
        lab = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in key) or "twin"
        xs = [r[x] for r in rs]
        ax[0].plot(xs, [r["dx_period"] * 1e3 for r in rs], "o-", label=lab)
        ax[0].plot(xs, [r["d"] * 100 for r in rs], ":", color=ax[0].lines[-1].get_color())
        ax[1].plot(xs, [r["V"] * 1e3 for r in rs], "o-", label=lab)
        ax[2].plot(xs, [r["loss"] * 100 for r in rs], "o-", label=lab)
    ax[0].set_ylabel("Delta x per period [mm] (dotted: l d_unit)")
    ax[1].set_ylabel("mean speed [mm/s]")
    ax[2].set_ylabel("loss (d - Delta x)/d [%]")
    for a in ax:
        a.set_xlabel(x)
        a.grid(alpha=0.3)
    ax[0].legend(fontsize=7)
    save_figure(fig, path, dpi=120)
