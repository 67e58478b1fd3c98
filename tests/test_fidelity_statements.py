"""The statement rows added by issue #28 (v3, second part): each proxy agrees on a case that fits the
paper's sentence and disagrees on one that does not (no simulation: seconds)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from gaittwin.core.report.verdict import AGREE, DISAGREE, VALIDATION


def test_c30_psi_star_almost_monotonic():
    from gaittwin.crawler.paper.claims_statements import c30_row
    up = {0.3: 15.0, 1.0: 30.0, 3.2: 15.0, 8.0: 105.0, 16.0: 120.0}       # one grid step back: 'almost'
    r = c30_row(up, up, 15.0)
    assert r.kind == VALIDATION and r.verdict == AGREE and r.value == -15.0
    assert c30_row({**up, 3.2: 0.0}, {}, 15.0).verdict == DISAGREE       # two steps back


def test_c32_reversal_under_mass_asymmetry():
    from gaittwin.crawler.paper.claims_statements import c32_row
    rows = [dict(omega=3.2, m1_over_m2=a, S=s) for a, s in ((0.5, -0.01), (1.0, 0.02), (2.0, 0.03))]
    assert c32_row(rows, rows, [3.2]).verdict == AGREE
    same_sign = [dict(r, S=abs(r["S"])) for r in rows]
    assert c32_row(same_sign, rows, [3.2]).verdict == DISAGREE


def test_c34_extension_fraction_reads_the_time_scaling():
    from gaittwin.crawler.paper.claims_statements import c34_row
    best = dict(omega=3.2, psi_deg=20.0, psi_base_deg=20.0, alpha=0.5, upsilon_deg=0.0)
    r = c34_row(best)
    assert r.verdict == AGREE and r.value < 0.45                            # the warp extends faster
    assert c34_row(dict(best, alpha=0.0)).verdict == DISAGREE               # the unscaled sine: half and half


def _path(n=720, dent=0.0):
    """A closed foot path (complex, clockwise from the apex): an ellipse, optionally with a dent at the top."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x, y = 0.1 * np.sin(t), 0.03 * np.cos(t) - 0.4
    y = y - dent * np.exp(-((t - 0.35) / 0.12) ** 2)          # a dip just after the apex
    return x + 1j * y


def test_bolt_path_features_find_a_concavity_and_the_stance():
    from gaittwin.bolt.paper.claims_design import attack_deg, path_features
    plain, dented = path_features(_path()), path_features(_path(dent=0.004))
    assert plain["concave_fraction"] == 0.0 and math.isnan(plain["concave_depth"])
    assert 0.01 <= dented["concave_fraction"] <= 0.25 and dented["concave_depth"] < 0.25
    assert plain["descent"] == pytest.approx(plain["ascent"], abs=0.01)    # symmetric ellipse
    assert attack_deg(_path(), 0.0 + 0.0j) < 15                              # the entry is below the hip


def test_bolt_speed_crossing():
    from gaittwin.bolt.paper.claims_speed import crossing
    assert crossing([0.6, 0.3, 0.2], [0.5, 1.0, 1.6], 1.3) == pytest.approx(0.25)
    assert math.isnan(crossing([0.6, 0.3], [0.5, 1.0], 1.3))


def test_bolt_foot_path_table_has_the_twin_knee(tmp_path):
    """B14 reads the knee E from bolt_foot_path's table: the twin's, in {B}, on the closed form's to 0.1 mm."""
    from gaittwin.bolt.paper.claims_design import one_revolution
    from gaittwin.bolt.kinematics import loop_kinematics
    from gaittwin.bolt.robot import Bolt
    from gaittwin.core.report.report import Context
    ctx = Context(reduced=True, work=tmp_path, plots=tmp_path / "plots", log=lambda *a: None)
    res, _ = ctx.run("bolt_foot_path", "fp", {"run.nthread": 1})
    q, F, E = one_revolution(res.table("foot_path.csv"))
    assert np.abs(E - loop_kinematics(q, Bolt().geometry)["E"]).max() < 1e-4
    assert np.ptp(q) > np.radians(350)


def _tvp(T, vt, vp, dt, dp, tpr_t=1.0, tpr_p=1.0, err=""):
    """One bolt_twin_vs_paper results.csv row, its `compare` applied (issue #24's tolerances)."""
    from gaittwin.bolt.paper.twin_vs_paper import compare
    tw, pa = dict(speed=vt, duty_factor=dt, touchdowns_per_revolution=tpr_t), dict(
        speed=vp, duty_factor=dp, touchdowns_per_revolution=tpr_p)
    return dict(crank_period=T, speed_twin=vt, speed_paper=vp, duty_factor_twin=dt, duty_factor_paper=dp,
                touchdowns_per_revolution_twin=tpr_t, touchdowns_per_revolution_paper=tpr_p, error_twin=err,
                error_paper="", **compare(tw, pa, 0.10, 0.05, err))


def test_bolt_b6c_b6d_coulomb_foot_against_the_paper_model():
    from gaittwin.bolt.paper.claims_coulomb import TOL_DUTY, TOL_SPEED, coulomb_rows
    from gaittwin.core.report.verdict import CONSISTENCY
    assert (TOL_SPEED.rel, TOL_DUTY.abs) == (0.10, 0.05)                  # issue #24's target, stated first
    good = [_tvp(0.25, 1.05, 1.0, 0.42, 0.40), _tvp(0.2, 1.3, 1.35, 0.38, 0.40),
            _tvp(0.6, 0.2, 0.3, 0.5, 0.6, tpr_p=2.0)]                     # 0.6 s: paper model not one touch-down
    s, d = coulomb_rows(good, reduced=False)
    assert (s.id, d.id) == ("B6c", "B6d") and s.kind == d.kind == CONSISTENCY and "derived reference" in s.reason
    assert s.verdict == d.verdict == AGREE and s.value == [1.05, 1.3] and "0.6 s" in s.reason
    assert all(r["within_target"] for r in good[:2])                       # the runner's compare agrees
    slow = [good[0], _tvp(0.2, 1.2, 1.35, 0.38, 0.40)]                    # speed 11 % off: over 10 %
    assert coulomb_rows(slow, False)[0].verdict == DISAGREE and not slow[1]["within_target"]
    assert coulomb_rows(slow, False)[1].verdict == AGREE
    duty = [good[0], _tvp(0.2, 1.3, 1.35, 0.46, 0.40)]                    # duty 0.06 off: over 0.05
    assert coulomb_rows(duty, False)[1].verdict == DISAGREE
    gait = [good[0], _tvp(0.2, 1.3, 1.35, 0.38, 0.40, tpr_t=2.0)]          # twin misses the gait: never agrees
    assert coulomb_rows(gait, False)[0].verdict == DISAGREE
    flagged = [good[0], _tvp(0.2, 1.3, 1.35, 0.38, 0.40, err="penetration over the limit")]
    assert coulomb_rows(flagged, False)[0].verdict == DISAGREE
    assert coulomb_rows([good[2]], True)[0].verdict == DISAGREE            # nothing compared cannot agree
    assert "reduced report: 0.2 s only" in coulomb_rows(good[1:2], True)[0].claim
