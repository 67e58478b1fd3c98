"""The MinIAQ-II paper engine (envs/miniaq/paper/model.py): STEP, the contact and friction laws at their
knots, free-flight conservation, the legs against the twin's four-bar, the summary columns."""
import math

import mujoco
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from gaittwin.core.engines import batch
from gaittwin.miniaq.paper import model as mp
from gaittwin.miniaq.robot import LEGS, MiniAQ, foot_point, fourbar, quat_to_euler

K, E_EXP, C_MAX, D = 1.15e9, 2.0, 588.0, 1e-4          # Table II in SI
MU_S, MU_D, V_S, V_D = 0.4, 0.3, 1e-3, 1e-2


# ---- STEP ------------------------------------------------------------------------------------
def test_step_knots_and_smoothness():
    x1, y1, x2, y2 = -0.3, 2.0, 1.7, -1.0
    assert mp.step(x1, x1, y1, x2, y2) == y1 and mp.step(x2, x1, y1, x2, y2) == y2
    assert mp.step(0.5 * (x1 + x2), x1, y1, x2, y2) == pytest.approx(0.5 * (y1 + y2), abs=1e-15)
    np.testing.assert_array_equal(mp.step([-5.0, x1 - 1e-9], x1, y1, x2, y2), y1)     # held outside
    np.testing.assert_array_equal(mp.step([x2 + 1e-9, 9.0], x1, y1, x2, y2), y2)
    # the cubic y1 + (y2 - y1) s^2 (3 - 2 s)
    x = np.linspace(x1, x2, 101)
    s = (x - x1) / (x2 - x1)
    np.testing.assert_allclose(mp.step(x, x1, y1, x2, y2), y1 + (y2 - y1) * s * s * (3 - 2 * s), atol=1e-15)
    # C1: zero slope at both knots (one-sided difference quotients -> 0 linearly), 1.5 (dy/dx) at the middle
    for h in (1e-3, 1e-5):
        for xk, yk, sgn in ((x1, y1, 1), (x2, y2, -1)):
            slope = (mp.step(xk + sgn * h, x1, y1, x2, y2) - yk) / (sgn * h)
            assert abs(slope) < 4 * abs(y2 - y1) / (x2 - x1) ** 2 * h
    xm, h = 0.5 * (x1 + x2), 1e-6
    assert (mp.step(xm + h, x1, y1, x2, y2) - mp.step(xm - h, x1, y1, x2, y2)) / (2 * h) == \
        pytest.approx(1.5 * (y2 - y1) / (x2 - x1), rel=1e-6)
    # monotonic between the knots, and the float version is the same function
    assert np.all(np.diff(mp.step(x, x1, y1, x2, y2)) < 0)
    for xi in np.r_[x, -1.0, 2.0]:
        assert mp.step_f(float(xi), x1, y1, x2, y2) == pytest.approx(float(mp.step(xi, x1, y1, x2, y2)), abs=1e-15)


# ---- contact (eq. 15) -------------------------------------------------------------------------
def _one_foot(delta, vp=0.0, clip=False, **kw):
    """Foot fl alone at depth delta (the other feet in the air), sliding at rest, rising at vp."""
    r = MiniAQ(phase_deg=[0, 90, 180, 270])       # fl at its lowest at t = 0, the others higher
    model = mp.Model(mp.Params.from_robot(r, clip_normal=clip, **kw))
    (rE, J, thd), *others = model.feet_body(0.0)
    X = np.zeros(12)
    X[2] = model.P.foot_radius - delta - rE[2]
    X[6], X[8] = -J[0] * thd, -J[1] * thd + vp  # body velocity cancels the foot's: it only rises at vp
    assert all(X[2] + o[0][2] > model.P.foot_radius for o in others)
    return model, X


@pytest.mark.parametrize("delta", [1e-6, 9.9e-6, 5e-5, 1e-4, 3e-4])
def test_single_foot_at_constant_depth_gives_K_delta_e(delta):
    model, X = _one_foot(delta)
    Xd, info = model.evaluate(0.0, X, detail=True)
    fl, *rest = info["feet"]
    assert fl["Lp"] == pytest.approx(delta, rel=1e-9)
    assert fl["FN"] == pytest.approx(K * delta**E_EXP, rel=1e-9)
    np.testing.assert_allclose(fl["FI"], [0, 0, K * delta**E_EXP], rtol=1e-9, atol=1e-15)   # at rest: no friction
    assert all(f["FN"] == 0 for f in rest)
    # summed into the body (eqs. 18, 19): vertical force, moment r_c x F about the centroid
    m, g = model.P.m, model.P.g
    assert Xd[8] == pytest.approx(K * delta**E_EXP / m - g, rel=1e-9)
    rc = np.array(fl["rE"]) - [0, 0, model.P.foot_radius]
    np.testing.assert_allclose(info["M"], np.cross(rc, [0, 0, K * delta**E_EXP]), rtol=1e-9, atol=1e-18)


@pytest.mark.parametrize("delta", [2e-6, 9.9e-6, 5e-5])
def test_twin_differences_switched_into_the_paper_engine(delta):
    """stiffness="secant" / damping="constant": the twin's linear law (its secant k and the damping
    C at the load point, MiniAQ.contact) in place of eq. 15's K L_p^e and STEP damping."""
    lin = MiniAQ().contact()
    vp = 2e-3
    for kw, fn in ((dict(stiffness="secant"), lin["stiffness"] * delta - float(mp.damping(delta, C_MAX, D)) * vp),
                   (dict(damping="constant"), K * delta**E_EXP - lin["damping"] * vp),
                   (dict(stiffness="secant", damping="constant"), lin["stiffness"] * delta - lin["damping"] * vp)):
        model, X = _one_foot(delta, vp, **kw)
        _, info = model.evaluate(0.0, X, detail=True)
        assert info["feet"][0]["FN"] == pytest.approx(fn, rel=1e-9)
    with pytest.raises(ValueError, match="stiffness"):
        mp.Params.from_robot(MiniAQ(), stiffness="cubic")


def test_normal_force_damping_and_clipping_when_withdrawing():
    delta = 2e-5
    C = float(mp.step(delta, 0, 0, D, C_MAX))
    assert C == pytest.approx(C_MAX * 0.2**2 * (3 - 0.4))
    assert mp.damping(2 * D, C_MAX, D) == C_MAX and mp.damping(0.0, C_MAX, D) == 0.0
    for vp in (-0.01, 0.001, 0.05):            # pressing in (v_3 < 0), slowly and fast withdrawing
        printed = mp.normal_force(delta, vp, K, E_EXP, C_MAX, D)
        assert printed == pytest.approx(K * delta**2 - C * vp, rel=1e-12)
        assert mp.normal_force(delta, vp, K, E_EXP, C_MAX, D, clip=True) == max(printed, 0.0)
    assert mp.normal_force(delta, 0.05, K, E_EXP, C_MAX, D) < -2.5      # as printed it pulls ...
    assert mp.normal_force(-1e-9, -1.0, K, E_EXP, C_MAX, D) == 0.0     # ... and nothing out of contact
    # in the model: a foot rising at 50 mm/s from 20 um deep
    for clip, fn in ((False, K * delta**2 - C * 0.05), (True, 0.0)):
        model, X = _one_foot(delta, vp=0.05, clip=clip)
        fl = model.evaluate(0.0, X, detail=True)[1]["feet"][0]
        assert fl["vI"][2] == pytest.approx(0.05, abs=1e-12)
        assert fl["FN"] == pytest.approx(fn, rel=1e-9, abs=1e-15)


# ---- friction (eqs. 16, 17) ------------------------------------------------------------------------
def test_friction_coefficient_at_its_knots():
    mu = lambda v: float(mp.friction_coefficient(v, MU_S, MU_D, V_S, V_D))   # noqa: E731
    assert mu(0.0) == 0.0
    assert mu(V_S) == pytest.approx(-MU_S) and mu(-V_S) == pytest.approx(MU_S)
    assert mu(V_D) == pytest.approx(-MU_D) and mu(-V_D) == pytest.approx(MU_D)
    assert mu(1.0) == pytest.approx(-MU_D) and mu(-1.0) == pytest.approx(MU_D)
    v = np.linspace(-0.03, 0.03, 6001)
    np.testing.assert_allclose(mp.friction_coefficient(v, MU_S, MU_D, V_S, V_D),
                               -mp.friction_coefficient(-v, MU_S, MU_D, V_S, V_D), atol=1e-15)   # odd
    # the peak |mu| = mu_s is at V_s (no true stiction: mu -> 0 at rest, linearly)
    m = np.abs(mp.friction_coefficient(v, MU_S, MU_D, V_S, V_D))
    assert m.max() == pytest.approx(MU_S, abs=1e-6) and abs(v[np.argmax(m)]) == pytest.approx(V_S, abs=1e-5)
    # mu / V_rel of eq. 17 is finite at rest (slope -1.5 mu_s / V_s) and continuous at V_s
    vp = np.r_[1e-9, np.linspace(1e-6, 0.03, 3000)]
    np.testing.assert_allclose(mp.friction_ratio(vp, MU_S, MU_D, V_S, V_D),
                               mp.friction_coefficient(vp, MU_S, MU_D, V_S, V_D) / vp, rtol=1e-9, atol=1e-9)
    assert float(mp.friction_ratio(0.0, MU_S, MU_D, V_S, V_D)) == pytest.approx(-1.5 * MU_S / V_S)
    # the model's float version
    model = mp.Model(mp.Params.from_robot(MiniAQ()))
    for vi in (0.0, 5e-4, V_S, 3e-3, V_D, 0.2):
        assert model._mu(vi) == pytest.approx(mu(vi), abs=1e-15)


def test_friction_force_opposes_sliding():
    delta = 1e-5
    model, X = _one_foot(delta)
    X[6] += 0.02 * math.cos(0.3)                # the foot slides at 20 mm/s along 0.3 rad
    X[7] += 0.02 * math.sin(0.3)
    fl = model.evaluate(0.0, X, detail=True)[1]["feet"][0]
    fn = K * delta**2
    np.testing.assert_allclose(fl["FI"], [-MU_D * fn * math.cos(0.3), -MU_D * fn * math.sin(0.3), fn], rtol=1e-9)


# ---- rigid body: free flight ----------------------------------------------------------------------
def test_free_flight_conserves_energy_and_momentum():
    model = mp.Model(mp.Params.from_robot(MiniAQ(), contact=False))
    X0 = np.zeros(12)
    X0[2] = 0.5
    X0[3:6] = [0.1, -0.2, 0.3]
    X0[6:9] = [0.1, -0.2, 0.3]
    X0[9:12] = [1.5, -1.0, 6.0]                  # spinning mainly about the major axis Z_B (stable)
    T = 0.5
    sol = solve_ivp(model.rhs, (0, T), X0, method="DOP853", rtol=1e-11, atol=1e-13, t_eval=np.linspace(0, T, 51))
    assert sol.status == 0
    X = sol.y
    E = model.energy(X)
    np.testing.assert_allclose(E, E[0], rtol=1e-8)
    p, L = model.momenta(X)
    m, g = model.P.m, model.P.g
    np.testing.assert_allclose(p[:2], p[:2, :1] * np.ones_like(p[:2]), atol=1e-10)
    np.testing.assert_allclose(p[2], p[2, 0] - m * g * sol.t, atol=1e-10)
    np.testing.assert_allclose(L, L[:, :1] * np.ones_like(L), atol=1e-12 + 1e-8 * np.abs(L).max())
    # and the body really tumbled: Omega_B changed direction (eq. 10's gyroscopic terms acted)
    assert np.abs(X[9:12, -1] - X[9:12, 0]).max() > 0.1


# ---- legs: the same four-bar as the twin -----------------------------------------------------------
def test_velocity_analysis_eqs_1_to_6_matches_finite_differences():
    p = MiniAQ().p
    th = np.linspace(0, 2 * np.pi, 73)
    k = mp.leg_kinematics(th, 2.0, p)
    h = 1e-6
    Ep, Fp = foot_point(th + h, p)
    Em, Fm = foot_point(th - h, p)
    np.testing.assert_allclose(k["vE"], 2.0 * (Ep - Em) / (2 * h), atol=1e-9)
    np.testing.assert_allclose(k["vF"], 2.0 * (Fp - Fm) / (2 * h), atol=1e-9)
    Cp = fourbar(th + h, p.l1, p.theta1, p.l2, p.l3, p.l4)[1]
    Cm = fourbar(th - h, p.l1, p.theta1, p.l2, p.l3, p.l4)[1]
    np.testing.assert_allclose(k["vC"], 2.0 * (Cp - Cm) / (2 * h), atol=1e-9)
    # the table the ODE reads is the exact analysis
    tab = mp.LegTable(p)
    for t2 in np.random.default_rng(0).uniform(-10, 10, 200):
        ex, ez, jx, jz = tab(t2)
        E, _ = foot_point(t2, p)
        J = mp.leg_kinematics(t2, 1.0, p)["vE"]
        assert max(abs(ex - E[0]), abs(ez - E[1])) < 1e-12
        assert max(abs(jx - J[0]), abs(jz - J[1])) < 1e-11


@pytest.mark.parametrize("kw", [dict(), dict(gait="walk", direction_left=-1)])
def test_feet_match_the_twins_four_bar(kw):
    """Body pose and velocity arbitrary, legs at the crank angles of several times: foot E world
    positions (site) to 1e-6 m (in fact ~1e-15) and velocities (framelinvel) against MuJoCo."""
    r = MiniAQ(**kw)
    model = mp.Model(mp.Params.from_robot(r))
    m = r.model()
    d = mujoco.MjData(m)
    rng = np.random.default_rng(1)
    for t in np.linspace(0, r.period, 7):
        X = np.r_[rng.uniform(-0.1, 0.1, 3), rng.uniform(-0.5, 0.5, 3), rng.uniform(-0.3, 0.3, 6)]
        _, info = model.evaluate(t, X, detail=True)
        th, thd = model.crank(np.array([t]))
        d.qpos[:] = m.qpos0
        d.qvel[:] = 0
        root = d.joint("root")
        root.qpos[:3] = X[:3]
        root.qpos[3:] = mp.euler_to_quat(X[3:6])
        R = mp.rotation_b2i(*X[3:6])
        root.qvel[:3] = R @ X[6:9]                   # MuJoCo: world-frame linear, body-frame angular
        root.qvel[3:] = X[9:12]
        for j, leg in enumerate(LEGS):
            qc, qk, qr = r.leg_angles(th[j, 0])
            k = mp.leg_kinematics(th[j, 0], thd[j, 0], r.p)
            for name, q, qd in (("crank", qc, thd[j, 0]), ("coupler", qk, k["omega3"] - thd[j, 0]),
                                ("rocker", qr, k["omega4"])):
                d.joint(f"{leg}_{name}").qpos[0] = q
                d.joint(f"{leg}_{name}").qvel[0] = qd
        mujoco.mj_forward(m, d)
        assert quat_to_euler(d.sensor("torso_quat").data) == pytest.approx(X[3:6], abs=1e-12)
        for j, leg in enumerate(LEGS):
            foot = info["feet"][j]
            pos = X[:3] + R @ np.array(foot["rE"])
            assert np.abs(d.site(f"{leg}_foot").xpos - pos).max() < 1e-6
            assert np.abs(d.site(f"{leg}_foot").xpos - pos).max() < 1e-12      # the same four-bar
            np.testing.assert_allclose(d.sensor(f"{leg}_foot_vel").data, foot["vI"], atol=1e-10)


# ---- runs: the twin's summary columns ---------------------------------------------------------------
@pytest.fixture(scope="module")
def short_runs():
    out = {}
    for name, kw in (("trot", {}), ("turn", dict(direction_left=-1))):
        out[name] = (batch.run_point(MiniAQ(**kw), MiniAQ, cycles=3, nthread=1), mp.simulate(kw, cycles=3))
    return out


def test_trot_and_turn_same_columns_in_both_engines(short_runs):
    for name, (twin, paper) in short_runs.items():
        assert paper.error is None, paper.error
        st, sp = twin.robot.summarize(twin), mp.summarize(paper)
        assert set(st) <= set(sp), set(st) - set(sp)
        assert math.isnan(sp["max_loop_gap"]) and sp["crank_lag_max_deg"] == 0.0
        for k, v in st.items():
            assert isinstance(sp[k], type(v)), k
        assert len(paper.t) == len(twin.t) and np.allclose(paper.t, twin.t)
    trot = mp.summarize(short_runs["trot"][1])
    turn = mp.summarize(short_runs["turn"][1])
    assert trot["speed"] > 0.05 and abs(trot["yaw_rate_deg_s"]) < 2.0
    assert turn["yaw_rate_deg_s"] > 10.0 and abs(turn["speed"]) < 0.3 * trot["speed"]


def test_paper_run_physics(short_runs):
    paper = short_runs["trot"][1]
    r = paper.robot
    # the feet carry the weight on average (no legs' mass: all of m is the body's); 200 samples a
    # cycle under-sample the touchdown peaks (up to 20 N for ~0.1 ms): 20 000 a cycle give m g to 1e-4
    fn = np.stack([paper.sensor(f"{leg}_touch")[:, 0] for leg in LEGS], axis=1)
    spc = r.samples_per_cycle
    assert fn[spc:].sum(axis=1).mean() == pytest.approx(r.p.m * 9.81, rel=0.1)
    # the prescribed cranks are the twin's inputs exactly
    q = np.stack([paper.sensor(f"{leg}_crank_pos")[:, 0] for leg in LEGS], axis=1)
    np.testing.assert_allclose(q, r.inputs(paper.t)[0], atol=1e-12)
    # the sampled foot positions are on or above the floor within the contact depths
    z = np.stack([paper.sensor(f"{leg}_foot_pos")[:, 2] for leg in LEGS])
    assert z.min() > r.p.foot_radius - 1e-4


def test_clip_normal_never_pulls():
    run = mp.simulate({}, cycles=2, clip_normal=True)
    assert run.error is None
    assert run.extra["FN"].min() >= 0.0
    with pytest.raises(ValueError):
        mp.simulate({}, cycles=1, method="Euler")


# ---- experiments: engine=paper, the twin's files and columns -------------------------------------------
def _experiment(tmp_path, name, *overrides):
    import json

    from tests.util import run_script
    out = tmp_path / name
    res = run_script("scripts/run.py", *overrides, f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    return out, json.loads((out / "summary.json").read_text())


@pytest.mark.parametrize("experiment", ["miniaq_trot", "miniaq_turn"])
def test_trot_and_turn_experiments_in_both_engines(tmp_path, experiment):
    import csv
    runs = {e: _experiment(tmp_path, e, f"experiment={experiment}", f"engine={e}", "experiment.duration=0.8")
            for e in ("mujoco", "paper")}
    (out_m, sm), (out_p, sp) = runs["mujoco"], runs["paper"]
    assert set(sm) == set(sp) and sm["engine"] == "mujoco" and sp["engine"] == "paper"
    cols = [list(csv.DictReader(open(o / "timeseries.csv")))[0].keys() for o in (out_m, out_p)]
    assert list(cols[0]) == list(cols[1])
    assert all((o / "summary.json").exists() for o in (out_m, out_p))
    if experiment == "miniaq_turn":
        assert sp["yaw_rate_deg_s"] > 10.0
    else:
        assert sp["speed"] > 0.05 and (out_p / "gait_diagram.png").stat().st_size > 20_000


def test_gait_sweep_paper_engine_and_bad_settings(tmp_path):
    import csv
    out, s = _experiment(tmp_path, "sweep", "experiment=miniaq_gait_sweep", "engine=paper", "sweep.gait=[trot,pronk]",
                         "sweep.f=[2.5]", "run.cycles=2", "run.progress=false", "+paper.rtol=1e-4")
    rows = list(csv.DictReader(open(out / "results.csv")))
    assert [r["gait"] for r in rows] == ["trot", "pronk"] and s["engine"] == "paper" and s["errors"] == 0
    assert float(rows[0]["speed"]) > 5 * abs(float(rows[1]["speed"]))
    # bad engine settings are config errors (scripts/run.py: exit 2 before anything runs)
    from gaittwin.core.runs import config
    from gaittwin.core.model.errors import ConfigError
    from gaittwin.miniaq.paper import experiments as ex
    with pytest.raises(ConfigError, match="engine"):
        ex.engine_of(config.compose(["experiment=miniaq_trot", "engine=hybrid"]))
    with pytest.raises(ConfigError, match="paper.rtl"):
        ex.paper_kw(config.compose(["experiment=miniaq_trot", "engine=paper", "+paper.rtl=1e-3"]))
    assert ex.paper_kw(config.compose(["experiment=miniaq_trot", "+paper.clip_normal=true"])) == {"clip_normal": True}


@pytest.mark.slow
def test_twin_vs_paper_script(tmp_path):
    """The README's comparison command, shortened (about 15 s)."""
    import json

    from tests.util import run_script
    res = run_script("-m", "gaittwin.miniaq.paper.studies.miniaq_twin_vs_paper", "--cycles", "2",
                     "--json", tmp_path / "c.json")
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads((tmp_path / "c.json").read_text())
    assert set(out) == {"trot", "turn"} and set(out["trot"]) == {"twin", "twin power", "paper", "paper clipped"}
    assert out["trot"]["paper"]["fn_min_dense"] < 0 and out["turn"]["paper"]["yaw_rate_deg_s"] > 10
    assert "| yaw rate (deg/s)" in res.stdout


# ---- the paper's phase error: one declaration, both engines -----------------------------------
def test_phase_error_changes_the_inputs_as_declared_and_identically_in_both_engines():
    t = np.linspace(0.0, 12.0, 4801)
    r0 = MiniAQ()
    err = [20.0, 0.0, -10.0, 5.0]
    r = MiniAQ(phase_error_deg=err)
    q0, qd0, _ = r0.inputs(t)
    q, qd, _ = r.inputs(t)
    sg = np.array(r.inputs.directions)
    # fixed errors: each leg lags by its error, at the same speed
    np.testing.assert_allclose(-(q - q0) / sg, np.broadcast_to(np.radians(err), q.shape), atol=1e-12)
    np.testing.assert_array_equal(qd, qd0)
    assert r.gait_phases == r0.phases and r.intended_contact(t[:50]).tolist() == r0.intended_contact(t[:50]).tolist()
    # the slow wander: bounded by its amplitude, seeded, smooth (qd is dq/dt), slower than the gait
    rw = MiniAQ(phase_error_deg=err, phase_wander_deg=20.0, phase_wander_seed=7)
    qw, qdw, _ = rw.inputs(t)
    dl = -(qw - q) / sg
    assert np.abs(dl).max() <= math.radians(20.0) + 1e-12 and np.abs(dl).max() > math.radians(8.0)
    np.testing.assert_allclose(np.gradient(qw, t, axis=0)[1:-1], qdw[1:-1], atol=2e-3)
    assert np.abs(np.diff(dl, axis=0)).max() < math.radians(1.0)      # < 1 deg per 2.5 ms sample
    np.testing.assert_allclose(MiniAQ(phase_wander_deg=20.0, phase_wander_seed=7).inputs(t)[0] - q0, qw - q, atol=1e-12)
    assert not np.allclose(MiniAQ(phase_wander_deg=20.0, phase_wander_seed=8).inputs(t)[0], qw - q + q0)
    # the twin's motor references are these inputs
    np.testing.assert_allclose(rw.controls(t[:5]), qw[:5] + (rw.p.kv / rw.p.kp) * qdw[:5])
    # the paper engine turns its cranks exactly so (its ODE reads feet_body: same angles and rates)
    model = mp.Model(mp.Params.from_robot(rw))
    th, thd = model.crank(t)
    np.testing.assert_array_equal(th.T, qw)
    np.testing.assert_array_equal(thd.T, qdw)
    for ti in (0.0, 1.234, 7.5):
        feet = model.feet_body(ti)
        qi, qdi, _ = rw.inputs(np.array([ti]))
        for j, (rE, _, rate) in enumerate(feet):
            E, _ = foot_point(qi[0, j], rw.p)
            assert rE[0] - model.P.pivots[j][0] == pytest.approx(E[0], abs=1e-10)
            assert rate == pytest.approx(qdi[0, j], rel=1e-12)


def test_phase_error_declaration():
    from gaittwin.core.model.errors import ConfigError
    for bad in (dict(phase_error_deg=[10, 10, 10]), dict(phase_error_deg=[0, 0, 0, 200]), dict(phase_wander_deg=-1)):
        with pytest.raises(ConfigError) as e:
            MiniAQ(**bad)
        assert e.value.param == next(iter(bad))


# ---- geometry map: both engines, same columns -----------------------------------------------------
def test_geometry_map_tiny_grid_in_both_engines(tmp_path):
    import csv
    import json

    from tests.util import run_script
    outs = {}
    for e in ("mujoco", "paper"):
        out = tmp_path / e
        res = run_script("scripts/run.py", "experiment=miniaq_geometry_map", f"engine={e}",
                         "experiment.l1=[0.005,0.018,0.03]", "experiment.theta1_deg=[130]", "run.cycles=2",
                         "run.progress=false", "+paper.rtol=1e-4" if e == "paper" else "run.nthread=1",
                         f"hydra.run.dir={out}")
        assert res.returncode == 0, res.stderr[-2000:]
        outs[e] = (list(csv.DictReader(open(out / "results.csv"))), json.loads((out / "summary.json").read_text()))
        assert (out / "geometry_map.png").stat().st_size > 20_000
    (rm, sm), (rp, sp) = outs["mujoco"], outs["paper"]
    assert list(rm[0]) == list(rp[0])                                     # the same columns
    assert [(float(r["l1"]), float(r["theta1_deg"])) for r in rm] == [(0.018, 130.0), (0.03, 130.0)]
    assert [r["l1"] for r in rp] == [r["l1"] for r in rm] and not any(r["error"] for r in rm + rp)
    for s in (sm, sp):                                                    # l1 = 5 mm: not a crank-rocker
        assert [(p["l1"], p["theta1_deg"]) for p in s["invalid"]] == [(0.005, 130.0)]
        assert "Grashof" in s["invalid"][0]["reason"]
    default = next(r for r in rp if float(r["l1"]) == 0.018)
    assert float(default["height"]) == pytest.approx(0.045, abs=0.002) and float(default["width"]) == 0.048
    assert float(default["support_ge3"]) > 0.5 and float(default["hl_duty_factor"]) > 0.8   # the paper's pattern


# ---- the stacked gait diagram ----------------------------------------------------------------------
def test_trot_compare_draws_both_engines(tmp_path):
    import json

    from tests.util import run_script
    out = tmp_path / "cmp"
    res = run_script("scripts/run.py", "experiment=miniaq_trot", "experiment.duration=0.8", "experiment.compare=true",
                     "+paper.rtol=1e-4", f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    assert s["engine"] == "mujoco" and s["other_engine"]["engine"] == "paper"
    assert s["other_engine"]["hl_duty_factor"] > 0.8 and "hl_touchdowns_per_cycle" in s["other_engine"]
    assert (out / "gait_diagram_engines.png").stat().st_size > 40_000
    assert set(s["support_fraction"]) == set(s["other_engine"]["support_fraction"]) == {"2", "3", "4"}


# ---- the twin's robustness-only parameters: refused, never dropped ------------------------------
@pytest.mark.parametrize("kw", [dict(mu_d_feet=[0.3, 0.3, 0.2, 0.3]), dict(com_offset_x=0.001),
                                dict(com_offset_y=-0.001), dict(passive_damping=1e-5)])
def test_twin_only_parameters_refused_by_the_paper_engine(kw):
    from gaittwin.core.runs import config
    from gaittwin.core.model.errors import ConfigError
    from gaittwin.miniaq.paper import experiments as ex
    (name, value), = kw.items()
    with pytest.raises(ConfigError, match=f"^{name}=.*engine=paper") as e:
        mp.Params.from_robot(MiniAQ(**kw))
    assert e.value.param == name
    over = f"robot.{name}={value}".replace(" ", "")
    for engine in (["engine=paper"], ["experiment.compare=true"]):          # compare runs the paper engine too
        with pytest.raises(ConfigError, match=f"^{name}="):
            ex.engine_of(config.compose(["experiment=miniaq_trot", over, *engine]))
    assert ex.engine_of(config.compose(["experiment=miniaq_trot", over])) == "mujoco"
    mp.Params.from_robot(MiniAQ(mu_d_feet=None, com_offset_x=0.0, com_offset_y=0.0, passive_damping=0.0))  # defaults


def test_twin_only_parameter_on_paper_engine_exits_2_nothing_written(tmp_path):
    from tests.util import assert_fails_early
    assert_fails_early(tmp_path, "com_offset_x", "experiment=miniaq_turn", "engine=paper", "robot.com_offset_x=0.002",
                       text="engine=paper")
