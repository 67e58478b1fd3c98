"""The paper's exact hybrid model (envs/crawler/paper/hybrid.py) and the crawler experiments on both engines."""
import csv
import json
import math

import mujoco
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from gaittwin.core.engines import batch
from gaittwin.crawler.paper import hybrid as H
from gaittwin.crawler.robot import Crawler, feet, ideal_stride
from tests.util import run_script

JOINTS = ("root_x", "root_z", "theta", "phi1", "phi2")
ASYM = dict(m1=0.03, m2=0.012, J1=1.4e-4, J2=0.6e-4, m0=0.2, J0=8e-4)
COM = dict(dc0=0.02, dc1=-0.03, dc2=0.025)      # COM offsets along the links, larger than robustness draws


def _random_states(n, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        yield (np.r_[rng.uniform(-1, 1, 2), rng.uniform(-0.8, 0.8), rng.uniform(0.3, 2.8, 2)],
               rng.normal(size=5) * 3)


def _mujoco(r):
    m = r.model()
    d = mujoco.MjData(m)
    qa = [m.joint(j).qposadr[0] for j in JOINTS]
    va = [m.joint(j).dofadr[0] for j in JOINTS]
    return m, d, qa, va


# ---- equations of motion ------------------------------------------------------------------
def test_mass_matrix_matches_eq9_and_mujoco():
    r = Crawler()
    P = H.Params.from_robot(r)
    m, d, qa, va = _mujoco(r)
    for q, qd in _random_states(20):
        M = H.mass_matrix(q, P)
        np.testing.assert_allclose(M, H.paper_M(q, P.m0, P.m1, P.l0, P.l, P.J0, P.J1), atol=1e-14)
        d.qpos[:], d.qvel[:] = 0, 0
        d.qpos[qa] = q
        mujoco.mj_forward(m, d)
        full = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, full)
        np.testing.assert_allclose(M, full[np.ix_(va, va)], atol=1e-14)


@pytest.mark.parametrize("params", [{}, ASYM, COM, {**ASYM, **COM}])
def test_bias_and_gravity_match_mujoco_rne(params):
    """B + G and M against MuJoCo's bias forces (mj_rne) and mass matrix, also for unequal distal links and
    for COM offsets dc0-dc2 (the exact model supports them: its terms are derived from the COM kinematics)."""
    r = Crawler(**params)
    P = H.Params.from_robot(r)
    m, d, qa, va = _mujoco(r)
    m.opt.gravity[:] = [0, 0, -H.G_ACC]
    model = H.Model(P)
    for q, qd in _random_states(20, seed=1):
        d.qpos[:], d.qvel[:] = 0, 0
        d.qpos[qa], d.qvel[va] = q, qd
        mujoco.mj_forward(m, d)
        ref = d.qfrc_bias[va]
        np.testing.assert_allclose(H.bias(q, qd, P) + H.gravity(q, P), ref, atol=1e-12)
        full = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, full)
        np.testing.assert_allclose(H.mass_matrix(q, P), full[np.ix_(va, va)], atol=1e-14)
        # the fast closed-form path used in the integrator is the same
        Mb, hb, W, wb, _ = model.terms(q, qd)
        np.testing.assert_allclose(np.array(Mb), H.mass_matrix(q, P)[:3], atol=1e-14)
        np.testing.assert_allclose(hb, ref[:3], atol=1e-12)
        W1, W2 = H.foot_jacobians(q, P)
        np.testing.assert_allclose(np.array(W), np.vstack([W1, W2]), atol=1e-14)
        w1, w2 = H.foot_bias(q, qd, P)
        np.testing.assert_allclose(wb, np.r_[w1, w2], atol=1e-12)


def test_printed_B_and_G_typos():
    """Eq. 11 (G) is right; eq. 10 (B) is right except row 2, whose printed form is wrong."""
    r = Crawler()
    P = H.Params.from_robot(r)
    bad_row2 = 0
    for q, qd in _random_states(20, seed=2):
        mine, printed = H.bias(q, qd, P), H.paper_B(q, qd, P.m1, P.l0, P.l)
        np.testing.assert_allclose(np.delete(mine, 1), np.delete(printed, 1), atol=1e-13)
        _, _, th, p1, p2 = q
        _, _, thd, p1d, p2d = qd
        fixed = 0.5 * P.l * P.m1 * ((p2d + thd) ** 2 * math.sin(p2 + th) + (p1d - thd) ** 2 * math.sin(p1 - th))
        assert mine[1] == pytest.approx(fixed, abs=1e-13)
        bad_row2 += abs(mine[1] - printed[1]) > 1e-6
        np.testing.assert_allclose(H.gravity(q, P), H.paper_G(q, P.m0, P.m1, P.l), atol=1e-13)
    assert bad_row2 > 15


def test_foot_jacobians_are_eqs_12_13_and_differentiate_the_feet():
    P = H.Params.from_robot(Crawler())
    for q, qd in _random_states(5, seed=3):
        W1, W2 = H.foot_jacobians(q, P)
        h = 1e-7
        num = np.column_stack([(np.array(feet(*(q + h * e), P.l0, P.l)) - np.array(feet(*(q - h * e), P.l0, P.l)))
                               / (2 * h) for e in np.eye(5)])
        np.testing.assert_allclose(np.vstack([W1, W2]), num, atol=1e-7)


@pytest.mark.parametrize("params", [ASYM, {**ASYM, **COM}])
def test_energy_consistency_skew_symmetry(params):
    """q'^T B = 1/2 q'^T M' q' (B is the Coriolis term of this M): no spurious power; G = dV/dq."""
    P = H.Params.from_robot(Crawler(**params))
    model = H.Model(P)
    for q, qd in _random_states(10, seed=4):
        h = 1e-6
        Mdot = (H.mass_matrix(q + h * qd, P) - H.mass_matrix(q - h * qd, P)) / (2 * h)
        assert qd @ H.bias(q, qd, P) == pytest.approx(0.5 * qd @ Mdot @ qd, rel=1e-6, abs=1e-10)
        dV = [(model.potential(q + h * e) - model.potential(q - h * e)) / (2 * h) for e in np.eye(5)]
        np.testing.assert_allclose(H.gravity(q, P), dV, atol=1e-8)


# ---- hybrid simulation ----------------------------------------------------------------
@pytest.fixture(scope="module")
def run32():
    """omega = 3.2: stick-slip, slip-stick and slip-slip all occur; fine samples for the balances."""
    sim = H.Simulator(Crawler(omega=3.2), samples_per_cycle=4000)
    return sim, sim.run(cycles=3, stop_when_steady=False)


def test_constraints_hold_and_normal_forces_positive(run32):
    sim, run = run32
    P = sim.P
    _, y1, _, y2 = feet(*run.q.T, P.l0, P.l)
    assert np.abs(y1).max() < 1e-9 and np.abs(y2).max() < 1e-9
    stick = run.mode == H.STICK
    assert stick.any()
    assert np.abs(run.vx[stick]).max() < 1e-8               # a sticking foot does not move
    mus = np.array([P.mu1, P.mu2])
    assert (np.abs(run.ft[stick]) <= (mus * run.fn)[stick] * (1 + 1e-6)).all()   # inside the cone
    slip = ~stick
    np.testing.assert_allclose(run.ft[slip], (-mus * run.mode * run.fn)[slip], atol=1e-12)
    assert (run.fn > 0).all() and run.liftoff_t is None and run.error is None
    assert set(map(tuple, run.mode)) >= {(0, 1), (-1, 0)} or len(set(map(tuple, run.mode))) >= 3


def test_sticking_foot_never_leaves_the_friction_cone_with_unequal_friction():
    """mu1 = 0.9 mu: the weight shift of psi = 96 deg moves the slip from foot to foot (cone events)."""
    sim = H.Simulator(Crawler(omega=0.3, psi_deg=96.0, mu1=0.1548, mu2=0.172))
    run = sim.run(cycles=3, stop_when_steady=False)
    mus = np.array([sim.P.mu1, sim.P.mu2])
    stick = run.mode == H.STICK
    assert (np.abs(run.ft[stick]) <= (mus * run.fn)[stick] * (1 + 1e-6) + 1e-12).all()
    assert any(old[i] == H.STICK and new[i] != H.STICK for _, old, new, _, _ in run.switches for i in (0, 1))
    assert stick[:, 0].any() and stick[:, 1].any()          # both feet take turns
    assert run.cycle_values[-1] > 0.1                        # and the robot advances


def test_energy_balance_along_a_trajectory(run32):
    """E(t1) - E(t0) = integral of joint power + friction power (normal forces do no work)."""
    sim, run = run32
    model = sim.model
    n = 4000
    sl = slice(n, 2 * n + 1)            # the second cycle
    t = run.t[sl]
    E, Pw = [], []
    for tt, q, qd, m in zip(t, run.q[sl], run.qd[sl], run.mode[sl]):
        qddc = sim.law(tt)[2]
        qddb, f = model.solve(q, qd, qddc, tuple(m))
        qdd = np.r_[qddb, qddc]
        tau = model.torques(q, qd, qdd, f)
        v1, v2 = model.foot_vx(q, qd)
        E.append(model.energy(q, qd))
        Pw.append(tau @ qd[3:] + f[0] * v1 + f[2] * v2)
    E, Pw = np.array(E), np.array(Pw)
    work = np.concatenate([[0], np.cumsum(0.5 * (Pw[1:] + Pw[:-1]) * np.diff(t))])
    scale = np.trapezoid(np.abs(Pw), t)
    assert np.abs((E - E[0]) - work).max() < 2e-3 * scale
    assert scale > 1e-3


def test_transitions_happen_where_tangential_velocity_crosses_zero(run32):
    sim, run = run32
    assert len(run.switches) >= 6
    mus = (sim.P.mu1, sim.P.mu2)
    for t, old, new, v, f in run.switches:
        for i in (0, 1):
            if old[i] != H.STICK and new[i] != old[i]:       # slip ended: stick or reversal
                assert abs(v[i]) < 1e-7, (t, old, new, v)
            if old[i] == H.STICK and new[i] != H.STICK:       # stick ended: friction cone boundary
                assert abs(abs(f[2 * i]) - mus[i] * f[2 * i + 1]) < 1e-6 * f[2 * i + 1], (t, old, new, f)
    # between events a slipping foot keeps the direction of its slip
    for i in (0, 1):
        s = run.mode[:, i]
        assert (s[s != 0] * run.vx[s != 0, i] >= -1e-9).all()


def test_event_logic_matches_regularised_coulomb():
    """Independent check of the mode logic: tanh-regularised friction (no events) converges to the hybrid S."""
    r = Crawler(omega=5.1)
    sim = H.Simulator(r)
    eps = 3e-5

    def rhs(t, z):
        qc, qdc, qddc = sim.law(t)
        q, qd = np.r_[z[:3], qc], np.r_[z[5:8], qdc]
        mode = tuple(math.tanh(v / eps) or 1e-300 for v in sim.model.foot_vx(q, qd))
        qddb, _ = sim.model.solve(q, qd, qddc, mode)
        return np.r_[qd, qddb, qddc]
    z0 = sim.initial_state()
    T = r.period
    sol = solve_ivp(rhs, (0, 3 * T), z0, method="LSODA", rtol=1e-9, atol=1e-11, t_eval=[2 * T, 3 * T])
    x1 = [feet(*np.r_[z[:3], sim.law(t)[0]], sim.P.l0, sim.P.l)[0] for t, z in zip(sol.t, sol.y.T)]
    S_reg = -(x1[1] - x1[0])
    S_hyb = H.summarize(H.simulate(r, cycles=4))["S"]
    assert S_reg == pytest.approx(S_hyb, abs=5e-5)


def test_low_frequency_is_quasistatic_ideal():
    run = H.simulate(dict(omega=0.3), cycles=6)
    s = H.summarize(run)
    ideal = ideal_stride(Crawler(omega=0.3).inputs, 0.187, 0.17)
    assert s["steady"] and s["S"] == pytest.approx(ideal, rel=0.01)
    assert s["foot1_slip_backward"] < 0.02 and s["foot2_slip_backward"] < 0.02


def test_liftoff_is_reported():
    """A negative normal force is never silently ignored."""
    r = Crawler(omega=3.0)
    sim = H.Simulator(r, liftoff="stop")
    sim.P = H.Params(**{**sim.P.__dict__, "g": -2.0})     # gravity upwards: the floor must pull the feet
    sim.model = H.Model(sim.P)
    run = sim.run(cycles=3, stop_when_steady=False)
    assert run.liftoff_t is not None and "lift-off" in run.error
    s = H.summarize(run)
    assert math.isnan(s["S"]) and min(s["foot1_fn_min"], s["foot2_fn_min"]) <= 0
    assert s["foot1_liftoff"] + s["foot2_liftoff"] > 0
    flagged = H.Simulator(r)                                # default liftoff="flag": kept, but reported
    flagged.P, flagged.model = sim.P, sim.model
    run = flagged.run(cycles=1, stop_when_steady=False)
    assert run.liftoff_t is not None and run.error is None and (run.fn <= 0).any()


def test_feedback_law_tracks_contact_velocities_in_slip_slip():
    """Eq. 19 in slip-slip: the foot velocity error obeys e' = -K_v e (eqs. 20-23)."""
    r = Crawler(omega=8.0)
    P = H.Params.from_robot(r)
    law = H.FeedbackLaw(r.inputs, P)
    model = H.Model(P, baumgarte=0.0)
    z = H.Simulator(r).initial_state()
    q, qd = z[:5].copy(), z[5:].copy()
    qd[0] += 0.05                          # both feet slipping towards +x
    t = 0.1
    mode = (1, 1)
    qddc, branch = law.qdd_c(t, q, qd, mode, model)
    assert branch == "velocity"
    qddb, _ = model.solve(q, qd, qddc, mode)
    a = np.array(model.foot_ax(q, qd, np.r_[qddb, qddc]))
    vr, vrd = law.v_ref(t)
    e = np.array(model.foot_vx(q, qd)) - vr
    np.testing.assert_allclose(a - vrd, -10.0 * e, atol=1e-9)
    # outside Phi the law is PD reference tracking
    q2 = q.copy()
    q2[3] = math.radians(135)
    assert law.qdd_c(t, q2, qd, mode, model)[1] == "pd"


# ---- twin vs hybrid ------------------------------------------------------------------------
def _twin_and_hybrid(omegas, cycles=40, **kw):
    runs = batch.run_points([dict(omega=w, **kw) for w in omegas], Crawler, cycles=cycles, stop_when_steady=True)
    tw = {w: r.robot.summarize(r) for w, r in zip(omegas, runs)}
    hy = {w: H.summarize(H.simulate(dict(omega=w, **kw), cycles=cycles)) for w in omegas}
    return tw, hy


def _within(a, b):
    """Issue #13's target: |S_twin - S_exact| <= max(1.5 mm, 3 %)."""
    return abs(a - b) <= max(1.5e-3, 0.03 * abs(b))


@pytest.fixture(scope="module")
def twin_vs_exact():
    """The default contact recipe (foot-floor pairs) against the exact model, Fig. 4 inputs."""
    return _twin_and_hybrid([0.3, 1.0, 2.0, 8.0, 16.0])


@pytest.mark.parametrize("omega", [0.3, 1.0, 2.0, 8.0, 16.0])
def test_twin_within_target_of_hybrid(twin_vs_exact, omega):
    """Within the target, steady where the exact model is, same sign where |S_exact| > 1 mm."""
    tw, hy = twin_vs_exact
    a, b = tw[omega], hy[omega]
    assert _within(a["S"], b["S"]), (omega, a["S"], b["S"])
    assert a["steady"] or not b["steady"]
    if abs(b["S"]) > 1e-3:
        assert np.sign(a["S"]) == np.sign(b["S"])


def test_contact_recipe_study_script(tmp_path):
    """gaittwin.crawler.paper.studies.crawler_contact_recipe (the README's recipe study) on one point."""
    out = tmp_path / "study.json"
    res = run_script("-m", "gaittwin.crawler.paper.studies.crawler_contact_recipe",
                     "--recipes", "pair 0.5/50/(0.05, 0.1)", "--cases", "fig4", "--dt", "2e-4", "--omegas", "8",
                     "--json", str(out))
    assert res.returncode == 0, res.stderr[-3000:]
    d = json.loads(out.read_text())
    v = d["twin"]["fig4"]["pair 0.5/50/(0.05, 0.1)"]["0.0002"]
    assert v["verdict"]["ok"] and v["verdict"]["max_abs_dS"] < 1.5e-3 and v["points"][0]["liftoff"] == 0
    assert "| exact |" in res.stdout


# ---- experiments end to end (tiny grids) -----------------------------------------------------
def _run(tmp_path, *args):
    out = tmp_path / "run"
    res = run_script("scripts/run.py", *args, f"hydra.run.dir={out}", "run.progress=false")
    assert res.returncode == 0, res.stderr[-3000:]
    return out


def _rows(path):
    return list(csv.DictReader(open(path)))


CONTRACT = ("omega", "psi_deg", "A_deg", "phi0_deg", "mu", "S", "V")


def test_twin_vs_hybrid_experiment(tmp_path):
    out = _run(tmp_path, "experiment=crawler_twin_vs_hybrid", "sweep.omega=[1,16]", "run.cycles=8")
    cmp_rows = _rows(out / "comparison.csv")
    assert [float(r["omega"]) for r in cmp_rows] == [1.0, 16.0]
    assert list(_rows(out / "results_mujoco.csv")[0].keys()) == list(_rows(out / "results_hybrid.csv")[0].keys())
    for c in CONTRACT:
        assert c in _rows(out / "results.csv")[0]
    s = json.loads((out / "summary.json").read_text())
    assert abs(float(cmp_rows[0]["err_mm"])) < 3 and s["max_abs_err_mm"] >= abs(float(cmp_rows[0]["err_mm"]))
    assert (out / "twin_vs_hybrid.png").stat().st_size > 10_000


def test_frequency_sweep_hybrid_engine_same_columns(tmp_path):
    out = _run(tmp_path, "experiment=crawler_frequency_sweep", "engine=hybrid", "sweep.omega=[2]",
               "experiment.overlay=mujoco", "run.cycles=6")
    h, m = _rows(out / "results.csv"), _rows(out / "results_mujoco.csv")
    assert list(h[0].keys()) == list(m[0].keys())
    assert abs(float(h[0]["S"]) - float(m[0]["S"])) < 3e-3
    assert (out / "S_V_vs_omega.png").stat().st_size > 10_000


def test_an_overlay_on_the_engine_itself_is_refused(tmp_path):
    """experiment.overlay equal to the engine: one line naming experiment.overlay, exit 2, no run files."""
    out = tmp_path / "run"
    res = run_script("scripts/run.py", "experiment=crawler_frequency_sweep", "engine=hybrid", "sweep.omega=[2]",
                     "experiment.overlay=hybrid", f"hydra.run.dir={out}", "run.progress=false")
    assert res.returncode == 2 and "experiment.overlay" in res.stderr, res.stderr[-2000:]
    assert not (out / "results.csv").exists() and not (out / "summary.json").exists()


def test_psi_omega_map_experiment(tmp_path):
    out = _run(tmp_path, "experiment=crawler_psi_omega_map", "engine=hybrid", "sweep.omega=[1,12]",
               "sweep.psi_deg=[0,40,80,120]", "run.cycles=10")
    assert len(_rows(out / "results.csv")) == 8
    star = {float(r["omega"]): float(r["psi_star_deg"]) for r in _rows(out / "psi_star.csv")}
    assert list(_rows(out / "psi_star.csv")[0].keys()) == ["omega", "psi_star_deg", "S_star"]
    assert star[1.0] < star[12.0]                  # psi* grows with frequency (Fig. 6)
    assert (out / "psi_omega_map.png").exists()


def test_direction_reversal_experiment(tmp_path):
    out = _run(tmp_path, "experiment=crawler_direction_reversal", "engine=hybrid", "experiment.a.omega=[4,16]",
               "experiment.b.phi0_deg=[110,140]", "run.cycles=10")
    s = json.loads((out / "summary.json").read_text())
    assert len(s["reversal_omega"]) == 1 and 4 < s["reversal_omega"][0] < 16
    assert len(s["reversal_phi0_deg"]) == 1
    assert {float(r["phi0_deg"]) for r in _rows(out / "results.csv")} == {145.0}
    assert {float(r["mu"]) for r in _rows(out / "results_phi0.csv")} == {0.398}


@pytest.mark.parametrize("sampling,per_point", [("ratio", 3), ("eq7", 9)])
def test_friction_robustness_experiment(tmp_path, sampling, per_point):
    out = _run(tmp_path, "experiment=crawler_friction_robustness", "engine=hybrid", "sweep.omega=[16]",
               "sweep.psi_deg=[20,60]", "run.cycles=10", f"experiment.sampling={sampling}")
    rows = _rows(out / "results.csv")
    assert len(rows) == 2 * per_point and {"mu1", "mu2"} <= set(rows[0])
    s = json.loads((out / "summary.json").read_text())
    assert s["sampling"] == sampling and len(s["friction_set"]) == per_point
    ratios = [float(r["mu1"]) / float(r["mu2"]) for r in rows]
    assert (max(ratios) <= 1.1 + 1e-9) == (sampling == "ratio")    # eq7 reaches 1.1/0.9
    for r in _rows(out / "robustness.csv"):
        S_min, S_max, S_mu = float(r["S_min"]), float(r["S_max"]), float(r["S_mu"])
        assert S_min <= float(r["S"]) <= S_max and S_mu == pytest.approx(0.5 * (S_min + S_max))
    assert "psi_mu_star_deg" in _rows(out / "optima.csv")[0]


def test_mass_distribution_experiment(tmp_path):
    out = _run(tmp_path, "experiment=crawler_mass_distribution", "sweep.omega=[8]",
               "experiment.mass_ratio=[0.5]", "experiment.m1_over_m2=[0.5,2]", "run.cycles=8")
    rows = _rows(out / "results.csv")
    assert len(rows) == 2
    for r in rows:
        m1, m2 = float(r["m1"]), float(r["m2"])
        assert m1 / m2 == pytest.approx(float(r["m1_over_m2"])) and (m1 + m2) / (2 * 0.194) == pytest.approx(0.5)
    assert rows[0]["S"] != rows[1]["S"]
    pref = json.loads((out / "summary.json").read_text())["mass_preference"]["8"]
    assert pref["best_m1_over_m2"] in (0.5, 2.0) and pref["preferred_heavier_link"].split()[0] in ("front", "rear")


def test_time_scaling_experiment(tmp_path):
    out = _run(tmp_path, "experiment=crawler_time_scaling", "engine=hybrid", "experiment.omega=[3.2]",
               "experiment.n_trials=4", "experiment.psi_baseline=[20,60]", "run.cycles=8")
    best = _rows(out / "best.csv")[0]
    assert float(best["value_best"]) >= float(best["value_base"])
    assert len(_rows(out / "results.csv")) >= 6
    assert (out / "fig10_time_scaling.png").exists()


def test_time_scaling_best_is_the_best_simulated_point(tmp_path):
    """With two omegas the second study's trials were scored from the wrong rows (the seeding loop
    rebound the rows-per-trial count `k`), so its optimum was the baseline (gain exactly x1): per omega,
    the reported best and baseline must be the largest S among the simulated points."""
    out = _run(tmp_path, "experiment=crawler_time_scaling", "experiment.omega=[3.2,8]", "experiment.n_trials=4",
               "experiment.psi_baseline=[20,60,100]", "run.cycles=6")
    rows = _rows(out / "results.csv")
    for b in _rows(out / "best.csv"):
        w = float(b["omega"])
        S = [(float(r["S"]), float(r["alpha"])) for r in rows if float(r["omega"]) == w]
        assert len(S) == 7
        assert float(b["value_best"]) == pytest.approx(max(s for s, _ in S), rel=1e-12)
        assert float(b["value_base"]) == pytest.approx(max(s for s, a in S if a == 0.0), rel=1e-12)


@pytest.mark.parametrize("engine", ["hybrid", "mujoco"])
def test_feedback_experiment(tmp_path, engine):
    out = _run(tmp_path, "experiment=crawler_feedback", f"engine={engine}", "experiment.cycles=4")
    s = json.loads((out / "summary.json").read_text())
    assert {"S_open", "S_feedback", "S_seq", "period_feedback", "mean_stride_feedback"} <= set(s) and len(s["S_seq"]) == 4
    assert s["period_feedback"] in (0, 1, 2) and s["period_tolerance"]["rtol"] > 0
    assert s["S_feedback"] > s["S_open"] + 0.01      # eq. 19 suppresses the opposing slippage at omega=8
    assert (out / "feedback.png").exists()


@pytest.mark.slow
def test_twin_vs_hybrid_full_table(tmp_path):
    """The whole Fig. 4 range (18 omegas) within max(1.5 mm, 3 %) of the exact model."""
    out = _run(tmp_path, "experiment=crawler_twin_vs_hybrid")
    rows = _rows(out / "comparison.csv")
    assert len(rows) == 18
    assert all(r["within"] == "True" for r in rows), [(r["omega"], r["err_mm"]) for r in rows]


def test_twin_within_target_of_hybrid_with_com_offsets():
    """COM offsets dc0-dc2 (robustness draws are +-3 mm): the exact model supports them and the twin stays
    within issue #13's target of it; the offsets matter (S moves by > 10 mm at omega = 1 in both engines)."""
    off = dict(dc0=-0.005, dc1=0.005, dc2=-0.005)
    tw, hy = _twin_and_hybrid([1.0, 3.2], cycles=30, **off)
    for omega in (1.0, 3.2):
        assert _within(tw[omega]["S"], hy[omega]["S"]), (omega, tw[omega]["S"], hy[omega]["S"])
        assert tw[omega]["steady"] and hy[omega]["steady"]
    nominal = H.summarize(H.simulate(dict(omega=1.0), cycles=30))["S"]
    assert abs(hy[1.0]["S"] - nominal) > 0.01 and abs(tw[1.0]["S"] - nominal) > 0.01
