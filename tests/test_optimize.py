"""The optimiser (envs/core/analysis/optimize.py) on problems with an analytic optimum: the physics replaced by
closed-form metrics of the candidate (sweep.simulate patched), so that a search that stops short, a constraint
ignored or a wrong sense fails here.  Bad input: one ConfigError, nothing simulated."""
from __future__ import annotations

import math

import numpy as np
import pytest

from gaittwin.core.analysis import optimize as opt
from gaittwin.core.model.errors import ConfigError
from gaittwin.core.runs import config, sweep as sw

HOOKS = opt.Hooks(speed="V")


def _fake(metrics):
    """sweep.simulate replaced: each point's row from metrics(cfg) (no store, no physics)."""
    def simulate(job, out, points=None, **kw):
        rows = [dict(p, **metrics(p), error="", max_penetration=0.0) for p in points]
        return rows, dict(computed=len(rows), reused=0)
    return simulate


def _job(*over):
    return config.compose(["experiment=crawler_optimize", "+experiment.variables.phi0_deg=[85.0,150.0]",
                           "run.progress=false", "experiment.sensitivity=3",
                           "experiment.reference=false", *over])


def test_cmaes_finds_the_interior_optimum(monkeypatch, tmp_path):
    # V = -((psi - 40)^2 + (phi0 - 120)^2): the optimum (40, 120) lies inside the box, away from the start (20, 110)
    monkeypatch.setattr(sw, "simulate", _fake(lambda p: dict(V=-((p["psi_deg"] - 40) ** 2 + (p["phi0_deg"] - 120) ** 2))))
    res = opt.run(config.validate(_job("experiment.budget=121", "experiment.batch=8")), tmp_path, HOOKS)
    o = res.summary["optimum"]
    assert abs(o["psi_deg"] - 40) < 0.5 and abs(o["phi0_deg"] - 120) < 0.5, o
    assert not res.summary["sensitivity_found_better"]
    hist = res.table("history.csv")
    assert hist[0]["psi_deg"] == 20.0 and hist[0]["phi0_deg"] == 110.0       # the start is evaluated first


def test_minimise_sense_and_weighted(monkeypatch, tmp_path):
    # cost_of_transport = (psi - 100)^2 + 1 is minimised at psi = 100 (a maximiser would run to a corner)
    monkeypatch.setattr(sw, "simulate", _fake(lambda p: dict(cost_of_transport=(p["psi_deg"] - 100) ** 2 / 100 + 1,
                                                            V=p["psi_deg"], S=-(p["phi0_deg"] - 130) ** 2)))
    res = opt.run(config.validate(_job("experiment.objective=cost_of_transport", "experiment.budget=49",
                                       "experiment.batch=8")), tmp_path / "a", HOOKS)
    assert abs(res.summary["optimum"]["psi_deg"] - 100) < 1.0 and res.summary["sense"] == "min"
    # weighted: S (peak at phi0 = 130) + 0 x V
    res = opt.run(config.validate(_job("experiment.objective=weighted", "+experiment.weights.S=1.0",
                                       "experiment.budget=49", "experiment.batch=8")), tmp_path / "b", HOOKS)
    assert abs(res.summary["optimum"]["phi0_deg"] - 130) < 1.0


@pytest.mark.parametrize("mode", ["reject", "penalty"])
def test_constrained_optimum_on_the_boundary(monkeypatch, tmp_path, mode):
    # max V = psi + phi0 subject to S = psi + phi0 <= 200: every point of the line is optimal, V* = 200; without the
    # constraint the optimum is the corner (150, 150), V = 300
    monkeypatch.setattr(sw, "simulate", _fake(lambda p: dict(V=p["psi_deg"] + p["phi0_deg"],
                                                            S=p["psi_deg"] + p["phi0_deg"])))
    res = opt.run(config.validate(_job("experiment.budget=65", "experiment.batch=8", "+experiment.constraints.S.max=200",
                                       f"experiment.constraint_mode={mode}", "experiment.penalty=1000")),
                  tmp_path, HOOKS)
    s = res.summary
    assert s["optimum_feasible"] and 197.0 <= s["objective"] <= 200.0 + 1e-9, s["objective"]
    assert 0 <= s["constraint_margins"]["S"]["margin"] < 3.0


def test_one_variable_zoom(monkeypatch, tmp_path):
    # one variable: cmaes cannot run, the batched zoom finds psi* = 63.3 of V = -(psi - 63.3)^2 to within 0.1 deg
    monkeypatch.setattr(sw, "simulate", _fake(lambda p: dict(V=-(p["psi_deg"] - 63.3) ** 2)))
    res = opt.run(config.validate(_job("~experiment.variables.phi0_deg", "experiment.budget=48",
                                       "experiment.batch=8")), tmp_path, HOOKS)
    assert res.summary["method_run"] == "zoom"
    assert abs(res.summary["optimum"]["psi_deg"] - 63.3) < 0.1


def test_robust_band_worst_and_mid(monkeypatch, tmp_path):
    # V = -(psi - 50 mu / 0.172)^2 over a band mu x (1 + 0.1 k): worst case is best where the band's spread is
    # balanced, psi = 50 (analytic: the band's middle); mid likewise; each candidate runs 3 band points
    seen = []

    def metrics(p):
        seen.append(p["mu"])
        return dict(V=-(p["psi_deg"] - 50 * p["mu"] / 0.172) ** 2)
    monkeypatch.setattr(sw, "simulate", _fake(metrics))
    res = opt.run(config.validate(_job("~experiment.variables.phi0_deg", "experiment.budget=48",
                                       "experiment.batch=8", "+experiment.robust={param: mu, eps: 0.1}")),
                  tmp_path, HOOKS)
    assert abs(res.summary["optimum"]["psi_deg"] - 50) < 0.2
    assert len(res.summary["band_values"]) == 3 and len(set(np.round(seen, 9))) == 3
    assert math.isclose(res.summary["objective"], min(res.summary["band_values"]))


def test_seeded_search_repeats(monkeypatch, tmp_path):
    monkeypatch.setattr(sw, "simulate", _fake(lambda p: dict(V=math.sin(p["psi_deg"] / 20) * math.cos(p["phi0_deg"] / 15))))
    a = opt.run(config.validate(_job("experiment.budget=13")), tmp_path / "a", HOOKS).summary["optimum"]
    b = opt.run(config.validate(_job("experiment.budget=13")), tmp_path / "b", HOOKS).summary["optimum"]
    c = opt.run(config.validate(_job("experiment.budget=13", "experiment.seed=1")), tmp_path / "c", HOOKS).summary["optimum"]
    assert a == b and a != c


@pytest.mark.parametrize("over, key", [
    (["+experiment.variables.nope=null"], "experiment.variables.nope"),
    (["experiment.variables.psi_deg=[10,5]"], "experiment.variables.psi_deg"),
    (["experiment.variables.psi_deg=[0,400]"], "experiment.variables.psi_deg"),
    (["experiment.objective=fastest"], "experiment.objective"),
    (["+experiment.constraints.nope.max=1"], "experiment.constraints.nope"),
    (["+experiment.robust.aggregate=best"], "experiment.robust.aggregate"),
    (["+experiment.robust={param: psi_deg}"], "experiment.robust.param"),
    (["+experiment.robust={set: nope}"], "experiment.robust.set"),
])
def test_bad_input_refused_before_simulating(monkeypatch, tmp_path, over, key):
    def never(*a, **k):
        raise AssertionError("simulated")
    monkeypatch.setattr(sw, "simulate", never)
    with pytest.raises(ConfigError) as e:
        opt.run(config.validate(_job(*over)), tmp_path, HOOKS)
    assert key in str(e.value)
