"""docs/adding_a_robot.md is complete: a two-link toy crawler written from that page alone, in the
files it names (envs/toy/, models/toy/, configs/robot/toy.yaml, configs/experiment/toy_sweep.yaml,
two import lines in envs/__init__.py), in a copy of the project, runs through scripts/run.py (Hydra
composes it) healthy, and one point through the batch runner, the dm_control environment, the one
stepper and the video agree."""
from __future__ import annotations

import json
import shutil
import textwrap

import pytest

from gaittwin.core.model.robot import REGISTRY, Robot
from tests.util import ROOT, run_script

FILES = {
    "models/toy/scene.xml": """
<mujoco model="toy scene">
  <include file="toy.xml"/>
  <option timestep="1e-3" integrator="implicitfast" cone="elliptic"/>
  <default><geom solref="0.005 1"/></default>
  <worldbody><geom name="floor" type="plane" size="0 0 0.05" friction="0.8"/></worldbody>
</mujoco>
""",
    "models/toy/toy.xml": """
<mujoco model="toy">
  <compiler angle="radian" autolimits="true"/>
  <default><geom solref="0.005 1"/></default>
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
""",
    "models/toy/README.md": """
# Toy crawler
| parameter | value | where in the MJCF |
|---|---|---|
| mu | 0.8 | floor friction (scene.xml), set per point by `Toy.spec()` |
Assumption: contact solref 0.005 s (stiff enough that the 0.11 kg toy sinks < 2 mm).
""",
    "envs/toy/__init__.py": '"""toy: robot and experiments."""\n',
    "envs/toy/config.py": '''
"""Toy parameters and experiment options: the one declaration."""
import dataclasses

from gaittwin.core.runs.config import Experiment, experiment
from gaittwin.core.model.schema import param


@dataclasses.dataclass
class Params:
    name: str = "toy"
    omega: float = param(6.0, "rad/s", gt=0, le=100)
    A_deg: float = param(30.0, "deg", ge=0, lt=90)
    mu: float = param(0.8, gt=0, le=5, model=True)
    timestep: float = param(1e-3, "s", gt=0, le=1e-2)


@experiment("toy_sweep")
class Sweep(Experiment):
    """S and V over the grid in configs/experiment/toy_sweep.yaml."""
''',
    "envs/toy/robot.py": '''
"""Toy two-link crawler: a torso on a skid and one swinging leg."""
import math

import mujoco
import numpy as np
from dm_control import mujoco as dm_mujoco

from gaittwin.core.model.robot import MODELS, Robot
from gaittwin.toy import config


class Physics(dm_mujoco.Physics):
    def torso_x(self):
        return float(self.named.data.sensordata["torso_pos"][0])


class Toy(Robot):
    name = "toy"
    Params = config.Params
    physics = Physics
    metrics = ("S", "V", "steady")   # every key summarize() returns: the results columns
    columns = ("omega", "A_deg")

    @property
    def period(self):
        return 2 * math.pi / self.p["omega"]

    def spec(self):
        spec = mujoco.MjSpec.from_file(str(MODELS / "toy" / "scene.xml"))
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
''',
    "envs/toy/experiments.py": '''
"""Toy experiments: runners runner(job, out) -> Result."""
from gaittwin.core.runs import sweep as sw
from gaittwin.core.runs.experiment import Result, runner


@runner("toy_sweep")
def sweep(job, out) -> Result:
    """The job's grid through the one entry to physics (store, health, error); results.csv is the store's."""
    rows, stats = sw.simulate(job, out)
    ok = sw.healthy(rows)              # failed or unhealthy points are left out, and counted
    summary = dict(stats, S_by_omega={f"{r['omega']:g}": r["S"] for r in ok})
    return Result(summary, rows={"results.csv": rows})
''',
    "configs/robot/toy.yaml": "defaults:\n  - toy_schema\n  - _self_\n",
    "configs/experiment/toy_sweep.yaml": """# @package _global_
defaults:
  - /experiment_schema@experiment: toy_sweep
  - override /robot: toy

sweep:
  omega: [4.0, 6.0]

run:
  cycles: 4
  stop_when_steady: false
""",
}
PATHS = """
import json, sys
import numpy as np
import gaittwin
from gaittwin.core.engines import batch
from gaittwin.core.view.render import render_video
from gaittwin.core.model.stepper import Stepper

toy = gaittwin.robot_class("toy")
run = batch.run_point(dict(omega=6.0), toy, cycles=1)
env = gaittwin.load("toy", cycles=1, omega=6.0)          # one period
ts = env.reset()
while not ts.last():
    ts = env.step(np.zeros(0))
step = Stepper(toy(omega=6.0))                       # the viewer's and the video's path
step(step.robot.steps_per_cycle)
video = render_video(toy(omega=6.0), sys.argv[1], cycles=0.5, width=160, height=120)
print(json.dumps(dict(error=run.error, batch=float(run.cycle_values[0]), env=float(env.physics.data.qpos[0]),
                      stepper=float(step.data.qpos[0]), frames=video["frames"], bytes=video["bytes"])))
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A copy of the project with the toy added exactly where docs/adding_a_robot.md says."""
    root = tmp_path_factory.mktemp("project")
    for d in ("envs", "configs", "models", "scripts"):
        shutil.copytree(ROOT / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(text).lstrip())
    init = root / "envs" / "__init__.py"       # "one import line for the robot, one for its experiments"
    text = init.read_text()
    for line, new in (("from gaittwin.miniaq.robot import MiniAQ  # noqa: E402,I001\n",
                       "from gaittwin.toy.robot import Toy  # noqa: E402,I001\n"),
                      ("from gaittwin.miniaq import experiments as _, geometry_map as _  # noqa: E402,F811,I001\n",
                       "from gaittwin.toy import experiments as _  # noqa: E402,F811,I001\n")):
        assert line in text
        text = text.replace(line, line + new)
    init.write_text(text)
    return root


def test_contract_is_enforced():
    with pytest.raises(TypeError, match="lacks"):
        type("Incomplete", (Robot,), {"name": "incomplete"})
    assert "incomplete" not in REGISTRY


def test_toy_runs_through_scripts_run_healthy(project, tmp_path):
    out = tmp_path / "run"
    r = run_script(project / "scripts" / "run.py", "experiment=toy_sweep", "run.progress=false",
                   f"hydra.run.dir={out}", cwd=project)
    assert r.returncode == 0, r.stderr[-3000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["points"] == 2 and summary["failed_points"] == 0 and summary["all_healthy"] is True
    header, *lines = (out / "results.csv").read_text().splitlines()
    cols = header.split(",")
    assert cols[:2] == ["omega", "A_deg"] and {"S", "V", "steady", "max_penetration", "error"} <= set(cols)
    rows = [dict(zip(cols, line.split(","))) for line in lines]
    # the toy's declared metrics, each point healthy: penetration below Robot.max_penetration (2 mm)
    assert [float(x["omega"]) for x in rows] == [4.0, 6.0] and all(x["error"] == "" for x in rows)
    assert all(0 <= float(x["max_penetration"]) < Robot.max_penetration for x in rows)
    assert all(abs(float(x["S"])) > 1e-5 for x in rows)     # a finite, non-zero step (m per period; ~0.1 mm)
    assert summary["S_by_omega"] == {f"{float(x['omega']):g}": float(x["S"]) for x in rows}


def test_toy_every_path_agrees(project, tmp_path):
    (project / "paths.py").write_text(PATHS)
    r = run_script(project / "paths.py", tmp_path / "toy.mp4", cwd=project)
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["error"] is None
    # one period: the batch runner, the dm_control environment and the stepper are the same steps
    assert abs(res["env"] - res["batch"]) <= 1e-12 and abs(res["stepper"] - res["batch"]) <= 1e-12
    assert res["frames"] > 2 and res["bytes"] > 1000
