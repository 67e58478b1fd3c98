"""BOLT's paper model under Sec. 5.1's rules as printed (paper.rules=printed, envs/bolt/paper/run.py): selectable
from the config with the default unchanged, refused where it cannot run, and its stride time an outcome of the run."""
import math
import pathlib
import subprocess
import sys

import pytest

from gaittwin.bolt.paper.model import check_options, identity_options, leg_angle_range, printed_rules
from gaittwin.bolt.paper.run import simulate, summarize
from gaittwin.bolt.robot import Bolt
from gaittwin.core.model.errors import ConfigError

ROOT = pathlib.Path(__file__).resolve().parents[2]
PRINTED = dict(rules="printed", foot="pinned")
FAST = dict(rtol=1e-5, atol=1e-7)        # the test's tolerances (the option's defaults: 1e-7, 1e-9)


def test_the_default_rules_and_identity_are_unchanged():
    """zero_force is the default; its points' identity carries none of the printed rules' options (a result stored
    before the option existed is the same point), a printed point's carries all three."""
    o = check_options({})
    assert o["rules"] == "zero_force" and printed_rules(Bolt(), o) is None
    assert not {"rules", "liftoff_angle_deg", "attack_crank_deg"} & set(identity_options(o))
    assert {"rules", "liftoff_angle_deg", "attack_crank_deg"} <= set(identity_options(check_options(PRINTED)))


@pytest.mark.parametrize("opts, robot, param", [
    (dict(rules="drawn"), {}, "paper.rules"),
    (PRINTED, {}, "robot.bumper_height"),                                   # the default bumper: the foot never lands
    (dict(rules="printed"), {"bumper_height": None}, "paper.foot"),         # the default Coulomb foot
    (dict(PRINTED, liftoff_angle_deg=14.0), {"bumper_height": None}, "paper.liftoff_angle_deg"),   # above the attack's
    (dict(PRINTED, liftoff_angle_deg=-20.0), {"bumper_height": None}, "paper.liftoff_angle_deg"),  # behind the arc
])
def test_printed_rules_refused_where_they_cannot_run(opts, robot, param):
    with pytest.raises(ConfigError) as e:
        printed_rules(Bolt(**robot), check_options(opts))
    assert e.value.param == param


def test_the_default_lift_off_angle_mirrors_the_attack_angle():
    """null: minus the leg angle at q_1 = 0 (+13.0 deg for Table 2's geometry), inside the stance arc's range."""
    r = Bolt(bumper_height=None)
    lo, att = printed_rules(r, check_options(PRINTED))
    lo_min, lo_max = leg_angle_range(r)
    assert att == 0.0 and lo_min < lo < 0 < -lo < lo_max
    assert math.degrees(lo) == pytest.approx(-13.0, abs=0.1)


def test_bad_printed_input_exits_2_nothing_written(tmp_path):
    """From the command line: the printed rules on the default bumper, one line naming the parameter, exit 2."""
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_speed_sweep", "engine=paper",
                        "+paper.rules=printed", "+paper.foot=pinned", f"hydra.run.dir={out}"], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    assert "robot.bumper_height" in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert not out.exists()


def _first_stride(angle_deg):
    run = simulate(Bolt(crank_period=0.15, bumper_height=None), 2, liftoff_angle_deg=angle_deg, **PRINTED, **FAST)
    assert run.error is None, run.error
    assert len(run.touchdowns) >= 2 and run.liftoffs
    return run


def test_printed_rules_run_and_the_stride_time_is_an_outcome():
    """At crank period 0.15 s from rest (touch-down at t = 0): the first stance ends at the set leg angle, the crank
    then waits at q_1 = 0 until the next touch-down, so the first stride time is not the crank period and moves
    with the lift-off angle (0 and -6 deg: measured 184 ms at 0 deg; required here: at least 5 ms apart and 5 ms
    from the period).  The summary's columns come out of the same run."""
    a, b = _first_stride(0.0), _first_stride(-6.0)
    ta, tb = (r.touchdowns[1]["t"] - r.touchdowns[0]["t"] for r in (a, b))
    assert abs(ta - tb) >= 5e-3 and min(abs(ta - 0.15), abs(tb - 0.15)) >= 5e-3, (ta, tb)
    assert a.liftoffs[0] != pytest.approx(b.liftoffs[0], abs=1e-3)
    s = summarize(a)
    assert s["stride_length"] == s["speed"] * s["stride_time"] or s["stride_time"] != s["stride_time"]
    assert s["max_tracking_error_deg"] == s["max_tracking_error_deg"]
