"""The crawler's figures drawn from computed values (envs/crawler/*.py runners), one function per
figure, each drawing into the path it is given."""
from __future__ import annotations

from envs.core import metrics
from envs.core.plots import pyplot, save_figure
from envs.crawler.robot import FORWARD

STICK, FWD, BWD, LIFT = metrics.STICK, metrics.SLIP_FORWARD, metrics.SLIP_BACKWARD, metrics.LIFTOFF
NAMES = ("stick", "slip_forward", "slip_backward", "liftoff")
CODES = dict(stick=STICK, slip_forward=FWD, slip_backward=BWD, liftoff=LIFT)


MODE_COLORS = {STICK: "#9e9e9e", FWD: "#2ca02c", BWD: "#d62728", LIFT: "#000000"}
ENGINE_LABEL = {"mujoco": "twin", "hybrid": "exact"}


def slip_pattern(traces: dict, omega: float, path) -> None:
    """Contact-mode strips (twin above exact, both feet) and the forward foot velocities (Fig. 5)."""
    from matplotlib.colors import ListedColormap
    plt = pyplot()
    cmap = ListedColormap([MODE_COLORS[c] for c in sorted(MODE_COLORS)])
    fig, ax = plt.subplots(2, 1, figsize=(8, 5.2), gridspec_kw=dict(height_ratios=[1, 1.6]), sharex=True)
    labels, k = [], 0
    for e in ("mujoco", "hybrid"):
        if e not in traces:
            continue
        tr = traces[e]
        for i in (0, 1):
            y = -k
            ax[0].imshow(tr["modes"][None, :, i], aspect="auto", cmap=cmap, vmin=-0.5, vmax=3.5, interpolation="nearest",
                         extent=(tr["t"][0], tr["t"][-1] + (tr["t"][1] - tr["t"][0] if len(tr["t"]) > 1 else 0),
                                 y - 0.4, y + 0.4))
            labels.append((y, f"{ENGINE_LABEL[e]} foot {i + 1}"))
            k += 1
        for i, c in ((0, "tab:blue"), (1, "k")):
            ax[1].plot(tr["t"], FORWARD * tr["vx"][:, i] * 1e3, "-" if e == "mujoco" else "--", color=c, lw=1,
                       label=f"x{i + 1}' {ENGINE_LABEL[e]}")
    ax[0].set_ylim(-k + 0.5, 0.5)
    ax[0].set_yticks([y for y, _ in labels], [s for _, s in labels])
    handles = [plt.Rectangle((0, 0), 1, 1, color=MODE_COLORS[CODES[n]]) for n in NAMES]
    ax[0].legend(handles, NAMES, ncol=4, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, 1.32))
    ax[1].axhline(0, color="k", lw=0.5)
    ax[1].set_ylabel("forward foot velocity [mm/s]")
    ax[1].set_xlabel("t / T (last steady cycle)")
    ax[1].legend(fontsize=7, ncol=2)
    ax[1].grid(alpha=0.3)
    fig.suptitle(f"Contact modes over the steady cycle, omega = {omega:g} rad/s (Fig. 5)", y=0.99)
    save_figure(fig, path, dpi=120)
