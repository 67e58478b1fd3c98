"""snake_optimize at a tiny budget: the servo-rate constraint is derived from the inputs, so a candidate over it is
rejected without a simulation (mechanism: tests/test_optimize.py)."""
from __future__ import annotations

import math

from gaittwin.core.runs import config
from gaittwin.core.runs.experiment import compute
from gaittwin.snake.paper.optimize import servo_rate_deg_s
from gaittwin.snake.robot import Snake


def test_servo_rate_is_the_peak_commanded_joint_speed():
    # cycloidal timing: a joint moving by delta in T_step peaks at 2 delta / T_step; doubling T_step halves it
    a, b = Snake(T_step=0.5), Snake(T_step=1.0)
    assert math.isclose(servo_rate_deg_s(a), 2 * servo_rate_deg_s(b), rel_tol=1e-3)
    assert servo_rate_deg_s(Snake(alpha_deg=40)) > servo_rate_deg_s(Snake(alpha_deg=20))


def test_snake_optimize_tiny(tmp_path):
    cfg = config.compose(["experiment=snake_optimize", "robot.N=5", "robot.n=4", "run.progress=false",
                          "experiment.variables.T_step=[0.2,0.3]", "experiment.budget=5", "experiment.batch=4",
                          "experiment.sensitivity=0", "experiment.constraints.servo_rate_deg_s.max=700"])
    res = compute(cfg, tmp_path)
    s = res.summary
    hist = res.table("history.csv")
    assert len(hist) == 5 and s["optimum"] is not None
    rejected = [h for h in hist if h["status"].startswith("rejected: constraint servo_rate_deg_s")]
    assert all(h["constraint_servo_rate_deg_s"] > 700 for h in rejected)
    assert s["simulated_points"] == 5 - len(rejected)          # rejected before simulating
    assert s["constraint_margins"]["servo_rate_deg_s"]["margin"] >= 0
