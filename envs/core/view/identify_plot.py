"""The fit's figure (computations: envs/core/analysis/identify.py): per fitted channel, the measured samples and
the fitted twin against time (relative channels drawn about the measured mean), and the residual."""
from __future__ import annotations

import numpy as np

from .plots import figure, save_figure, style


def plot_fit(traj: dict, channels, units: dict, path, title: str = "") -> None:
    fig, ax = figure(len(channels), 2, size=(11, 2.4 * len(channels) + 0.6), squeeze=False,
                     gridspec_kw=dict(width_ratios=[3, 1]))
    t = np.asarray(traj["t"])
    for i, c in enumerate(channels):
        m, f = np.asarray(traj[f"{c}_measured"]), np.asarray(traj[f"{c}_fitted"])
        a = ax[i, 0]
        a.plot(t, m, ".", ms=2.5, color="0.4", label="measured")
        a.plot(t, f, "-", lw=1.2, color="tab:red", label="fitted twin")
        style(a, xlabel="t [s]" if i == len(channels) - 1 else None, ylabel=f"{c} [{units[c]}]", legend=(i == 0))
        b = ax[i, 1]
        b.plot(t, f - m, "-", lw=0.8, color="tab:blue")
        b.axhline(0, color="k", lw=0.5)
        rms = float(np.sqrt(np.mean((f - m) ** 2)))
        style(b, xlabel="t [s]" if i == len(channels) - 1 else None, title=f"residual, RMS {rms:.3g} {units[c]}")
    fig.suptitle(title)
    save_figure(fig, path)


def plot_cycles(cols: dict, channels, units: dict, labels, path, title: str = "") -> None:
    """A per-cycle table's fit: per measured column, measured and fitted at each row (x: the row's gait)."""
    fig, ax = figure(len(channels), 1, size=(max(6.0, 1.1 * len(labels) + 3), 2.6 * len(channels) + 0.6), squeeze=False)
    x = np.arange(len(labels))
    for i, c in enumerate(channels):
        a = ax[i, 0]
        a.plot(x, cols[f"{c}_measured"], "o", color="0.3", label="measured")
        a.plot(x, cols[f"{c}_fitted"], "x", ms=8, mew=2, color="tab:red", label="fitted twin")
        a.set_xticks(x, labels if i == len(channels) - 1 else [""] * len(labels))
        rms = float(np.sqrt(np.mean(np.square(cols[f"{c}_residual"]))))
        style(a, ylabel=f"{c} [{units[c]}]", legend=(i == 0), title=f"residual RMS {rms:.3g} {units[c]}")
    fig.suptitle(title)
    save_figure(fig, path)
