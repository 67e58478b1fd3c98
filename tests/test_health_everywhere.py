"""Every experiment's rows carry the same health and `error` columns as a sweep's, and an allowed
point that yields no result is flagged, never stored as an empty row (issue #30, class 1)."""
from __future__ import annotations

import math

from gaittwin.core.runs import config, experiment, sweep


def _run(tmp_path, *overrides):
    return experiment.compute(config.compose(list(overrides)), tmp_path)


def test_feedback_rows_are_health_checked(tmp_path):
    # the same point fails with mjWARN_BADQACC in a sweep; here it must not report S = 0 unflagged
    res = _run(tmp_path, "experiment=crawler_feedback", "experiment.cycles=3", "robot.kp=1000000",
               "robot.timestep=1e-3")
    rows = res.table("results.csv")
    assert {"max_penetration", "error"} <= set(rows[0])
    assert all(r["error"] for r in rows) and all(r["S"] is None for r in rows)
    assert res.summary["all_healthy"] is False and res.summary["S_open"] is None
    assert "error" in (tmp_path / "results.csv").read_text().splitlines()[0]


def test_all_failed_sweep_is_not_all_steady(tmp_path):
    res = _run(tmp_path, "sweep.omega=[8]", "run.cycles=2", "robot.kp=1000000", "robot.timestep=1e-3",
               "run.progress=false")
    assert res.summary["failed_points"] == 1 and res.summary["all_steady"] is False
    assert res.summary["all_healthy"] is False


def test_empty_result_is_flagged_not_stored_silently(tmp_path):
    res = _run(tmp_path, "robot=miniaq", "experiment=miniaq_gait_sweep", "sweep.gait=[trot]", "sweep.f=[2.5]",
               "run.cycles=1", "run.progress=false")
    (row,) = res.table("results.csv")
    assert row["error"] == sweep.EMPTY and row["speed"] is None
    assert res.summary["all_healthy"] is False


def test_has_result():
    assert not sweep._has_result({"S": None, "V": math.nan, "cycles": 1}, ["S", "V"])
    assert sweep._has_result({"S": 0.0, "V": math.nan}, ["S", "V"])
    assert sweep._has_result({}, [])
