"""Issue #24: the paper model's Coulomb foot (sliding impact, sliding stance) and bolt_twin_vs_paper
(the twin beside the paper model).  CI: seconds each; the sweep against the target is `slow`."""
import csv
import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from envs.bolt.paper import Model
from envs.bolt.paper_run import SLIDE, impact
from envs.bolt.robot import Bolt
from envs.bolt.kinematics import loop_kinematics

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _model(q1=-1.0, mu=1.0):
    r = Bolt(crank_period=0.3, bumper_height=None, mu=mu)
    m = Model(r)
    k = loop_kinematics(np.array([q1]), r.geometry)
    Q = np.array([0.0, 0.5] + [float(k[f"q{i}"][0]) for i in range(1, 6)])
    return m, Q


def test_sliding_impact_lies_on_the_friction_cone_and_stops_the_foot_vertically():
    """mu = 0.05 against a no-slip impulse with |F_T| / F_N > mu: the impulse lies on the cone (rel 1e-9),
    the foot's normal velocity is zero after (1e-12 m/s), it keeps sliding, and energy is lost."""
    m, Q = _model()
    sd = np.array([0.8, -1.2, -21.0])
    _, lam0, *_ = impact(m, Q, sd, 1e-3)                  # the no-slip impulse, for reference
    mu = 0.05
    assert abs(lam0.real) > mu * lam0.imag > 0            # the pin needs more than the cone gives
    sd1, lam, ke0, ke1, vf = impact(m, Q, sd, 1e-3, mu=mu)
    np.testing.assert_allclose(abs(lam.real), mu * lam.imag, rtol=1e-9)
    assert np.sign(lam.real) == np.sign(lam0.real)
    assert abs(vf[1]) < 1e-12 and abs(vf[0]) > 1e-3
    assert np.sign(vf[0]) == -np.sign(lam.real)           # friction opposes the slip
    assert ke1 < ke0
    # inside the cone (mu = 5) the Coulomb impact is the no-slip one
    sd5, lam5, *_ = impact(m, Q, sd, 1e-3, mu=5.0)
    np.testing.assert_allclose([lam5.real, lam5.imag], [lam0.real, lam0.imag], rtol=1e-12)


@pytest.mark.parametrize("direction", [1.0, -1.0])
def test_sliding_stance_friction_is_mu_times_normal_force_against_the_slip(direction):
    """Model.slide_accel: the ground force from Newton's law of the whole leg has F_T = -mu dir F_N
    (rel 1e-9): the friction solved from the affine F_N(F_T) is consistent with the accelerations."""
    m, Q = _model(q1=-4.0, mu=0.7)
    Q[1] = 0.45
    F0 = m.point(Q, np.zeros(7), "F")[0]
    sd = np.array([0.5 * direction, -20.0])
    v, sdd, a, f, den = m.slide_accel(Q, sd, SLIDE, F0, 1e-3, 5.0, direction, 0.7)
    assert den > 0
    F = m.external_force(Q, v, a, 0.0)
    np.testing.assert_allclose(F.real, -0.7 * direction * F.imag, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(f[0], F.real, rtol=1e-9)   # d foot_x / d x_b = 1: f[0] is F_T itself


def test_twin_vs_paper_experiment_writes_both_engines(tmp_path):
    """One crank period, one revolution: results.csv has twin and paper columns side by side, the summary
    states its tolerances (0.1, 0.05) and the plot is drawn (~15 s)."""
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_twin_vs_paper", "sweep.crank_period=[0.2]",
                        "run.cycles=1", f"hydra.run.dir={out}"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    s = json.loads((out / "summary.json").read_text())
    assert s["engine"] == "mujoco+paper" and s["speed_tolerance"] == 0.1 and s["duty_tolerance"] == 0.05
    assert s["paper_options"]["foot"] == "coulomb"
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert len(rows) == 1 and float(rows[0]["crank_period"]) == 0.2
    assert float(rows[0]["speed_twin"]) == float(rows[0]["speed_twin"])    # a number, not NaN
    assert float(rows[0]["speed_paper"]) == float(rows[0]["speed_paper"])
    assert (out / "twin_vs_paper.png").stat().st_size > 10_000


@pytest.mark.parametrize("args", [["robot.bumper_height=0.4"], ["engine=paper"], ["experiment.speed_tolerance=0"],
                                  ["+paper.foot=slippery"], ["sweep.crank_period=[0.3,-1]"]])
def test_twin_vs_paper_bad_input_exit_2_nothing_written(tmp_path, args):
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_twin_vs_paper", *args,
                        f"hydra.run.dir={out}"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert not out.exists()
