"""Shared machinery: inputs, metrics, errors, the three paths (batch, single, dm_control)."""
import math

import numpy as np
import pytest

import gaittwin
from gaittwin.core.engines import batch
from gaittwin.core.model import metrics
from gaittwin.crawler.robot import Crawler
from gaittwin.core.model.errors import ConfigError
from gaittwin.core.model.inputs import Crank, PhasedSine, time_scaling


def test_sine_inputs_are_eq5():
    inp = PhasedSine(omega=2.0, A=0.3, phi0=1.9, offsets=(0.2, -0.2))
    t = np.linspace(0, 5, 11)
    q, qd, qdd = inp(t)
    np.testing.assert_allclose(q[:, 0], 1.9 + 0.3 * np.sin(2 * t + 0.2))
    np.testing.assert_allclose(q[:, 1], 1.9 + 0.3 * np.sin(2 * t - 0.2))
    np.testing.assert_allclose(qd[:, 1], 0.3 * 2 * np.cos(2 * t - 0.2))
    np.testing.assert_allclose(qdd[:, 0], -0.3 * 4 * np.sin(2 * t + 0.2))


def test_time_scaled_derivatives_match_finite_differences():
    inp = PhasedSine(omega=3.2, A=0.3, phi0=1.9, offsets=(0.3, -0.3), alpha=0.7, upsilon=1.1)
    t = np.linspace(0, 2, 2001)
    q, qd, qdd = inp(t)
    np.testing.assert_allclose(np.gradient(q[:, 0], t)[1:-1], qd[1:-1, 0], atol=2e-4 * np.abs(qd).max())
    np.testing.assert_allclose(np.gradient(qd[:, 0], t)[1:-1], qdd[1:-1, 0], atol=2e-3 * np.abs(qdd).max())
    # same period and principal harmonic shape: q(t+T) = q(t)
    np.testing.assert_allclose(inp(t + inp.period)[0], q, atol=1e-12)


def test_time_scaling_monotone_range():
    xi = np.linspace(0, 2 * np.pi, 1000)
    assert (time_scaling(xi, 1.0, 0.3)[1] >= -1e-12).all()
    assert (time_scaling(xi, 1.2, 0.3)[1] < 0).any()
    with pytest.raises(ConfigError, match=r"alpha=1.2 .*\[-1, 1\]"):
        PhasedSine(1.0, 0.3, 1.9, (0, 0), alpha=1.2)
    with pytest.raises(ConfigError, match="alpha"):
        Crawler(alpha=-1.5)


def test_crank_is_constant_speed_with_offsets_and_directions():
    c = Crank(omega=5.0, offsets=(0.0, math.pi), directions=(1, -1))
    q, qd, qdd = c(np.array([0.0, 0.1]))
    np.testing.assert_allclose(q[1], [0.5, math.pi - 0.5])
    np.testing.assert_allclose(qd, [[5, -5], [5, -5]])
    assert not qdd.any()


@pytest.mark.parametrize("kw, param, allowed", [
    (dict(omega=-1.0), "omega", r"\(0, 200\] rad/s"),
    (dict(omega=0.0), "omega", r"\(0, 200\]"),
    (dict(mu=0.0), "mu", r"\(0, 5\]"),
    (dict(mu=-0.1), "mu", r"\(0, 5\]"),
    (dict(A_deg=60.0), "A_deg", r"\[0, 4\d\.\d\] deg"),
    (dict(phi0_deg=145.0, A_deg=35.0), "A_deg", r"\[0, \d+\.\d\] deg for phi0_deg=145"),
    (dict(bogus=1.0), "bogus", "one of"),
])
def test_bad_inputs_raise_named_error(kw, param, allowed):
    with pytest.raises(ConfigError, match=rf"^{param}=.*allowed range is {allowed}") as e:
        Crawler(**kw)
    assert e.value.param == param


def test_unknown_robot():
    with pytest.raises(ConfigError, match=r"robot='hexapod' .* one of \[.*'crawler'"):
        gaittwin.load("hexapod")


def test_steady_state_detection():
    s = metrics.steady_state([1.0, 0.5, 0.2, 0.2, 0.2])
    assert s.steady and s.period == 1 and s.value == pytest.approx(0.2)
    s = metrics.steady_state([0.0, 0.1, 0.3, 0.1, 0.3, 0.1, 0.3])   # two-step periodic gait
    assert s.steady and s.period == 2 and s.value == pytest.approx(0.2)
    s = metrics.steady_state([0.1, 0.3, 0.2, 0.5, 0.1, 0.4])
    assert not s.steady and s.value == pytest.approx(np.mean([0.2, 0.5, 0.1, 0.4]))


def test_contact_modes():
    m = metrics.contact_modes([0.0, 0.01, -0.01, 0.01], [1.0, 1.0, 1.0, 0.0], forward=-1.0)
    assert list(m) == [metrics.STICK, metrics.SLIP_BACKWARD, metrics.SLIP_FORWARD, metrics.LIFTOFF]
    assert metrics.intervals([0, 1, 1, 0, 1]) == [(1, 3), (4, 5)]
    assert metrics.support_fractions([[1, 1, 0, 0], [1, 1, 1, 0]], counts=(2, 3)) == {2: 0.5, 3: 0.5}


def test_batch_and_single_paths_agree():
    """A point's S does not depend on which batch it runs in, nor on the thread count."""
    pts = [dict(omega=w, psi_deg=p) for w in (3.2, 9.0) for p in (0.0, 40.0)]
    single = [batch.run_point(pt, Crawler, cycles=4) for pt in pts]
    many = batch.run_points(pts + pts, Crawler, cycles=4, nthread=2, nsim=3, chunk=777)
    for s, m1, m2 in zip(single, many[:4], many[4:]):
        np.testing.assert_allclose(m1.cycle_values, s.cycle_values, rtol=0, atol=1e-9)
        np.testing.assert_array_equal(m1.cycle_values, m2.cycle_values)


def test_dm_control_env_matches_batch_path():
    env = gaittwin.load("crawler", omega=6.0, cycles=2)
    ts = env.reset()
    assert set(ts.observation) >= {"qpos", "qvel", "sensordata"}
    r = env.task.robot
    x = []
    n = r.steps_per_cycle
    for k in range(2 * n + 1):
        if k % n == 0:
            x.append(r.progress(env.physics.data.sensordata[None].copy(), env.physics.model._model)[0])
        if k < 2 * n:
            ts = env.step(np.zeros(0))
    run = batch.run_point(dict(omega=6.0), Crawler, cycles=2)
    np.testing.assert_allclose(np.diff(x), run.cycle_values, rtol=0, atol=1e-9)
    assert ts.last()


def test_env_feedback_hook_changes_the_controls():
    seen = []

    def controller(model, data, ctrl):
        seen.append(data.time)
        ctrl = ctrl.copy()
        ctrl[:2] = ctrl[:2] + 0.05
        return ctrl

    env = gaittwin.load("crawler", omega=2.0, cycles=1, controller=controller)
    env.reset()
    for _ in range(3):
        env.step(np.zeros(0))
    assert len(seen) == 3
    ref = env.task.robot.controls(np.array([2 * env.task.robot.timestep]))[0]
    np.testing.assert_allclose(env.physics.data.ctrl[:2], ref[:2] + 0.05)


def test_env_rejects_actions_and_bad_cycles():
    env = gaittwin.load("crawler", omega=2.0, cycles=1)
    assert env.action_spec().shape == (0,)
    env.reset()
    with pytest.raises(ValueError, match="takes no action"):
        env.step(np.zeros(2))
    for bad in (0, -1, float("nan"), float("inf"), True):
        with pytest.raises(gaittwin.ConfigError, match="cycles"):
            gaittwin.load("crawler", cycles=bad)


def test_simulation_warning_is_reported_not_hidden():
    # a servo this stiff at this step diverges: the run must say so
    run = batch.run_point(dict(omega=2.0, kp=1e6, kv=0.0, timestep=1e-3), Crawler, cycles=2)
    assert run.error and ("warning" in run.error.lower() or "unstable" in run.error.lower() or "nan" in run.error.lower())


def test_both_runners_word_a_warning_alike():
    """The batched runner and the closed-loop one (a per-step feedback robot) fail the same diverging point
    with one error: the warning's name and the chunk it was raised in (batch._warning)."""
    from gaittwin.crawler.paper.feedback_robot import FeedbackCrawler
    p = dict(omega=2.0, kp=1e6, kv=0.0, timestep=1e-3)
    errs = [batch.run_point(p, cls, cycles=2).error for cls in (Crawler, FeedbackCrawler)]
    assert FeedbackCrawler.closed_loop and not Crawler.closed_loop
    assert errs[0] == errs[1] == "MuJoCo warning mjWARN_BADQACC between t=0.0000 s and t=1.9635 s"


def test_env_reward_is_progress_rate():
    env = gaittwin.load("crawler", omega=4.0, cycles=1)
    ts = env.reset()
    r = env.task.robot
    x0 = r.progress(env.physics.data.sensordata[None], env.physics.model._model)[0]
    total = 0.0
    while not ts.last():
        ts = env.step(np.zeros(0))
        total += ts.reward * env.physics.timestep()
    x1 = r.progress(env.physics.data.sensordata[None], env.physics.model._model)[0]
    assert total == pytest.approx(x1 - x0, abs=1e-12)
    assert abs(total) > 1e-3
