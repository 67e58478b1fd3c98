"""Issue #24, fourth pass: the twin's foot impact against the paper's plastic impact map (eq. 18-19) at the
paper model's touch-down state (gaittwin.bolt.paper.studies.bolt_foot_restitution; models/bolt/README.md "Foot impact test"),
and `foot_contact=plastic`.  CI: about a second each; the sweep against the target is `slow`."""
import json
import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from gaittwin.bolt.paper.studies import bolt_foot_restitution as study
from gaittwin.bolt.robot import Bolt
from gaittwin.core.model.errors import ConfigError

ROOT = pathlib.Path(__file__).resolve().parents[2]

PLASTIC = dict(params=dict(foot_contact="plastic"))


def test_touchdown_state_is_assembled_with_the_foot_on_the_ground():
    """The state the test starts from: loops closed (1e-9 m), the foot sphere touching the ground (1e-9 m), the
    body on the bumper at 0.3 s (1e-4 m: the paper model's touch-down from the bumper), falling foot."""
    from gaittwin.bolt.paper.model import Model
    r = Bolt(crank_period=0.3)
    Q, sd, v = study.state(r, study.TOUCHDOWNS[0.3])
    m = Model(r)
    Psi, *_ = m.constraints(Q, v)
    assert np.abs(Psi).max() < 1e-9
    assert abs(m.point(Q, v, "F")[0].imag - r.p.foot_radius) < 1e-9
    assert abs(Q[1] - r.p.bumper_height) < 1e-4
    assert study.plastic_map(r, Q, sd)["v_foot"][1] < -0.5


def test_default_contact_is_not_plastic():
    """Motor off (the map's premise), 0.3 s: the default (1 ms, 1) foot gives back a fifth of the impact's normal
    velocity or more and leaves the ground inside the paper model's 24 ms stance (measured e_n 0.29, off at
    6.6 ms), and takes less than 80 % of the map's normal impulse by the end of the compression (measured 72 %)."""
    w = study.drop(0.3, 1e-4, study.CANDIDATES["default (1 ms, 1)"], "off")
    assert w["e_n"] > 0.2 and w["separates"] is not None and w["separates"] < 0.024
    assert w["J"][1] < 0.8 * w["J_map"][1]
    assert not study.passes([w])


@pytest.mark.parametrize("period", [0.3, 0.2])
def test_plastic_contact_reproduces_the_impact_map(period):
    """foot_contact=plastic with loops of 0.05 ms, time step 2.5e-5 s, motor off: the criterion stated in the
    README before the runs -- e_n < 0.05, no separation in the paper's stance, normal impulse within 10 % of
    the map (measured within 0.4 %), and here also the tangential impulse within 5 % (measured 2.2-2.5 %)."""
    w = study.drop(period, 2.5e-5, PLASTIC, "off", loop_timeconst=5e-5)
    assert study.passes([w]), w
    assert abs(w["J"][0] - w["J_map"][0]) <= 0.05 * abs(w["J_map"][0])


def test_plastic_contact_with_the_default_loops_is_refused():
    """The plastic foot rebounds through loop closures softer than 0.05 ms (README): refused, naming the
    parameter; so is a foot spring (the paper's foot is rigid)."""
    with pytest.raises(ConfigError, match="loop_timeconst"):
        Bolt(foot_contact="plastic")
    with pytest.raises(ConfigError, match="pad_stiffness"):
        Bolt(foot_contact="plastic", loop_timeconst=5e-5, timestep=2.5e-5, pad_stiffness=2.3e5)
    m = Bolt(foot_contact="plastic", loop_timeconst=5e-5, timestep=2.5e-5).model()
    np.testing.assert_allclose(m.geom_solref[m.geom("foot").id], [0.0, -5000.0])


def test_plastic_contact_refuses_a_coarse_step_and_an_ineffective_contact_timeconst():
    """With plastic loops stiff enough, a step over loop_timeconst/2 is the timestep's fault (the error names it
    and a range that can be met); contact_timeconst off its default is refused where no bumper uses it."""
    with pytest.raises(ConfigError, match=r"^timestep=5e-05 .*\(0, loop_timeconst/2\] s with foot_contact=plastic"):
        Bolt(foot_contact="plastic", loop_timeconst=5e-5, timestep=5e-5)
    plastic = dict(foot_contact="plastic", loop_timeconst=5e-5, timestep=2.5e-5, contact_timeconst=2e-3)
    for no_bumper in (dict(bumper_height=None), dict(body_fixed=True)):
        with pytest.raises(ConfigError, match="^contact_timeconst=0.002 .*no bumper"):
            Bolt(**plastic, **no_bumper)
    Bolt(**plastic)                                       # the bumper (default 0.4 m) uses it
    Bolt(contact_timeconst=2e-3, bumper_height=None)      # the soft foot uses it


def test_plastic_contact_bad_input_exit_2_nothing_written(tmp_path):
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_running", "robot/foot=soft",
                        "robot.foot_contact=plastic", f"hydra.run.dir={out}"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "timestep" in p.stderr
    assert not out.exists()


def test_foot_group_sets_the_plastic_numerics_together():
    """robot/foot=plastic (configs/robot/foot/) sets the foot and the loops and step it needs in one choice; the
    default foot (coulomb_implicit: loops 0.05 ms, step 12.5 us, Euler) and robot/foot=soft (loops 0.2 ms, step 0.1 ms,
    implicitfast) too."""
    from gaittwin.core.runs import config
    default = config.compose(["experiment=bolt_running"]).robot
    soft = config.compose(["experiment=bolt_running", "robot/foot=soft"]).robot
    plastic = config.compose(["experiment=bolt_running", "robot/foot=plastic"]).robot
    assert (default.foot_contact, default.foot_friction, default.loop_timeconst, default.timestep,
            default.integrator) == ("coulomb", "implicit", 5e-5, 1.25e-5, "euler")
    assert (soft.foot_contact, soft.foot_friction, soft.loop_timeconst, soft.timestep, soft.integrator) == (
        "soft", "regularised", 2e-4, 1e-4, "implicitfast")
    assert (plastic.foot_contact, plastic.loop_timeconst, plastic.timestep) == ("plastic", 5e-5, 2.5e-5)
    Bolt(**{k: plastic[k] for k in ("foot_contact", "loop_timeconst", "timestep")})   # a consistent combination


def test_foot_group_with_an_inconsistent_step_exit_2_nothing_written(tmp_path):
    """robot/foot=plastic with a step coarser than half its loops' time constant: one line naming the parameter,
    exit 2, no run directory."""
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_twin_vs_paper", "robot/foot=plastic",
                        "robot.timestep=5e-5", f"hydra.run.dir={out}"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "timestep" in p.stderr
    assert not out.exists()


def test_plastic_twin_within_target_of_paper_model_short(tmp_path):
    """Issue #24 target, CI version, tolerances stated first: speed within 10 %, duty within 0.05, one touch-down
    per revolution in both.  robot/foot=plastic against the paper model at 0.6 s, 3 revolutions (metrics over the
    last 2; ~20 s; measured +3.9 %, +0.0005; the default soft foot misses it there: +16.7 % at 6 revolutions)."""
    from gaittwin.core.runs import config, experiment
    res = experiment.compute(config.compose(["experiment=bolt_twin_vs_paper", "robot/foot=plastic",
                                             "sweep.crank_period=[0.6]", "run.cycles=3", "run.progress=false"]), tmp_path)
    assert res.summary["speed_tolerance"] == 0.1 and res.summary["duty_tolerance"] == 0.05
    (row,) = res.table("results.csv")
    assert row["touchdowns_per_revolution_twin"] == row["touchdowns_per_revolution_paper"] == 1.0
    assert abs(row["speed_twin"] - row["speed_paper"]) <= 0.10 * abs(row["speed_paper"]), row
    assert abs(row["duty_factor_twin"] - row["duty_factor_paper"]) <= 0.05, row
    assert row["within_target"] and res.summary["target_met"]


@pytest.mark.slow
def test_plastic_foot_runs_on_warp_cpu(tmp_path):
    """engine=warp with robot/foot=plastic on Warp's CPU device (0.2 s, 3 revolutions, 50-110 s with its kernel
    compilation): no fallback, no error.  Tolerances stated first: speed within 2 %, duty within 0.02 of the C
    engine, the same touch-downs -- twice the C engine's own spread under a 1e-7 change of the crank period
    (measured 1.0 %, 0.010: the plastic stance's chatter).  3 revolutions since 2026-11-28: one gives a single
    touch-down, no stride time, and so (since the third battery) an error row; measured at 3: warp 1.4931 / 0.0374,
    C 1.4911 / 0.0324, 3 touch-downs each.  (A slow test, outside CI's suite: how the 1-revolution failure went
    unseen.)"""
    from gaittwin.core.runs import config, experiment
    args = ["experiment=bolt_speed_sweep", "sweep.crank_period=[0.2]", "run.cycles=3", "run.progress=false",
            "run.device=cpu", "run.chunk=1000", "robot/foot=plastic"]
    (tmp_path / "w").mkdir()
    (tmp_path / "c").mkdir()
    w = experiment.compute(config.compose(args + ["engine=warp"]), tmp_path / "w")
    assert json.loads((tmp_path / "w" / "summary.json").read_text())["engine"] == "warp"
    c = experiment.compute(config.compose(args), tmp_path / "c")
    (rw,), (rc,) = w.table("results.csv"), c.table("results.csv")
    assert not rw["error"] and not rc["error"] and rw["touchdowns"] == rc["touchdowns"]
    assert abs(rw["speed"] - rc["speed"]) <= 0.02 * abs(rc["speed"]), (rw["speed"], rc["speed"])
    assert abs(rw["duty_factor"] - rc["duty_factor"]) <= 0.02, (rw["duty_factor"], rc["duty_factor"])


@pytest.mark.slow
def test_touchdown_states_are_the_paper_models():
    """TOUCHDOWNS (the test's starting states) are the paper model's, recomputed (6 revolutions, ~40 s):
    crank angle within 1e-5 rad, rates within 1e-4 relative."""
    got = study.measure(0.3)
    want = study.TOUCHDOWNS[0.3]
    assert abs(got["q_1"] - want["q_1"]) < 1e-5
    for k in ("x_dot", "q_1_dot"):
        assert abs(got[k] - want[k]) <= 1e-4 * abs(want[k])


@pytest.mark.slow
def test_plastic_twin_within_target_of_paper_model_sweep(tmp_path):
    """Issue #24 target with robot/foot=plastic (loops 0.05 ms, time step 2.5e-5 s), tolerances stated first:
    speed within 10 %, duty within 0.05 wherever both run one touch-down per revolution, at 0.3, 0.25 and 0.2 s
    with the bumper (6 revolutions, 2.5-6 min; measured in gaittwin.bolt.paper.studies.bolt_contact_study: +2.4 %, +6.8 %, +8.1 %)."""
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_twin_vs_paper", "robot/foot=plastic",
                        "sweep.crank_period=[0.3,0.25,0.2]",
                        f"hydra.run.dir={out}"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    s = json.loads((out / "summary.json").read_text())
    assert s["speed_tolerance"] == 0.1 and s["duty_tolerance"] == 0.05
    assert s["compared_crank_periods"] == [0.3, 0.25, 0.2] and s["target_met"]


def test_plastic_limit_rule_on_the_measured_ladder_and_nan():
    """gaittwin.bolt.paper.studies.bolt_plastic_limit's rule on the README's measured ladder (3 digits; speed, duty, touch-downs
    per revolution): 0.4 s is skipped (1.67, 1.33 td/rev at rungs 3-4), no rung meets the rule (3 -> 4 moves the
    duty 0.040 at 0.5 s, tolerance 0.01); and a NaN change fails it instead of passing as max() would."""
    from gaittwin.bolt.paper.studies import bolt_plastic_limit as lim
    periods = (0.6, 0.5, 0.4, 0.3, 0.25, 0.2)
    ref = dict(zip(periods, ((0.506, 0.438), (0.689, 0.438), (0.831, 0.282), (0.960, 0.081), (1.078, 0.082),
                             (1.296, 0.075))))
    speed = ((0.535, 0.725, 0.938, 0.974, 1.090, 1.396), (0.532, 0.722, 0.930, 1.013, 1.186, 1.339),
             (0.528, 0.720, 0.908, 0.983, 1.148, 1.411), (0.525, 0.719, 0.859, 0.974, 1.125, 1.357),
             (0.524, 0.718, 0.865, 0.970, 1.121, 1.334))
    duty = ((0.439, 0.399, 0.105, 0.055, 0.050, 0.050), (0.439, 0.356, 0.087, 0.050, 0.055, 0.043),
            (0.439, 0.316, 0.063, 0.042, 0.040, 0.048), (0.439, 0.293, 0.053, 0.032, 0.033, 0.038),
            (0.439, 0.253, 0.043, 0.023, 0.022, 0.027))
    tdrev = {1: 1.33, 3: 1.67, 4: 1.33}   # at 0.4 s; 1 elsewhere
    res = {k: [(v, d, tdrev.get(k, 1.0) if T == 0.4 else 1.0, False) for T, v, d in zip(periods, speed[k], duty[k])]
           for k in range(5)}
    assert lim.usable(res, periods) == [True, True, False, True, True, True]
    steps = lim.rule(res, ref, periods)
    assert [w for *_, w in steps] == [False] * 4
    k0, k1, dv, dd, _ = steps[-1]
    assert (k0, k1, len(dv)) == (3, 4, 5) and max(dv) == pytest.approx(0.023 / 1.296) and max(dd) == pytest.approx(0.04)
    flat = {k: [(1.0, 0.1, 1.0, False)] * 2 for k in range(3)}
    flat[2][1] = (math.nan, 0.1, 1.0, False)
    assert [w for *_, w in lim.rule(flat, {1: (1.0, 0.1), 2: (1.0, 0.1)}, (1, 2))] == [True, False]
    flat[2][1] = (1.0, 0.1, 1.0, True)                     # a flag: the period is skipped
    assert lim.usable(flat, (1, 2)) == [True, False]
