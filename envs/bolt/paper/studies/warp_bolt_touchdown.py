"""Why BOLT's tau_max = 15 point (crank_period 0.3 s, P_max 450 W, 2 cycles) fails
scripts/warp_agreement.py on Warp's CPU device (speed 2.2e-3 against a tolerance of 7.3e-4 m/s), step by step.

1. Both engines per step from the same initial state: the C engine as the batch runner steps a
   closed-loop point (controls, Bolt.feedback, mj_step), MuJoCo Warp as engine=warp does (the
   runner's pool, one world, one step a chunk: controls, the limit kernel, mjw.step); per step the
   state, the touch sensor, the limit and the contacts.  Printed: where the contact switches differ
   and the state difference before it.
2. Does our kernel implement Bolt.feedback?  The limit the kernel wrote at every step against the
   hook's rule evaluated on warp's own previous state (exact), and warp's controls against the C
   controls rounded to float32.
3. The one-step defect: the C engine's mj_step from warp's pre-step state (warp's ctrl and limit)
   against warp's next state, at every step; beside it the C engine's step from its own state
   rounded to float32 against its exact step (what float32 storage alone does).  A kernel or
   runner error shows as a defect far above that; float32 physics as one of the same order.
4. At the first differing touch-down: MuJoCo Warp's own kinematics and collision (float32) on
   warp's state and on the C engine's, against float64 kinematics on the same float32 qpos.
5. Every touch-down's penetration at the first contact step (how far past a step boundary the foot
   crossed the floor), both engines.
6. What a one-step shift of that touch-down alone does to the metrics: the C engine with the body
   raised by DZ at step SHIFT_AT (before the touch-down; no other change), speed and stride_length
   against the nominal C run.  A diagnostic, not a tolerance member.

    nice -n 10 .venv/bin/python -m gaittwin.bolt.paper.studies.warp_bolt_touchdown [--steps 6000] [--tau-max 15]
"""
from __future__ import annotations

import argparse
import copy
import warnings

import numpy as np


import mujoco  # noqa: E402

from ...robot import Bolt
from ....core.engines import batch

POINT = dict(crank_period=0.3, P_max=450.0)
FOOT = "foot"
DZ = (5e-8, 1e-7, 2e-7)      # m: the body raised by about float32's resolution of the foot height
SHIFT_AT = 3640              # a step of flight before the step-3647 touch-down (item 6)
KEYS = ("qpos", "qvel", "qacc_warmstart")


def trace_c(r, n):
    m = copy.copy(r.model())
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, r.initial_state(m), mujoco.mjtState.mjSTATE_INTEGRATION)
    mujoco.mj_forward(m, d)
    i_touch = r._indices(m)[0]
    ctrl = r.controls(np.arange(n) * r.timestep)
    out = {k: [] for k in KEYS + ("touch", "lim")}
    for k in range(n):
        d.ctrl[:] = ctrl[k]
        r.feedback(m, d)
        out["lim"].append(m.actuator_forcerange[0, 1])
        mujoco.mj_step(m, d)
        for key in KEYS:
            out[key].append(getattr(d, key).copy())
        out["touch"].append(d.sensordata[i_touch])
    return {k: np.array(v) for k, v in out.items()}, ctrl


def trace_warp(r, ctrl):
    from ....core.engines import warp_batch, warp_engine
    m = r.model()
    pool = warp_batch._Pool([m], 1, 1, 1, warp_engine.device("cpu"), False, r.device_feedback())
    pool.load(0, r, m)
    pool.push()
    loops = np.array([[m.sensor(a).adr[0], m.sensor(b).adr[0]] for a, b in r.loops], dtype=np.int32)
    D, i_touch = pool.D, r._indices(m)[0]
    out = {k: [getattr(D, k).numpy()[0].copy()] for k in KEYS}      # [0]: the initial state
    out |= {"touch": [], "lim": [], "ctrl": []}
    for k in range(len(ctrl)):
        pool.run_chunk(ctrl[k][None, None, :], loops)
        for key in KEYS:
            out[key].append(getattr(D, key).numpy()[0].copy())
        out["touch"].append(D.sensordata.numpy()[0, i_touch])
        out["lim"].append(pool.M.actuator_forcerange.numpy()[0, 0, 1])
        out["ctrl"].append(D.ctrl.numpy()[0].copy())
    return {k: np.array(v) for k, v in out.items()}


def one_step_defects(r, W, C, ctrl):
    """Per step k: max |C step from warp's state k - warp's state k+1| (qpos without x, qvel), and the
    same for the C engine's step from its own state rounded to float32 against its exact step."""
    m = copy.copy(r.model())
    d = mujoco.MjData(m)

    def step(q, v, ws, k, lim, u):
        d.qpos[:], d.qvel[:], d.qacc_warmstart[:], d.time, d.ctrl[:] = q, v, ws, k * r.timestep, u
        m.actuator_forcerange[0] = (-lim, lim)
        mujoco.mj_step(m, d)
        return d.qpos[1:].copy(), d.qvel.copy()
    Cs = {k: np.concatenate([W[k][:1], C[k]]) for k in KEYS}     # the same initial state
    out = np.empty((len(ctrl), 4))
    for k in range(len(ctrl)):
        q, v = step(W["qpos"][k], W["qvel"][k], W["qacc_warmstart"][k], k, W["lim"][k], W["ctrl"][k])
        q32, v32 = step(*(Cs[key][k].astype(np.float32) for key in KEYS), k, C["lim"][k], ctrl[k])
        out[k] = (np.abs(q - W["qpos"][k + 1][1:]).max(), np.abs(v - W["qvel"][k + 1]).max(),
                  np.abs(q32 - Cs["qpos"][k + 1][1:]).max(), np.abs(v32 - Cs["qvel"][k + 1]).max())
    return out


def foot_height(m, d, qpos, qvel=None):
    g = m.geom(FOOT).id
    d.qpos[:] = qpos
    d.qvel[:] = 0 if qvel is None else qvel
    mujoco.mj_forward(m, d)
    v = np.zeros(6)
    mujoco.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_GEOM, g, v, 0)
    return float(d.geom_xpos[g, 2] - m.geom_size[g, 0]), float(v[5])


def warp_collision(r, qpos):
    """MuJoCo Warp's float32 kinematics and collision on qpos: (contacts, the foot's height above the floor)."""
    import mujoco_warp as mjw
    import warp as wp
    m = r.model()
    g = m.geom(FOOT).id
    with wp.ScopedDevice("cpu"):
        M, D = mjw.put_model(m), mjw.make_data(m, nworld=1, nconmax=64)
        D.qpos.assign(qpos[None].astype(np.float32))
        mjw.kinematics(M, D)
        mjw.collision(M, D)
        return int(D.nacon.numpy()[0]), float(D.geom_xpos.numpy()[0, g, 2]) - float(m.geom_size[g, 0])


class Raised(Bolt):
    """Bolt with its body raised by `dz` once, before step `at` (item 6)."""

    def __init__(self, dz=0.0, at=SHIFT_AT, **kw):
        super().__init__(**kw)
        self.dz, self.at = dz, at

    def feedback(self, model, data):
        if self.dz and round(data.time / self.timestep) == self.at:
            data.qpos[model.jnt_qposadr[model.joint("z").id]] += self.dz
        return super().feedback(model, data)


def hook_limits(r: Bolt, W: dict) -> np.ndarray:
    """Per step: the hook's limit, Bolt.torque_limit itself (float64), on the state warp's step started from (W:
    trace_warp): stance when the step before ended touching, the crank rate of warp's qvel then."""
    i_dof = r._indices(r.model())[2]
    stance = np.r_[0.0, W["touch"][:-1]] > 0
    return np.array([r.torque_limit(bool(s), float(q)) for s, q in zip(stance, W["qvel"][:-1, i_dof])])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--tau-max", type=float, default=15.0)
    a = ap.parse_args(argv)
    warnings.filterwarnings("ignore")
    from ....core.engines.warp_law import quiet
    quiet()
    r = Bolt(**POINT, tau_max=a.tau_max)
    m, d = r.model(), mujoco.MjData(r.model())
    C, ctrl = trace_c(r, a.steps)
    W = trace_warp(r, ctrl)
    sc, sw = C["touch"] > 0, W["touch"] > 0
    on = {e: np.flatnonzero(np.diff(s.astype(int)) != 0) + 1 for e, s in (("C", sc), ("warp", sw))}
    print(f"BOLT {POINT} tau_max {a.tau_max}, {a.steps} steps\n1. contact switches C {on['C'].tolist()}\n"
          f"   warp {on['warp'].tolist()}")
    mis = np.flatnonzero(sc != sw)
    k0 = int(mis[0]) if len(mis) else None
    dq = np.abs(W["qpos"][1:] - C["qpos"])
    for k in (sorted({max(k0 - 1000, 0), max(k0 - 1, 0), k0, min(k0 + 1, a.steps - 1)}) if k0 is not None
              else [a.steps - 1]):
        print(f"   after step {k}: |dqpos| x {dq[k, 0]:.1e} m, z {dq[k, 1]:.1e} m, joints {dq[k, 2:].max():.1e} rad; "
              f"touch C {C['touch'][k]:.4g} warp {W['touch'][k]:.4g} N; limit C {C['lim'][k]:.4g} warp {W['lim'][k]:.4g}")
    rule = hook_limits(r, W)
    print(f"2. kernel limit (float32) vs Bolt.torque_limit on warp's own state, rounded to float32: max rel diff "
          f"{np.max(np.abs(W['lim'] - rule.astype(np.float32)) / rule):.1e} over {a.steps} steps; warp ctrl vs float32(C ctrl): "
          f"{np.abs(W['ctrl'][:, 0] - ctrl[:, 0].astype(np.float32)).max():.1e} rad (vs float64: "
          f"{np.abs(W['ctrl'][:, 0] - ctrl[:, 0]).max():.1e})")
    D = one_step_defects(r, W, C, ctrl)
    rest = np.ones(len(D), bool)
    if k0 is not None:
        rest[k0] = False
    print("3. one-step defect (qpos without x in m/rad, qvel): median / p99 / max over the steps" +
          (f" other than {k0}" if k0 is not None else ""))
    for j, name in enumerate(("warp vs C step from warp's state: qpos", "                                 qvel",
                              "C from its state rounded to float32: qpos", "                                   qvel")):
        x = D[rest, j]
        print(f"   {name}: {np.median(x):.1e} / {np.percentile(x, 99):.1e} / {x.max():.1e}")
    if k0 is not None:
        print(f"   at step {k0}: warp {D[k0, 0]:.1e} / {D[k0, 1]:.1e}; C float32 {D[k0, 2]:.1e} / {D[k0, 3]:.1e}")
        qw, qc = W["qpos"][k0], C["qpos"][k0 - 1] if k0 else W["qpos"][0]    # after step k0 - 1 (k0 = 0: the start)
        for lab, q in (("warp's state", qw), ("C's state", qc)):
            n, h32 = warp_collision(r, q)
            h64, _ = foot_height(m, d, q.astype(np.float32))
            print(f"4. after step {k0 - 1}, {lab}: MuJoCo Warp (float32) {n} contact(s), foot {h32:+.2e} m; "
                  f"float64 kinematics on the same float32 qpos: {h64:+.2e} m")
    print("5. touch-downs: (step, penetration m, foot vz m/s, fraction of a step past the floor)")
    for e, T in (("C", C), ("warp", W)):
        off = 0 if e == "C" else 1
        s = T["touch"] > 0
        rows = []
        for k in np.flatnonzero(np.diff(s.astype(int)) == 1) + 1:
            h, vz = foot_height(m, d, T["qpos"][k - 1 + off], T["qvel"][k - 1 + off])
            rows.append(f"({k}, {h:.1e}, {vz:.3f}, {h / (vz * r.timestep):.3f})")
        print(f"   {e}: {', '.join(rows)}")
    kw = dict(cycles=2, stop_when_steady=False)
    runs = batch.run_points([Raised(dz=z, **POINT, tau_max=a.tau_max) for z in (0.0,) + DZ], **kw)
    base = r.summarize(runs[0])
    print(f"6. C engine, body raised by dz at step {SHIFT_AT}: nominal speed {base['speed']:.6g} m/s, stride "
          f"{base['stride_length']:.6g} m")
    for z, run in zip(DZ, runs[1:]):
        s = r.summarize(run)
        print(f"   dz {z:.0e} m: speed diff {s['speed'] - base['speed']:+.2e} m/s, stride diff "
              f"{s['stride_length'] - base['stride_length']:+.2e} m")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
