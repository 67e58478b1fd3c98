"""The crawler's figures drawn from computed values (envs/crawler/*.py runners), one function per
figure, each drawing into the path it is given."""
from __future__ import annotations

import numpy as np

from ...core.model import metrics
from ...core.runs import sweep as sw
from ...core.view.plots import pyplot, save_figure
from .engines import column, valid_S
from ..robot import FORWARD

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


LABELS = {"mujoco": "MuJoCo twin", "hybrid": "exact hybrid model"}
COLORS = {"mujoco": "tab:blue", "hybrid": "tab:orange"}


def s_v(curves, omitted, path) -> None:
    """Fig. 4: S and V vs omega, one curve per engine and per value of the sweep's other keys
    ("mujoco, psi_deg=20"; unsteady points crossed)."""
    plt = pyplot()
    if isinstance(curves, list):
        curves = {"mujoco": curves}
    fig, ax = plt.subplots(2, 1, figsize=(6, 6), sharex=True)
    groups = list(dict.fromkeys(eng.partition(", ")[2] for eng in curves))   # values of the other sweep keys
    for eng, rows in curves.items():
        rows = sorted(rows, key=lambda r: r["omega"])
        w = column(rows, "omega")
        S, V = column(rows, "S") * 1e3, column(rows, "V") * 1e3
        steady = np.array([bool(r["steady"]) for r in rows], dtype=bool)
        name, _, rest = eng.partition(", ")
        # one sweep value: a colour per engine; several: a colour per value, the engine by line style
        style = (dict(color=COLORS.get(name)) if len(groups) == 1 else
                 dict(color=f"C{groups.index(rest)}", ls="-" if name == "mujoco" else "--",
                      mfc="none" if name != "mujoco" else None))
        for a, y in ((ax[0], S), (ax[1], V)):
            a.plot(w, y, marker="o", label=LABELS.get(name, name) + (f", {_deg(rest)}" if rest else ""), ms=4,
                   **style)
            if (~steady).any():
                a.plot(w[~steady], y[~steady], "x", color="tab:red", label=None)
    for a, name in ((ax[0], "S [mm]"), (ax[1], "V [mm/s]")):
        a.axhline(0, color="k", lw=0.5)
        a.set_ylabel(name)
        a.grid(alpha=0.3)
    ax[0].legend()
    ax[1].set_xlabel("omega [rad/s]")
    ax[0].set_title("Crawler: step distance and velocity vs frequency (Fig. 4)"
                    + (f"\n{omitted} failed/unhealthy points omitted (results.csv: error)" if omitted else ""))
    save_figure(fig, path, dpi=120)


def _deg(label: str) -> str:
    """'psi_deg=20, mu=0.3' -> 'psi = 20 deg, mu = 0.3' (a legend's sweep values, units as the paper's)."""
    parts = [p.split("=", 1) for p in label.split(",") if "=" in p]
    return ", ".join(f"{k[:-4]} = {v} deg" if k.endswith("_deg") else f"{k} = {v}" for k, v in parts) or label


def twin_vs_hybrid(table, tol_abs, tol_rel, path) -> None:
    """S(omega) of both engines and their difference against the target band."""
    plt = pyplot()
    fig, ax = plt.subplots(2, 1, figsize=(6.5, 6.5), sharex=True)
    w = np.array([t["omega"] for t in table])
    for k, eng in (("S_mujoco_mm", "mujoco"), ("S_hybrid_mm", "hybrid")):
        ax[0].plot(w, [t[k] for t in table], "o-", ms=4, color=COLORS[eng], label=LABELS[eng])
    err = np.array([t["err_mm"] for t in table])
    tol = np.array([t["tol_mm"] for t in table])
    ax[1].plot(w, err, "o-", ms=4, color="k", label="twin - hybrid")
    ax[1].fill_between(w, -tol, tol, color="tab:green", alpha=0.2, label=f"target max({tol_abs:g} mm, {100 * tol_rel:g} %)")
    ax[0].set_ylabel("S [mm]")
    ax[1].set_ylabel("error [mm]")
    ax[1].set_xlabel("omega [rad/s]")
    for a in ax:
        a.grid(alpha=0.3)
        a.legend()
    ax[0].set_title("MuJoCo twin vs exact hybrid model (Fig. 4 inputs)")
    save_figure(fig, path, dpi=120)


def psi_omega_map(omegas, psis, S, star, engine, path) -> None:
    """Fig. 6: S over the psi-omega plane with psi*(omega)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 5))
    if len(omegas) > 1 and len(psis) > 1:
        cs = ax.contourf(omegas, psis, S * 1e3, levels=20, cmap="viridis")
        fig.colorbar(cs, ax=ax, label="S [mm]")
    ax.plot(omegas, [s["psi_star_deg"] for s in star], "k:o", ms=3, label="psi*(omega)")
    ax.set_xscale("log")
    ax.set_xlabel("omega [rad/s]")
    ax.set_ylabel("psi [deg]")
    ax.set_title(f"Step distance over the psi-omega plane (Fig. 6), engine={engine}")
    ax.legend()
    save_figure(fig, path, dpi=120)


def direction_reversal(a, b, wa, Sa, pb_, Sb, engine, path) -> None:
    """Fig. 7: S vs omega (a) and vs phi0 (b)."""
    plt = pyplot()
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    ax[0].plot(wa, Sa * 1e3, "o-", ms=4)
    ax[0].set_xlabel("omega [rad/s]")
    ax[0].set_title(f"phi0={a['fixed'].get('phi0_deg')} deg, mu={a['fixed'].get('mu')}")
    ax[1].plot(pb_, Sb * 1e3, "o-", ms=4)
    ax[1].set_xlabel("phi0 [deg]")
    ax[1].set_title(f"omega={b['fixed'].get('omega')} rad/s, mu={b['fixed'].get('mu')}")
    for x in ax:
        x.axhline(0, color="k", lw=0.5)
        x.set_ylabel("S [mm]")
        x.grid(alpha=0.3)
    fig.suptitle(f"Direction reversal (Fig. 7), engine={engine}")
    save_figure(fig, path, dpi=120)


def friction_robustness(rob, optima, eps, sampling, engine, path) -> None:
    """Figs. 8/9: S, its friction band and S_mu vs psi; the optimised phases vs omega."""
    plt = pyplot()
    ws = sorted({r["omega"] for r in rob})
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    for k, w in enumerate(ws):
        rs = sorted([r for r in rob if r["omega"] == w], key=lambda r: r["psi_deg"])
        psi = np.array([r["psi_deg"] for r in rs])
        norm = max(abs(np.nanmax([r["S"] for r in rs])), 1e-12)
        c = f"C{k}"
        ax[0].plot(psi, [r["S"] / norm for r in rs], "-", color=c, label=f"S, omega={w:g}")
        ax[0].fill_between(psi, [r["S_min"] / norm for r in rs], [r["S_max"] / norm for r in rs], color=c, alpha=0.2)
        ax[0].plot(psi, [r["S_mu"] / norm for r in rs], "--", color=c, label=f"S_mu, omega={w:g}")
    ax[0].set_xlabel("psi [deg]")
    ax[0].set_ylabel("S / max S")
    ax[0].set_title("Fig. 8: friction robustness vs phase")
    ax[0].legend(fontsize=7)
    ax[0].grid(alpha=0.3)
    o = optima
    wo = [x["omega"] for x in o]
    ax[1].plot(wo, [x["S_at_psi_star"] * 1e3 for x in o], "-o", color="tab:blue", ms=3, label="S at psi*")
    ax[1].plot(wo, [x["S_mu_at_psi_star"] * 1e3 for x in o], "--", color="tab:blue", label="S_mu at psi*")
    ax[1].plot(wo, [x["S_at_psi_mu_star"] * 1e3 for x in o], "-o", color="k", ms=3, label="S at psi_mu*")
    ax[1].plot(wo, [x["S_mu_at_psi_mu_star"] * 1e3 for x in o], "--", color="k", label="S_mu at psi_mu*")
    ax[1].set_xscale("log")
    ax[1].set_xlabel("omega [rad/s]")
    ax[1].set_ylabel("S [mm]")
    ax[1].set_title("Fig. 9: optimised phases")
    ax[1].legend(fontsize=7)
    ax[1].grid(alpha=0.3)
    fig.suptitle(f"engine={engine}, " + (f"mu1/mu2 in [{1 - eps:g}, {1 + eps:g}], mu1 mu2 = mu^2"
                 if sampling == "ratio" else f"mu_i in [{1 - eps:g}, {1 + eps:g}] mu (eq. 7)"))
    save_figure(fig, path, dpi=120)


def mass_distribution(rows, ws, ratios, asyms, engine, path) -> None:
    """Figs. 11/12: S over mass ratio x asymmetry per omega; the ratio-0.5 section."""
    plt = pyplot()
    fig, ax = plt.subplots(1, len(ws) + 1, figsize=(3.6 * (len(ws) + 1), 3.6), squeeze=False)
    ax = ax[0]
    for k, w in enumerate(ws):
        S = np.full((len(ratios), len(asyms)), np.nan)
        for r in rows:
            if r["omega"] == w:
                S[ratios.index(r["mass_ratio"]), asyms.index(r["m1_over_m2"])] = valid_S(r)   # failed: NaN
        im = ax[k].pcolormesh(np.arange(len(asyms)), np.arange(len(ratios)), S * 1e3, shading="nearest", cmap="viridis")
        ax[k].set_xticks(range(len(asyms)), [f"{a:g}" for a in asyms])
        ax[k].set_yticks(range(len(ratios)), [f"{a:g}" for a in ratios])
        ax[k].set_xlabel("m1/m2")
        ax[k].set_ylabel("(m1+m2)/(2 m0)")
        ax[k].set_title(f"omega={w:g}")
        fig.colorbar(im, ax=ax[k], label="S [mm]")
        sec = sorted([r for r in sw.healthy(rows) if r["omega"] == w and abs(r["mass_ratio"] - 0.5) < 1e-9],
                     key=lambda r: r["m1_over_m2"])
        if sec:
            ax[-1].plot([r["m1_over_m2"] for r in sec], [r["S"] * 1e3 for r in sec], "o-", ms=3, label=f"omega={w:g}")
    ax[-1].set_xscale("log")
    ax[-1].set_xlabel("m1/m2 (ratio 0.5)")
    ax[-1].set_ylabel("S [mm]")
    ax[-1].set_title("Fig. 12")
    ax[-1].legend(fontsize=7)
    ax[-1].grid(alpha=0.3)
    fig.suptitle(f"Mass distribution (Fig. 11/12), engine={engine}")
    save_figure(fig, path, dpi=110)


def feedback(traces, r, law, engine, path) -> None:
    """Figs. 13/14: joint angles and foot velocities, feedback vs open loop, with the references."""
    plt = pyplot()
    T = r.period
    fig, ax = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for k, style in (("feedback", "-"), ("open", ":")):
        tr = traces[k]
        t = np.asarray(tr["t"])
        sel = t >= t[-1] - 2 * T
        ax[0].plot(t[sel], np.degrees(tr["q"][sel, 0]), style, color="tab:blue")
        ax[0].plot(t[sel], np.degrees(tr["q"][sel, 1]), style, color="k")
        ax[1].plot(t[sel], tr["vx"][sel, 0] * 1e3, style, color="tab:blue")
        ax[1].plot(t[sel], tr["vx"][sel, 1] * 1e3, style, color="k")
    t = np.asarray(traces["feedback"]["t"])
    tt = t[t >= t[-1] - 2 * T]
    qr = r.inputs(tt)[0]
    ax[0].plot(tt, np.degrees(qr[:, 0]), "--", color="tab:blue", alpha=0.5)
    ax[0].plot(tt, np.degrees(qr[:, 1]), "--", color="k", alpha=0.5)
    vr = np.array([law.v_ref(x)[0] for x in tt])
    ax[1].plot(tt, vr[:, 0] * 1e3, "--", color="tab:blue", alpha=0.5)
    ax[1].plot(tt, vr[:, 1] * 1e3, "--", color="k", alpha=0.5)
    ax[0].set_ylabel("phi1 (blue), phi2 (black) [deg]")
    ax[1].set_ylabel("x1', x2' [mm/s]")
    ax[1].set_xlabel("t [s]")
    ax[0].set_title(f"Fig. 13/14: feedback (solid), open loop (dotted), reference (dashed); {engine}")
    for a in ax:
        a.grid(alpha=0.3)
    save_figure(fig, path, dpi=120)


def fig10(traces, b, path) -> None:
    """Fig. 10: inputs and foot velocities with and without time scaling (hybrid model traces)."""
    plt = pyplot()
    fig, ax = plt.subplots(2, 1, figsize=(6.5, 6), sharex=True)
    for style, t, q, vx in traces:
        ax[0].plot(t, np.degrees(q[:, 0]), style, color="tab:blue")
        ax[0].plot(t, np.degrees(q[:, 1]), style, color="k")
        ax[1].plot(t, vx[:, 0] * 1e3, style, color="tab:blue")
        ax[1].plot(t, vx[:, 1] * 1e3, style, color="k")
    ax[0].set_ylabel("phi1 (blue), phi2 (black) [deg]")
    ax[1].set_ylabel("x1', x2' [mm/s]")
    ax[1].set_xlabel("t in the last cycle [s]")
    ax[0].set_title(f"Fig. 10: time-scaled (solid) vs alpha=0 (dashed), omega={b['omega']:g} (hybrid model)",
                    fontsize=10)
    for a in ax:
        a.grid(alpha=0.3)
    save_figure(fig, path, dpi=120)
