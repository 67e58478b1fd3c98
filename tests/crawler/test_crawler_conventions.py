"""Crawler conventions the paper's Figs. 8/9, 12 and Sec. VIII results depend on (fast, no long runs):
the friction uncertainty sets, which link is m1 / "front", and the feedback gait's period detector."""
import math

import mujoco
import numpy as np
import pytest

from gaittwin.core.model.errors import ConfigError
from gaittwin.crawler.paper import hybrid as H
from gaittwin.crawler.paper.experiments import mass_points, mass_preference
from gaittwin.crawler.paper.feedback import gait_period
from gaittwin.crawler.friction import SAMPLINGS, friction_set
from gaittwin.crawler.robot import FORWARD, Crawler

MU, EPS = 0.172, 0.1


# ---- friction sets (eqs. 6-7 and the captions of Figs. 4, 8, 9) --------------------------------
@pytest.mark.parametrize("sampling,count", [("eq7", 9), ("ratio", 3)])
def test_friction_set_bounds_counts_and_nominal(sampling, count):
    pairs = friction_set(MU, EPS, (-1.0, 0.0, 1.0), sampling)
    assert len(pairs) == count and len(set(pairs)) == count
    assert (MU, MU) in pairs                                      # nominal exactly included
    mus = np.array(pairs)
    tol = 1e-12
    # every coefficient inside eq. 7's box [1 - eps, 1 + eps] mu
    assert np.all(mus >= (1 - EPS) * MU - tol) and np.all(mus <= (1 + EPS) * MU + tol)
    ratios = mus[:, 0] / mus[:, 1]
    if sampling == "ratio":
        # the captions' mu1/mu2 in [1 - eps, 1 + eps], both ends reached, geometric mean fixed at mu
        np.testing.assert_allclose(sorted(ratios), [1 - EPS, 1.0, 1 + EPS], rtol=1e-10)
        np.testing.assert_allclose(mus[:, 0] * mus[:, 1], MU**2, rtol=1e-10)
    else:
        # eq. 7 literally: the 3 x 3 grid, ratios span (1 - eps)/(1 + eps) .. (1 + eps)/(1 - eps)
        assert set(np.round(mus.ravel() / MU, 9)) == {0.9, 1.0, 1.1}
        assert ratios.min() == pytest.approx((1 - EPS) / (1 + EPS)) and ratios.max() == pytest.approx((1 + EPS) / (1 - EPS))
        assert ratios.max() > 1 + EPS                             # wider than the captions' range


def test_friction_set_finer_levels_and_bad_input():
    pairs = friction_set(MU, EPS, (-1.0, -0.5, 0.0, 0.5, 1.0), "ratio")
    assert len(pairs) == 5 and all(1 - EPS - 1e-12 <= a / b <= 1 + EPS + 1e-12 for a, b in pairs)
    assert len(friction_set(MU, EPS, (-1.0, -0.5, 0.0, 0.5, 1.0), "eq7")) == 25
    for kw in (dict(sampling="box"), dict(eps=1.0), dict(levels=(2.0,)), dict(levels=())):
        args = dict(mu=MU, eps=EPS, levels=(-1.0, 0.0, 1.0), sampling="ratio") | kw
        with pytest.raises(ConfigError):
            friction_set(**args)
    assert set(SAMPLINGS) == {"ratio", "eq7"}


# ---- Fig. 12: which link is m1, and which is "front" ------------------------------------------
def test_m1_is_the_link_of_foot_1_and_the_front_link():
    """m1 sits on the link carrying foot 1 (the -x end, eqs. 12-13), S > 0 is motion towards foot 1,
    so a heavier m1 moves the centre of mass towards the front foot, in the twin and the exact model."""
    base = Crawler().cfg
    r = Crawler(**{**base, **mass_points(base, 0.5, 2.0)})
    assert r.cfg["m1"] / r.cfg["m2"] == pytest.approx(2.0)
    m = r.model()
    assert m.body("link1").mass[0] == pytest.approx(r.cfg["m1"]) and m.body("link2").mass[0] == pytest.approx(r.cfg["m2"])
    d = mujoco.MjData(m)
    r.initial_pose(m, d)
    mujoco.mj_forward(m, d)
    x1, x2 = d.site("foot1").xpos[0], d.site("foot2").xpos[0]
    com = d.subtree_com[m.body("center").id][0]
    assert x1 < x2 and FORWARD == -1.0                            # foot 1 leads in the +S direction
    assert FORWARD * (com - 0.5 * (x1 + x2)) > 0                  # heavier m1: COM towards the front foot
    P = H.Params.from_robot(r)
    assert (P.m1, P.m2) == (r.cfg["m1"], r.cfg["m2"])
    run = H.simulate({**base, "omega": 1.0}, cycles=3, stop_when_steady=False)
    assert run.cycle_values[-1] > 0.1                             # psi = 20 deg, low omega: S > 0 ...
    assert FORWARD * (run.q[-1, 0] - run.q[0, 0]) > 0.2           # ... is the body moving towards foot 1


def test_mass_preference_summary():
    rows = [dict(omega=w, mass_ratio=0.5, m1_over_m2=a, S=s, error="")
            for w, ss in ((3.0, (0.02, 0.03, 0.01, -0.01)), (16.0, (0.0, 0.01, 0.02, 0.03)))
            for a, s in zip((0.5, 0.67, 1.0, 1.5), ss)]
    p = mass_preference(rows)
    assert p["3"]["preferred_heavier_link"].startswith("rear") and p["3"]["best_m1_over_m2"] == 0.67
    assert p["16"]["preferred_heavier_link"].startswith("front")
    assert p["3"]["dS_dlog_m1_over_m2_mm"] == pytest.approx((-0.01 - 0.03) / math.log(1.5 / 0.67) * 1e3)
    assert p["16"]["dS_dlog_m1_over_m2_mm"] > 0


# ---- Sec. VIII: the period of the feedback gait --------------------------------------------
def test_gait_period_detector():
    S1 = [0.01 * (1 - 0.5**k) for k in range(20)]                  # converges to 10 mm: period 1
    g = gait_period(S1)
    assert g["period"] == 1 and g["mean_stride"] == pytest.approx(0.01, rel=1e-4) and g["alternating_strides"] is None
    S2 = [0.04 if k % 2 else 0.05 for k in range(12)]               # two-step gait 50 / 40 mm
    g = gait_period(S2)
    assert g["period"] == 2 and g["mean_stride"] == pytest.approx(0.045)
    assert sorted(g["alternating_strides"]) == pytest.approx([0.04, 0.05])
    g = gait_period([0.0523, 0.0515, 0.0509, 0.0514, 0.0520, 0.0511])  # drifting: not converged
    assert g["period"] == 0 and g["mean_stride"] == pytest.approx(0.05155)
    tol = g["tolerance"]
    small = 0.5 * (tol["atol_m"] + tol["rtol"] * 0.045)            # alternation inside the tolerance: period 1
    assert gait_period([0.045 + (small if k % 2 else 0) for k in range(12)])["period"] == 1


@pytest.mark.parametrize("override", ["experiment.sampling=box", "experiment.levels=[-2,0,2]"])
def test_bad_friction_sampling_is_rejected_before_running(tmp_path, override):
    from tests.util import run_script
    r = run_script("scripts/run.py", "experiment=crawler_friction_robustness", "engine=hybrid", "sweep.omega=[16]",
                   "sweep.psi_deg=[20]", override, f"hydra.run.dir={tmp_path / 'run'}")
    assert r.returncode == 2 and r.stderr.startswith("error: experiment.")
    assert not (tmp_path / "run").exists()                         # nothing written
