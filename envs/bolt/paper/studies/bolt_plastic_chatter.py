"""BOLT plastic foot's stance chatter: per-step contact measurements in one stance at one crank period
(default 0.3 s, rung 2 = `robot/foot=plastic`: loops 5e-5 s, step 2.5e-5 s, B = 5000 1/s), to find why each stance
is one contact followed by a train of short re-contacts (models/bolt/README.md "Plastic foot as a limit").

The run is the same closed loop as `batch._run_closed_loop` (controls, `Bolt.feedback`, mj_step), 6 revolutions
from rest; every step of the last revolution's stance records, from the state before the step (what mj_step's
forward pass computed): the foot-floor contacts MuJoCo generated (geometric, dist < margin = 0), penetration
-dist, the contact force in the contact frame (mj_contactForce: f_n, f_t), |f_t| / (mu f_n), the foot's normal and
tangential velocity at the contact point, the damper term B v_n (m/s^2: a reference acceleration, the spring-free
solref's aref = -B v_n), the foot's normal acceleration without contact force (qacc_smooth, velocity terms
included) and the normal acceleration the contact's own tangential force gives it (the Delassus matrix's A_nt f_t:
the leg's inertia couples a friction force at the foot into a normal acceleration), and the touch sensor (the
duty factor's flag: touch > 0 at a sample, every steps_per_cycle / 200 steps).

Candidates (brief, stated before the runs): (a) the spring-free damper holds no force at v_n = 0, so anything that
pushes the foot up while it slides lifts it (measured: the sign of the free normal acceleration and of A_nt f_t at
each lift-off); (b) the pyramidal cone's edges make f_n oscillate under sliding (measured: the same with
`--cone elliptic`); (c) the flag toggles while the force is ~0 (measured: the force at the flagged samples, and
whether between re-contacts the geometric contact is present with zero force or the foot is off the floor).
Added after the first run showed the foot rising while pushed (so measurements, not verdicts chosen after):
the loop closures' and the bumper's share of the foot's normal acceleration; the Delassus entries with the loops
held rigid and the sliding gain A_nn - mu sign(v_t) A_nt (< 0: Painleve); the climb -- v_n > 0 while force > 0
and sliding, against mu |v_t|, which is v_n in the hard limit of MuJoCo's convex contact (its docs: without strict
complementarity normal force and velocity can both be positive; slip comes with normal motion).

    nice -n 10 .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_plastic_chatter [--period 0.3] [--rung 2] [--cone elliptic] [--mu 3] [--csv F]
"""
import argparse
import copy
import pathlib

import mujoco
import numpy as np

from ...robot import Bolt

from .bolt_plastic_limit import rung


def foot_contact(m, d, foot, floor):
    """(index in d.contact, sign): sign +1 when the foot is geom2 (the contact frame's normal points from the floor
    to the foot, MuJoCo's convention), -1 when it is geom1; (None, 1) without a foot-floor contact."""
    for i in range(d.ncon):
        c = d.contact[i]
        if {c.geom1, c.geom2} == {foot, floor}:
            return i, (1 if c.geom2 == foot else -1)
    return None, 1


def free_accel(m, d, qvel, geom):
    """The foot geom's linear acceleration (world) with qacc = qacc_smooth (no constraint forces), velocity-product
    terms included (mj_rnePostConstraint on a copy, with the pre-step velocity)."""
    d2 = copy.copy(d)
    d2.qvel[:], d2.qacc[:] = qvel, d.qacc_smooth
    mujoco.mj_rnePostConstraint(m, d2)
    acc = np.zeros(6)
    mujoco.mj_objectAcceleration(m, d2, mujoco.mjtObj.mjOBJ_GEOM, geom, acc, 0)
    return acc[3:]


COLS = ("t", "sampled", "geom_contact", "gap", "f_n", "f_t", "cone_ratio", "v_n", "v_t", "B_v_n", "a_free_n",
        "a_nn_f_n", "a_nt_f_t", "a_loops_n", "a_bumper_n", "body_z_dot", "touch", "A_nn_c", "A_nt_c", "slide_gain")


def loop_constrained_delassus(m, d, J):
    """The Delassus matrix at the foot with the loop closures held rigid: J (M^-1 - M^-1 Jl^T (Jl M^-1 Jl^T)^-1
    Jl M^-1) J^T, Jl the equality rows (the loops carry the foot force through the linkage)."""
    n = d.nefc
    Je = d.efc_J[:n * m.nv].reshape(n, m.nv)
    Jl = Je[d.efc_type[:n] == mujoco.mjtConstraint.mjCNSTR_EQUALITY]
    X = np.zeros((3, m.nv))
    mujoco.mj_solveM(m, d, X, J)
    A = J @ X.T
    if len(Jl):
        Y = np.zeros_like(Jl)
        mujoco.mj_solveM(m, d, Y, Jl)
        G = Jl @ Y.T
        C = Jl @ X.T                                # Jl M^-1 J^T
        A = A - C.T @ np.linalg.lstsq(G, C, rcond=None)[0]
    return A


def constraint_accel(m, d, X):
    """The foot's normal acceleration from the loop closures' (equality) and the bumper's (joint limit) constraint
    forces: X = M^-1 J_foot^T rows, so J_foot M^-1 qfrc = X qfrc."""
    n = d.nefc
    if n == 0:
        return 0.0, 0.0
    Je = d.efc_J[:n * m.nv].reshape(n, m.nv)
    out = []
    for typ in (mujoco.mjtConstraint.mjCNSTR_EQUALITY, mujoco.mjtConstraint.mjCNSTR_LIMIT_JOINT):
        rows = d.efc_type[:n] == typ
        out.append(float(X[0] @ (Je[rows].T @ d.efc_force[:n][rows])) if rows.any() else 0.0)
    return tuple(out)


def run(period, k, cone=None, mu=None, cycles=6):
    """Per step of the last revolution: COLS (SI; the contact frame's normal points out of the floor)."""
    s = rung(k)
    robot = Bolt(foot_contact="plastic", crank_period=period, loop_timeconst=s["loop_timeconst"],
                 timestep=s["timestep"], bumper_height=0.40, **({} if not mu else dict(mu=mu)))
    m = copy.copy(robot.model())
    if mu == 0:     # frictionless (the twin refuses mu = 0): patched into this copy, the control experiment
        m.geom_friction[m.geom("foot").id, 0] = 0.0
    if cone is not None:
        m.opt.cone = dict(pyramidal=mujoco.mjtCone.mjCONE_PYRAMIDAL, elliptic=mujoco.mjtCone.mjCONE_ELLIPTIC)[cone]
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, robot.initial_state(robot.model()), mujoco.mjtState.mjSTATE_INTEGRATION)
    mujoco.mj_forward(m, d)
    foot, floor = m.geom("foot").id, m.geom("floor").id
    fbody = m.geom_bodyid[foot]
    mu_, B = m.geom_friction[foot, 0], -m.geom_solref[foot, 1]
    spc = robot.steps_per_cycle
    stride = spc // robot.samples_per_cycle
    start = (cycles - 1) * spc
    touch_adr = m.sensor_adr[m.sensor("foot_touch").id]
    up = np.array([[0, 0, 1.0], [1.0, 0, 0], [0, 1.0, 0]])
    rows, f6 = [], np.zeros(6)
    jp, jr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
    for step in range(cycles * spc):
        t = step * robot.timestep
        d.ctrl[:] = robot.controls(np.array([t]))[0]
        robot.feedback(m, d)
        qvel = d.qvel.copy()
        mujoco.mj_step(m, d)      # after it: contacts, forces, kinematics, qacc_smooth of the pre-step state
        if step < start:
            continue
        i, sign = foot_contact(m, d, foot, floor)
        gap = mujoco.mj_geomDistance(m, d, foot, floor, 0.05, None)
        if i is None:
            pos, frame, fn, ft = d.geom_xpos[foot].copy(), up, 0.0, 0.0
        else:
            c = d.contact[i]
            pos, frame = c.pos.copy(), c.frame.reshape(3, 3).copy()
            tx = int(abs(frame[2, 0]) > abs(frame[1, 0]))   # the tangent in the x-z plane: t1 or t2
            mujoco.mj_contactForce(m, d, i, f6)
            fn, ft = f6[0], f6[1 + tx]
        mujoco.mj_jac(m, d, jp, jr, pos, fbody)
        J = sign * frame @ jp                       # relative (foot - floor) velocity rows, contact frame
        v = J @ qvel
        a_free = sign * frame @ free_accel(m, d, qvel, foot)
        X = np.zeros((3, m.nv))
        mujoco.mj_solveM(m, d, X, J)
        A = J @ X.T                                 # the Delassus matrix at the foot (contact frame)
        tx = int(abs(frame[2, 0]) > abs(frame[1, 0]))
        a_loops, a_bumper = constraint_accel(m, d, X)
        rows.append((t, step % stride == 0, i is not None, gap, fn, ft, abs(ft) / (mu_ * fn) if fn > 0 and mu_ > 0 else np.nan,
                     v[0], v[1 + tx], B * v[0], a_free[0], A[0, 0] * fn, A[0, 1 + tx] * ft, a_loops, a_bumper,
                     qvel[1], float(d.sensordata[touch_adr])) + slide_gain(m, d, J, tx, v, mu_))
    return np.array(rows, float), dict(B=B, mu=mu_, dt=robot.timestep, stride=stride)


def slide_gain(m, d, J, tx, v, mu):
    """(A_nn, A_nt, gain): the loop-constrained Delassus entries at the foot and the normal acceleration per
    newton of normal force while sliding at the cone (friction -mu f_n sign(v_t)): gain = A_nn - mu sign(v_t) A_nt.
    gain < 0 is Painleve's condition: pressing harder pulls the foot further into the floor."""
    A = loop_constrained_delassus(m, d, J)
    return A[0, 0], A[0, 1 + tx], A[0, 0] - mu * np.sign(v[1 + tx]) * A[0, 1 + tx]


def intervals(flag):
    """[start, end) index pairs where flag is true."""
    f = np.concatenate([[0], np.asarray(flag, int), [0]])
    dd = np.diff(f)
    return list(zip(np.flatnonzero(dd == 1), np.flatnonzero(dd == -1)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--period", type=float, default=0.3)
    ap.add_argument("--rung", type=int, default=2)
    ap.add_argument("--cone", choices=("pyramidal", "elliptic"))
    ap.add_argument("--mu", type=float, help="the foot's friction; 0: frictionless, patched into the compiled model")
    ap.add_argument("--csv", type=pathlib.Path, help="write the per-step rows of the stance here")
    a = ap.parse_args()
    R, info = run(a.period, a.rung, a.cone, a.mu)
    c = {n: R[:, j] for j, n in enumerate(COLS)}
    force = c["f_n"] > 0
    iv = intervals(force)
    if not iv:
        raise SystemExit("no contact in the last revolution")
    s0, e1 = iv[0][0], iv[-1][1]
    dt = info["dt"]
    print(f"period {a.period} s, rung {a.rung} (B {info['B']:g} 1/s, dt {dt:g} s, mu {info['mu']:g}, cone "
          f"{a.cone or 'model'}): last revolution's stance {R[s0, 0]:.5f}-{R[e1 - 1, 0]:.5f} s, "
          f"{len(iv)} force intervals")
    if a.csv:
        np.savetxt(a.csv, R[max(s0 - 20, 0):e1 + 20], delimiter=",", header=",".join(COLS), comments="", fmt="%.6g")
    print("| # | start [ms] | steps | peak f_n [N] | max pen. [mm] | v_n in [m/s] | v_t mean [m/s] | cone ratio mean |"
          " at lift-off: v_n [m/s]; B v_n, a_free_n, A_nn f_n, A_nt f_t, loops, bumper [m/s^2] | then: steps off, geom contact w/o force,"
          " max gap [um] |")
    print("|---" * 11 + "|")
    for j, (a_, b) in enumerate(iv):
        seg = slice(a_, b)
        last = b - 1
        nxt = iv[j + 1][0] if j + 1 < len(iv) else min(b + 200, len(R))
        off = slice(b, nxt)
        print(f"| {j} | {(R[a_, 0] - R[s0, 0]) * 1e3:.3f} | {b - a_} | {c['f_n'][seg].max():.1f} | "
              f"{max(-np.nanmin(c['gap'][seg]), 0) * 1e3:.4f} | {c['v_n'][a_]:+.4f} | {np.mean(c['v_t'][seg]):+.3f} | "
              f"{np.nanmean(c['cone_ratio'][seg]):.3f} | {c['v_n'][last]:+.5f}; {c['B_v_n'][last]:+.1f}, "
              f"{c['a_free_n'][last]:+.1f}, {c['a_nn_f_n'][last]:+.1f}, {c['a_nt_f_t'][last]:+.1f}, "
              f"{c['a_loops_n'][last]:+.1f}, {c['a_bumper_n'][last]:+.1f} | "
              f"{nxt - b}, {int(np.sum(c['geom_contact'][off] > 0))}, {np.max(c['gap'][off]) * 1e6 if nxt > b else 0:.3f} |")
    st = slice(s0, e1)
    geo = c["geom_contact"][st] > 0
    print(f"\nstance {e1 - s0} steps: force > 0 in {int(force[st].sum())}, geometric contact in {int(geo.sum())}, "
          f"geometric contact with zero force in {int((geo & ~force[st]).sum())}; touch > 0 in "
          f"{int((c['touch'][st] > 0).sum())} (touch > 0 without force: {int(((c['touch'][st] > 0) & ~force[st]).sum())})")
    smp = c["sampled"][st] > 0
    tf = c["touch"][st][smp]
    print(f"sampled steps in the stance: {int(smp.sum())}, flagged (touch > 0) {int((tf > 0).sum())}; "
          f"flagged with touch < 1 % of the stance's peak: {int(((tf > 0) & (tf < 0.01 * c['f_n'][st].max())).sum())} (peak {c['f_n'][st].max():.0f} N, least flagged "
          f"{tf[tf > 0].min() if (tf > 0).any() else np.nan:.1f} N); "
          f"time share of force > 0 over the stance envelope {force[st].mean():.3f}")
    on = force[st]
    print(f"over the steps with force: mean cone ratio {np.nanmean(c['cone_ratio'][st][on]):.3f}, "
          f"share at the cone (ratio > 0.99) {np.mean(c['cone_ratio'][st][on] > 0.99):.3f}, mean |v_t| "
          f"{np.mean(np.abs(c['v_t'][st][on])):.3f} m/s")
    lo = [b - 1 for _, b in iv]
    sl = on & (np.abs(c["v_t"][st]) > 1e-3)
    g = c["slide_gain"][st]
    print(f"loop-constrained Delassus at the foot over the steps with force: A_nn {np.mean(c['A_nn_c'][st][on]):.4f}, "
          f"A_nt {np.mean(c['A_nt_c'][st][on]):+.4f} 1/kg; sliding (|v_t| > 1 mm/s) at {int(sl.sum())} of {int(on.sum())}"
          f" steps; gain A_nn - mu sign(v_t) A_nt while sliding: min {np.min(g[sl]) if sl.any() else np.nan:+.4f}, max "
          f"{np.max(g[sl]) if sl.any() else np.nan:+.4f} 1/kg, < 0 at {int(np.sum(g[sl] < 0))} steps")
    print(f"at the {len(lo)} lift-offs: a_free_n mean {np.mean(c['a_free_n'][lo]):+.1f}, A_nt f_t mean "
          f"{np.nanmean(c['a_nt_f_t'][lo]):+.1f}, v_n mean {np.mean(c['v_n'][lo]):+.5f} m/s "
          f"(a_free_n > 0 at {int(np.sum(c['a_free_n'][lo] > 0))}, a_free_n + A_nt f_t > 0 at "
          f"{int(np.sum(c['a_free_n'][lo] + c['a_nt_f_t'][lo] > 0))})")

    up = sl & (c["v_n"][st] > 0)
    vt = np.abs(c["v_t"][st])
    print(f"climb: force > 0, sliding and v_n > 0 (moving out of the floor while pushed) at {int(up.sum())} of "
          f"{int(sl.sum())} sliding steps; there v_n / (mu |v_t|) median "
          f"{np.median(c['v_n'][st][up] / (info['mu'] * vt[up])) if info['mu'] > 0 and up.any() else np.nan:.3f}"
          f" (1: the hard limit of MuJoCo's convex contact while sliding), v_n - mu |v_t| median "
          f"{np.median(c['v_n'][st][up] - info['mu'] * vt[up]):+.4f} m/s")


if __name__ == "__main__":
    main()
