"""crawler_optimize at a tiny budget (the mechanism: tests/test_optimize.py): the default (psi*(omega): one variable,
the batched zoom) with the files a researcher reads and the optimum re-simulated on the exact hybrid model; the
two-variable override (CMA-ES over psi and phi0) with the S_mu band of Sec. VI."""
from __future__ import annotations

import json

from gaittwin.core.runs import config
from gaittwin.core.runs.experiment import compute

FAST = ["robot.omega=16", "run.cycles=2", "run.stop_when_steady=false", "run.progress=false", "run.nthread=2",
        "experiment.budget=5", "experiment.batch=4"]


def test_crawler_optimize_default_psi_star(tmp_path):
    res = compute(config.compose(["experiment=crawler_optimize", *FAST, "experiment.sensitivity=2"]), tmp_path)
    s = json.loads((tmp_path / "summary.json").read_text())
    for f in ("history.csv", "convergence.png", "sensitivity.csv", "sensitivity.png", "candidates.csv"):
        assert (tmp_path / f).exists(), f
    assert s["method_run"] == "zoom" and set(s["optimum"]) == {"psi_deg"} and s["variables"] == {"psi_deg": [0.0, 150.0]}
    hist = res.table("history.csv")
    zoom = [h for h in hist if h["stage"] != "sensitivity"]
    assert [h["psi_deg"] for h in zoom] == [0.0, 50.0, 100.0, 150.0]      # one round of 4 over the box
    assert s["objective"] == max(h["objective"] for h in zoom if h["feasible"])      # the best candidate
    assert s["evaluations"] == len(hist) == 4 + len(res.table("sensitivity.csv"))
    assert s["sensitivity_found_better"] == ("warning" in s)
    ref = s["reference"]
    assert ref["engine"] == "hybrid" and abs(ref["difference"] - (s["objective"] - ref["objective"])) < 1e-12


def test_crawler_optimize_two_variables_s_mu_band(tmp_path):
    cfg = config.compose(["experiment=crawler_optimize", *FAST, "+experiment.variables.phi0_deg=[85,150]",
                          "experiment.sensitivity=0", "experiment.reference=false", "experiment.objective=S",
                          "+experiment.robust={set: ratio, eps: 0.1, aggregate: mid}"])
    s = compute(cfg, tmp_path).summary
    assert s["method_run"] == "cmaes" and set(s["optimum"]) == {"psi_deg", "phi0_deg"}
    assert s["evaluations"] == 1 + 4 and s["start"] == {"psi_deg": 20.0, "phi0_deg": 110.0}
    assert s["objective"] >= s["start_objective"]            # the start is a candidate: never worse
    v = s["band_values"]
    assert len(v) == 3 and abs(s["objective"] - (min(v) + max(v)) / 2) < 1e-12
    assert len(s["band"]) == 3 and {"mu1", "mu2"} == set(s["band"][0])
