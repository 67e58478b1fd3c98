"""The optimisation's figures (computations: envs/core/analysis/optimize.py): the convergence history (every
candidate's objective and the best feasible one so far) and the objective along each decision variable through
the optimum."""
from __future__ import annotations

import math

import numpy as np

from .plots import figure, save_figure, style


def convergence(hist, path, title: str = "") -> None:
    fig, ax = figure(1, 1, size=(7, 4))
    i = np.array([h["evaluation"] for h in hist], float)
    obj = np.array([h["objective"] for h in hist], float)
    ok = np.array([bool(h["feasible"]) for h in hist])
    search = np.array([h["stage"] != "sensitivity" for h in hist])
    ax.plot(i[ok & search], obj[ok & search], "o", ms=4, color="C0", label="feasible candidate")
    bad = ~ok & search & np.isfinite(obj)
    if bad.any():
        ax.plot(i[bad], obj[bad], "x", ms=5, color="C3", label="penalised or rejected")
    best, run = [], None
    for h in hist:
        if h["stage"] == "sensitivity":
            break
        if h["feasible"] and (run is None or h["loss"] < run[0]):
            run = (h["loss"], h["objective"])
        best.append(run[1] if run else math.nan)
    ax.step(i[:len(best)], best, where="post", color="k", label="best feasible so far")
    style(ax, "evaluation", "objective", title, legend=True, title_size=10)
    save_figure(fig, path)


def sensitivity(rows, optimum: dict, path, title: str = "") -> None:
    names = list(dict.fromkeys(r["variable"] for r in rows))
    fig, ax = figure(1, len(names), size=(3.6 * len(names), 3.4), squeeze=False)
    for a, n in zip(ax[0], names):
        rs = [r for r in rows if r["variable"] == n]
        x = np.array([r["value"] for r in rs], float)
        y = np.array([r["objective"] for r in rs], float)
        ok = np.array([bool(r["feasible"]) for r in rs])
        a.plot(x, y, "-", color="C0", lw=1)
        a.plot(x[ok], y[ok], "o", color="C0", ms=4)
        if (~ok).any():
            a.plot(x[~ok], y[~ok], "x", color="C3", ms=5, label="infeasible")
        a.axvline(optimum[n], color="k", lw=0.8, ls="--", label="optimum")
        style(a, n, "objective", legend=True, legend_size=7)
    if title:
        fig.suptitle(title, fontsize=10)
    save_figure(fig, path)
