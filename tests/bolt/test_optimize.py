"""bolt_optimize at a tiny budget (mechanism: tests/test_optimize.py), and the Sec. 3 design quantities derived from
the closed-form kinematics (eq. 4 with the Table 2 path as the designed one: zero trajectory term at Table 2)."""
from __future__ import annotations

import math

from gaittwin.bolt.paper import optimize as bo
from gaittwin.bolt.robot import Bolt
from gaittwin.core.runs import config
from gaittwin.core.runs.experiment import compute


def test_eq4_at_table2_is_the_attack_angle_alone():
    r = Bolt()
    assert math.isclose(bo.eq4(r), math.radians(bo.attack(r)), rel_tol=1e-9, abs_tol=1e-12)
    assert bo.eq4(Bolt(l_1=0.022)) > bo.eq4(r) - math.radians(bo.attack(r)) + math.radians(bo.attack(Bolt(l_1=0.022))) - 1e-12
    assert math.isclose(bo.l_leg(r), 0.21 + 0.303)


def test_bolt_design_search_simulates_nothing(tmp_path):
    cfg = config.compose(["experiment=bolt_optimize", "experiment.objective=eq4", "experiment.sense=min", "run.progress=false",
                          "~experiment.variables.crank_period", "+experiment.variables.l_1=[0.015,0.025]",
                          "+experiment.variables.l_c=[0.075,0.12]", "experiment.budget=9",
                          "experiment.sensitivity=0", "experiment.reference=false", *[f"~experiment.constraints.{c}" for c in ("peak_torque_flight", "peak_power_stance", "max_tracking_error_deg")],
                          "+experiment.constraints.l_leg={min: 0.45, max: 0.5}"])
    s = compute(cfg, tmp_path).summary
    assert s["simulated_points"] == 0 and s["plan"]["simulations"] == 0
    assert s["objective"] <= s["start_objective"]


def test_bolt_optimize_tiny(tmp_path):
    cfg = config.compose(["experiment=bolt_optimize", "run.cycles=4", "run.progress=false", "experiment.budget=4",
                          "experiment.variables.crank_period=[0.28,0.32]", "experiment.sensitivity=0",
                          "experiment.reference=false"])
    res = compute(cfg, tmp_path)
    s = res.summary
    assert s["method_run"] == "zoom" and len(res.table("history.csv")) == 4
    assert set(s["constraint_margins"]) == {"peak_torque_flight", "peak_power_stance", "max_tracking_error_deg"}
    assert "max_loop_gap" in s["health_margins"]
