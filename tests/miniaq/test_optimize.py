"""miniaq_optimize at a tiny budget: list elements (phase_deg[i]) as variables, the optimum re-simulated on the
paper's model (mechanism: tests/test_optimize.py)."""
from __future__ import annotations

from gaittwin.core.runs import config
from gaittwin.core.runs.experiment import compute


def test_miniaq_optimize_tiny(tmp_path):
    cfg = config.compose(["experiment=miniaq_optimize", "run.cycles=2", "run.progress=false", "experiment.budget=5",
                          "experiment.batch=4", "experiment.sensitivity=0"])
    res = compute(cfg, tmp_path)
    s = res.summary
    assert set(s["optimum"]) == {"phase_deg[1]", "phase_deg[2]", "phase_deg[3]"}
    hist = res.table("history.csv")
    assert [hist[0][f"phase_deg[{i}]"] for i in (1, 2, 3)] == [180.0, 180.0, 0.0]     # the trot first
    assert s["objective"] >= s["start_objective"]
    ref = s["reference"]
    assert ref["engine"] == "paper" and ("objective" in ref or "error" in ref)
