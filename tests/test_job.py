"""The config checked once into a frozen `Job` (envs/core/runs/config.py): every value of every node
(robot values a sweep overrides, booleans, list elements, the robot's option groups hybrid/paper,
malformed overrides, interpolations) gives the one-line error naming the key (issue #23, the
validation classes of #30)."""
from __future__ import annotations

import dataclasses

import pytest

from gaittwin.core.runs import config
from gaittwin.core.model.errors import ConfigError
from tests.util import assert_fails_early, run_script

BOLT = ["robot=bolt", "experiment=bolt_speed_sweep"]
MINIAQ = ["robot=miniaq", "experiment=miniaq_trot"]
HYBRID = ["experiment=crawler_twin_vs_hybrid"]


@pytest.mark.parametrize("overrides, key, why", [
    (["robot.omega=-1"], "robot.omega", "(0, 200]"),
    (["sweep.omega=[2]", "robot.omega=nan"], "robot.omega", "not a number"),     # swept, still checked
    (["sweep.omega=[2]", "robot.omega=inf"], "robot.omega", "(0, 200]"),
    (["sweep.omega=[2]", "robot.omega=-5"], "robot.omega", "(0, 200]"),
    (["experiment=snake_alpha_sweep", "robot.alpha_deg=1e309"], "robot.alpha_deg", "(0, 180)"),
    (["run.stop_when_steady=2"], "run.stop_when_steady", "true or false"),
    (["run.progress=0"], "run.progress", "true or false"),
    (BOLT + ["robot.body_fixed=yes"], "robot.body_fixed", "true or false"),
    (BOLT + ["robot.body_fixed=null"], "robot.body_fixed", "true or false"),
    (HYBRID + ["+hybrid.rtoll=1e-8"], "hybrid.rtoll", "unknown hybrid option"),
    (HYBRID + ["+hybrid.rtol=-1"], "hybrid.rtol", "(0, 1)"),
    (HYBRID + ["+hybrid.rtol=abc"], "hybrid.rtol", "not a number"),
    (HYBRID + ["+hybrid.liftoff=maybe"], "hybrid.liftoff", "['flag', 'stop']"),
    (["+paper.rtol=1e-6"], "paper.rtol", "no paper.* options for crawler"),
    (MINIAQ + ["+paper.foo=1"], "paper.foo", "unknown paper option"),
    (MINIAQ + ["+paper.clip_normal=1"], "paper.clip_normal", "true or false"),
    (MINIAQ + ["robot.phase_deg=[0,a,0,0]"], "robot.phase_deg", "a list of numbers"),
    (["experiment=crawler_robustness", "robot.phase_deg=[0,a,0,0]"], "robot.phase_deg", "unknown"),
    (["sweep.omega=[1,"], "override", "override grammar"),
    (["robot.omega=${oc.env:HOME}"], "robot.omega", "interpolations are not accepted"),
    (["robot.omega=${eval:1+1}"], "robot.omega", "interpolations are not accepted"),
    (["+sweep.psi_deg=[0,${oc.env:HOME}]"], "sweep.psi_deg", "interpolations are not accepted"),
])
def test_every_value_checked_once_one_line(overrides, key, why):
    with pytest.raises(ConfigError) as e:
        config.validate(config.compose(overrides))
    msg = str(e.value)
    assert msg.startswith(f"{key}=") and why in msg and "\n" not in msg, msg


def test_accepted_as_printed_and_typed():
    job = config.validate(config.compose(["run.max_steps=1e15", "sweep.omega=[2]", "robot.omega=3"]))
    assert job.run["max_steps"] == 10**15 and type(job.run["max_steps"]) is int
    assert job.robot["omega"] == 3.0 and job.sweep["omega"] == (2.0,)
    assert "max_steps" in config.schemas()["run"][0].__dataclass_fields__
    job = config.validate(config.compose(HYBRID + ["+hybrid.rtol=1e-6", "+hybrid.liftoff=stop"]))
    assert dict(job.hybrid) == {"rtol": 1e-6, "liftoff": "stop"} and dict(job.paper) == {}
    job = config.validate(config.compose(MINIAQ + ["+paper.clip_normal=true", "+paper.foot_radius=0"]))
    assert dict(job.paper) == {"clip_normal": True, "foot_radius": 0.0}


def test_job_is_frozen_and_checked_once():
    cfg = config.compose(["sweep.omega=[1,2]"])
    job = config.validate(cfg)
    with pytest.raises(dataclasses.FrozenInstanceError):
        job.engine = "hybrid"
    with pytest.raises(TypeError):
        job.run["cycles"] = 3
    assert config.validate(cfg) is job                 # the same config: the same Job, not checked again
    cfg.run.cycles = 3                                  # a changed config is checked again
    assert config.validate(cfg) is not job and config.validate(cfg).run["cycles"] == 3


def test_cli_one_line_exit_2_no_run_dir(tmp_path):
    assert_fails_early(tmp_path, "robot.omega", "sweep.omega=[2]", "robot.omega=-5", "run.cycles=1")
    out = tmp_path / "bad"
    for args in (["sweep.omega=[1,"], ["robot.omega=${oc.env:HOME}"], ["run.stop_when_steady=2"]):
        r = run_script("scripts/run.py", *args, f"hydra.run.dir={out}")
        assert r.returncode == 2 and r.stderr.startswith("error: ") and r.stderr.strip().count("\n") == 0, r.stderr
        assert not out.exists()


def test_cli_accepts_the_printed_bound(tmp_path):
    r = run_script("scripts/run.py", "sweep.omega=[8]", "run.cycles=1", "run.max_steps=1e15", "run.progress=false",
                   f"hydra.run.dir={tmp_path / 'ok'}")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "max_steps: 1000000000000000" in (tmp_path / "ok" / ".hydra" / "config.yaml").read_text()


def test_two_key_sweep_summarised_and_plotted_per_point(tmp_path):
    """'+sweep.psi_deg=[..]' on the frequency sweep: every point keeps its own S (no omega key
    shared by several points) and each psi is its own curve."""
    from gaittwin.core.runs import experiment
    from gaittwin.crawler.paper import plots

    drawn = {}
    orig = plots.s_v
    plots.s_v = lambda curves, omitted, path: drawn.update(curves)
    try:
        res = experiment.compute(config.compose(["sweep.omega=[8,16]", "+sweep.psi_deg=[0,40]", "run.cycles=2", "experiment.overlay=null",
                                                 "run.progress=false"]), tmp_path)
    finally:
        plots.s_v = orig
    S = res.summary["S_by_point"]
    assert len(S) == 4 and "S_by_omega" not in res.summary
    assert set(S) == {f"omega={w},psi_deg={p}" for w in (8, 16) for p in (0, 40)}
    assert sorted(drawn) == ["mujoco, psi_deg=0", "mujoco, psi_deg=40"]
    assert all(len(rows) == 2 for rows in drawn.values())



# ---- experiments are registered callables (issue #23), listed in the manifest ----------------------
def test_every_declared_experiment_has_a_registered_runner():
    """Every experiment schema (configs/experiment/*.yaml names one) resolves to a function listed in its paper
    package's EXPERIMENTS (or core's families in envs/registry.py): by its declared name, or by its options class
    (robustness, identify, ...); each is marked @gaittwin.core.runs.experiment.runner for the experiment it runs."""
    from hydra.core.config_store import ConfigStore
    from omegaconf import OmegaConf

    import gaittwin  # noqa: F401  (installs the manifest: the robots and their runners)
    from gaittwin.core.runs import experiment

    declared = {n[:-5]: OmegaConf.get_type(node.node)
                for n, node in ConfigStore.instance().repo["experiment_schema"].items()}
    assert {"crawler_frequency_sweep", "snake_robustness", "bolt_identify", "fidelity_report"} <= set(declared)
    runners = {n: experiment.runner_of(cls) for n, cls in declared.items()}
    assert all(callable(f) for f in runners.values())
    assert runners["crawler_frequency_sweep"].__qualname__ == "frequency_sweep"
    assert runners["miniaq_turn"].__qualname__ == "turn"               # its name wins over its base class Trot
    assert runners["bolt_robustness"] is runners["snake_robustness"]   # one runner for the family
    assert all(n in f.experiments or any(isinstance(m, type) and issubclass(declared[n], m) for m in f.experiments)
               for n, f in runners.items())                          # each marked for what it runs
    assert config.validate(config.compose(["experiment=miniaq_turn"])).options_cls is declared["miniaq_turn"]


def test_an_experiment_without_a_runner_is_one_line_and_old_style_is_refused():
    from gaittwin.core.runs import experiment

    orphan = dataclasses.make_dataclass("Orphan", [("name", str, dataclasses.field(default="orphan_sweep"))],
                                        bases=(config.Experiment,))
    with pytest.raises(ConfigError, match=r"experiment='orphan_sweep'.*no runner registered"):
        experiment.runner_of(orphan)
    with pytest.raises(TypeError, match=r"@gaittwin.core.runs.experiment.runner\('old_sweep'\)"):
        config.plain_experiment("old_sweep", "gaittwin.crawler.paper.experiments.frequency_sweep")
    with pytest.raises(TypeError, match=r"@experiment\('old_sweep'\)"):
        config.experiment("old_sweep", "gaittwin.crawler.paper.experiments.frequency_sweep")
    from gaittwin.core import registry
    with pytest.raises(TypeError, match="two runners"):
        registry.runners(config.RUNNERS, {"crawler_frequency_sweep": lambda job, out: None})
    with pytest.raises(TypeError, match="is marked @runner for"):
        registry.runners({"crawler_psi_omega_map": config.RUNNERS["crawler_frequency_sweep"]})


def test_compose_inside_a_running_hydra_app():
    """scripts/run.py experiment=fidelity_report composes each claim's experiment while run.py's own Hydra app
    holds the global Hydra (it failed with 'GlobalHydra is already initialized')."""
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    from gaittwin.core.runs.config import CONFIG_DIR, compose
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        cfg = compose(["experiment=crawler_frequency_sweep"])
        assert GlobalHydra.instance().is_initialized()
    assert "sweep" in cfg
