"""The robustness map's figure (computations: envs/core/analysis/robustness.py): per figure of merit, the
histogram over the randomised worlds with the nominal, median, 5th percentile and worst case
marked, and the sensitivity ranking (Spearman rho, signed) as a bar chart."""
from __future__ import annotations

import numpy as np

from ..runs import sweep as sw
from .plots import figure, save_figure, style


# the unit of a figure of merit by its name (config names: *_deg in degrees, *_deg_s in deg/s, else SI)
UNITS = {"S": "m", "V": "m/s", "speed": "m/s", "dx": "m", "dx_period": "m", "d": "m", "drift_y": "m",
         "stride_length": "m", "work_per_cycle": "J", "mean_power": "W", "cost_of_transport": "1"}


def unit_of(name: str) -> str:
    if name.endswith("_deg_s"):
        return "deg/s"
    if name.endswith("_deg"):
        return "deg"
    return UNITS.get(name, "SI")


def noise_label(noise: float, worlds: int) -> str:
    """The legend of the |rho| noise band; a level >= 1 means no rank correlation can stand out."""
    if noise < 1:
        return f"|rho| < {noise:.2f}: noise (family-wise 5 %)"
    return f"all |rho| within noise ({worlds} worlds: too few)"


def plot_robustness(rows, res: dict, path, title: str = "") -> None:
    merits = list(res)
    fig, ax = figure(len(merits), 2, size=(11, 3.6 * len(merits)), squeeze=False)
    for i, m in enumerate(merits):
        r = res[m]
        y = np.array([sw.num(row.get(m)) for row in rows[1:] if not row.get("error")], dtype=float)
        y = y[np.isfinite(y)]
        a = ax[i, 0]
        if len(y):
            a.hist(y, bins=max(5, min(40, len(y) // 3)), color="tab:blue", alpha=0.6, label="randomised worlds")
        for k, color, ls in (("nominal", "k", "-"), ("median", "tab:green", "--"), ("p5", "tab:orange", ":"),
                             ("worst", "tab:red", "-.")):
            v = r.get(k)
            if v is not None and np.isfinite(v):
                a.axvline(v, color=color, ls=ls, lw=1.5, label=f"{k} {v:.4g}")
        style(a, xlabel=f"{m} [{unit_of(m)}]", ylabel="worlds", title=f"{m} ({r['healthy_worlds']} healthy worlds)", legend=True)
        b = ax[i, 1]
        sens = r.get("sensitivity", [])[::-1]
        names = [s["parameter"] for s in sens]
        rho = [s["spearman_rho"] for s in sens]
        b.barh(range(len(sens)), rho, color=["tab:red" if v < 0 else "tab:blue" for v in rho], label="Spearman rho")
        b.plot([s.get("eta2", np.nan) for s in sens], range(len(sens)), "ko", mfc="none", ms=5,
               label=f"eta^2 (noise {r.get('eta2_noise', np.nan):.2f})")
        b.set_yticks(range(len(sens)), names, fontsize=8)
        b.set_xlim(-1, 1)
        noise = r.get("rho_noise")
        if noise is not None and np.isfinite(noise):      # >= 1: too few worlds for any rho to stand out
            b.axvspan(-min(noise, 1.0), min(noise, 1.0), color="0.85", zorder=0,
                      label=noise_label(noise, r["healthy_worlds"]))
        b.axvline(0, color="k", lw=0.5)
        b.legend(fontsize=7, loc="lower right")
        style(b, xlabel=f"rank correlation with {m}; correlation ratio eta^2", title="sensitivity (ranked by |rho|)")
    if title:
        fig.suptitle(title)
    save_figure(fig, path)
