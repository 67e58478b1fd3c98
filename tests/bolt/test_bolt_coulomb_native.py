"""BOLT's Coulomb foot in C (envs/bolt/coulomb_foot.c via gaittwin.bolt.coulomb_native): the Python hook's law
(envs/bolt/coulomb_foot.py CoulombFoot) with the normal-force response read from the step's own constraint
solution instead of a second forward pass; compiled at first use into a cache folder, the Python hook where it
cannot be built.  A few seconds."""
import copy
import dataclasses
import os
import subprocess
import sys

import mujoco
import numpy as np
import pytest

from gaittwin.bolt import coulomb_foot, coulomb_native
from gaittwin.bolt.robot import Bolt

COULOMB = dict(foot_contact="coulomb", loop_timeconst=5e-5, timestep=6.25e-6, bumper_height=0.40)
needs_native = pytest.mark.skipif(coulomb_native.load() is None, reason=f"no native build: {coulomb_native.reason()}")


@needs_native
def test_native_step_is_the_python_law_at_the_impact():
    """0.3 s from rest to just after the first impact: 7600 steps by the C step, then 100 steps by the Python hook
    with, at every step, the C step on a copy of the state.  Tolerances stated first: the same branch at every step; the applied force equal to
    1e-9 of the Python one's largest component (both solve one linear system: the C from the solution, the Python by
    a trial forward pass); MuJoCo's normal force under the C step's friction equal to the C step's F_n (1e-9
    relative, its consistency) at the impact's first contact step, where the bumper's limit row leaves the active
    set (measured: the contact set's first reading, fixed-set, was 1.4 % off there)."""
    r = Bolt(crank_period=0.3, **COULOMB)
    m = copy.copy(r.model())
    d, d2 = mujoco.MjData(m), mujoco.MjData(m)
    mujoco.mj_setState(m, d, r.initial_state(r.model()), mujoco.mjtState.mjSTATE_INTEGRATION)
    mujoco.mj_forward(m, d)
    py = coulomb_foot.CoulombFoot(m, r.p.mu, coulomb_foot.V_EPS, "stop")
    nat = coulomb_native.NativeFoot(coulomb_native.load(), m, r.p.mu, coulomb_foot.V_EPS, "stop",
                                    coulomb_foot.DEN_MIN, coulomb_foot.PROBE)
    limit_only = dataclasses.replace(r.p, foot_contact="plastic")
    ctrl = r.controls(np.arange(7700) * m.opt.timestep)
    slides, first = 0, None
    for k in range(7700):
        d.ctrl[:] = ctrl[k]
        r.p, p = limit_only, r.p
        r.feedback(m, d)          # the actuator limit alone
        r.p = p
        if k < 7600:
            nat(m, d)
            py.in_contact, py.after_stop = bool(nat.in_contact), bool(nat.after_stop)
            mujoco.mj_step(m, d)
            continue
        mujoco.mj_copyData(d2, m, d)
        nat.state[:2] = py.in_contact, py.after_stop
        fn_c = nat(m, d2)
        fn_py = py(m, d)
        assert nat.last == py.last, (k, nat.last, py.last)
        scale = max(np.abs(d.xfrc_applied).max(), 1e-12)
        assert np.abs(d.xfrc_applied - d2.xfrc_applied).max() <= 1e-9 * scale, k
        if py.last == "slide":
            slides += 1
            if first is None:
                first = k
                mujoco.mj_forward(m, d2)
                _, fn_mj = py.contact(m, d2)
                assert abs(fn_mj - fn_c[0]) <= 1e-9 * fn_c[0], (fn_mj, fn_c, fn_py)
        mujoco.mj_step(m, d)
    assert slides > 0 and nat.probe_passes == 0


@needs_native
def test_feedback_in_c_is_the_python_method():
    """3000 steps at 0.2 s without the bumper (the foot on the floor from the start: stance, the power limit, the
    step's sliding friction), Bolt.feedback and the step in one C call against the Python method with the C step, on
    two copies stepped side by side; stated first: the states identical at every step, the returned per-step values
    equal to 1e-12 relative (the loop gap's sum of squares may round differently)."""
    r = Bolt(**dict(COULOMB, bumper_height=None), crank_period=0.2)
    sims = []
    for _ in range(2):
        m = copy.copy(r.model())
        d = mujoco.MjData(m)
        mujoco.mj_setState(m, d, r.initial_state(r.model()), mujoco.mjtState.mjSTATE_INTEGRATION)
        mujoco.mj_forward(m, d)
        sims.append((m, d))
    ctrl = r.controls(np.arange(3000) * r.timestep)
    real = coulomb_foot.native_feedback
    stance = 0
    try:
        for k in range(3000):
            out = []
            for (m, d), native in zip(sims, (True, False)):
                coulomb_foot.native_feedback = real if native else (lambda r, m, d: None)
                d.ctrl[:] = ctrl[k]
                out.append(np.asarray(r.feedback(m, d), float))
                mujoco.mj_step(m, d)
            stance += out[0][1] > 0 or out[0][3] > 0
            assert np.allclose(out[0], out[1], rtol=1e-12, atol=0), k
            assert np.array_equal(sims[0][1].qpos, sims[1][1].qpos) and np.array_equal(sims[0][1].qvel, sims[1][1].qvel)
    finally:
        coulomb_foot.native_feedback = real
    assert stance > 100 and isinstance(next(iter(r._coulomb.values())), coulomb_native.NativeFoot)


def test_without_a_compiler_the_python_hook_runs_and_says_why(tmp_path):
    """No compiler (CC names none) and an empty cache: the Python hook, with the reason; a short run still steps."""
    code = ("from gaittwin.bolt import coulomb_foot; from gaittwin.core.model.stepper import Stepper; "
            "from gaittwin.bolt.robot import Bolt; print(coulomb_foot.backend()); "
            "s = Stepper(Bolt(foot_contact='coulomb', loop_timeconst=5e-5, timestep=6.25e-6, crank_period=0.2)); s(50); "
            "print(type(next(iter(s.robot._coulomb.values()))).__name__)")
    env = dict(os.environ, CC="/nonexistent/cc", GAITTWIN_CACHE=str(tmp_path))
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.split()
    assert "python" in p.stdout.splitlines()[0] and "/nonexistent/cc" in p.stdout.splitlines()[0], p.stdout
    assert lines[-1] == "CoulombFoot" and "RuntimeWarning" in p.stderr
    assert not list(tmp_path.rglob("*.so"))


@needs_native
def test_built_once_into_the_cache_folder(tmp_path):
    """The library goes to $GAITTWIN_CACHE/bolt (never next to the package), named by the source's hash."""
    code = "from gaittwin.bolt import coulomb_foot; print(coulomb_foot.backend())"
    env = dict(os.environ, GAITTWIN_CACHE=str(tmp_path))
    for _ in range(2):
        p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert p.returncode == 0 and "native C" in p.stdout, p.stdout + p.stderr
    (so,) = (tmp_path / "bolt").glob("coulomb_foot-*.so")
    assert not list(coulomb_native.SOURCE.parent.glob("*.so"))


@needs_native
def test_a_run_robot_pickles_with_its_c_foot():
    """A robot after a few steps (its C foot made) pickles and unpickles (Ray returns runs with their robots); the
    copy's foot steps on and keeps its counters."""
    import pickle
    from gaittwin.core.model.stepper import Stepper
    s = Stepper(Bolt(**dict(COULOMB, bumper_height=None), crank_period=0.2))
    s(200)
    r = pickle.loads(pickle.dumps(s.robot))
    (f,) = r._coulomb.values()
    assert isinstance(f, coulomb_native.NativeFoot) and f.contact_steps == next(iter(s.robot._coulomb.values())).contact_steps
    d = mujoco.MjData(f.model)
    mujoco.mj_forward(f.model, d)
    f(f.model, d)
