"""BOLT's closed loop in C (Bolt.native_loop: coulomb_foot.c gaittwin_bolt_run): the runner's and Stepper's
Python loop (controls, Bolt.feedback, mj_step every step) in one call per chunk, with the Coulomb foot's
frictionless pass skipped where the foot is surely out of contact.  The promise is the Python loop's run to the
bit, so every comparison here is exact equality (no tolerance)."""

import mujoco
import numpy as np
import pytest

from gaittwin.bolt import coulomb_native
from gaittwin.bolt.robot import Bolt
from gaittwin.core.engines import batch
from gaittwin.core.model.stepper import Stepper

needs_native = pytest.mark.skipif(coulomb_native.load() is None, reason=f"no native build: {coulomb_native.reason()}")
FEET = {"soft": {}, "coulomb_implicit": dict(foot_contact="coulomb", foot_friction="implicit", loop_timeconst=5e-5,
                                             timestep=1.25e-5)}


def _runs(monkeypatch, native: bool, params: dict, periods=(0.284, 0.5), cycles=2):
    monkeypatch.setenv("GAITTWIN_NATIVE_LOOP", "1" if native else "0")
    robots = [Bolt(bumper_height=0.40, crank_period=T, **params) for T in periods]
    return robots, batch.run_points(robots, Bolt, cycles=cycles, nthread=1, stop_when_steady=False)


@needs_native
@pytest.mark.parametrize("foot", sorted(FEET))
def test_native_loop_is_the_python_loop_to_the_bit(monkeypatch, foot):
    """Two periods (one short stance, one long), two revolutions from rest: every sample's sensors, the feedback's
    per-sample maxima, the work, the health maxima and the metrics equal; and the native loop was the one used."""
    robots, py = _runs(monkeypatch, False, FEET[foot])
    assert robots[0].native_loop(robots[0].model(), mujoco.MjData(robots[0].model())) is None
    robots, nat = _runs(monkeypatch, True, FEET[foot])
    assert robots[0].native_loop(robots[0].model(), mujoco.MjData(robots[0].model())) is not None
    for r, a, b in zip(robots, py, nat):
        assert a.error is None and b.error is None
        for k in ("t", "sensordata", "aux", "work", "cycle_values"):
            assert np.array_equal(getattr(a, k), getattr(b, k)), k
        assert (a.max_loop_gap, a.max_penetration) == (b.max_loop_gap, b.max_penetration)
        assert r.summarize(a) == r.summarize(b)
    if foot == "coulomb_implicit":   # the foot's counters ran in the C loop too
        assert next(iter(robots[1].__dict__["_coulomb"].values())).contact_steps > 0


@needs_native
def test_stepper_native_loop_is_the_python_loop(monkeypatch):
    """The viewer's and video's path: Stepper in frames of 1/60 s (blocks that cross the control schedule's chunks)."""
    states = []
    for native in ("0", "1"):
        monkeypatch.setenv("GAITTWIN_NATIVE_LOOP", native)
        s = Stepper(Bolt(crank_period=0.284, **FEET["coulomb_implicit"]), chunk=1000)
        assert (s._loop is None) == (native == "0")
        for _ in range(40):
            s(1333)
        states.append((s.k, s.data.time, s.data.qpos.copy(), s.data.qvel.copy(), s.data.sensordata.copy()))
    (ka, ta, *xa), (kb, tb, *xb) = states
    assert (ka, ta) == (kb, tb)
    assert all(np.array_equal(x, y) for x, y in zip(xa, xb))


def test_a_subclass_feedback_keeps_the_python_loop():
    """A subclass that overrides `feedback` (a study's or a user's) is never bypassed by the C loop."""
    class Mine(Bolt):
        def feedback(self, model, data):
            return super().feedback(model, data)
    r = Mine(crank_period=0.3)
    assert r.native_loop(r.model(), mujoco.MjData(r.model())) is None


def test_off_switch(monkeypatch):
    monkeypatch.setenv("GAITTWIN_NATIVE_LOOP", "0")
    r = Bolt(crank_period=0.3)
    assert r.native_loop(r.model(), mujoco.MjData(r.model())) is None


@needs_native
def test_the_c_loop_puts_back_mujocos_clock(monkeypatch):
    """Inside gaittwin_bolt_run MuJoCo's profiling clock is a constant; after it, the clock that was installed (the
    Python bindings' own) is back, so nothing outside the loop loses its timers."""
    import ctypes
    lib = ctypes.CDLL(str(coulomb_native._mujoco_lib()))
    before = ctypes.c_void_p.in_dll(lib, "mjcb_time").value
    _runs(monkeypatch, True, FEET["soft"], periods=(0.3,), cycles=1)
    assert before is not None and ctypes.c_void_p.in_dll(lib, "mjcb_time").value == before
