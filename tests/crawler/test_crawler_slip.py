"""Fig. 5 slip pattern (experiment crawler_slip_pattern, envs/crawler/paper/slip_pattern.py)."""
import csv
import json

import numpy as np
import pytest

from gaittwin.core.model import metrics
from gaittwin.crawler.paper import hybrid as H
from gaittwin.crawler.paper import slip_pattern as sp
from gaittwin.crawler.robot import FORWARD
from tests.util import assert_fails_early, run_script


def test_slip_pattern_experiment_small(tmp_path):
    """omega = 16, a few cycles: per engine and foot the mode fractions sum to 1, and the exact
    model's sampled modes are its own mode log (switch by switch) with the same fractions."""
    out = tmp_path / "run"
    res = run_script("scripts/run.py", "experiment=crawler_slip_pattern", "experiment.omega=[16]", "run.cycles=4",
                     f"hydra.run.dir={out}", "run.progress=false")
    assert res.returncode == 0, res.stderr[-3000:]
    rows = list(csv.DictReader(open(out / "results.csv")))
    assert [(r["engine"], r["foot"]) for r in rows] == [("mujoco", "1"), ("mujoco", "2"), ("hybrid", "1"), ("hybrid", "2")]
    for r in rows:
        total = sum(float(r[k]) for k in sp.NAMES)
        assert total == pytest.approx(1.0, abs=1e-9), r
    s = json.loads((out / "summary.json").read_text())
    assert s["hybrid_modes_match_log"] is True
    spc = 1000
    for foot, sampled in zip(("foot1", "foot2"), s["hybrid_sampled_fractions"]["16"]):
        logged = s["fractions"]["hybrid"]["16"][foot]
        for k in sp.NAMES:          # sampling error: at most one sample per mode interval edge
            assert abs(sampled[k] - logged[k]) <= 4 / spc, (foot, k, sampled[k], logged[k])
    assert 0 <= s["max_abs_fraction_diff_all"] <= 1
    assert (out / "slip_pattern_16.png").stat().st_size > 10_000


def test_exact_mode_log_and_threshold_classifier():
    """The exact model's sampled contact states equal its switch log at every sample; the log's
    time fractions sum to 1; the twin's velocity threshold applied to the exact model's own foot
    velocities reproduces its explicit modes except near the reversals (<= 3 % of the cycle)."""
    run = H.simulate(dict(omega=5.1), cycles=4, stop_when_steady=False, samples_per_cycle=400)
    T = run.robot.period
    sel = sp.window(run.t, T, 1)
    assert len(sel) == 400
    np.testing.assert_array_equal(run.mode[sel], sp.log_mode_at(run, run.t[sel]))
    fr = sp.log_fractions(run, run.t[sel][0], run.t[sel][0] + T)
    for f in fr:
        assert sum(f.values()) == pytest.approx(1.0, abs=1e-12)
    codes = sp.explicit_codes(run.mode[sel], run.fn[sel])
    v_th = 0.01 * sp.speed_scale(run.robot)
    for i in (0, 1):
        by_v = metrics.contact_modes(run.vx[sel, i], run.fn[sel, i], v_stick=v_th, forward=FORWARD)
        assert np.mean(by_v != codes[:, i]) <= 0.03


def test_slip_distance_forward_and_backward():
    """slip_distance, the one integral of Fig. 5's backward slip and C33's forward slip: on a hand-made
    window (dt 0.5 s) foot 1 slips forward 0.2 m/s for 2 samples and backward 0.1 m/s for 1, foot 2
    backward 0.3 m/s for 3; stick and lift-off samples count in neither (exact to 1e-15 m)."""
    F, B, S, L = sp.FWD, sp.BWD, sp.STICK, sp.LIFT
    modes = np.array([[F, B], [F, B], [B, B], [S, S], [L, F]])
    adv = np.array([[0.2, -0.3], [0.2, -0.3], [-0.1, -0.3], [0.05, 0.05], [0.7, 0.4]])  # along the advancement
    vx = FORWARD * adv                                                                  # the x axis
    assert sp.slip_distance(vx, modes, 0.5, sp.FWD) == pytest.approx([0.2, 0.2], abs=1e-15)
    assert sp.slip_distance(vx, modes, 0.5, sp.BWD) == pytest.approx([0.05, 0.45], abs=1e-15)
    assert sp.slip_distance(vx, modes, 0.5) == sp.slip_distance(vx, modes, 0.5, sp.BWD)    # backward by default
    with pytest.raises(ValueError, match="direction"):
        sp.slip_distance(vx, modes, 0.5, sp.STICK)


def test_slip_pattern_bad_input_is_rejected_early(tmp_path):
    assert_fails_early(tmp_path, "experiment.engines", "experiment=crawler_slip_pattern", "experiment.engines=ode")
    assert_fails_early(tmp_path, "experiment.v_stick_rel", "experiment=crawler_slip_pattern", "experiment.v_stick_rel=2")


def test_twin_vs_exact_script_smoke(tmp_path):
    """gaittwin.crawler.paper.studies.crawler_twin_vs_exact on the slip pattern at one omega, a few cycles: both engines
    run through the experiment code and the doc gets a table between its markers."""
    doc = tmp_path / "doc.md"
    doc.write_text("# head\n\n<!-- tables -->\nold\n<!-- /tables -->\n\nprose kept\n")
    res = run_script("-m", "gaittwin.crawler.paper.studies.crawler_twin_vs_exact",
                     "--only", "fig5", "--out", tmp_path / "out", "--doc", doc,
                     "--extra", "experiment.omega=[16]", "--extra", "run.cycles=3")
    assert res.returncode == 0, res.stderr[-3000:]
    text = doc.read_text()
    assert "old" not in text and "prose kept" in text and "| quantity | twin | exact |" in text
    assert "both slip" in text and "same verdict" in text
    for e in ("mujoco", "hybrid"):
        assert (tmp_path / "out" / f"fig5_{e}" / "summary.json").exists()
