"""Every robot's scene and env: loads, steps for seconds with the default gait and with
randomised bounded inputs, and never shows a MuJoCo warning, NaN, deep penetration or an
open loop (like Menagerie's model tests and dm_control's suite tests).

The limits are the robot's declared `max_penetration` and `max_loop_gap`: the same numbers
the batch runner uses to flag every results row (Robot.health_error)."""
import pathlib

import mujoco
import numpy as np
import pytest

import gaittwin
from gaittwin.core.engines import batch
from gaittwin.core.model.stepper import Stepper

ROBOTS = sorted(gaittwin.ROBOTS)
SECONDS = 3.0


def health(robot, seconds=SECONDS, check_every=10):
    """Step the robot's gait with the one stepper; return worst penetration, loop gap."""
    step = Stepper(robot)
    model, data = step.model, step.data
    n = int(round(seconds / model.opt.timestep))
    pen = gap = 0.0
    for k in range(0, n, check_every):
        step(check_every)
        assert not data.warning.number.any(), (
            f"{robot.name}: MuJoCo warning at t={data.time:.3f}: "
            + ", ".join(mujoco.mjtWarning(i).name for i in np.flatnonzero(data.warning.number)))
        assert np.isfinite(data.qpos).all() and np.isfinite(data.qvel).all()
        if data.ncon:
            pen = max(pen, -float(data.contact.dist[: data.ncon].min()))
        eq = data.efc_type[: data.nefc] == mujoco.mjtConstraint.mjCNSTR_EQUALITY
        if eq.any():
            gap = max(gap, float(np.abs(data.efc_pos[: data.nefc][eq]).max()))
    return pen, gap


@pytest.mark.parametrize("name", ROBOTS)
def test_scene_xml_loads(name):
    cls = gaittwin.robot_class(name)
    scene = pathlib.Path(gaittwin.__file__).parent.parent / "models" / name / "scene.xml"
    model = mujoco.MjModel.from_xml_path(str(scene))
    assert model.nbody > 1 and model.nu > 0
    # the compiled default robot has the same structure as its scene
    assert cls().model().nq == model.nq


@pytest.mark.parametrize("name", ROBOTS)
def test_default_gait_is_healthy(name):
    r = gaittwin.robot_class(name)()
    pen, gap = health(r)
    assert pen <= r.max_penetration, f"penetration {pen * 1e3:.2f} mm"
    assert gap <= r.max_loop_gap, f"loop gap {gap * 1e3:.3f} mm"


@pytest.mark.parametrize("name", ROBOTS)
def test_randomised_inputs_are_healthy(name):
    cls = gaittwin.robot_class(name)
    if not cls.random_inputs:
        pytest.skip(f"{name} declares no random_inputs")
    rng = np.random.default_rng(12345)
    for _ in range(3):
        pt = {k: float(rng.uniform(lo, hi)) for k, (lo, hi) in cls.random_inputs.items()}
        r = cls(**pt)
        pen, gap = health(r, seconds=min(SECONDS, 2 * r.period))
        assert pen <= r.max_penetration, (pt, pen)
        assert gap <= r.max_loop_gap, (pt, gap)


@pytest.mark.parametrize("name", ROBOTS)
def test_determinism_single_and_batch(name):
    cls = gaittwin.robot_class(name)
    a = batch.run_point(cls(), cls, cycles=2, nthread=1)
    b = batch.run_point(cls(), cls, cycles=2, nthread=1)
    c = batch.run_points([cls(), cls()], cls, cycles=2, nthread=2)
    assert a.error is None, a.error
    np.testing.assert_array_equal(a.sensordata, b.sensordata)
    for run in c:
        np.testing.assert_array_equal(run.sensordata, a.sensordata)


@pytest.mark.parametrize("name", ROBOTS)
def test_dm_control_env_steps_cleanly(name):
    env = gaittwin.load(name, cycles=1)
    ts = env.reset()
    assert ts.first() and all(np.isfinite(v).all() for v in ts.observation.values())
    steps = int(round(0.5 / env.physics.timestep()))
    for _ in range(steps):
        ts = env.step(np.zeros(env.action_spec().shape))
        if ts.last():
            break
    assert not env.physics.data.warning.number.any()
    assert np.isfinite(env.physics.data.qpos).all()
    assert env.physics.data.time > 0


@pytest.mark.parametrize("name", ROBOTS)
def test_results_rows_use_the_same_health_limits(name, monkeypatch):
    """The batch runner's health flag of the default gait agrees with the plain-loop check above,
    and is driven by the very class attributes this test reads (lowering them flags the run)."""
    cls = gaittwin.robot_class(name)
    r = cls()
    run = batch.run_point(r, cls, cycles=1, nthread=1)
    assert run.error is None and run.unhealthy is None, run.unhealthy
    assert 0 <= run.max_penetration <= r.max_penetration
    assert (run.max_loop_gap is not None) == bool(cls.loops)
    pen, gap = health(r, seconds=r.period, check_every=1)          # the same states, stepped one by one
    assert run.max_penetration == pytest.approx(pen, rel=0.05, abs=2e-5)
    if cls.loops:                               # sensor-site distance vs the constraint's |efc_pos|
        assert gap <= run.max_loop_gap * 1.01 + 1e-6 and run.max_loop_gap <= r.max_loop_gap
    monkeypatch.setattr(cls, "max_penetration", run.max_penetration / 2)
    flagged = batch.run_point(cls(), cls, cycles=1, nthread=1)
    assert flagged.unhealthy and f"{cls.__name__}.max_penetration" in flagged.unhealthy
