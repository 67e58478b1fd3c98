"""The fidelity report's rows that the v3 audit (issue 28) found unfalsifiable or mislabelled: each fix,
judged on recorded or synthetic values (no physics; seconds)."""
from __future__ import annotations

import json
import math
import pathlib

import pytest

from gaittwin.core.report import report as fidelity
from gaittwin.core.report.verdict import (AGREE, CALIBRATION, CONSISTENCY, DISAGREE, KINEMATIC, VALIDATION, Range, Row,
                                          Tol, judge, rejudge)

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"


def test_an_empty_comparison_never_agrees():
    tol = Tol(0.5)
    assert judge([], None, [], tol)[2] == DISAGREE            # no crossing in twin and reference: nothing shown
    assert judge([], Range(0.0), None, tol)[2] == DISAGREE
    assert judge([1.0], None, [1.2], tol)[2] == AGREE           # one compared value still agrees


def test_a_max_tolerance_is_the_larger_term_not_the_sum():
    """max(1.5 mm, 3 %): 1.71 mm off a 22.3 mm reference disagrees (the sum, 2.17 mm, would let it agree)."""
    tmax, tsum = Tol(1.5, 0.03, combine="max"), Tol(1.5, 0.03)
    assert judge(24.02, None, 22.31, tmax)[2] == DISAGREE
    assert judge(24.02, None, 22.31, tsum)[2] == AGREE
    assert judge(110.0, None, 100.0, tmax)[2] == DISAGREE and judge(102.9, None, 100.0, tmax)[2] == AGREE
    assert str(tmax) == "± max(1.5, 3 %)"
    with pytest.raises(ValueError, match="combine"):
        Tol(1.0, combine="min")


def test_a_validation_row_needs_a_paper_target():
    with pytest.raises(ValueError, match="paper target"):
        Row("X", "c", "s", "p", kind=VALIDATION, value=1.0, ref=1.0, tol=Tol(0.1))
    assert Row("X", "c", "s", "p", kind=CONSISTENCY, value=1.0, ref=1.0, tol=Tol(0.1)).verdict == AGREE


def test_c24_a_reversed_trend_fails():
    """The audit's case: at omega 16 S rises with heavier distal links (8.15 < 9.15 < 9.75 mm); the old
    -1.5 mm floor on each step let it pass."""
    from gaittwin.crawler.paper.claims_dynamic import c24_row
    good = {3.2: [30.0, 25.0, 20.0], 16.0: [12.0, 12.5, 9.0]}      # a dip between the ends is 'almost'
    rev = {3.2: [30.0, 25.0, 20.0], 16.0: [8.15, 9.15, 9.75]}
    ratios, om = [0.25, 0.5, 1.0], [3.2, 16.0]
    assert c24_row(om, ratios, good, good).verdict == AGREE
    r = c24_row(om, ratios, rev, good)
    assert r.verdict == DISAGREE and "omega 16" in r.reason
    assert c24_row(om, ratios, good, rev).verdict == DISAGREE       # the reference must agree too


def _slip(both_forward=0.05, back=(0.0, 0.0, 0.3, 0.25, 0.4, 0.45)):
    claims = [dict(statement="range 1: backward slip distance negligible", value=0.003),
              dict(statement="range 3: for a short portion of the cycle both feet slip forward together",
                   value=both_forward)]
    modes = [dict(engine="mujoco", omega=w, foot=f, slip_backward=b)
             for (w, f), b in zip([(w, f) for w in (0.3, 5.1, 16.0) for f in (1, 2)], back)]
    return claims, modes


def test_c22_covers_growing_backward_slip_and_both_feet_forward():
    from gaittwin.crawler.paper.claims_dynamic import C22_TARGET, c22_value
    tol = Tol(0.02)
    v = c22_value(*_slip(), "mujoco")
    assert v == pytest.approx([0.003, 0.55, 0.25, 0.4, 0.05])
    assert len(v) == len(C22_TARGET) and judge(v, C22_TARGET, None, tol)[2] == AGREE
    # never both forward: the paper's 'short part' is missing
    assert judge(c22_value(*_slip(both_forward=0.0), "mujoco"), C22_TARGET, None, tol)[2] == DISAGREE
    # backward slip not growing from range 1 to range 2
    flat = c22_value(*_slip(back=(0.3, 0.3, 0.3, 0.3, 0.4, 0.4)), "mujoco")
    assert judge(flat, C22_TARGET, None, tol)[2] == DISAGREE


def test_c14_is_relative_to_max_S():
    """Fig. 8 is S / max S: the 24 % at psi_mu* = 56 deg is 1 - S_mu(56) / S(psi*), not 1 - S_mu(56) / S(56)."""
    from gaittwin.crawler.paper.claims import C14_READING, c14_loss
    o = dict(S_at_psi_star=0.010, S_mu_at_psi_mu_star=0.0076, S_at_psi_mu_star=0.0090)
    assert c14_loss(o) == pytest.approx(24.0)
    assert 100 * (1 - o["S_mu_at_psi_mu_star"] / o["S_at_psi_mu_star"]) != pytest.approx(24.0, abs=2)
    assert "normalized by the maximal" in C14_READING and "24% decrease" in C14_READING


def test_snake_fig3_end_point_errors_are_rows():
    from gaittwin.snake.paper import claims
    rows = claims.claims_snake_fig3(None)
    assert [r.id for r in rows] == ["S3.error", "S3.return"]
    assert all(r.kind == CONSISTENCY and r.verdict == AGREE for r in rows)
    assert rows[0].value == pytest.approx([0.2113, -0.3022], abs=1e-4)
    assert not any("eq. 8" in o[1] or "eq. 8" in o[2] for o in claims.OMITTED)
    # the tolerance bites: the printed values moved by one unit of their last digit disagree
    r = rows[0]
    assert judge(r.value, [0.22, -0.3], None, r.tol)[2] == DISAGREE


RELABELLED = {"C9": CONSISTENCY, "C10": CONSISTENCY, "C13": CALIBRATION, "M1": CONSISTENCY, "M2": CALIBRATION,
              "B9": CONSISTENCY, "B10": CONSISTENCY, "B11": CONSISTENCY, "S3.error": CONSISTENCY,
              "S3.return": CONSISTENCY, "C1": CONSISTENCY, "M9": CALIBRATION, "M15": CONSISTENCY, "M16": CONSISTENCY,
              **{k: KINEMATIC for k in ("B12", "B13", "B14", "B15", "B16")}}


@pytest.mark.parametrize("name", ["fidelity_report_reduced.json"])
def test_committed_report_has_the_relabels(name):
    """The committed reduced report (regenerated by CI's reproducibility test) carries the audit's kinds,
    C7 merged into C11, and every validation row has a paper target."""
    recs = {r["id"]: r for r in json.loads((DOCS / name).read_text()) if r["verdict"] != "superseded"}
    assert {k: recs[k]["kind"] for k in RELABELLED} == RELABELLED
    assert "C7" not in recs and "C11" in recs
    new = ("C27", "C28", "C29", "S2.5.dx_order", "S2.5.loss_order", "C30", "C31", "C32", "C33", "C34", "C35", "S5.l",
           "B7.3", "C14.2")
    assert all(recs[k]["kind"] == VALIDATION for k in new)
    assert all(r["target"] is not None for r in recs.values() if r["kind"] == VALIDATION)
    assert all(rejudge(r) == r["verdict"] for r in recs.values() if r["kind"] in fidelity.JUDGED)
    assert isinstance(recs["C22"]["value"], list) and len(recs["C22"]["value"]) == 5
    assert isinstance(recs["C24"]["value"], list) and not any(math.isnan(x) for x in recs["C24"]["value"])


def test_c27_v_rises_in_range_1_and_falls_in_range_2():
    from gaittwin.crawler.paper.claims import c27_row
    ok = {0.3: 190.0, 2.0: 150.0, 5.1: 1.0, 8.0: 3.0, 16.0: 8.0}       # S [mm]: V = S omega / 2 pi
    r = c27_row(ok, ok)
    assert r.verdict == AGREE and r.value[0] > 0 > r.value[1]
    flat = {0.3: 190.0, 2.0: 20.0, 5.1: 1.0, 8.0: 3.0, 16.0: 8.0}     # V(2) < V(0.3): no rise in range 1
    assert c27_row(flat, flat).verdict == DISAGREE


def test_snake_fig4_shape_row():
    from gaittwin.snake.paper.claims import claims_snake_fig4, fig4_fits
    r = claims_snake_fig4(None)[0]
    assert r.kind == CONSISTENCY and r.verdict == AGREE
    assert fig4_fits()[2] < 0.98          # d_unit is not proportional to alpha: the quadratic reading matters


def test_miniaq_periodicity_rows():
    import numpy as np

    from gaittwin.miniaq.paper.claims import periodicity_rows, shift_mismatch
    T = 0.4
    t = np.linspace(0, 5, 2001)
    sym = np.sin(4 * np.pi * t / T)                       # pitch repeating every half stride
    asym = sym + 0.8 * np.sin(2 * np.pi * t / T)          # one half-stride pitches more than the other
    assert shift_mismatch(t, sym, T / 2, 2 * T) < 1e-2 < 0.3 < shift_mismatch(t, asym, T / 2, 2 * T)
    ts = [dict(t=a, pitch_deg=b, roll_deg=c) for a, b, c in zip(t, asym, np.sin(2 * np.pi * t / T))]
    m15, m16 = periodicity_rows(ts, T, "test")
    assert (m15.verdict, m16.verdict) == (DISAGREE, AGREE)
    drift = [dict(d, roll_deg=np.sin(2 * np.pi * d["t"] / (1.3 * T))) for d in ts]  # roll not periodic per stride
    assert periodicity_rows(drift, T, "test")[1].verdict == DISAGREE


def test_snake_order_rows_read_the_withheld_n():
    from gaittwin.snake.paper.claims import order_rows
    from gaittwin.snake.paper.tables import TABLE2
    dx = {(5, 30): 635.3, (5, 45): 1393.4, (5, 58): 1931.9, (4, 30): 329.7}
    loss = {(5, 30): 11.8, (5, 45): 9.0, (5, 58): 18.8, (4, 30): 13.6}
    rows = order_rows(TABLE2, dx, loss)
    assert [r.id for r in rows] == ["S2.5.dx_order", "S2.5.loss_order"]       # n = 4 is calibration data
    assert all(r.kind == VALIDATION and r.verdict == AGREE for r in rows)
    flat = order_rows(TABLE2, {**dx, (5, 58): 1000.0}, loss)                # Delta x falls at the largest d_unit
    assert flat[0].verdict == DISAGREE
