"""Issue #24: the paper model's Painleve rule (paper.den_min; gaittwin.bolt.paper.studies.bolt_paper_impasse, models/bolt/README.md
"Painleve rule").  CI: the study's verdict rule on the measured ladder (milliseconds) and one 2-revolution run."""
import math

import numpy as np
import pytest

from gaittwin.bolt.paper.studies import bolt_paper_impasse as study
from gaittwin.bolt.robot import Bolt

# measured (README "Painleve rule", 4 digits): 0.4 s, den_min 0.1, 0.05, 0.025, 0.0125 -> speed, duty
LADDER_04 = ((0.1, 0.8354, 0.2782), (0.05, 0.8345, 0.2818), (0.025, 0.8340, 0.2836), (0.0125, 0.8338, 0.2845))


def _rows(T, ladder, tdrev=1.0, error=""):
    return [dict(crank_period=T, den_min=d, speed=v, duty_factor=u, touchdowns_per_revolution=tdrev, error=error)
            for d, v, u in ladder]


def test_impasse_rule_on_the_measured_ladder_and_its_failures(capsys):
    """The study's rule, tolerances stated in it (successive pairs from the default down: speed 2 %, duty 0.01;
    spread over the four rungs against the target's 10 % / 0.05): the measured 0.4 s ladder is determined and
    judges; a duty moving 0.03 per rung (spread 0.09) is neither determined nor judging; a gait change, a NaN and
    a failed rung are never passed silently; a failed default rung leaves the spread over the rungs that ran."""
    (v,) = study.judge(_rows(0.4, LADDER_04))
    assert v["speed"]["determined"] and v["duty_factor"]["determined"] and v["gait_one"]
    assert v["speed"]["judges"] and v["duty_factor"]["judges"]
    assert v["duty_factor"]["spread"] == pytest.approx(0.2845 - 0.2782)
    moving = [(d, s, u + 0.03 * i) for i, (d, s, u) in enumerate(LADDER_04)]       # duty spread 0.09
    (w,) = study.judge(_rows(0.4, moving))
    assert not w["duty_factor"]["determined"] and not w["duty_factor"]["judges"] and w["speed"]["judges"]
    (g,) = study.judge(_rows(0.4, LADDER_04)[:3] + _rows(0.4, LADDER_04[3:], tdrev=4 / 3))
    assert not g["gait_one"] and not g["speed"]["judges"] and not g["duty_factor"]["judges"]
    (n,) = study.judge(_rows(0.4, LADDER_04[:3] + ((0.0125, math.nan, 0.2845),)))
    assert not n["speed"]["determined"] and not n["speed"]["judges"]
    (f,) = study.judge(_rows(0.4, LADDER_04[:3]) + _rows(0.4, [(0.0125, "", "")], error="solve_ivp failed"))
    assert f["failed"] == [0.0125] and not f["speed"]["shown"] and not f["speed"]["determined"]
    # a failed default rung: not shown, and the spread over the rungs that ran (relative to the smallest speed)
    # still judges (a failure does not exclude by itself); the verdict line says "not shown"
    (d,) = study.judge(_rows(0.4, LADDER_04[:1] + LADDER_04[2:]) + _rows(0.4, [(0.05, "", "")], error="Zeno"))
    assert d["failed"] == [0.05] and not d["speed"]["shown"] and not d["duty_factor"]["shown"]
    assert d["speed"]["spread"] == pytest.approx((0.8354 - 0.8338) / 0.8338) and d["speed"]["judges"]
    assert d["duty_factor"]["spread"] == pytest.approx(0.2845 - 0.2782) and d["duty_factor"]["judges"]
    study.print_table([], [d])
    assert "spread 0.00192 -> not shown, judges" in capsys.readouterr().out


def test_impasse_stop_impulse_lies_mu_over_one_minus_den_min_from_the_cone():
    """At an impasse the rule stops the sliding foot with eq. 18-19's no-slip impulse.  With the normal velocity
    held, F_N = N1 F_T, and den = 1 + mu dir N1 = den_min gives |F_T| / F_N = mu / (1 - den_min): on the Coulomb
    cone in the limit den_min -> 0 (README "Painleve rule").  Checked at den_min 0.1 (ratio 1/0.9, not the default's
    1/0.95: the option is used), rel 1e-6; the foot slides before it (> 0.1 m/s) and F_N > 0.  The recorded F_T is the
    one applied (stop_slide); it and the rates after equal the no-slip impulse's within 1e-8 (F_T relative; m/s,
    rad/s), so F_N, the SLIDE mode's implicit height impulse, is that impulse's.  0.4 s, 2 revolutions."""
    from gaittwin.bolt.paper.run import simulate
    r = Bolt(crank_period=0.4)
    run = simulate(r, 2, den_min=0.1)
    assert run.error is None and run.stops
    for d in run.stops:      # the recorded impulse is the applied stop (F_T) and eq. 18-19's (measured: 1e-11)
        assert d["F_T_gap"] <= 1e-8 * abs(d["impulse"].real) and d["rates_gap"] <= 1e-8, d
        F = d["impulse"]
        assert F.imag > 0 and d["slip_speed"] > 0.1
        np.testing.assert_allclose(abs(F.real) / F.imag, r.p.mu / (1 - 0.1), rtol=1e-6)


def test_den_min_is_in_a_paper_points_identity_only_with_the_coulomb_foot():
    """den_min acts only on the Coulomb foot's sliding: a pinned foot's stored result is one for every den_min
    (it was filed under each den_min), a Coulomb foot's one per den_min."""
    from gaittwin.bolt.paper.experiments import _paper_engine
    from gaittwin.bolt.paper.model import check_options

    def settings(**o):
        return _paper_engine({"cycles": 2}, check_options(o)).settings
    assert settings(foot="pinned", den_min=0.1) == settings(foot="pinned", den_min=0.05)
    assert "den_min" not in settings(foot="pinned")["paper"]
    assert settings(den_min=0.1) != settings(den_min=0.05) and settings()["paper"]["den_min"] == 0.05


def test_an_inconsistent_painleve_stop_ends_the_run_as_an_error(monkeypatch):
    """A stop whose applied F_T or rates differ from eq. 18-19's by more than STOP_TOL is never carried on
    silently: the run ends with an error naming it (forced here by a negative tolerance, so any stop fails)."""
    import gaittwin.bolt.paper.run as pr
    monkeypatch.setattr(pr, "STOP_TOL", -1.0)
    run = pr.simulate(Bolt(crank_period=0.4), 2, den_min=0.1)
    assert run.error is not None and "Painleve stop" in run.error and len(run.stops) == 1
