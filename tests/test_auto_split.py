"""engine=auto's split rule (envs/core/engines/auto_split.py) and, on Warp's CPU device, a split run that
equals the pure runs point by point (skips without the extra .[gpu])."""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from gaittwin.core.engines.auto_split import split


def test_split_gives_the_long_points_to_the_c_threads_where_that_shortens_the_wall_time():
    """Stated estimates, checked by hand: 1 point of 100k steps and 100 of 1k; warp at 1e6
    world-steps/s and 1 ms a batch step (the long point alone holds warp 100 s), the C runner
    1e4 steps/s: the long point to C (10 s) and the rest on warp (max(1 s, 0.1 s)) = 10 s."""
    steps = [1000] * 50 + [100_000] + [1000] * 50
    c, w, est = split(steps, 1, "cuda", rates=(1e6, 1e-3, 1e4))
    assert c == [50] and len(w) == 100 and est["est_cpu_s"] == pytest.approx(10.0)
    assert est["est_warp_s"] == pytest.approx(1.0)
    # a C runner 100 x slower: the long point stays on warp (100 s there against 1000 s on C)
    c, w, est = split(steps, 1, "cuda", rates=(1e6, 1e-3, 1e2))
    assert c == [] and len(w) == 101 and est["est_warp_s"] == pytest.approx(100.0)
    # equal step counts are never cut between the engines; a fast C runner takes everything
    c, w, _ = split([500] * 4, 1, "cuda", rates=(1e6, 1e-3, 1e9))
    assert (c, w) == ([0, 1, 2, 3], [])
    c, w, _ = split([500] * 4, 1, "cuda", rates=(1e9, 1e-9, 1e2))
    assert (c, w) == ([], [0, 1, 2, 3])


@pytest.mark.skipif(importlib.util.find_spec("mujoco_warp") is None, reason="mujoco_warp not installed")
def test_an_auto_run_is_the_pure_runs_point_by_point():
    """Three crawler points, rates that send the omega 8 point (4000 steps) to the C threads and the
    two omega 16 points (2000 steps) to warp: each run says its engine and its samples equal, bit for
    bit, the same point's run on that engine alone (the C runner; warp with the same two worlds)."""
    from gaittwin.core.engines import batch
    from gaittwin.crawler.robot import Crawler
    pts = [dict(omega=16.0, mu=0.172), dict(omega=16.0, mu=0.398), dict(omega=8.0, mu=0.172)]
    kw = dict(cycles=1, stop_when_steady=False, chunk=1000, nthread=1)
    auto = batch.run_points(pts, Crawler, engine="auto", device="cpu", auto_rates=(1e9, 1e-3, 2000.0), **kw)
    assert [r.engine for r in auto] == ["warp", "warp", "mujoco"]
    c = batch.run_point(pts[2], Crawler, **kw)
    np.testing.assert_array_equal(auto[2].sensordata, c.sensordata)
    w = batch.run_points(pts[:2], Crawler, engine="warp", device="cpu", **kw)
    for a, b in zip(auto[:2], w):
        np.testing.assert_array_equal(a.sensordata, b.sensordata)


def test_engine_auto_is_a_config_choice_checked_like_warp(monkeypatch):
    """engine=auto validates (with the extra), is named in the refusal of an unknown engine, falls back
    to the C engine with the reason where MuJoCo Warp cannot run the robot (engine_requested: auto),
    and is refused with run.launcher=ray (it splits the points in this process)."""
    from gaittwin.bolt.robot import Bolt
    from gaittwin.core.runs import config
    from gaittwin.core.runs import sweep as sw
    from gaittwin.core.model.errors import ConfigError
    from gaittwin.core.model.robot import Robot
    with pytest.raises(ConfigError, match=r"'warp', 'auto'"):
        config.validate(config.compose(["robot=crawler", "engine=gpu"]))
    if importlib.util.find_spec("mujoco_warp") is not None:
        v = config.validate(config.compose(["robot=crawler", "engine=auto"]))
        assert v["engine"] == "auto" and not v["engine_fallback"]
    monkeypatch.setattr(Bolt, "device_feedback", Robot.device_feedback)
    monkeypatch.setattr(config, "_JOBS", {})
    v = config.validate(config.compose(["robot=bolt", "experiment=bolt_speed_sweep", "engine=auto"]))
    assert (v["engine"], v["engine_requested"]) == ("mujoco", "auto") and "closed_loop" in v["engine_fallback"]
    with pytest.raises(ConfigError, match="run.launcher"):
        sw.batch_engine(dict(engine="auto", cycles=1), launcher="ray")


@pytest.mark.skipif(importlib.util.find_spec("mujoco_warp") is None, reason="mujoco_warp not installed")
def test_engine_auto_files_each_row_under_the_engine_that_ran_it(tmp_path, monkeypatch):
    """A configured engine=auto run (rates that send omega 8's 4000 steps to the C runner and omega 16's
    2000 to warp): summary.json says engine auto and which point each engine ran; the store keeps each
    row under that engine (its identity names it, warp's with its device), so a rerun with engine=auto
    reuses both and one with engine=mujoco reuses only the C engine's row."""
    import json

    from gaittwin.core.engines import auto_split
    from gaittwin.core.runs import config, experiment
    from gaittwin.core.runs import store as st
    monkeypatch.setitem(auto_split.RATES, "cpu", (1e9, 1e-3, 2000.0))
    args = ["experiment=crawler_frequency_sweep", "sweep.omega=[16.0,8.0]", "run.cycles=1", "run.nthread=1",
            "run.device=cpu", "run.progress=false", "run.chunk=1000"]
    run = experiment.compute(config.compose(args + ["engine=auto"]), tmp_path)
    s = json.loads((tmp_path / "summary.json").read_text())
    split = s["engine_split"]["results.csv"]
    assert s["engine"] == "auto" and s["computed"] == 2
    assert {e: [k["omega"] for k in v["keys"]] for e, v in split.items()} == {"mujoco": [8.0], "warp": [16.0]}
    assert [r["omega"] for r in run.table("results.csv")] == [16.0, 8.0]
    with st.Store(tmp_path) as db:
        idents = [json.loads(r.ident) for r in db.rows("results.csv").values()]
    by = {d["params"]["omega"]: (d["engine"]["name"], d["versions"].get("device")) for d in idents}
    assert by == {8.0: ("mujoco", None), 16.0: ("warp", "cpu")}
    again = experiment.compute(config.compose(args + ["engine=auto"]), tmp_path)
    assert (again.summary["reused"], again.summary["computed"]) == (2, 0)
    assert again.summary["engine_split"]["results.csv"] == split       # reused rows: the engine that stored them
    c = experiment.compute(config.compose(args + ["engine=mujoco"]), tmp_path)
    assert (c.summary["reused"], c.summary["computed"]) == (1, 1) and "engine_split" not in c.summary
    assert c.summary["recomputed"] == {"run settings changed": 1}
    assert [x for x in c.table("results.csv") if x["omega"] == 8.0] == \
        [x for x in run.table("results.csv") if x["omega"] == 8.0]


@pytest.mark.skipif(importlib.util.find_spec("mujoco_warp") is None, reason="mujoco_warp not installed")
def test_engine_auto_runs_the_crawlers_own_runners(tmp_path):
    """The crawler runners that pick their twin by engine take auto: crawler_feedback's two runs go
    through the split (on Warp's CPU device the measured rates give both to the C runner, the law
    in Python) and summary.json names the engine of each; crawler_twin_vs_hybrid runs the twin
    through the split and compares it with the hybrid model."""
    import json

    from gaittwin.core.runs import config, experiment
    for d in ("fb", "tw"):
        (tmp_path / d).mkdir()
    fb = experiment.compute(config.compose(["experiment=crawler_feedback", "engine=auto", "experiment.cycles=3",
                                            "run.device=cpu", "run.progress=false"]), tmp_path / "fb")
    s = json.loads((tmp_path / "fb" / "summary.json").read_text())
    assert s["engine"] == "auto" and s["engine_split"] == {"results.csv": {"mujoco": dict(
        points=2, keys=[{"control": "open"}, {"control": "feedback"}])}}
    assert s["S_feedback"] > s["S_open"] + 0.01 and s["S_open"] == fb.summary["S_open"]    # eq. 19 at omega 8
    tw = experiment.compute(config.compose(["experiment=crawler_twin_vs_hybrid", "engine=auto", "sweep.omega=[16]",
                                            "run.cycles=2", "run.device=cpu", "run.progress=false"]), tmp_path / "tw")
    assert tw.summary["engine"] == "auto" and list(tw.summary["engine_split"]["results_mujoco.csv"]) == ["mujoco"]
