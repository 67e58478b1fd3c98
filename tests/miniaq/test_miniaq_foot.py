"""MinIAQ-II's feet (issue #25; models/miniaq/README.md "Foot study"): the default point foot with the paper's
Hunt-Crossley law by MuJoCo's impedance (contact_law=hunt_crossley) and the foot pad (`foot=pad`): the pad's model,
its settings' checks, and the support pattern against the paper's own model (engine=paper)."""
import json

import mujoco
import numpy as np
import pytest

from gaittwin.core.engines import batch
from gaittwin.core.model.errors import ConfigError
from gaittwin.miniaq.robot import LEGS, MiniAQ
from tests.util import assert_fails_early, run_script


PAD_TOL = 0.15     # issue #25's target: time on >= 3 legs and hind duty within 0.15 of engine=paper


def _pattern(s):
    return s["support_3"] + s["support_4"], (s["hl_duty_factor"] + s["hr_duty_factor"]) / 2


def _pad_vs_paper(cycles, **kw):
    return _vs_paper(cycles, dict(foot="pad", timestep=2.5e-5), **kw)


def _vs_paper(cycles, twin_kw, **kw):
    from gaittwin.miniaq.paper import model as paper
    r = MiniAQ(**twin_kw, **kw)
    run = batch.run_point(r, MiniAQ, cycles=cycles, stop_when_steady=False, nthread=1)
    assert run.error is None
    ref = paper.simulate(kw, cycles=cycles)
    return _pattern(r.summarize(run)), _pattern(paper.summarize(ref)), r.summarize(run)


@pytest.mark.parametrize("kw, param", [(dict(foot="pad"), "timestep"),
                                       (dict(foot="pad", timestep=2.5e-5, contact_law="power"), "contact_law"),
                                       (dict(foot="pad", timestep=2.5e-5, pad_damping_ratio=0.5), "pad_damping_ratio"),
                                       (dict(foot="pad", timestep=2.5e-5, pad_mass=1.2e-4), "pad_mass")])
def test_pad_bad_settings_rejected(kw, param):
    with pytest.raises(ConfigError) as e:
        MiniAQ(**kw)
    assert e.value.param == param


def test_pad_at_the_default_timestep_exits_2_nothing_written(tmp_path):
    assert_fails_early(tmp_path, "timestep", "experiment=miniaq_trot", "robot.foot=pad", text="2.5e-05] s with foot=pad")


def test_pad_moves_the_foot_onto_a_slide_and_keeps_the_sensors():
    m = MiniAQ(foot="pad", timestep=2.5e-5).model()
    for leg in LEGS:
        pad = m.body(f"{leg}_pad").id
        assert m.geom_bodyid[m.geom(f"{leg}_foot").id] == pad and m.site_bodyid[m.site(f"{leg}_foot").id] == pad
        assert m.geom_contype[m.geom(f"{leg}_foot_leg").id] == 0
        assert m.jnt_type[m.joint(f"{leg}_pad").id] == mujoco.mjtJoint.mjJNT_SLIDE
    assert m.body_mass[m.body("fl_pad").id] == pytest.approx(1e-5)
    ref = MiniAQ().model()                 # the pad's mass comes out of the coupler's: same robot mass and COM
    d, d0 = mujoco.MjData(m), mujoco.MjData(ref)
    mujoco.mj_forward(m, d)
    mujoco.mj_forward(ref, d0)
    assert m.body_subtreemass[1] == pytest.approx(ref.body_subtreemass[1], rel=1e-12)
    np.testing.assert_allclose(d.subtree_com[1], d0.subtree_com[1], atol=1e-12)


def test_pad_trot_support_pattern_is_the_paper_models():
    """Trot, 4 cycles (1 settling): the twin with foot=pad on >= 3 legs and hind duty within PAD_TOL of engine=paper
    (the point foot with contact_law=linear: 0.07 / 0.51 against 0.86 / 0.92)."""
    (s3, hd), (p3, phd), s = _pad_vs_paper(4)
    assert abs(s3 - p3) <= PAD_TOL and abs(hd - phd) <= PAD_TOL, (s3, p3, hd, phd)
    assert p3 > 0.7 and phd > 0.8                 # the paper model's three-legged, hind-dragging pattern
    assert s["speed"] > 0.08


def test_default_point_foot_support_pattern_is_the_paper_models():
    """The default (point foot, contact_law=hunt_crossley, 0.1 ms), trot, 4 cycles: on >= 3 legs and hind duty within
    PAD_TOL of engine=paper (measured 0.85 / 0.92 against 0.86 / 0.92; contact_law=linear gave 0.07 / 0.51)."""
    (s3, hd), (p3, phd), s = _vs_paper(4, {})
    assert abs(s3 - p3) <= PAD_TOL and abs(hd - phd) <= PAD_TOL, (s3, p3, hd, phd)
    assert p3 > 0.7 and phd > 0.8
    assert s["support_le1"] < 0.02                # no flights: the linear map's bounce is gone (it had 0.07)


XFAIL_190 = {
    "point": "measured (README, 'Hunt-Crossley through MuJoCo's own impedance'): the default twin 0.60-0.62 on >= 3 legs "
             "against the paper model's 0.90-0.91, without flights; neither the contact law's depths, the motors, the loop "
             "nor the legs' mass move it; the friction law (stiction vs the paper's creep) is not yet varied",
    "pad": "measured (README, Foot study, 'Why 190 deg fails'): the pad twin 0.48-0.59 on >= 3 legs against the "
           "paper model's 0.90-0.91: the linear pad returns the drop at each diagonal exchange (no foot down 5-7 % of the "
           "cycle) and the hind foot loses its drag"}


@pytest.mark.slow
@pytest.mark.parametrize("foot, theta1_deg", [(f, t) for f in ("point", "pad") for t in (130.0, 150.0, 170.0)] + [
    pytest.param(f, 190.0, marks=pytest.mark.xfail(strict=True, reason=r)) for f, r in XFAIL_190.items()])
def test_support_pattern_over_the_geometry_band(foot, theta1_deg):
    """The geometry map's paper-pattern band (theta1 130-190 deg, l1 18 mm), 6 cycles: the default twin (point foot,
    contact_law=hunt_crossley) and the twin with foot=pad, each within PAD_TOL of engine=paper."""
    twin = {} if foot == "point" else dict(foot="pad", timestep=2.5e-5)
    (s3, hd), (p3, phd), _ = _vs_paper(6, twin, theta1_deg=theta1_deg)
    assert abs(s3 - p3) <= PAD_TOL and abs(hd - phd) <= PAD_TOL, (s3, p3, hd, phd)


def test_foot_study_script_small(tmp_path):
    """The foot study's CI-sized run (2 cycles, one candidate): a row per engine, the verdict, every number in --json."""
    out = tmp_path / "study.json"
    res = run_script("-m", "gaittwin.miniaq.paper.studies.miniaq_foot_study",
                     "--cases", "trot", "--candidates", "pad:preload=0.02",
                     "--dt", "5e-5", "--cycles", "2", "--set", "theta1_deg=150", "--json", out)
    assert res.returncode == 0, res.stderr[-2000:]
    rows = json.loads(out.read_text())
    assert [r["engine"] for r in rows] == ["paper", "pad:preload=0.02"]
    assert {"support_ge3", "hind_duty", "support_ge3_filt", "hind_duty_filt", "flight", "worst", "meets"} <= set(rows[1])
    assert 0 <= rows[1]["support_ge3_filt"] <= 1 and 0 <= rows[1]["flight"] <= 1 and rows[1]["worst"] >= 0
    assert all(r["theta1_deg"] == 150 for r in rows)          # --set reaches both engines' rows
    # theta1 = 150 deg is not the default's gait: the paper model's trot is slower there (69 against 114 mm/s, README)
    assert rows[0]["speed"] < 0.09


def test_trot_compare_default_reports_support_fraction(tmp_path):
    """experiment=miniaq_trot, compare=true, the default contact: summary.json's support_fraction for the twin and for
    engine=paper (other_engine), each summing to 1 with its time on < 2 legs, >= 3 legs within PAD_TOL."""
    out = tmp_path / "hc"
    res = run_script("scripts/run.py", "experiment=miniaq_trot", "experiment.duration=1.6", "experiment.compare=true",
                     f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    for one, below in ((s, s["support_fraction_below_2"]), (s["other_engine"], s["other_engine"]["support_le1"])):
        assert sum(one["support_fraction"].values()) + below == pytest.approx(1.0, abs=1e-9)
    twin, paper = s["support_fraction"], s["other_engine"]["support_fraction"]
    assert abs((twin["3"] + twin["4"]) - (paper["3"] + paper["4"])) <= PAD_TOL, (twin, paper)


def test_trot_compare_with_the_foot_pad(tmp_path):
    """foot=pad through the CLI (issue #25): summary support_fraction for both engines, within 0.15 on >= 3 legs."""
    out = tmp_path / "pad"
    res = run_script("scripts/run.py", "experiment=miniaq_trot", "experiment.duration=1.6", "experiment.compare=true",
                     "robot.foot=pad", "robot.timestep=2.5e-5", f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    twin, paper = s["support_fraction"], s["other_engine"]["support_fraction"]
    assert abs((twin["3"] + twin["4"]) - (paper["3"] + paper["4"])) <= 0.15, (twin, paper)


def test_hunt_crossley_constraint_gives_the_papers_damping_at_both_depths():
    """The depth-rising impedance map (foot study, hc_*): MuJoCo's own impedance, stiffness and damping
    (efc_KBIP) on a free 23 mg sphere pressed 5 um and 31 um into the floor give the paper's C(r) and K r^2 there
    (tolerance 1 %), with the impedance near 1 (a hard stop) at the drop's depth."""
    from gaittwin.miniaq.foot import drop_depth, hunt_crossley_constraint, mj_impedance
    from gaittwin.miniaq.paper_laws import damping
    K, e, c_max, d, m, M = 1.15e9, 2.0, 588.0, 1e-4, 0.023, 2.3e-5
    r_dr = drop_depth(c_max, d, m / 2, 0.132)
    assert 25e-6 < r_dr < 35e-6                      # the paper model's deepest foot: 29 um (README)
    rate = damping(r_dr, c_max, d) / (m / 2)
    solref, solimp = hunt_crossley_constraint(K, e, c_max, d, rate, 1 / M, 5e-6, r_dr)
    xml = f"""<mujoco><option timestep="1e-5"/><worldbody><geom type="plane" size="1 1 1"/>
      <body><freejoint/><geom type="sphere" size="1e-3" mass="{M}" condim="1" priority="1" solref="{solref[0]} {solref[1]}"
      solimp="{' '.join(map(str, solimp))}"/></body></worldbody></mujoco>"""
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    A = float(model.body_invweight0[1, 0])
    assert A == pytest.approx(1 / M, rel=1e-6)
    for r in (5e-6, r_dr):
        data.qpos[2] = 1e-3 - r
        mujoco.mj_forward(model, data)
        k, b, imp, _ = data.efc_KBIP[0]
        assert imp == pytest.approx(mj_impedance(solimp, r), rel=1e-6)
        g = imp / (1 - imp)
        assert g * b / A == pytest.approx(damping(r, c_max, d), rel=0.01)
        if r == 5e-6:
            assert g * imp * k * r / A == pytest.approx(K * r**e, rel=0.01)
    assert imp > 0.95


@pytest.mark.parametrize("contact_law, foot", [("hunt_crossley", "point"), ("linear", "point"), ("power", "point"),
                                               ("hunt_crossley", "pad"), ("linear", "pad")])
def test_start_depth_is_the_rest_depth_of_the_contact_in_use(contact_law, foot):
    """initial_pose starts the lowest feet where the contact MuJoCo actually applies carries the weight at rest:
    the sum over those feet of the static normal force aref / R = -k imp pos / R (efc_KBIP, efc_pos, efc_R of
    each contact's normal row, elliptic cone; zero velocity and acceleration) is m g to 1e-6 relative, for one,
    two and four feet down (walk, trot, pronk).  Before: the pad under hunt_crossley (whose contact is the linear
    secant) started at the power law's depth (pronk +41 %, walk -29 % of the weight), and the default
    hunt_crossley point foot at the paper's (F/K)^(1/e), 1.6 x its rest depth (26 x the weight in trot)."""
    kw = dict(timestep=2.5e-5) if foot == "pad" else dict(timestep=5e-5) if contact_law == "power" else {}
    for gait, n_down in (("walk", 1), ("trot", 2), ("pronk", 4)):
        r = MiniAQ(gait=gait, contact_law=contact_law, foot=foot, **kw)
        m = r.model()
        assert m.opt.cone == mujoco.mjtCone.mjCONE_ELLIPTIC           # the normal force is each contact's first row
        d = mujoco.MjData(m)
        r.initial_pose(m, d)
        d.ctrl[:] = r.controls(np.zeros(1))[0]
        mujoco.mj_forward(m, d)
        rows = [d.contact[i].efc_address for i in range(d.ncon) if d.contact[i].efc_address >= 0]
        assert len(rows) == n_down, gait
        f = sum(-d.efc_KBIP[j, 0] * d.efc_KBIP[j, 2] * d.efc_pos[j] / d.efc_R[j] for j in rows)
        assert f == pytest.approx(r.p.m * 9.81, rel=1e-6), (gait, f / (r.p.m * 9.81))


def test_a_contact_too_soft_to_carry_the_weight_is_refused_naming_K(tmp_path):
    """K=1 (inside its declared range) cannot carry the weight at any depth below 1 m: refused at validation with a
    ConfigError naming K (not a ValueError traceback at the run's start); K = 1e3 carries it (measured depth 0.14 m,
    hunt_crossley, e = 2); the script exits 2 with one line, nothing written."""
    with pytest.raises(ConfigError, match=r"^K=1\.0 is not allowed: .*carry the weight"):
        MiniAQ(K=1.0)
    MiniAQ(K=1e3)
    assert_fails_early(tmp_path, "K", "experiment=miniaq_trot", "robot.K=1", text="carry the weight")
