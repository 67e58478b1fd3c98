"""Closed-loop robots on engine=warp: a robot's per-step `feedback` as a device kernel
(envs/core/engines/warp_hook.py; BOLT's Sec. 5.1 actuator limit: envs/bolt/warp_feedback.py), on Warp's
CPU device.  Skip without the extra (.[gpu]).

Tolerances, stated before each comparison: the kernel against the Python hook on the same state
(float32 inputs): float32 rounding of a float64 result, rel 1e-6; a run's metrics against the C
engine's: scripts/warp_agreement.py's floor (TOL) -- over one cycle no contact event differs
between the engines (BOLT at crank_period 0.3: the first cycle's touchdowns and lift-offs fall on
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
LIMITS = dict(crank_period=0.2, tau_max=15.0, P_max=450.0)     # both Sec. 5.1 limits bind (C engine)
# the metrics a touch-down one step apart moves at this point (measured on Warp's CPU device, 3 cycles)
TOUCHDOWN_TIMED = {"speed", "stride_length"}


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
    from gaittwin.bolt.robot import Bolt
    from gaittwin.bolt.warp_feedback import ActuatorLimit, limit_kernel
    from gaittwin.core.engines.warp_hook import AUX_RESET
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
    S = arr(np.column_stack([prev, [d.userdata[1] for d in ds]]), wp.float64)   # phase, cumulative impulse
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
        assert S[k, 0] == d.userdata[0] and S[k, 1] == pytest.approx(d.userdata[1], rel=1e-6)
        np.testing.assert_allclose(aux[k], want, rtol=1e-6, atol=1e-30)
    assert 0 < stance < n                          # both phases seen


def test_bolt_runs_on_warp_with_its_limit_and_agrees_with_the_c_engine(tmp_path):
    """BOLT's speed sweep with engine=warp on Warp's CPU device: summary.json says engine warp (no
    fallback); both limits bind as in the C engine (flight torque at tau_max, stance power at
    P_max -- over the compiled tau_max: only the device feedback raises the stance limit); every
    metric of warp_agreement's TOL within its floor of the C engine's; limits_ok on both."""
    from gaittwin.core.runs import config, experiment
    args = ["robot=bolt", "experiment=bolt_speed_sweep", "robot/foot=soft", f"sweep.crank_period=[{LIMITS['crank_period']}]",
            "run.cycles=3", "run.progress=false", "run.device=cpu", "run.chunk=1000",
            f"robot.tau_max={LIMITS['tau_max']}", f"robot.P_max={LIMITS['P_max']}"]
    w = experiment.compute(config.compose(args + ["engine=warp"]), tmp_path / "w")
    s = json.loads((tmp_path / "w" / "summary.json").read_text())
    assert s["engine"] == "warp" and "engine_fallback" not in s
    c = experiment.compute(config.compose(args), tmp_path / "c")
    (rw,), (rc,) = w.table("results.csv"), c.table("results.csv")
    assert not rw["error"] and not rc["error"]
    for row in (rw, rc):
        assert row["limits_ok"] and row["torque_limit_binds_flight"] and row["power_limit_binds_stance"]
        assert row["peak_torque_stance"] > LIMITS["tau_max"] * 1.5
    compared, off = 0, []
    for k in wa.TOL:
        if isinstance(rc.get(k), float) and math.isfinite(rc[k]):
            if not wa.within(k, rc[k], rw[k]):
                off.append((k, rc[k], rw[k], wa.tolerance(k, rc[k])))
            compared += 1
    assert compared >= 7
    assert {k for k, *_ in off} <= TOUCHDOWN_TIMED, off
    if off:     # the point where a touch-down one step apart moves the speed (the SWEEPS point's strict xfail)
        pytest.xfail(f"BOLT at tau_max 15: {off} (docs/notes/2026-11-28-warp-tolerances.md, section 2)")


def test_eq19_kernel_is_the_feedback_crawlers_law_on_the_same_state():
    """States of a C run of the crawler under eq. 19 (omega 16, one cycle, every 23rd step, both
    branches of the law): the kernel's servo references are FeedbackCrawler.feedback's on the same
    float32-rounded state and the same reference state, within float64 rounding (rel 1e-12; the
    kernel's Gaussian elimination against LAPACK's LU); ctrl within float32 rounding."""
    import copy
    import warp as wp
    from gaittwin.core.model.stepper import Stepper
    from gaittwin.crawler.paper.feedback_robot import V_SLIP, FeedbackCrawler
    from gaittwin.crawler.paper.warp_feedback import Eq19, eq19_kernel
    r = FeedbackCrawler(omega=16.0)
    st = Stepper(r)
    m, d = st.model, st.data
    law, _ = r.law()
    qa, _, va = r.addresses(m)
    cols = {k: [] for k in ("P", "S", "qpos", "qvel", "sd", "ctrl", "wstep", "S_want", "ctrl_want")}
    velocity = 0
    for k in range(r.steps_per_cycle):
        if k % 23 == 5:
            dk = copy.copy(d)
            cmd = [c.copy() for c in r._cmd[id(d)]]
            for a in (dk.qpos, dk.qvel, dk.sensordata):
                a[:] = a.astype(np.float32)
            dk.time = k * r.timestep                      # the kernel's time: step x dt
            dk.ctrl[:] = r.controls(np.array([dk.time]))[0].astype(np.float32)
            for name, v in (("P", Eq19().row(r, m)), ("S", np.r_[cmd[0], cmd[1], 1.0]), ("qpos", dk.qpos),
                            ("qvel", dk.qvel), ("sd", dk.sensordata), ("ctrl", dk.ctrl), ("wstep", k)):
                cols[name].append(np.copy(v))
            v = dk.sensordata[va]
            velocity += bool((np.abs(v) > V_SLIP).all() and law.in_limits(dk.qpos[qa][3:]))
            r._cmd[id(dk)] = cmd
            r.feedback(m, dk)
            cols["S_want"].append(np.r_[r._cmd[id(dk)][0], r._cmd[id(dk)][1]])
            cols["ctrl_want"].append(dk.ctrl.copy())
        st(1)
    arr = lambda x, t=wp.float32: wp.array(np.asarray(x), dtype=t, device="cpu")   # noqa: E731
    S, C = arr(cols["S"], wp.float64), arr(cols["ctrl"])
    wp.launch(eq19_kernel, dim=len(cols["P"]), device="cpu",
              inputs=[arr(cols["P"], wp.float64), arr(cols["wstep"], wp.int32), arr(cols["qpos"]), arr(cols["qvel"]),
                      arr(cols["sd"]), C, S])
    np.testing.assert_allclose(S.numpy()[:, :4], np.array(cols["S_want"]), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(C.numpy(), np.array(cols["ctrl_want"]), rtol=2e-7, atol=1e-9)
    assert 0 < velocity < len(cols["P"])          # both branches of eq. 19 seen


def test_crawler_feedback_runs_on_warp_and_agrees_with_the_c_engine(tmp_path):
    """crawler_feedback with engine=warp (omega 16, one cycle): summary.json says engine warp (no
    fallback), both runs finish; each run's S agrees with the C engine's run of the same
    FeedbackCrawler point (the batch runner's sampling) within warp_agreement's floor for S."""
    from gaittwin.core.engines import batch
    from gaittwin.core.runs import config, experiment
    from gaittwin.crawler.paper.feedback_robot import FeedbackCrawler
    args = ["robot=crawler", "experiment=crawler_feedback", "robot.omega=16.0", "experiment.cycles=1",
            "run.device=cpu", "run.chunk=1000", "engine=warp"]
    (tmp_path / "w").mkdir()
    w = experiment.compute(config.compose(args), tmp_path / "w")
    s = json.loads((tmp_path / "w" / "summary.json").read_text())
    assert s["engine"] == "warp" and "engine_fallback" not in s and s["all_healthy"], s["errors"]
    c = batch.run_points([FeedbackCrawler(None, omega=16.0), FeedbackCrawler(omega=16.0)], cycles=1,
                         stop_when_steady=False, chunk=1000)
    for run, seq in zip(c, (s["S_open_seq"], s["S_feedback_seq"])):
        S = float(run.cycle_values[0])
        assert wa.within("S", S, seq[0]), (S, seq[0], wa.tolerance("S", S))
    assert abs(s["S_feedback_seq"][0] - s["S_open_seq"][0]) > 10 * wa.tolerance("S", s["S_open_seq"][0])
    assert w.summary["engine"] == "warp"


def test_bolt_touchdown_study_kernel_is_the_hook_and_one_step_defects_are_float32_sized():
    """gaittwin.bolt.paper.studies.warp_bolt_touchdown on the first 700 steps of BOLT's tau_max 15 agreement point (6
    touch-downs and lift-offs): the contact switches fall on the same steps in both engines, the
    kernel's limit is Bolt.torque_limit on warp's own previous state exactly, and the C engine's step
    from warp's state meets warp's next state within 2e-6 (joint positions and height; over 6000 steps
    the largest off the touch-down warp misses is 9.4e-7, that touch-down's 1.1e-5)."""
    import numpy as np
    from gaittwin.bolt.paper.studies import warp_bolt_touchdown as st
    from gaittwin.bolt.robot import Bolt
    r = Bolt(**st.POINT, tau_max=15.0)
    C, ctrl = st.trace_c(r, 700)
    W = st.trace_warp(r, ctrl)
    sw = lambda t: np.flatnonzero(np.diff((t > 0).astype(int))).tolist()   # noqa: E731
    assert sw(C["touch"]) == sw(W["touch"]) and len(sw(C["touch"])) >= 6
    rule = st.hook_limits(r, W)              # Bolt.torque_limit on the state each step starts from
    assert (rule == 15.0).any() and (rule != 15.0).any()     # both phases (flight tau_max, stance P_max / rate)
    np.testing.assert_array_equal(W["lim"], rule.astype(np.float32))
    D = st.one_step_defects(r, W, C, ctrl)
    assert D[:, 0].max() < 2e-6 and 0 < D[:, 2].max() < 2e-6
