"""The declared schemas: YAML only overrides them, ranges have explicit ends, and every kind of
bad input (a range, a type, an unknown key, at any level) gives the one-line error, exit 2."""
from __future__ import annotations

import dataclasses
import math
from typing import List, Optional

import pytest
import yaml

import gaittwin
from gaittwin.core.runs import config
from gaittwin.core.model import schema
from gaittwin.core.model.errors import ConfigError
from gaittwin.core.model.paths import CONFIGS
from gaittwin.core.model.schema import param
from tests.util import run_script


@pytest.mark.parametrize("name", sorted(gaittwin.ROBOTS))
def test_robot_yaml_only_overrides_the_schema(name):
    """configs/robot/<name>.yaml sets nothing but its config groups' presets (BOLT: its foot, configs/robot/foot/)."""
    cls = gaittwin.robot_class(name)
    r = config.robot_point(config.compose([f"robot={name}"]))
    expected = dict(cls.defaults)
    for entry in yaml.safe_load((CONFIGS / "robot" / f"{name}.yaml").read_text()).get("defaults", []):
        if isinstance(entry, dict):
            for group, option in entry.items():
                expected.update({k: v for k, v in (yaml.safe_load(
                    (CONFIGS / "robot" / group / f"{option}.yaml").read_text()) or {}).items() if k != "defaults"})
    assert type(r) is cls and r.cfg == expected
    assert cls.model_keys and set(cls.model_keys) <= set(cls.defaults)


@pytest.mark.parametrize("exp", config.options("experiment"))
def test_every_experiment_composes_and_validates(exp):
    v = config.validate(config.compose([f"experiment={exp}"]))
    assert v["experiment"]["name"] == exp
    assert dataclasses.is_dataclass(config.schema_of_experiment(config.compose([f"experiment={exp}"])))


@dataclasses.dataclass
class _Toy:
    a: float = param(1.0, "m", gt=0, le=2)
    b: int = param(3, ge=1, lt=10)
    c: Optional[float] = param(None, ge=-1, le=1)
    d: str = param("x", choices=("x", "y"))
    e: List[float] = param([1.0, 2.0])
    f: bool = param(False)


def test_bounds_are_explicitly_open_or_closed():
    fs = schema.fields(_Toy)
    assert fs["a"].allowed == "(0, 2] m" and fs["b"].allowed == "[1, 10)"
    assert fs["c"].allowed == "[-1, 1], or null"
    assert schema.check(_Toy, dict(a=2, b=9, c=None, d="y", e=[0, 1], f=True)) == dict(
        a=2.0, b=9, c=None, d="y", e=[0.0, 1.0], f=True)
    for bad in (dict(a=0), dict(a=2.0001), dict(b=10), dict(b=2.5), dict(a="5"), dict(a=True), dict(a=None),
                dict(a=math.nan), dict(a=math.inf), dict(d="z"), dict(e=[1, "x"]), dict(f=1), dict(g=1)):
        with pytest.raises(ConfigError) as e:
            schema.check(_Toy, bad)
        assert str(e.value).startswith(f"{next(iter(bad))}=")


def test_inclusive_upper_bounds_are_accepted_as_stated():
    # the old text-parsed ranges rejected these although the message allowed them
    gaittwin.Crawler(alpha=1.0, contact_dampratio=100.0)
    with pytest.raises(ConfigError, match=r"alpha=1.01 .*\[-1, 1\]"):
        gaittwin.Crawler(alpha=1.01)


@pytest.mark.parametrize("override, key", [
    ("robot.omega=abc", "robot.omega"), ("robot.omega=true", "robot.omega"), ("robot.foo=1", "robot.foo"),
    ("run.cycles=abc", "run.cycles"), ("run.cycles=-1", "run.cycles"), ("run.cycles=0", "run.cycles"),
    ("run.cycles=2.5", "run.cycles"), ("run.bogus=1", "run.bogus"), ("experiment.overlay=3", "experiment.overlay"),
    ("experiment.bogus=1", "experiment.bogus"), ("experiment=nope", "experiment"),
    ("sweep.omega=[true]", "sweep.omega"), ("+sweep.foo=[1]", "sweep.foo"), ("sweep.omega=[]", "sweep.omega"),
    ("experiment.name=../..", "experiment.name"), ("engine=nope", "engine"), ("robot.omega=null", "robot.omega"),
])
def test_bad_config_one_line_error(override, key):
    with pytest.raises(ConfigError) as e:
        config.validate(config.compose([override]))
    assert str(e.value).startswith(f"{key}=")


def test_cli_type_error_exit_2_no_run_dir(tmp_path):
    r = run_script("scripts/run.py", f"hydra.run.dir={tmp_path / 'run'}", "robot.omega=abc")
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and r.stderr.startswith("error: robot.omega=")
    assert not (tmp_path / "run").exists()
    r = run_script("scripts/run.py", "-m", f"hydra.sweep.dir={tmp_path / 'multi'}", "robot.psi_deg=0,abc")
    assert r.returncode == 2 and r.stderr.startswith("error: robot.psi_deg=")
    assert not (tmp_path / "multi").exists()


def test_a_swept_robot_point_is_checked_as_a_point_first(tmp_path):
    """robot.* is also run as one point (timeseries.csv, after the sweep): its cross-parameter checks
    (the snake's alpha_max(n)) stop the run before the sweep, not after it (once: 72 s of sweep, then exit 2)."""
    with pytest.raises(ConfigError, match=r"^alpha_deg=95\.0 .*\(0, 74\.56\) deg for n=4"):
        config.validate(config.compose(["experiment=snake_table2", "robot.alpha_deg=95"]))
    r = run_script("scripts/run.py", "experiment=snake_table2", "robot.alpha_deg=95",
                   f"hydra.run.dir={tmp_path / 'run'}", "run.progress=false")
    assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("error: alpha_deg=95.0 ")
    assert r.stderr.strip().count("\n") == 0 and not (tmp_path / "run").exists()


def test_an_unknown_sweep_key_says_how_to_add_one():
    with pytest.raises(ConfigError, match=r"^sweep\.psi_deg=.*one of \['omega'\], or a new key added with '\+': "
                                          r"\+sweep\.psi_deg=\[0,20\] \(unknown key in sweep\)$"):
        config.compose(["sweep.psi_deg=[0,20]"])


def test_another_robots_experiment_is_refused_before_anything_runs(tmp_path):
    """experiment=bolt_running robot=crawler ran the crawler in BOLT's runner, then crashed (KeyError, exit 1, its
    run directory left); robot=bolt alone was refused for sweep.omega.  Now one line naming the experiment's robot."""
    assert {e: config.experiment_robot(e) for e in ("bolt_running", "crawler_identify", "fidelity_report")} == dict(
        bolt_running="bolt", crawler_identify="crawler", fidelity_report=None)
    for overrides, own in ((["experiment=bolt_running", "robot=crawler"], "bolt"), (["robot=bolt"], "crawler"),
                           (["experiment=snake_identify", "robot=miniaq"], "snake")):
        with pytest.raises(ConfigError, match=rf"^robot='\w+' .* {own}, the robot of experiment=\w+ \(another"):
            config.validate(config.compose(overrides))
    r = run_script("scripts/run.py", "experiment=bolt_running", "robot=crawler", f"hydra.run.dir={tmp_path / 'run'}")
    assert r.returncode == 2 and r.stderr.startswith("error: robot='crawler' ") and r.stderr.count("\n") == 1
    assert not (tmp_path / "run").exists()
