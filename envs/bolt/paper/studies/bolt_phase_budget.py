"""BOLT twin vs paper model, phase-resolved: one steady revolution (touch-down to
touch-down) at one crank period with the Sec. 6.1 bumper, in both engines.  Per engine: touch-down crank angle,
body velocity before/after the impact (twin: the step before contact and `--settle` after it), impulse and
kinetic energy lost; stance duration, what ends it, foot slip; body height and speed through flight; bumper
contact; crank torque/power by phase; and a speed budget (body dx per phase: stance, flight, on the bumper).
Prints markdown tables; ~1-2 min with nice on a loaded 2-core machine.  models/bolt/README.md "Phase budget".

    .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_phase_budget [--period 0.3] [--cycles 6] [--timestep 1e-4] [--set k=v ...]
"""
import argparse

import mujoco
import numpy as np


from ..run import simulate
from ...robot import Bolt

PHASES = ("stance", "flight", "bumper")


def foot_force(m, d, foot: int, f6: np.ndarray) -> np.ndarray:
    """The ground's force on geom `foot` in the world frame (x, y, z; N), summed over its contacts."""
    fw = np.zeros(3)
    for c in range(d.ncon):
        con = d.contact[c]
        if foot in (con.geom1, con.geom2):
            mujoco.mj_contactForce(m, d, c, f6)
            w = con.frame.reshape(3, 3).T @ f6[:3]
            fw += w if w[2] >= 0 else -w
    return fw


def twin_trace(r: Bolt, cycles: int, solref=None) -> dict:
    """Every step of the twin (the batch runner's loop: controls, feedback, mj_step): body x, z and rates,
    crank angle/rate/torque, foot force (world x, z) and x, bumper (z-limit) force, kinetic energy."""
    import copy
    m = copy.copy(r.model())
    if solref is not None:            # a foot contact candidate (README "Phase budget"): the foot's solref
        m.geom_solref[m.geom("foot").id] = solref
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, r.initial_state(m), mujoco.mjtState.mjSTATE_INTEGRATION)
    mujoco.mj_forward(m, d)
    n = int(round(cycles * r.period / r.timestep))
    jx, jz, j1 = (m.joint(k) for k in ("x", "z", "q_1"))
    foot, f6 = m.geom("foot").id, np.zeros(6)
    out = {k: np.empty(n) for k in ("t", "x", "z", "xd", "zd", "q1", "q1d", "tau", "FN", "FT", "foot_x", "bump", "ke", "px")}
    mtot = float(np.sum(m.body_mass))
    Mv = np.zeros(m.nv)
    ctrl = r.controls(np.arange(n) * r.timestep)
    for i in range(n):
        d.ctrl[:] = ctrl[i]
        r.feedback(m, d)
        mujoco.mj_step(m, d)
        fw = foot_force(m, d, foot, f6)
        bump = sum(d.efc_force[k] for k in range(d.nefc)
                   if d.efc_type[k] == mujoco.mjtConstraint.mjCNSTR_LIMIT_JOINT and d.efc_id[k] == jz.id)
        mujoco.mj_mulM(m, d, Mv, d.qvel)
        out["t"][i] = d.time
        out["x"][i], out["z"][i] = d.qpos[jx.qposadr[0]], d.qpos[jz.qposadr[0]] + m.body("base").pos[2]
        out["xd"][i], out["zd"][i] = d.qvel[jx.dofadr[0]], d.qvel[jz.dofadr[0]]
        out["q1"][i], out["q1d"][i] = d.qpos[j1.qposadr[0]], d.qvel[j1.dofadr[0]]
        out["tau"][i] = d.actuator_force[0]
        out["FT"][i], out["FN"][i] = fw[0], fw[2]
        out["foot_x"][i] = d.site("F").xpos[0]
        out["bump"][i], out["ke"][i] = bump, 0.5 * float(d.qvel @ Mv)
        mujoco.mj_subtreeVel(m, d)
        out["px"][i] = mtot * d.subtree_linvel[0, 0]
    return out


def paper_trace(r: Bolt, cycles: int, opts: dict) -> tuple:
    run = simulate(r, cycles, **opts)
    if run.error:
        raise SystemExit(f"paper model: {run.error}")
    S = run.samples
    h = r.p.bumper_height
    out = dict(t=run.t, x=S["x"], z=S["y"], xd=S["x_dot"], zd=S["y_dot"], q1=S["q_1"], q1d=S["q_1_dot"],
               tau=S["tau"], px=S["p_x"], FN=S["F_N"], FT=S["F_T"], foot_x=S["foot_x"], stance=S["stance"] > 0.5,
               sliding=S["sliding"] > 0.5)
    out["on_bumper"] = (~out["stance"]) & (np.abs(S["y"] - h) < 1e-7) if h is not None else np.zeros(len(run.t), bool)
    return out, run


def phases(tr: dict, contact: np.ndarray, on_bumper: np.ndarray, gap: float) -> np.ndarray:
    """0 stance (from a touch-down to the last contact before >= `gap` s without one: the twin's foot bounces,
    and its short airborne moments inside a stance count as stance), 1 flight, 2 on the bumper (foot in the air)."""
    t = tr["t"]
    ph = np.full(len(t), 1)
    ph[on_bumper] = 2
    idx = np.flatnonzero(contact)
    if len(idx):
        brk = np.flatnonzero(np.diff(t[idx]) > gap)
        for a, b in zip(np.r_[0, brk + 1], np.r_[brk, len(idx) - 1]):
            ph[idx[a]:idx[b] + 1] = 0
    return ph


def episodes(contact: np.ndarray, i0: int, i1: int) -> int:
    c = contact[i0:i1]
    return int(np.sum(c[1:] & ~c[:-1]) + c[0])


def budget(tr: dict, ph: np.ndarray, i0: int, i1: int) -> dict:
    """Per phase in samples [i0, i1): time, dx, mean body speed, peak |tau| and |power|, time of the peak power."""
    t, x = tr["t"], tr["x"]
    dx = np.diff(x[i0:i1 + 1])
    dt = np.diff(t[i0:i1 + 1])
    p = ph[i0:i1]
    res = {}
    for k, name in enumerate(PHASES):
        s = p == k
        pw = np.abs(tr["tau"][i0:i1] * tr["q1d"][i0:i1])
        j = int(np.argmax(np.where(s, pw, -1))) if s.any() else None
        res[name] = dict(time=float(dt[s].sum()), dx=float(dx[s].sum()),
                         peak_tau=float(np.abs(tr["tau"][i0:i1][s]).max()) if s.any() else 0.0,
                         peak_power=float(pw[s].max()) if s.any() else 0.0,
                         t_peak=float(t[i0 + j] - t[i0]) if j is not None else np.nan)
    res["total"] = dict(time=float(t[i1] - t[i0]), dx=float(x[i1] - x[i0]))
    return res


def stride_table(name, tr, ph, i0, i1, r):
    t, T = tr["t"], r.period
    st = np.flatnonzero(ph[i0:i1] == 0) + i0
    s0, s1 = st[0], st[-1]
    q_td = np.degrees(tr["q1"][s0]) % 360
    q_lo = np.degrees(tr["q1"][s1]) % 360
    fly = np.flatnonzero(ph[s1:i1] != 0) + s1
    row = dict(engine=name, q_td=q_td, q_lo=q_lo, stance_ms=1e3 * (t[s1] - t[s0] + (t[1] - t[0])),
               slip_mm=1e3 * (tr["foot_x"][s1] - tr["foot_x"][s0]), FN_end=tr["FN"][s1],
               z_min=tr["z"][i0:i1].min(), z_max=tr["z"][fly].max() if len(fly) else np.nan,
               bump_ms=1e3 * np.sum(ph[i0:i1] == 2) * (t[1] - t[0]), T=T)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--period", type=float, default=0.3)
    ap.add_argument("--cycles", type=int, default=6)
    ap.add_argument("--timestep", type=float, default=None)
    ap.add_argument("--settle", type=float, default=2e-3, help="s after the twin's first contact for 'after impact'")
    ap.add_argument("--direct", type=float, nargs=2, default=None, metavar=("K", "B"),
                    help="the twin foot's solref in MuJoCo's direct form [-K, -B] (e.g. 1e6 8000)")
    ap.add_argument("--set", nargs="*", default=[], help="twin parameters k=v (e.g. contact_timeconst=0.002)")
    a = ap.parse_args()
    extra = {k: float(v) for k, v in (s.split("=") for s in a.set)}
    if a.timestep:
        extra["timestep"] = a.timestep
    r = Bolt(crank_period=a.period, **extra)
    T = r.period
    a.solref = None if a.direct is None else [-a.direct[0], -a.direct[1]]
    tw = twin_trace(r, a.cycles, a.solref)
    pa, prun = paper_trace(Bolt(crank_period=a.period), a.cycles, {})
    ph_tw = phases(tw, tw["FN"] > 0, (tw["bump"] > 0) & (tw["FN"] <= 0), T / 4)
    ph_pa = phases(pa, pa["stance"], pa["on_bumper"], T / 4)
    print(f"crank period {T:g} s, bumper {r.p.bumper_height} m, twin timestep {r.timestep:g} s {extra or ''}"
          f"{'' if a.solref is None else f', foot solref {a.solref}'}; "
          f"paper samples every {1e3 * (pa['t'][1] - pa['t'][0]):.2f} ms; the last full stride "
          f"(touch-down to touch-down) of {a.cycles} revolutions")
    rows, buds = [], []
    for name, tr, ph in (("twin", tw, ph_tw), ("paper", pa, ph_pa)):
        on = np.flatnonzero((ph[1:] == 0) & (ph[:-1] != 0)) + 1
        i0, i1 = on[-2], on[-1]
        rows.append(stride_table(name, tr, ph, i0, i1, r))
        buds.append(budget(tr, ph, i0, i1))
        # impact: before = the sample before the first stance sample, after = settle later (paper: exact events)
        b = i0 - 1
        if name == "twin":
            a_ = i0 + int(round(a.settle / r.timestep))
            imp_x = float(np.sum(tw["FT"][i0:a_]) * r.timestep)
            imp_z = float(np.sum(tw["FN"][i0:a_]) * r.timestep)
            ke0, ke1 = tw["ke"][b], tw["ke"][a_]
        else:
            td = min(prun.touchdowns, key=lambda d: abs(d["t"] - pa["t"][i0]))
            a_ = i0
            imp_x, imp_z, ke0, ke1 = td["impulse"].real, td["impulse"].imag, td["ke_before"], td["ke_after"]
        rows[-1].update(vx0=tr["xd"][b], vz0=tr["zd"][b], vx1=tr["xd"][a_], vz1=tr["zd"][a_], Jx=imp_x, Jz=imp_z,
                        ke0=ke0, ke1=ke1, stride=tr["t"][i1] - tr["t"][i0],
                        p0=tr["px"][b], p1=tr["px"][a_], p2=tr["px"][np.flatnonzero(ph[i0:i1] == 0)[-1] + i0 + 1],
                        contacts=episodes(tw["FN"] > 0 if name == "twin" else pa["stance"], i0, i1),
                        contact_ms=1e3 * np.sum((tw["FN"] > 0 if name == "twin" else pa["stance"])[i0:i1]) * (tr["t"][1] - tr["t"][0]))
    print("\n| engine | touch-down q_1 [deg] | body vx, vz before [m/s] | after | impulse x, z [N s] | KE before / after [J] "
          "| stance [ms] | lift-off q_1 [deg] | F_N at lift-off [N] | foot slip in stance [mm] | body height min / max in flight [m] "
          "| on the bumper [ms] | stride [s] | contact episodes / time in contact [ms] |")
    print("|---" * 14 + "|")
    for w in rows:
        print(f"| {w['engine']} | {w['q_td']:.1f} | {w['vx0']:+.3f}, {w['vz0']:+.3f} | {w['vx1']:+.3f}, {w['vz1']:+.3f} "
              f"| {w['Jx']:+.3f}, {w['Jz']:+.3f} | {w['ke0']:.3f} / {w['ke1']:.3f} | {w['stance_ms']:.1f} | {w['q_lo']:.1f} "
              f"| {w['FN_end']:.1f} | {w['slip_mm']:+.1f} | {w['z_min']:.4f} / {w['z_max']:.4f} | {w['bump_ms']:.1f} "
              f"| {w['stride']:.4f} | {w['contacts']} / {w['contact_ms']:.1f} |")
    print("\n| phase | twin: time [ms] / dx [mm] / peak torque [N m] / peak power [W] (at [ms] after touch-down) "
          "| paper: same | dx twin - paper [mm] |\n|---|---|---|---|")
    for k in PHASES + ("total",):
        cells = []
        for bd in buds:
            e = bd[k]
            cells.append(f"{1e3 * e['time']:.1f} / {1e3 * e['dx']:+.1f}" + (
                f" / {e['peak_tau']:.1f} / {e['peak_power']:.0f} ({1e3 * e['t_peak']:.1f})" if k != "total" else ""))
        print(f"| {k} | {cells[0]} | {cells[1]} | {1e3 * (buds[0][k]['dx'] - buds[1][k]['dx']):+.1f} |")
    M = float(np.sum(r.model().body_mass))
    print(f"\n| engine | horizontal momentum before touch-down / after the impact / after lift-off [N s] "
          f"| impact / rest of stance [N s] | centre-of-mass speed in the air (p_x / M, M = {M:.3f} kg) [m/s] |"
          "\n|---|---|---|---|")
    for w in rows:
        print(f"| {w['engine']} | {w['p0']:.3f} / {w['p1']:.3f} / {w['p2']:.3f} | {w['p1'] - w['p0']:+.3f} / "
              f"{w['p2'] - w['p1']:+.3f} | {w['p2'] / M:.3f} |")
    return tw, pa, ph_tw, ph_pa


if __name__ == "__main__":
    main()
