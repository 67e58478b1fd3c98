"""summary.json names the engine that ran (issue #29: results are never silently wrong).

An experiment that simulates nothing through the batch engine (Experiment.warp: snake_table1,
crawler_slip_pattern) falls back under engine=warp/auto like an unsupported robot (engine: mujoco,
engine_requested, engine_fallback); an output computed by a single run outside sweep.run_rows (a
C-engine time series, a trajectory, a fit's candidates under engine=auto) is named in engine_split."""
from __future__ import annotations

import importlib.util
import json

import pytest

from gaittwin.core.runs import config, experiment
from gaittwin.core.runs import sweep as sw
from gaittwin.core.analysis.identify_problem import fit_engine, ran_by

WARP = importlib.util.find_spec("mujoco_warp") is not None
needs_warp = pytest.mark.skipif(not WARP, reason="mujoco_warp not installed")


@pytest.mark.parametrize("engine", ["warp", "auto"])
def test_an_experiment_outside_the_batch_engine_says_it_ran_on_c(tmp_path, engine):
    """snake_table1 (closed form) under engine=warp/auto: summary.json says engine mujoco, the engine
    asked for and why (no warp needed: the fallback is decided before the extra is looked for)."""
    experiment.compute(config.compose(["robot=snake", "experiment=snake_table1", "sweep.n=[2,3]",
                                       f"engine={engine}"]), tmp_path)
    s = json.loads((tmp_path / "summary.json").read_text())
    assert (s["engine"], s["engine_requested"]) == ("mujoco", engine)
    assert "simulates nothing" in s["engine_fallback"]
    v = config.validate(config.compose(["experiment=crawler_slip_pattern", f"engine={engine}"]))
    assert (v["engine"], v["engine_requested"]) == ("mujoco", engine) and "C-engine" in v["engine_fallback"]


def test_a_fits_candidate_is_filed_under_the_one_engine_that_ran_it():
    """engine=auto: a fit's engine files rows under mujoco or warp with the fit's own settings; a
    candidate whose runs the split put on both engines is refused, never filed under one of them."""
    base = sw.batch_engine(dict(engine="auto", cycles=1))
    e = fit_engine(base, None, dict(data="sha", fit="identify 1"))
    assert [p.name for p in e.parts] == ["mujoco", "warp"] and e.name == "auto"
    assert all(p.settings["data"] == "sha" and p.settings["fit"] == "identify 1" for p in e.parts)
    assert ran_by(e, ["warp", "warp"]) == ("warp",)
    with pytest.raises(RuntimeError, match="split one candidate"):
        ran_by(e, ["mujoco", "warp"])
    plain = fit_engine(sw.batch_engine(dict(cycles=1)), None, dict(data="sha"))
    assert plain.parts == () and ran_by(plain, ["mujoco", "warp"]) == ()


def test_a_runner_s_single_runs_record_the_engine_that_ran_them(tmp_path):
    """sweep.run_points, a runner's one path to physics outside the store, records each point's engine as a
    point of the file it names (engine_split reads it); no run directory (out None): nothing recorded."""
    from gaittwin.core.runs import rundir
    from gaittwin.crawler.robot import Crawler
    runs = sw.run_points([Crawler(omega=8.0), Crawler(omega=9.0)], tmp_path, "timeseries.csv", ["omega"],
                         kw=dict(cycles=1, min_cycles=1))
    assert [r.engine for r in runs] == ["mujoco", "mujoco"]
    assert rundir.engine_split(tmp_path) == {"timeseries.csv": {"mujoco": {"points": 2, "keys": [{"omega": 8.0},
                                                                                                {"omega": 9.0}]}}}
    run = sw.run_point(Crawler(omega=8.0), None, None, (), kw=dict(cycles=1, min_cycles=1))
    assert run.engine == "mujoco" and rundir.engine_split(tmp_path)["timeseries.csv"]["mujoco"]["points"] == 2


FREQ = ["experiment=crawler_frequency_sweep", "sweep.omega=[100.0]", "robot.omega=100", "run.cycles=1",
        "run.device=cpu", "run.progress=false"]
ON_C = {"mujoco": {"points": 1, "keys": [{"omega": 100.0}]}}


@needs_warp
def test_the_c_engine_time_series_of_an_auto_sweep_is_named(tmp_path):
    """CI: crawler_frequency_sweep under engine=auto on Warp's CPU device (the split gives the point to
    the C engine): engine_split names results.csv's point and timeseries.csv's, each on the C engine."""
    experiment.compute(config.compose(FREQ + ["engine=auto"]), tmp_path)
    s = json.loads((tmp_path / "summary.json").read_text())
    split = s["engine_split"]
    assert s["engine"] == "auto" and list(split) == ["results.csv", "timeseries.csv"]
    assert split["timeseries.csv"] == ON_C and list(split["results.csv"]) == ["mujoco"]
    assert [k["omega"] for k in split["results.csv"]["mujoco"]["keys"]] == [100.0]


@needs_warp
@pytest.mark.slow
def test_the_c_engine_time_series_of_a_warp_sweep_is_named(tmp_path):
    """crawler_frequency_sweep on warp (Warp's CPU device, one point of 1 cycle; ~40 s, mostly Warp's
    start-up): results.csv is warp's, and engine_split says timeseries.csv ran on the C engine."""
    experiment.compute(config.compose(FREQ + ["engine=warp"]), tmp_path)
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["engine"] == "warp" and s["engine_split"] == {"timeseries.csv": ON_C}


@needs_warp
def test_a_trajectory_under_auto_names_the_engine_that_ran_it(tmp_path):
    """crawler_trajectory under engine=auto: engine_split names the engine of its one run (the one its
    sidecar names; on Warp's CPU device the split gives it to the C engine)."""
    experiment.compute(config.compose(["experiment=crawler_trajectory", "robot.omega=16", "experiment.cycles=1",
                                       "experiment.time_offset=0", "run.device=cpu", "run.progress=false",
                                       "engine=auto"]), tmp_path)
    s = json.loads((tmp_path / "summary.json").read_text())
    ran = json.loads((tmp_path / "trajectory.json").read_text())["engine"]
    assert s["engine"] == "auto" and list(s["engine_split"]) == ["trajectory.csv"]
    assert list(s["engine_split"]["trajectory.csv"]) == [ran]


@needs_warp
def test_a_fit_under_auto_files_each_candidate_under_its_engine(tmp_path):
    """crawler_identify under engine=auto (Warp's CPU device: the split gives every candidate to the C
    engine), from a trajectory and from a per-cycle table: engine_split names candidates.csv's points and
    the fitted twin's run, each on the C engine (the table fit's candidates were a TypeError before)."""
    from gaittwin.core.analysis import cycle_table
    fit = ["experiment=crawler_identify", "robot.omega=16", "experiment.params=[mu]", "experiment.n_global=2",
           "experiment.max_nfev=1", "experiment.starts=1", "run.progress=false", "run.device=cpu", "engine=auto"]
    (tmp_path / "data").mkdir()
    experiment.compute(config.compose(["experiment=crawler_trajectory", "robot.omega=16", "experiment.cycles=1",
                                       "experiment.time_offset=0", "run.progress=false"]), tmp_path / "data")
    cycle_table.write(tmp_path / "table.csv", "crawler", {"omega": [16.0, 20.0], "S": [0.01, 0.01]},
                      {"omega": "rad/s", "S": "m"}, source="test: engine names")
    for name, data, table in (("traj", tmp_path / "data" / "trajectory.csv", "fitted_trajectory.csv"),
                              ("table", tmp_path / "table.csv", None)):
        (tmp_path / name).mkdir()
        experiment.compute(config.compose(fit + [f"experiment.data={data}", "run.cycles=1"]), tmp_path / name)
        s = json.loads((tmp_path / name / "summary.json").read_text())
        split = s["engine_split"]
        assert s["engine"] == "auto" and list(split["candidates.csv"]) == ["mujoco"], split
        assert split["candidates.csv"]["mujoco"]["points"] >= 2
        if table:
            assert list(split[table]) == ["mujoco"]


@needs_warp
def test_a_wrapped_batch_engine_takes_auto_s_engine_name(tmp_path):
    """miniaq_geometry_map wraps the batch engine's `add` (it keeps a few values): under engine=auto the
    engine's name comes as a keyword the wrapper passes on (it was a 4th positional: a TypeError)."""
    experiment.compute(config.compose(["robot=miniaq", "experiment=miniaq_geometry_map", "engine=auto",
                                       "experiment.l1=[0.018]", "experiment.theta1_deg=[130]", "run.cycles=2",
                                       "run.progress=false"]), tmp_path)
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["engine"] == "auto" and s["engine_split"]["results.csv"]["mujoco"]["points"] == 1, s


@needs_warp
@pytest.mark.parametrize("name", ["miniaq_trot", "miniaq_turn"])
def test_a_miniaq_single_run_under_auto_has_every_experiments_shape(tmp_path, name):
    """miniaq_trot / miniaq_turn under engine=auto (Warp's CPU device, 0.3 s of gait, ~3 s): summary.json says
    engine auto and engine_split names the engine that ran timeseries.csv's one point, as bolt_running and
    <robot>_trajectory do (they wrote the engine that ran as `engine`, and nothing said auto was asked for);
    under engine=mujoco the engine is named and there is no split."""
    base = ["robot=miniaq", f"experiment={name}", "experiment.duration=0.3", "run.device=cpu", "run.progress=false"]
    for d in ("auto", "c"):
        (tmp_path / d).mkdir()
    experiment.compute(config.compose(base + ["engine=auto"]), tmp_path / "auto")
    s = json.loads((tmp_path / "auto" / "summary.json").read_text())
    split = s["engine_split"]
    assert s["engine"] == "auto" and "engine_requested" not in s and list(split) == ["timeseries.csv"], s
    (ran, got), = split["timeseries.csv"].items()
    assert ran in ("mujoco", "warp") and got == {"points": 1, "keys": [{"gait": "trot", "f": 2.5}]}, split
    experiment.compute(config.compose(base + ["engine=mujoco"]), tmp_path / "c")
    s = json.loads((tmp_path / "c" / "summary.json").read_text())
    assert s["engine"] == "mujoco" and "engine_split" not in s


def test_the_engine_label_precedence_is_set_in_one_place():
    """engine_label: under warp a runner's own engine label wins, engine_split only when non-empty; under
    auto the label is "auto" over a runner's own, with engine_split always."""
    from gaittwin.core.runs.experiment import engine_label
    assert engine_label({"engine": "mujoco+paper"}, "warp", {}) == {"engine": "mujoco+paper"}
    assert engine_label({}, "warp", {"a.csv": 1}) == {"engine": "warp", "engine_split": {"a.csv": 1}}
    assert engine_label({"engine": "warp", "x": 1}, "auto", {}) == {"engine": "auto", "x": 1, "engine_split": {}}
