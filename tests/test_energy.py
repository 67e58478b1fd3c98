"""Energy metrics (envs/core/model/energy.py): actuator work per cycle, mean power, cost of transport.

The hand computation: a cart gliding at constant speed v carries a damped rotor driven at a
constant net torque tau; started at its terminal rate w = tau / b it keeps that rate, so the
motors deliver tau * w every instant: work per cycle tau w T, mean power tau w, cost of
transport tau w / (m g v).  The net torque is two actuators on the one joint (2 tau and -tau):
the power is summed per joint before the no-regeneration clip, so a per-actuator clip (which
would give 2 tau w) fails the test.
"""
import copy
import dataclasses
import math

import mujoco
import numpy as np
import pytest
from dm_control import mujoco as dm_mujoco

import gaittwin
from gaittwin.core.engines import batch
from gaittwin.core.model import energy, schema
from gaittwin.core.model.robot import REGISTRY, Robot

TAU, B, V, M_CART, M_ROTOR, T = 0.3, 0.02, 0.05, 2.0, 0.5, 0.5
W = TAU / B                        # rad/s: terminal rate of the damped rotor
XML = f"""
<mujoco>
  <option gravity="0 0 -9.81" integrator="implicitfast"/>
  <worldbody>
    <body name="cart">
      <joint name="x" type="slide" axis="1 0 0"/>
      <geom type="box" size=".1 .05 .02" mass="{M_CART}"/>
      <site name="cart"/>
      <body name="rotor">
        <joint name="spin" type="hinge" axis="0 0 1" damping="{B}"/>
        <geom type="cylinder" size=".05 .01" mass="{M_ROTOR}"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor name="push" joint="spin"/>
    <motor name="brake" joint="spin"/>
  </actuator>
  <sensor><framepos name="cart_pos" objtype="site" objname="cart"/></sensor>
</mujoco>"""


@dataclasses.dataclass
class _Params:
    tau: float = schema.param(TAU, "N m", ge=0, le=10)


class _Cart(Robot):
    name = "test_energy_cart"
    Params = _Params
    physics = dm_mujoco.Physics
    metrics = ("x",) + energy.METRICS
    samples_per_cycle = 50

    period = T

    def spec(self):
        return mujoco.MjSpec.from_string(XML)

    def controls(self, t):
        return np.tile([2 * self.p.tau, -self.p.tau], (len(t), 1))

    def initial_pose(self, model, data):
        data.qvel[:] = [V, self.p.tau / B]

    def progress(self, sensordata, model):
        return self.sensor(sensordata, model, "cart_pos")[..., 0]

    def summarize(self, run):
        return {"x": float(run.sensor("cart_pos")[-1, 0])}


assert _Cart.name not in REGISTRY   # a test robot: defining a class registers nothing (envs/registry.py lists the robots)


def test_constant_torque_at_constant_rate_matches_the_hand_computation():
    r = _Cart()
    run = batch.run_point(r, _Cart, cycles=3, nthread=1)
    s = r.summarize(run)
    g = 9.81
    hand = dict(work_per_cycle=TAU * W * T, mean_power=TAU * W, cost_of_transport=TAU * W / ((M_CART + M_ROTOR) * g * V))
    rtol = 1e-6                    # stated before comparing: integration of an exact steady state
    for k, v in hand.items():
        assert s[k] == pytest.approx(v, rel=rtol), (k, s[k], v)
    # the trapezoid over the samples (the path of engines that see only samples) agrees too
    run.work = None
    assert energy.metrics(r, run)["work_per_cycle"] == pytest.approx(hand["work_per_cycle"], rel=rtol)


def test_power_is_clipped_per_joint_not_per_actuator():
    r = _Cart()
    m = r.model()
    d = mujoco.MjData(m)
    r.initial_pose(m, d)
    d.ctrl[:] = [2 * TAU, -TAU]
    mujoco.mj_forward(m, d)
    assert energy.actuator_power(d.sensordata[None], m)[0] == pytest.approx([2 * TAU * W, -TAU * W])
    assert energy.power(d.sensordata[None], m)[0] == pytest.approx(TAU * W)   # not 2 tau w
    d.ctrl[:] = [-TAU, 0.0]        # braking: negative power, no regeneration credited
    mujoco.mj_forward(m, d)
    assert energy.power(d.sensordata[None], m)[0] == 0.0


def test_runner_work_is_the_per_step_integral():
    """The batch runner's cumulative work equals an independent mj_step loop's sum of P dt
    (tolerance 1e-9 relative: the same steps, summed in another order)."""
    r = gaittwin.Crawler(omega=4.0)
    cycles = 2
    run = batch.run_point(r, gaittwin.Crawler, cycles=cycles, nthread=1)
    m = copy.copy(r.model())
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, r.initial_state(m), mujoco.mjtState.mjSTATE_INTEGRATION)
    mujoco.mj_forward(m, d)
    n = cycles * r.steps_per_cycle
    ctrl = r.controls(np.arange(n) * r.timestep)
    work = 0.0
    for k in range(n):
        d.ctrl[:] = ctrl[k]
        mujoco.mj_step(m, d)       # sensordata: the state this step started from
        work += float(energy.power(d.sensordata[None], m)[0]) * r.timestep
    assert run.work[-1] == pytest.approx(work, rel=1e-9)
    assert work > 0


def test_every_robot_declares_and_reports_energy():
    for name in sorted(gaittwin.ROBOTS):
        cls = gaittwin.robot_class(name)
        assert set(energy.METRICS) <= set(cls.metrics), name
    r = gaittwin.Crawler(omega=4.0)
    s = r.summarize(batch.run_point(r, gaittwin.Crawler, cycles=3, nthread=1))
    assert s["work_per_cycle"] > 0 and s["mean_power"] == pytest.approx(s["work_per_cycle"] / r.period)
    m = r.model()
    v = s["V"]
    assert s["cost_of_transport"] == pytest.approx(s["mean_power"] / (np.sum(m.body_mass) * 9.81 * abs(v)), rel=1e-3)
    assert math.isfinite(s["cost_of_transport"])
