"""Crawler experiments (paper: Gamus, Gat & Or).  Each writes into Hydra's run directory."""
from __future__ import annotations

import numpy as np

from envs import sweep as sw
from envs.experiments import robot_cls, robot_params, run_kw, sweep_lists, validate_sweep_keys


def frequency_sweep(cfg, out) -> dict:
    """Fig. 4: S and V vs omega.  results.csv, S_V_vs_omega.png, summary.json."""
    cls = robot_cls(cfg)
    validate_sweep_keys(cfg, cls)
    rows, stats = sw.run_sweep(cls, robot_params(cfg), sweep_lists(cfg), out, run_kw=run_kw(cfg),
                               extra_columns=("S", "V", "steady"), progress=cfg.run.progress)
    plot_s_v(rows, out / "S_V_vs_omega.png")
    summary = dict(stats, max_tracking_error_deg=max(r["tracking_error_deg"] for r in rows),
                   all_steady=all(bool(r["steady"]) for r in rows),
                   S_by_omega={f"{r['omega']:g}": r["S"] for r in rows})
    sw.write_json(out / "summary.json", summary)
    return summary


def plot_s_v(rows, path, label="MuJoCo twin") -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(rows, key=lambda r: r["omega"])
    w = np.array([r["omega"] for r in rows])
    S = np.array([r["S"] for r in rows]) * 1e3
    V = np.array([r["V"] for r in rows]) * 1e3
    steady = np.array([bool(r["steady"]) for r in rows])
    fig, ax = plt.subplots(2, 1, figsize=(6, 6), sharex=True)
    for a, y, name in ((ax[0], S, "S [mm]"), (ax[1], V, "V [mm/s]")):
        a.plot(w, y, "o-", color="tab:blue", label=label)
        if (~steady).any():
            a.plot(w[~steady], y[~steady], "x", color="tab:red", label="not steady (mean of last cycles)")
        a.axhline(0, color="k", lw=0.5)
        a.set_ylabel(name)
        a.grid(alpha=0.3)
    ax[0].legend()
    ax[1].set_xlabel("omega [rad/s]")
    ax[0].set_title("Crawler: step distance and velocity vs frequency (Fig. 4)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
