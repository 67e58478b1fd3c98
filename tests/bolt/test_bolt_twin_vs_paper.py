"""Issue #24: the paper model's Coulomb foot (sliding impact, sliding stance) and bolt_twin_vs_paper
(the twin beside the paper model).  CI: seconds each; the sweep against the target is `slow`."""
import csv
import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from gaittwin.bolt.paper.model import Model
from gaittwin.bolt.paper.run import SLIDE, impact
from gaittwin.bolt.robot import Bolt
from gaittwin.bolt.kinematics import loop_kinematics
from tests.util import run_script

ROOT = pathlib.Path(__file__).resolve().parents[2]


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


def test_sliding_impact_where_the_pin_would_pull():
    """A touch-down whose no-slip impulse pulls (F_N < 0: outside the cone, the 0.4 and 0.5 s failures of
    README "Paper model: the missed touch-down") gets the Coulomb sliding impulse: F_N > 0, on the cone (rel
    1e-9), the normal foot velocity zero after (1e-12 m/s), the foot slipping against the friction, energy lost."""
    m, Q = _model()
    sd = np.array([-0.3, -0.05, 0.0])
    _, lam0, *_ = impact(m, Q, sd, 1e-3)
    assert lam0.imag < 0                                  # the pin would pull
    _, lam, ke0, ke1, vf = impact(m, Q, sd, 1e-3, mu=1.0)
    assert lam.imag > 0
    np.testing.assert_allclose(abs(lam.real), lam.imag, rtol=1e-9)
    assert abs(vf[1]) < 1e-12 and abs(vf[0]) > 1e-3
    assert np.sign(vf[0]) == -np.sign(lam.real)
    assert ke1 < ke0


def test_paper_model_runs_at_0_5_s_on_the_bumper():
    """Crank period 0.5 s with the bumper ended as a Zeno error (grazing re-touches at 0.1205 s, the no-slip
    impulse pulling, the foot kept in the air while it accelerated into the ground).  Now: no error, no grazing
    re-touch there, the second touch-down slides with F_N > 0, and no sample below the ground (1e-6 m).  One
    revolution, ~10 s."""
    from gaittwin.bolt.paper.run import simulate
    run = simulate(Bolt(crank_period=0.5), 1)
    assert run.error is None and not [g for g in run.grazes if g["t"] < 0.2]
    td = [d for d in run.touchdowns if 0.12 < d["t"] < 0.121]
    assert len(td) == 1 and td[0]["slid"] and td[0]["impulse"].imag > 0
    assert np.nanmin(run.samples["foot_y"]) > -1e-6


@pytest.mark.slow
def test_paper_model_runs_at_0_4_s_on_the_bumper():
    """Crank period 0.4 s with the bumper ended as "1 mm through the ground" at 0.6165 s (the touch-down event
    restarted at its own root after a grazing re-touch and never saw the crossing).  Two revolutions, ~15 s:
    no error, no sample below the ground or the bumper (1e-6 m)."""
    from gaittwin.bolt.paper.run import simulate
    r = Bolt(crank_period=0.4)
    run = simulate(r, 2)
    assert run.error is None
    assert np.nanmin(run.samples["foot_y"]) > -1e-6 and np.nanmin(run.samples["y"]) > r.p.bumper_height - 1e-6


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


def test_a_twin_off_the_one_touchdown_gait_fails_the_target_where_the_paper_model_runs_it():
    """Compared wherever the paper model runs one touch-down per revolution; there the twin must run it too (a twin
    at 1.33 td/rev, a failed twin, or a health-flagged twin whose metrics are within, is compared and not within),
    tolerances 0.1 / 0.05 given first."""
    from gaittwin.bolt.paper.twin_vs_paper import compare
    pa = dict(touchdowns_per_revolution=1.0, speed=1.0, duty_factor=0.1)
    tw = dict(touchdowns_per_revolution=1.0, speed=1.05, duty_factor=0.12)
    assert compare(tw, pa, 0.1, 0.05)["within_target"]
    for twin in (dict(tw, touchdowns_per_revolution=4 / 3), {}):
        c = compare(twin, pa, 0.1, 0.05)
        assert c["compared"] and not c["within_target"]
    c = compare(tw, dict(pa, touchdowns_per_revolution=1 / 3), 0.1, 0.05)
    assert not c["compared"] and not c["within_target"]
    assert not compare(tw, {}, 0.1, 0.05)["compared"]                         # the paper model failed
    c = compare(tw, pa, 0.1, 0.05, "max_penetration 2.1 mm over the limit 1 mm")   # health-flagged, metrics kept
    assert c["compared"] and not c["within_target"]


@pytest.mark.parametrize("args", [["robot.spring_stiffness=65000"], ["engine=paper"], ["experiment.speed_tolerance=0"],
                                  ["+paper.foot=slippery"], ["+paper.den_min=0"]])
def test_twin_vs_paper_bad_input_exit_2_nothing_written(tmp_path, args):
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_twin_vs_paper", *args,
                        f"hydra.run.dir={out}"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert not out.exists()


def test_paper_model_without_bumper_lands_on_the_swing_arc_and_goes_backwards():
    """The measured cause of the backward hop (README "Why the paper model hops backwards"): at crank
    period 0.3 s the pinned foot leaves the stance arc early and the second touch-down is on the swing arc
    (q_1 in 30-150 deg, the arc 150 -> 0 deg that moves the foot forwards in {B}); the body then moves
    backwards (x falls by more than 5 cm during that stance).  One revolution, ~10 s."""
    from gaittwin.bolt.paper.run import simulate
    run = simulate(Bolt(crank_period=0.3, bumper_height=None), 1, foot="pinned")
    assert run.error is None and len(run.touchdowns) >= 2
    t, S = run.t, run.samples
    t_td = run.touchdowns[1]["t"]
    q1 = np.degrees(np.interp(t_td, t, S["q_1"])) % 360
    assert 30 < q1 < 150
    t_lo = min(lo for lo in run.liftoffs if lo > t_td)
    assert np.interp(t_lo, t, S["x"]) - np.interp(t_td, t, S["x"]) < -0.05


def test_paper_model_on_the_bumper_lands_where_the_twin_lands():
    """With the Sec. 6.1 bumper (0.40 m, the twin's default) the paper model's body never goes below it
    (1e-9 m) and the foot lands on the stance arc where the twin's does: q_1 within 5 deg of the twin's first
    landing (309-310 deg at 0.3 s).  One revolution each, ~15 s."""
    from gaittwin.bolt.paper.run import simulate
    from gaittwin.core.engines import batch
    r = Bolt(crank_period=0.3)
    run = simulate(r, 1)
    assert run.error is None and run.touchdowns
    assert np.nanmin(run.samples["y"]) >= r.p.bumper_height - 1e-9
    q_paper = np.degrees(np.interp(run.touchdowns[0]["t"], run.t, run.samples["q_1"])) % 360
    tw = batch.run_point(r, Bolt, cycles=1, nthread=1)
    touch = tw.sensor("foot_touch")[:, 0] > 0
    i = int(np.argmax(touch))
    assert touch[i]
    q_twin = np.degrees(tw.sensor("q_1")[i, 0]) % 360
    assert abs(q_paper - q_twin) < 5.0, (q_paper, q_twin)


def test_twin_runs_forwards_at_slow_crank_only_on_the_bumper():
    """The twin at 0.6 s: no forward running without the Sec. 6.1 bumper (|speed| < 0.15 m/s, no
    touch-down after a quarter revolution of flight), forwards with it (> 0.4 m/s, one touch-down per
    revolution).  6 revolutions each, ~5 s."""
    from gaittwin.core.engines import batch
    out = {}
    for bumper in (None, 0.40):
        r = Bolt(crank_period=0.6, bumper_height=bumper)
        out[bumper] = r.summarize(batch.run_point(r, Bolt, cycles=6, nthread=1))
    assert abs(out[None]["speed"]) < 0.15 and out[None]["touchdowns_per_revolution"] == 0
    assert out[0.40]["speed"] > 0.4 and out[0.40]["touchdowns_per_revolution"] == 1


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="issue #24 target not met (models/bolt/README.md 'Twin vs paper model'); "
                                       "strict: passing means the README must be updated")
def test_twin_within_target_of_paper_model_sweep(tmp_path):
    """Issue #24 target, tolerances stated first: speed within 10 %, duty within 0.05 wherever both run one
    touch-down per revolution, at 0.3, 0.25 and 0.2 s with the bumper (6 revolutions, ~4 min; measured: -20 %,
    -17 %, -7.5 %)."""
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_twin_vs_paper",
                        "sweep.crank_period=[0.3,0.25,0.2]", f"hydra.run.dir={out}"], cwd=ROOT, capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    s = json.loads((out / "summary.json").read_text())
    assert s["speed_tolerance"] == 0.1 and s["duty_tolerance"] == 0.05
    assert s["compared_crank_periods"] == [0.3, 0.25, 0.2] and s["target_met"]


REFERENCE = ROOT / "models" / "bolt" / "paper_reference.csv"
REFERENCE_CHECK_PERIOD = 0.2      # s: the committed row a fresh run reproduces in CI (the cheapest to run)


def test_committed_paper_reference_matches_a_fresh_run(tmp_path):
    """models/bolt/paper_reference.csv (the contact study's reference) is the paper model's output: it covers the
    bolt_twin_vs_paper sweep at its defaults, and gaittwin.bolt.paper.studies.bolt_paper_reference reproduces its 0.2 s row.
    Tolerances stated first: speed and stance impulse within 1e-4 relative, duty factor within 1e-4, touch-downs
    per revolution exact (the same code on another machine: solver round-off only).  6 revolutions, ~15 s."""
    tol_rel, tol_duty = 1e-4, 1e-4
    from gaittwin.bolt.paper import model as paper
    rows = {float(r["crank_period"]): r for r in csv.DictReader(REFERENCE.open())}
    assert sorted(rows) == [0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6]
    opts = paper.check_options({})
    for r in rows.values():              # the defaults of bolt_twin_vs_paper and of the paper engine
        assert float(r["bumper_height"]) == Bolt().p.bumper_height and int(r["cycles"]) == 6
        assert r["foot"] == opts["foot"] and r["method"] == opts["method"] and float(r["rtol"]) == opts["rtol"]
        assert float(r["epsilon"]) == opts["epsilon"] and float(r["atol"]) == opts["atol"]
        assert float(r["den_min"]) == opts["den_min"]
    out = tmp_path / "ref.csv"
    res = run_script("-m", "gaittwin.bolt.paper.studies.bolt_paper_reference", "--periods", REFERENCE_CHECK_PERIOD,
                     "--out", out)
    assert res.returncode == 0, res.stderr[-2000:]
    (fresh,) = list(csv.DictReader(out.open()))
    ref = rows[REFERENCE_CHECK_PERIOD]
    assert ref["error"] == fresh["error"] == ""
    assert float(fresh["touchdowns_per_revolution"]) == float(ref["touchdowns_per_revolution"])
    for k in ("speed", "stance_impulse"):
        np.testing.assert_allclose(float(fresh[k]), float(ref[k]), rtol=tol_rel, err_msg=k)
    assert abs(float(fresh["duty_factor"]) - float(ref["duty_factor"])) <= tol_duty
