"""docs/adding_a_robot.md is complete: a two-link toy crawler written from that page alone, in the
files it names (envs/toy/{__init__,config,robot}.py, envs/toy/paper/{__init__,experiments}.py,
models/toy/, configs/robot/toy.yaml, configs/experiment/toy/toy_sweep.yaml, the manifest's lines in
envs/registry.py, tests/toy/), in a copy of the project made importable as `gaittwin` (the copy's
gaittwin/ a link to its envs/, PYTHONPATH=<copy>: it wins over the editable install), passes its own
tests, runs through scripts/run.py (Hydra composes it) healthy, and one point through the batch runner,
the dm_control environment, the one stepper and the video agree."""
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
    "envs/toy/__init__.py": '''
"""toy: a two-link crawler."""
from .robot import Toy

ROBOT = Toy        # the Robot subclass this package provides (envs/registry.py lists it)

__all__ = ["ROBOT", "Toy"]
''',
    "envs/toy/config.py": '''
"""Toy parameters and experiment options: the one declaration."""
import dataclasses

from ..core.runs.config import Experiment, experiment
from ..core.model.schema import param


@dataclasses.dataclass
class Params:
    name: str = "toy"
    omega: float = param(6.0, "rad/s", gt=0, le=100)
    A_deg: float = param(30.0, "deg", ge=0, lt=90)
    mu: float = param(0.8, gt=0, le=5, model=True)
    timestep: float = param(1e-3, "s", gt=0, le=1e-2)


@experiment("toy_sweep")
class Sweep(Experiment):
    """S and V over the grid in configs/experiment/toy/toy_sweep.yaml."""
''',
    "envs/toy/robot.py": '''
"""Toy two-link crawler: a torso on a skid and one swinging leg."""
import math

import mujoco
import numpy as np
from dm_control import mujoco as dm_mujoco

from ..core.model.robot import MODELS, Robot
from . import config


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
        return 2 * math.pi / self.p.omega

    def spec(self):
        spec = mujoco.MjSpec.from_file(str(MODELS / "toy" / "scene.xml"))
        spec.geom("floor").friction[0] = self.p.mu
        return spec

    def controls(self, t):
        return (self.p.A * np.sin(self.p.omega * np.asarray(t, float)))[:, None]

    def initial_pose(self, model, data):
        data.qpos[:] = 0.0
        data.qpos[1] = -0.006          # leg tip and skid just touch the floor

    def progress(self, sensordata, model):
        return self.sensor(sensordata, model, "torso_pos")[..., 0]

    def summarize(self, run):
        st = run.steady
        return dict(S=st.value, V=st.value / self.period, steady=bool(st.steady))
''',
    "envs/toy/paper/__init__.py": '''
"""The toy's experiments."""
from . import experiments

EXPERIMENTS = {"toy_sweep": experiments.sweep}      # experiment name -> runner(job, out)
''',
    "envs/toy/paper/experiments.py": '''
"""Toy experiments: runners runner(job, out) -> Result."""
from ...core.runs import sweep as sw
from ...core.runs.experiment import Result, runner


@runner("toy_sweep")
def sweep(job, out) -> Result:
    """The job's grid through the one entry to physics (store, health, error); results.csv is the store's."""
    rows, stats = sw.simulate(job, out)
    ok = sw.healthy(rows)              # failed or unhealthy points are left out, and counted
    summary = dict(stats, S_by_omega={f"{r['omega']:g}": r["S"] for r in ok})
    return Result(summary, rows={"results.csv": rows})
''',
    "configs/robot/toy.yaml": "defaults:\n  - toy_schema\n  - _self_\n",
    "configs/experiment/toy/toy_sweep.yaml": """# @package _global_
defaults:
  - /experiment_schema@experiment: toy_sweep
  - override /robot: toy

sweep:
  omega: [4.0, 6.0]

run:
  cycles: 4
  stop_when_steady: false
""",
    "tests/toy/__init__.py": "",
    "tests/toy/test_toy.py": '''
import gaittwin
from gaittwin.core.runs import config, experiment


def test_the_toy_is_a_robot_of_the_manifest():
    assert list(gaittwin.ROBOTS)[-1] == "toy" and gaittwin.robot_class("toy").name == "toy"


def test_toy_sweep_runs_healthy(tmp_path):
    res = experiment.compute(config.compose(["experiment=toy_sweep", "sweep.omega=[6.0]", "run.cycles=2",
                                             "run.progress=false"]), tmp_path)
    assert res.summary["failed_points"] == 0 and (tmp_path / "results.csv").exists()
''',
}
# the manifest's lines (docs/adding_a_robot.md): the toy's two packages imported, its entry last in ROBOTS
MANIFEST = (("from . import bolt, crawler, miniaq, snake\n", "from . import bolt, crawler, miniaq, snake, toy\n"),
            ("from .snake import paper as snake_paper\n",
             "from .snake import paper as snake_paper\nfrom .toy import paper as toy_paper\n"),
            ("    entry(miniaq, miniaq_paper),\n", "    entry(miniaq, miniaq_paper),\n    entry(toy, toy_paper),\n"))
PATHS = """
import json, sys
import numpy as np
import gaittwin
from gaittwin.core.engines import batch
from gaittwin.core.view.render import render_video
from gaittwin.core.model.stepper import Stepper

print(gaittwin.__file__, file=sys.stderr)
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
                      stepper=float(step.data.qpos[0]), frames=video["frames"], bytes=video["bytes"],
                      package=gaittwin.__file__)))
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A copy of the project with the toy added exactly where docs/adding_a_robot.md says, importable as
    `gaittwin` with PYTHONPATH=<copy> (`importable`)."""
    root = tmp_path_factory.mktemp("project")
    for d in ("envs", "configs", "models", "scripts"):
        shutil.copytree(ROOT / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(text).lstrip())
    manifest = root / "envs" / "registry.py"
    text = manifest.read_text()
    for line, new in MANIFEST:
        assert text.count(line) == 1, line
        text = text.replace(line, new)
    manifest.write_text(text)
    # the package as installed (setup.py: envs/ is gaittwin, configs/ its gaittwin.configs, which Hydra
    # imports): links, so that the copy's own package and data are the ones imported
    (root / "gaittwin").symlink_to("envs", target_is_directory=True)
    (root / "envs" / "configs").symlink_to("../configs", target_is_directory=True)
    return root


def importable(project) -> dict:
    """The environment of a subprocess that imports the copy as `gaittwin` (PYTHONPATH precedes the
    editable install's finder, which would find the checkout's)."""
    return {"PYTHONPATH": str(project)}


def test_contract_is_enforced():
    with pytest.raises(TypeError, match="lacks"):
        type("Incomplete", (Robot,), {"name": "incomplete"})
    assert "incomplete" not in REGISTRY


def test_toy_passes_its_own_tests(project):
    """tests/toy/ as the page writes it, run in the copy: the toy is the manifest's last robot, and its
    experiment runs."""
    r = run_script("-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "tests/toy", cwd=project,
                   env=importable(project))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "2 passed" in r.stdout


def test_toy_runs_through_scripts_run_healthy(project, tmp_path):
    out = tmp_path / "run"
    r = run_script(project / "scripts" / "run.py", "experiment=toy_sweep", "run.progress=false",
                   f"hydra.run.dir={out}", cwd=project, env=importable(project))
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
    r = run_script(project / "paths.py", tmp_path / "toy.mp4", cwd=project, env=importable(project))
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["package"] == str(project / "gaittwin" / "__init__.py")     # the copy, not the checkout
    assert res["error"] is None
    # one period: the batch runner, the dm_control environment and the stepper are the same steps
    assert abs(res["env"] - res["batch"]) <= 1e-12 and abs(res["stepper"] - res["batch"]) <= 1e-12
    assert res["frames"] > 2 and res["bytes"] > 1000
