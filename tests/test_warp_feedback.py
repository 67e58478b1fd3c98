"""Closed-loop robots on engine=warp: a robot's per-step `feedback` as a device kernel
(envs/core/warp_hook.py; BOLT's Sec. 5.1 actuator limit: envs/bolt/warp_feedback.py), on Warp's
CPU device.  Skip without the extra (.[gpu]).

Tolerances, stated before each comparison: the kernel against the Python hook on the same state
(float32 inputs): float32 rounding of a float64 result, rel 1e-6; a run's metrics against the C
engine's: scripts/warp_agreement.py's floor (TOL) -- over one cycle of BOLT at crank_period 0.3
no contact event differs between the engines (the first cycle's touchdowns and lift-offs fall on
the same steps), so the floor alone applies."""
from __future__ import annotations

import importlib.util
import json
import math
import pathlib
import sys

import mujoco
import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
import warp_agreement as wa  # noqa: E402

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mujoco_warp") is None,
                                reason="mujoco_warp not installed (pip install -e \".[gpu]\" -c constraints.txt)")
LIMITS = dict(crank_period=0.3, tau_max=15.0, P_max=450.0)     # both Sec. 5.1 limits bind (C engine)


def _states(r, n=700):
    """(model, [MjData]) of BOLT's C run at every 7th step of its first n steps (flight and stance)."""
    import copy
    m = copy.copy(r.model())
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, r.initial_state(m), mujoco.mjtState.mjSTATE_INTEGRATION)
    mujoco.mj_forward(m, d)
    out = []
    for k in range(n):
        d.ctrl[:] = r.controls(np.array([d.time]))[0]
        if k % 7 == 0:
            out.append(copy.copy(d))
        r.feedback(m, d)
        mujoco.mj_step(m, d)
    return m, out


@pytest.mark.parametrize("mode", ["phase", "clamp"])
def test_bolt_limit_kernel_is_bolt_feedback_on_the_same_state(mode):
    """Per world, one state each: the kernel's force range, phase state and aux values are
    Bolt.feedback's on the same (float32-rounded) state, within float32 rounding (rel 1e-6)."""
    import warp as wp
    from envs.bolt.robot import Bolt
    from envs.bolt.warp_feedback import ActuatorLimit, limit_kernel
    from envs.core.warp_hook import AUX_RESET
    r = Bolt(**LIMITS, limit_mode=mode)
    m, ds = _states(r)
    for d in ds:                                   # what Warp holds: float32
        for a in (d.sensordata, d.actuator_force, d.qvel):
            a[:] = a.astype(np.float32)
    prev = np.array([float(i % 2) for i in range(len(ds))])       # both phases of the previous step
    hook = ActuatorLimit()
    n = len(ds)
    arr = lambda x, t=wp.float32: wp.array(np.asarray(x), dtype=t, device="cpu")   # noqa: E731
    fr = wp.zeros((n, m.nu), dtype=wp.vec2, device="cpu")
    S = arr(prev[:, None], wp.float64)
    aux = arr(np.full((n, hook.naux), AUX_RESET, np.float32))
    wp.launch(limit_kernel, dim=n, inputs=[arr([hook.row(r, m) for _ in ds], wp.float64),
                                           arr([d.sensordata for d in ds]), arr([d.actuator_force for d in ds]),
                                           arr([d.qvel for d in ds]), fr, S, aux], device="cpu")
    fr, S, aux = fr.numpy(), S.numpy(), aux.numpy()
    stance = 0
    for k, d in enumerate(ds):
        d.userdata[0] = prev[k]
        want = np.array(r.feedback(m, d), float)
        stance += d.userdata[0] > 0.5
        np.testing.assert_allclose(fr[k, 0], m.actuator_forcerange[0], rtol=1e-6)
        assert S[k, 0] == d.userdata[0]
        np.testing.assert_allclose(aux[k], want, rtol=1e-6, atol=1e-30)
    assert 0 < stance < n                          # both phases seen


def test_bolt_runs_on_warp_with_its_limit_and_agrees_with_the_c_engine(tmp_path):
    """BOLT's speed sweep with engine=warp on Warp's CPU device: summary.json says engine warp (no
    fallback); both limits bind as in the C engine (flight torque at tau_max, stance power at
    P_max -- over the compiled tau_max: only the device feedback raises the stance limit); every
    metric of warp_agreement's TOL within its floor of the C engine's; limits_ok on both."""
    from envs.core import config, experiment
    args = ["robot=bolt", "experiment=bolt_speed_sweep", "sweep.crank_period=[0.3]", "run.cycles=1",
            "run.progress=false", "run.device=cpu", "run.chunk=1000"] + [f"robot.{k}={v}" for k, v in LIMITS.items()
                                                                       if k != "crank_period"]
    w = experiment.compute(config.compose(args + ["engine=warp"]), tmp_path / "w")
    s = json.loads((tmp_path / "w" / "summary.json").read_text())
    assert s["engine"] == "warp" and "engine_fallback" not in s
    c = experiment.compute(config.compose(args), tmp_path / "c")
    (rw,), (rc,) = w.table("results.csv"), c.table("results.csv")
    assert not rw["error"] and not rc["error"]
    for row in (rw, rc):
        assert row["limits_ok"] and row["torque_limit_binds_flight"] and row["power_limit_binds_stance"]
        assert row["peak_torque_stance"] > LIMITS["tau_max"] * 1.5
    compared = 0
    for k in wa.TOL:
        if isinstance(rc.get(k), float) and math.isfinite(rc[k]):
            assert wa.within(k, rc[k], rw[k]), (k, rc[k], rw[k], wa.tolerance(k, rc[k]))
            compared += 1
    assert compared >= 7
