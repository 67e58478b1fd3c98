"""docs/adding_a_robot.md is complete: a two-link toy crawler written from that list alone runs one
point through the batch runner, a resumable sweep, the dm_control environment, the one stepper and
the video.  The toy's files are written into a temporary package, exactly as the list names them."""
from __future__ import annotations

import importlib
import sys
import textwrap

import numpy as np
import pytest

import envs
from envs.core import batch, sweep
from envs.core.robot import REGISTRY, Robot
from envs.core.stepper import Stepper

SCENE = """
<mujoco model="toy scene">
  <include file="toy.xml"/>
  <option timestep="1e-3" integrator="implicitfast" cone="elliptic"/>
  <worldbody><geom name="floor" type="plane" size="0 0 0.05" friction="0.8"/></worldbody>
</mujoco>
"""
ROBOT_XML = """
<mujoco model="toy">
  <compiler angle="radian" autolimits="true"/>
  <worldbody>
    <body name="torso" pos="0 0 0.05">
      <joint name="x" type="slide" axis="1 0 0"/>
      <joint name="z" type="slide" axis="0 0 1"/>
      <geom name="torso" type="box" size="0.05 0.02 0.01" mass="0.1"/>
      <geom name="skid" type="sphere" pos="0.05 0 -0.039" size="0.005" friction="0.05"/>
      <body name="leg" pos="-0.05 0 0">
        <joint name="hip" type="hinge" axis="0 1 0"/>
        <geom name="leg" type="capsule" fromto="0 0 0 0 0 -0.04" size="0.004" mass="0.01"/>
      </body>
    </body>
  </worldbody>
  <actuator><position name="hip" joint="hip" kp="2"/></actuator>
  <sensor><framepos name="torso_pos" objtype="body" objname="torso"/></sensor>
</mujoco>
"""
CONFIG = '''
"""Toy parameters: the one declaration."""
import dataclasses
from envs.core.config import Experiment, experiment
from envs.core.schema import param

@dataclasses.dataclass
class Params:
    name: str = "toy"
    omega: float = param(6.0, "rad/s", gt=0, le=100)
    A_deg: float = param(30.0, "deg", ge=0, lt=90)
    mu: float = param(0.8, gt=0, le=5, model=True)
    timestep: float = param(1e-3, "s", gt=0, le=1e-2)

@experiment("toy_sweep", "toy.experiments.sweep")
class Sweep(Experiment):
    """The toy's sweep (its grid in the YAML)."""
'''
ROBOT = '''
"""Toy two-link crawler: a torso on a skid and one swinging leg."""
import math, pathlib
import mujoco, numpy as np
from dm_control import mujoco as dm_mujoco
from envs.core.robot import Robot
from toy import config

MODEL_DIR = pathlib.Path(__file__).resolve().parent / "models" / "toy"

class Physics(dm_mujoco.Physics):
    def torso_x(self):
        return float(self.named.data.sensordata["torso_pos"][0])

class Toy(Robot):
    name = "toy"
    Params = config.Params
    physics = Physics
    metrics = ("S", "V", "steady")   # every key summarize() returns: the results columns
    columns = ("omega", "A_deg")
    model_dir = MODEL_DIR

    @property
    def period(self):
        return 2 * math.pi / self.p["omega"]

    def spec(self):
        spec = mujoco.MjSpec.from_file(str(MODEL_DIR / "scene.xml"))
        spec.geom("floor").friction[0] = self.p["mu"]
        return spec

    def controls(self, t):
        return (self.p["A"] * np.sin(self.p["omega"] * np.asarray(t, float)))[:, None]

    def initial_pose(self, model, data):
        data.qpos[:] = 0.0
        data.qpos[1] = -0.006          # leg tip and skid just touch the floor

    def progress(self, sensordata, model):
        return self.sensor(sensordata, model, "torso_pos")[..., 0]

    def summarize(self, run):
        st = run.steady
        return dict(S=st.value, V=st.value / self.period, steady=bool(st.steady))
'''


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    root = tmp_path_factory.mktemp("toypkg")
    pkg = root / "toy"
    (pkg / "models" / "toy").mkdir(parents=True)
    (pkg / "models" / "toy" / "toy.xml").write_text(ROBOT_XML)
    (pkg / "models" / "toy" / "scene.xml").write_text(SCENE)
    (pkg / "__init__.py").write_text('"""A toy robot."""\n')
    (pkg / "config.py").write_text(textwrap.dedent(CONFIG))
    (pkg / "robot.py").write_text(textwrap.dedent(ROBOT))
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module("toy.robot").Toy
    finally:
        sys.path.remove(str(root))
        REGISTRY.pop("toy", None)


def test_contract_is_enforced():
    with pytest.raises(TypeError, match="lacks"):
        type("Incomplete", (Robot,), {"name": "incomplete"})
    assert "incomplete" not in REGISTRY


def test_toy_robot_runs_on_every_path(toy, tmp_path):
    assert envs.robot_class("toy") is toy
    run = batch.run_point(dict(omega=6.0), toy, cycles=3)
    assert run.error is None and len(run.cycle_values) == 3
    assert np.isfinite(toy(omega=6.0).summarize(run)["S"])

    rows, stats = sweep.run_sweep(toy, {}, {"omega": [6.0]}, tmp_path, run_kw=dict(cycles=3), progress=False)
    assert stats["computed"] == 1 and (tmp_path / "results.csv").exists()

    env = envs.load("toy", cycles=1, omega=6.0)          # one period
    ts = env.reset()
    while not ts.last():
        ts = env.step(np.zeros(0))
    np.testing.assert_allclose(env.physics.data.qpos[0], run.cycle_values[0], rtol=0, atol=1e-12)

    step = Stepper(toy(omega=6.0))                          # the viewer's and the video's path
    step(step.robot.steps_per_cycle)
    np.testing.assert_allclose(step.data.qpos[0], run.cycle_values[0], rtol=0, atol=1e-12)


def test_toy_robot_video(toy, tmp_path):
    from envs.core.render import render_video

    info = render_video(toy(omega=6.0), tmp_path / "toy.mp4", cycles=0.5, width=160, height=120)
    assert info["frames"] > 2 and info["bytes"] > 1000
