"""The BOLT leg twin against the paper's loop equations, its limits and its running gait."""
import csv
import json
import math

import mujoco
import numpy as np
import pytest

import gaittwin
from gaittwin.core.engines import batch
from gaittwin.bolt.kinematics import (TABLE1_BOUNDS, Geometry, foot_path, l2_interval, l3_interval, loop_kinematics, phi,
                                  stride_and_height, table1_lengths)
from gaittwin.bolt.robot import MASS_SETS, POINTS, Bolt, standing
from gaittwin.core.model.errors import ConfigError
from tests.util import ROOT, assert_fails_early, render_frames, run_script

G = Geometry.of(Bolt().p)
LOOP_GAP_FIXED = 2e-5       # m: loop gap over a revolution, body held
LOOP_GAP_RUNNING = Bolt.max_loop_gap   # 0.1 mm while running, impacts and start-up included


@pytest.mark.parametrize("mass_set, total, armature", [
    ("sim", 2 * 2.5639 + 0.0802 + 0.0921 + 1.1163 + 0.9754, 0.0),    # Table 3 as printed, no rotor inertia
    ("hardware", 6.1, 1.0e-4 * 32**2),                               # Sec. 2.1: 6.1 kg; J_rotor N^2
])
def test_mass_sets(mass_set, total, armature):
    r = Bolt(mass_set=mass_set)
    assert r.total_mass == pytest.approx(total, abs=1e-9)
    m = r.model()
    assert m.body_subtreemass[m.body("base").id] == pytest.approx(total, abs=1e-9)
    assert m.dof_armature[m.joint("q_1").dofadr[0]] == pytest.approx(armature, rel=1e-12)
    for i in range(1, 6):   # the links are Table 3's (the CAD) in both sets
        assert m.body(("crank", "hfe", "kfe", "femur", "tibia")[i - 1]).mass[0] == MASS_SETS["sim"][f"m_{i}"]
    # a number overrides the set; the other values stay the set's
    r2 = Bolt(mass_set=mass_set, m_b=2.0, armature=0.05)
    assert r2.p.m_b == 2.0 and r2.p.armature == 0.05 and r2.p.m_4 == MASS_SETS[mass_set]["m_4"]
    assert Bolt(mass_set=mass_set, rotor_inertia=2e-4).p.armature == pytest.approx(2 * armature)


def test_unknown_mass_set_rejected():
    with pytest.raises(ConfigError, match="^mass_set="):
        Bolt(mass_set="cad")


def test_table1_bounds():
    """Table 2's lengths inside Table 1's bounds, except l_leg = l_4 + l_5 = 0.513 m > 0.50 m: the
    paper's own optimised values exceed eq. 5's bound (README "Table 1")."""
    got = table1_lengths(G)
    for k, (lo, hi) in TABLE1_BOUNDS.items():
        if k == "l_leg":
            assert got[k] == pytest.approx(0.513) and got[k] > hi
        else:
            assert lo <= got[k] <= hi, k


def test_closed_form_solves_phi_over_a_revolution():
    q1 = np.linspace(0, 2 * np.pi, 721)
    k = loop_kinematics(q1, G)
    assert (k["h2_B"] > 0).all() and (k["h2_G"] > 0).all()
    q = np.stack([k[f"q{i}"] for i in range(1, 6)], axis=1)
    np.testing.assert_allclose(phi(q, G), 0.0, atol=1e-12)
    # the points sit where the link lengths say
    for a, b, length in (("D", "B", G.l_2), ("A", "B", G.l_f), ("C", "G", G.l_3), ("E", "G", G.l_t),
                         ("E", "F", G.l_5), ("A", "E", G.l_4), ("D", "C", G.l_s)):
        np.testing.assert_allclose(np.abs(k[b] - k[a]), length, atol=1e-12)


def test_foot_path_shape_is_fig5b():
    xy = foot_path(G)
    s, h = stride_and_height(xy)
    assert 0.2 < s < 0.26 and 0.05 < h < 0.07
    # stance arc below, nearly flat swing arc above; the foot hangs ~0.4 m below the crank
    assert -0.43 < xy[:, 1].min() < xy[:, 1].max() < -0.35


def test_xml_is_authored_closed_and_matches_the_spec():
    xml = mujoco.MjModel.from_xml_path(str(ROOT / "models" / "bolt" / "scene.xml"))
    d = mujoco.MjData(xml)
    mujoco.mj_forward(xml, d)
    r = Bolt(bumper_height=None)
    gaps = r.loop_gaps(r.readout(d.sensordata[None], xml))
    assert gaps.max() < 1e-8
    k = loop_kinematics(np.zeros(1), G)
    for i in range(1, 6):
        assert d.joint(f"q_{i}").qpos[0] == pytest.approx(k[f"q{i}"][0], abs=1e-12)
    spec_model = r.model()
    np.testing.assert_allclose(spec_model.body_pos, xml.body_pos, atol=1e-8)
    np.testing.assert_allclose(spec_model.body_quat, xml.body_quat, atol=1e-8)
    np.testing.assert_allclose(spec_model.body_mass, xml.body_mass, atol=1e-12)


@pytest.mark.parametrize("kw", [{}, dict(l_2=0.11, l_3=0.18, l_5=0.28)])
def test_mujoco_pose_equals_closed_form(kw):
    r = Bolt(body_fixed=True, **kw)
    m = r.model()
    d = mujoco.MjData(m)
    for q1 in np.linspace(-np.pi, np.pi, 13):
        pose = r.pose(q1)
        for i in range(1, 6):
            d.joint(f"q_{i}").qpos[0] = pose[f"q_{i}"]
        mujoco.mj_forward(m, d)
        assert r.loop_gaps(r.readout(d.sensordata[None], m)).max() < 1e-9
        foot = r.sensor(d.sensordata, m, "foot_in_B")
        assert foot[0] == pytest.approx(pose["F"].real, abs=1e-9)
        assert foot[2] == pytest.approx(pose["F"].imag, abs=1e-9)


def test_mass_matrix_matches_appendix_a():
    """MuJoCo's joint-space inertia (tree of the virtual separation) against H' of Appendix A.

    The paper's H'_{1,1} lists l_1^2 m_2 where the kinematics give l_1^2 (m_2 + m_3) (a typo:
    the crank pin carries both the HFE and the KFE link); everything else is as printed.
    """
    p = Bolt().p
    m = Bolt(bumper_height=None).model()
    d = mujoco.MjData(m)
    rng = np.random.default_rng(1)
    m1, m2, m3, m4, m5, mb = p.m_1, p.m_2, p.m_3, p.m_4, p.m_5, p.m_b
    c2, c3, c4, c5 = p.l_cm_2, p.l_cm_3, p.l_cm_4, p.l_cm_5
    I1, I2, I3, I4, I5 = p.I_1, p.I_2, p.I_3, p.I_4, p.I_5
    l1, ls, l4 = p.l_1, p.l_s, p.l_4
    idx = {n: m.jnt_dofadr[m.joint(n).id] for n in ("x", "z", "q_1", "q_2", "q_3", "q_4", "q_5")}
    for _ in range(10):
        q = rng.uniform(-np.pi, np.pi, 5)
        for i in range(5):
            d.joint(f"q_{i + 1}").qpos[0] = q[i]
        mujoco.mj_forward(m, d)
        M = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, M)
        q1, q2, q3, q4, q5 = q
        H = lambda a, b: M[idx[a], idx[b]]  # noqa: E731
        cos = np.cos
        assert H("q_1", "q_1") == pytest.approx(
            I1 + I2 + I3 + l1**2 * (m2 + m3) + c2**2 * m2 + c3**2 * m3 + ls**2 * m3
            + 2 * l1 * c3 * m3 * cos(q2 + q3) + 2 * l1 * c2 * m2 * cos(q2) + 2 * l1 * ls * m3 * cos(q2)
            + 2 * c3 * ls * m3 * cos(q3), rel=1e-9)
        assert H("q_1", "q_2") == pytest.approx(
            I2 + I3 + c2**2 * m2 + c3**2 * m3 + ls**2 * m3 + l1 * c3 * m3 * cos(q2 + q3) + l1 * c2 * m2 * cos(q2)
            + l1 * ls * m3 * cos(q2) + 2 * c3 * ls * m3 * cos(q3), rel=1e-9)
        assert H("q_2", "q_2") == pytest.approx(I2 + I3 + c2**2 * m2 + c3**2 * m3 + ls**2 * m3
                                                + 2 * c3 * ls * m3 * cos(q3), rel=1e-9)
        assert H("q_2", "q_3") == pytest.approx(I3 + c3**2 * m3 + c3 * ls * m3 * cos(q3), rel=1e-9)
        assert H("q_3", "q_3") == pytest.approx(I3 + c3**2 * m3, rel=1e-9)
        assert H("q_4", "q_4") == pytest.approx(I4 + I5 + l4**2 * m5 + c4**2 * m4 + c5**2 * m5
                                                + 2 * l4 * c5 * m5 * cos(q5), rel=1e-9)
        assert H("q_4", "q_5") == pytest.approx(I5 + c5**2 * m5 + l4 * c5 * m5 * cos(q5), rel=1e-9)
        assert H("q_5", "q_5") == pytest.approx(I5 + c5**2 * m5, rel=1e-9)
        assert H("x", "x") == pytest.approx(m1 + m2 + m3 + m4 + m5 + mb, rel=1e-12)
        # H'_{3,6}: vertical body motion couples with the femur (paper y = MuJoCo z)
        assert H("z", "q_4") == pytest.approx(m5 * (c5 * cos(q4 + q5) + l4 * cos(q4)) + c4 * m4 * cos(q4),
                                              rel=1e-9, abs=1e-12)
        assert H("q_1", "q_4") == 0.0     # separate branches of the tree: coupled only by the loops


@pytest.fixture(scope="module")
def revolution():
    """Body held in the air, the crank turned once in 1 s."""
    r = Bolt(body_fixed=True, crank_period=1.0)
    return r, batch.run_point(r, Bolt, cycles=1, nthread=1)


def test_loops_close_over_a_full_revolution(revolution):
    r, run = revolution
    assert run.error is None
    q1 = run.sensor("q_1")[:, 0]
    assert np.ptp(q1) > math.radians(350)
    assert r.loop_gaps(run).max() < LOOP_GAP_FIXED


def test_foot_path_matches_closed_form_within_1mm(revolution):
    r, run = revolution
    s = r.summarize(run)
    assert s["foot_path_error"] < 1e-3
    twin = run.sensor("foot_in_B")[:, [0, 2]]
    ref = loop_kinematics(run.sensor("q_1")[:, 0], G)["F"]
    np.testing.assert_array_less(np.abs(twin[:, 0] + 1j * twin[:, 1] - ref), 1e-3)
    s_twin, h_twin = stride_and_height(twin)
    s_cf, h_cf = stride_and_height(foot_path(G))
    assert s_twin == pytest.approx(s_cf, abs=1e-3) and h_twin == pytest.approx(h_cf, abs=1e-3)


@pytest.fixture(scope="module")
def running():
    r = Bolt()
    return r, batch.run_point(r, Bolt, cycles=12, nthread=1)


def test_running_leg_moves_forward_with_periodic_height(running):
    r, run = running
    assert run.error is None
    s = r.summarize(run)
    assert s["speed"] > 0.5
    assert (run.cycle_values[4:] > 0.2).all()                 # every stride advances
    spc = r.samples_per_cycle
    y = run.sensor("body_pos")[:, 2]
    last, prev = y[-spc - 1:], y[-2 * spc - 1:-spc]
    assert np.abs(last - prev).max() < 5e-3                   # height repeats stride after stride
    assert np.ptp(last) > 0.03                                # and it hops
    assert s["touchdowns_per_revolution"] == 1.0
    assert s["stride_time"] == pytest.approx(r.period, rel=0.02)


def test_no_link_passes_through_the_ground(running):
    r, run = running
    heights = {pt: run.sensor(f"{pt}_pos")[:, 2] for pt in POINTS}
    # the foot sphere may only sink into the floor by contact softness (< 2 mm)
    assert (heights["F"] - r.p.foot_radius).min() > -2e-3
    for pt in POINTS:
        if pt != "F":
            assert heights[pt].min() > 0.05, pt


def test_torque_and_power_limits_respected(running):
    r, run = running
    s = r.summarize(run)
    assert s["peak_torque_flight"] <= r.p.tau_max * (1 + 1e-9)
    assert s["peak_power_stance"] <= r.p.P_max * (1 + 1e-9)
    assert s["limits_ok"] and s["loop_gap_ok"] and r.run_error(s) is None
    assert s["max_loop_gap"] < LOOP_GAP_RUNNING
    # the compiled model carries the flight limit; feedback() switches it per step
    assert Bolt(crank_period=0.1).model().actuator("crank").forcerange[1] == 30.0
    assert r.torque_limit(False, 50.0) == 30.0
    assert r.torque_limit(True, 50.0) == pytest.approx(1350.0 / 50.0)
    assert r.torque_limit(True, 10.0) == pytest.approx(135.0)     # stance: no torque limit, power only


@pytest.fixture(scope="module")
def fast():
    """The fastest crank period of the speed sweep (0.1 s)."""
    r = Bolt(crank_period=0.1)
    return r, batch.run_point(r, Bolt, cycles=12, nthread=1)


def test_torque_limit_binds_only_in_flight_and_power_limit_only_in_stance(fast):
    """Sec. 5.1: +-30 N m in flight, 1350 W in stance, the phase from the foot contact.  At a
    0.1 s crank period both bind: the flight torque sits at 30 N m while the flight power passes
    1350 W (no power limit in flight), the stance power sits at 1350 W while the stance torque
    passes 30 N m (no torque limit in stance).  Every step counts (per-step peaks)."""
    r, run = fast
    assert run.error is None
    s = r.summarize(run)
    assert s["torque_limit_binds_flight"] and s["peak_torque_flight"] == pytest.approx(30.0, rel=1e-9)
    assert s["power_limit_binds_stance"] and s["peak_power_stance"] == pytest.approx(1350.0, rel=1e-9)
    assert s["peak_power_flight"] > 1.5 * 1350.0
    assert s["peak_torque_stance"] > 1.5 * 30.0
    assert s["limits_ok"]
    # sampled torque and power by the limiter's phase: never past the limit of that phase
    tau = run.sensor("crank_torque")[:, 0]
    assert np.abs(tau).max() <= max(s["peak_torque_flight"], s["peak_torque_stance"]) + 1e-9


def test_loop_gap_below_limit_at_fastest_crank(fast):
    """Loop gap < 0.1 mm at the sweep's fastest crank period, every step from rest."""
    r, run = fast
    s = r.summarize(run)
    assert s["max_loop_gap"] < 1e-4 and s["loop_gap_ok"]
    # every step counted: the sampled gaps are no larger than the per-step peak
    assert r.loop_gaps(run).max() <= s["max_loop_gap"] + 1e-12


def test_loop_gap_over_limit_is_flagged():
    """A soft loop closure (the old 2 ms recipe) opens the loops past max_loop_gap: the run keeps
    its metrics and its error says why."""
    r = Bolt(crank_period=0.15, loop_timeconst=2e-3, loop_dmin=0.95, loop_dmax=0.99)
    run = batch.run_point(r, Bolt, cycles=3, nthread=1)
    s = r.summarize(run)
    assert s["max_loop_gap"] > 1e-4 and not s["loop_gap_ok"]
    assert "loop gap" in r.run_error(s) and "max_loop_gap" in r.run_error(s)


def test_pd_law_is_eq20():
    r = Bolt(body_fixed=True)
    m = r.model()
    d = mujoco.MjData(m)
    r.initial_pose(m, d)
    d.joint("q_1").qvel[0] = -3.0
    d.ctrl[0] = 0.05
    mujoco.mj_forward(m, d)
    tau = r.p.K_P * (0.05 - d.joint("q_1").qpos[0]) - r.p.K_D * (-3.0)
    assert d.actuator_force[0] == pytest.approx(tau)


def test_passive_damping_acts_on_exactly_the_six_pins():
    """passive_damping b: dof_damping b on q_2..q_5 (pins D, C, A, E) and nothing else changed in
    dof_damping; two tendons of damping b whose length and velocity are the relative angle and rate of
    the links at the loop pins B (hfe/femur) and G (kfe/tibia), from MuJoCo's body frames (tol 1e-9);
    the damping force is -b x (each pin's relative rate) through each pin (tol 1e-9 relative)."""
    b = 0.05
    m0, m = Bolt().model(), Bolt(passive_damping=b).model()
    assert m0.ntendon == 0 and m.ntendon == 2
    pins = [int(m.jnt_dofadr[m.joint(j).id]) for j in ("q_2", "q_3", "q_4", "q_5")]
    expect = m0.dof_damping.copy()
    expect[pins] = b
    assert np.array_equal(m.dof_damping, expect) and not m0.dof_damping[pins].any()
    assert np.array_equal(m.tendon_damping, [b, b])
    d = mujoco.MjData(m)
    d.qpos[:] = m.qpos0
    d.qvel[:] = np.random.default_rng(0).normal(size=m.nv)
    mujoco.mj_forward(m, d)
    angle = lambda body: math.atan2(d.body(body).xmat[6], d.body(body).xmat[0])   # noqa: E731  (about -y)
    rate = lambda body: -d.body(body).cvel[1]                                       # noqa: E731
    for t, (i, o) in (("pin_B", ("hfe", "femur")), ("pin_G", ("kfe", "tibia"))):
        rel = d.tendon(t).length[0] - (angle(i) - angle(o))
        assert abs(math.remainder(rel, 2 * math.pi)) < 1e-9, t
        assert d.tendon(t).velocity[0] == pytest.approx(rate(i) - rate(o), abs=1e-9), t
    J = np.zeros((m.ntendon, m.nv))
    mujoco.mju_sparse2dense(J, d.ten_J, m.ten_J_rownnz, m.ten_J_rowadr, m.ten_J_colind)
    expect = -m.dof_damping * d.qvel - b * J.T @ (J @ d.qvel)
    np.testing.assert_allclose(d.qfrc_damper, expect, rtol=1e-9, atol=1e-12)
    assert np.abs(d.qfrc_damper[pins]).min() > 0


def test_loops_healthy_with_the_largest_drawn_passive_damping():
    """bolt_robustness draws passive_damping up to its spread's width: a short run there (6 strides from
    rest, crank period 0.3 s) still runs forwards with the loops closed under LOOP_GAP_RUNNING."""
    from gaittwin.bolt.config import BoltRobustness
    w = BoltRobustness().spread["passive_damping"]["abs"]
    r = Bolt(passive_damping=w)
    run = batch.run_point(r, Bolt, cycles=6, nthread=1)
    s = r.summarize(run)
    assert run.error is None and r.run_error(s) is None and s["loop_gap_ok"]
    assert s["max_loop_gap"] < LOOP_GAP_RUNNING
    assert s["speed"] > 0.5


@pytest.mark.parametrize("kw, param", [
    (dict(l_2=0.2), "l_2"),                 # loop 1 cannot close for every crank angle
    (dict(l_3=0.25), "l_3"),                # loop 2 cannot close
    (dict(l_3=0.12), "l_3"),
    (dict(l_1=0.2), "l_1"),                 # crank longer than the base link
    (dict(l_s=0.12), "l_s"),                # C off the HFE link
    (dict(crank_period=0.0), "crank_period"),
    (dict(crank_period=-0.3), "crank_period"),
    (dict(loop_timeconst=1e-4), "loop_timeconst"),
    (dict(loop_dmin=0.999, loop_dmax=0.99), "loop_dmin"),
    (dict(loop_dmax=1.0), "loop_dmax"),
    (dict(passive_damping=-0.01), "passive_damping"),
])
def test_bad_parameters_rejected_before_simulation(kw, param):
    with pytest.raises(ConfigError, match=rf"^{param}=.*allowed range is") as e:
        batch.run_points([dict(), kw], Bolt)
    assert e.value.param == param


def test_assembly_intervals_are_exact():
    lo, hi = l2_interval(G)
    assert lo == pytest.approx(0.02) and hi == pytest.approx(0.14)
    lo3, hi3 = l3_interval(G)
    Bolt(l_3=lo3 + 1e-3)
    Bolt(l_3=hi3 - 1e-3)
    k = loop_kinematics(np.linspace(0, 2 * np.pi, 721), Geometry.of(Bolt(l_3=hi3 - 1e-3).p))
    assert (k["h2_G"] > 0).all()


def test_dm_control_env_matches_batch_path():
    env = gaittwin.load("bolt", cycles=1)
    env.reset()
    n = env.task.robot.steps_per_cycle
    for _ in range(n):
        env.step(np.zeros(0))
    run = batch.run_point(dict(), Bolt, cycles=1, nthread=1)
    np.testing.assert_allclose(env.physics.body_position()[0], run.sensor("body_pos")[-1, 0], atol=1e-9)
    assert env.physics.loop_gaps().max() < LOOP_GAP_RUNNING
    assert env.physics.dependent_angles().shape == (4,)


def test_experiments_write_contract_files(tmp_path):
    out = tmp_path / "fp"
    res = run_script("scripts/run.py", "experiment=bolt_foot_path", "robot.crank_period=1.0", f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    for k in ("stride_length", "step_height", "stride_length_closed_form", "step_height_closed_form"):
        assert 0.04 < s[k] < 0.3
    assert s["closed_form"]["stride_length"] == s["stride_length_closed_form"]
    assert (out / "foot_path.png").stat().st_size > 10_000

    out = tmp_path / "run"
    res = run_script("scripts/run.py", "experiment=bolt_running", "run.cycles=4", f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    assert {"speed", "stride_time", "crank_period", "max_loop_gap"} <= set(s)
    assert s["error"] is None and s["speed"] > 0.3 and s["crank_period"] == 0.3
    one = list(csv.DictReader(open(out / "results.csv")))     # a single run's one-row results.csv
    assert len(one) == 1 and float(one[0]["speed"]) == pytest.approx(s["speed"], rel=1e-6)
    assert "max_tracking_error_deg" in one[0]
    rows = list(csv.DictReader(open(out / "timeseries.csv")))
    assert len(rows) == 4 * Bolt.samples_per_cycle + 1 and float(rows[-1]["x"]) > 0.3
    assert min(float(r["power"]) for r in rows) >= 0 and max(float(r["power"]) for r in rows) > 1   # W
    for png in ("body_xy", "phase_portraits", "angles", "loop_error", "torque_power"):
        assert (out / f"{png}.png").stat().st_size > 10_000

    out = tmp_path / "sweep"
    res = run_script("scripts/run.py", "experiment=bolt_speed_sweep", "sweep.crank_period=[0.4,0.3]",
                     "run.cycles=4", "run.progress=false", f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    rows = list(csv.DictReader(open(out / "results.csv")))
    assert [float(r["crank_period"]) for r in rows] == [0.4, 0.3]
    for col in ("crank_period", "speed", "stride_time", "peak_torque", "peak_power", "max_loop_gap"):
        assert all(r[col] != "" for r in rows), col
    assert (out / "speed_sweep.png").stat().st_size > 10_000


def test_bad_link_set_fails_early_via_cli(tmp_path):
    assert_fails_early(tmp_path, "l_2", "experiment=bolt_running", "robot.l_2=0.2")


def test_video_is_written(tmp_path):
    imgs = render_frames(tmp_path, 320, 240, "--cycles", "3", "robot=bolt")
    assert len(imgs) >= 25 and imgs[0].std() > 5
    assert np.abs(imgs[0].astype(int) - imgs[len(imgs) // 2]).mean() > 0.1


@pytest.mark.slow
def test_long_run_and_speed_sweep():
    """30 strides at every crank period of the speed sweep: forward, within the phase limits, loops
    closed (< 0.1 mm, no run flagged); one touch-down per revolution from 0.6 to 0.2 s, the per-stride
    advance repeating (steady) at 0.6, 0.5, 0.35 and 0.3 s (README "Results")."""
    periods = [0.6, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.12, 0.1]
    runs = batch.run_points([dict(crank_period=T) for T in periods], Bolt, cycles=30)
    for T, run in zip(periods, runs):
        assert run.error is None, T
        s = run.robot.summarize(run)
        assert s["speed"] > 0.4, T
        assert s["max_loop_gap"] < LOOP_GAP_RUNNING and run.robot.run_error(s) is None, T
        assert s["limits_ok"], T
        if T >= 0.2:
            assert s["touchdowns_per_revolution"] == 1.0, T
        if T in (0.6, 0.5, 0.35, 0.3):
            assert s["steady"], T


# ---- compliance: die spring and rubber pad (Sec. 2.1) ----------------------------------
def test_die_spring_and_pad_deflect_as_their_stiffness():
    """Standing still, the foot carries the weight; the die spring (65 kN/m, a slide joint along the
    tibia) compresses by about F / k (its axis is inclined ~20 deg: cos^2 ~ 0.9), the pad (its own
    slide joint, the contact made rigid) by F / K."""
    r, m, d = standing(1.0, spring_stiffness=65000.0, pad_stiffness=2.3e5)
    force = float(r.sensor(d.sensordata, m, "foot_touch")[0])
    assert force == pytest.approx(r.total_mass * 9.81, rel=0.02)
    assert m.jnt_stiffness[m.joint("spring").id] == 65000.0
    assert -d.joint("spring").qpos[0] == pytest.approx(force / 65000.0, rel=0.15)
    assert -d.joint("pad").qpos[0] == pytest.approx(force / 2.3e5, rel=0.15)
    assert r.total_mass == pytest.approx(Bolt().total_mass)            # foot and pad masses come out of m_5
    assert m.body_subtreemass[m.body("base").id] == pytest.approx(r.total_mass)


def test_spring_and_pad_cut_the_impact_force():
    """Sec. 2.1: the compliance 'filters the high-frequency components in the impact'.  Against a
    rigid foot contact (2 time steps), the spring and pad cut the steady impact force several fold."""
    rigid = dict(contact_timeconst=2e-4)
    soft = dict(spring_stiffness=65000.0, pad_stiffness=2.3e5)
    runs = batch.run_points([dict(crank_period=0.3, **rigid), dict(crank_period=0.3, **soft)], Bolt, cycles=8)
    f_rigid, f_soft = (run.robot.summarize(run)["impact_force"] for run in runs)
    assert f_rigid > 4 * f_soft > 0
    assert runs[1].robot.summarize(runs[1])["max_spring_compression"] > 1e-3


# ---- treadmill (Sec. 6.1-6.2) ------------------------------------------------------------
def test_treadmill_finds_the_in_place_belt_speed():
    """At one crank rate the secant on the belt speed finds the in-place speed: mean x velocity of
    the body within 0.01 m/s of zero.  The foot sees the moving belt: the leg's speed over the world
    is its ground speed minus the belt speed (an ideal constant-speed belt is a moving inertial frame)."""
    from gaittwin.bolt.paper.experiments import in_place_belt_speed
    params = dict(mass_set="hardware", spring_stiffness=65000.0, pad_stiffness=2.3e5)
    kw = dict(cycles=8, nthread=1)
    s, hist = in_place_belt_speed(Bolt, params, 0.3, kw, tol=0.01, max_iter=6)
    assert s["converged"] and abs(s["mean_x_velocity"]) <= 0.01 and not s["error"]
    assert hist[0][0] == 0.0 and len(hist) <= 4
    ground = hist[0][1]
    assert s["belt_speed"] == pytest.approx(ground, abs=0.02) and s["belt_speed"] > 0.8
    assert s["max_loop_gap"] < 1e-4
    run = batch.run_point(Bolt(crank_period=0.3, belt_speed=1.0, **params), Bolt, **kw)
    belt = run.sensor("belt_vel")[:, 0]
    assert np.abs(belt + 1.0).max() < 0.01                           # the belt holds its speed
    assert run.robot.summarize(run)["speed"] == pytest.approx(ground - 1.0, abs=0.02)


def test_treadmill_experiment_writes_contract_files(tmp_path):
    out = tmp_path / "tm"
    res = run_script("scripts/run.py", "experiment=bolt_treadmill", "sweep.crank_period=[0.3]", "run.cycles=6",
                     "experiment.min_time=1.0",
                     f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    rows = list(csv.DictReader(open(out / "results.csv")))
    assert len(rows) == 1 and abs(float(rows[0]["mean_x_velocity"])) <= 0.01 and rows[0]["error"] == ""
    for col in ("belt_speed", "stride_time", "duty_factor", "max_loop_gap", "peak_torque_flight", "peak_power_stance"):
        assert rows[0][col] not in ("", "nan"), col
    s = json.loads((out / "summary.json").read_text())
    assert s["mass_set"] == "hardware" and "crank_period_for_target" in s
    assert (out / "treadmill.png").stat().st_size > 10_000


@pytest.mark.parametrize("foot", ["soft", "plastic"])
def test_stance_impulse_integrates_the_foot_force_every_step(foot):
    """The foot's normal impulse (AUX foot_impulse) is the sum over every step of the touch sensor x timestep, not
    the 200 samples per revolution: the C runner's record against the same closed loop stepped here, one revolution
    at 0.3 s (both runs deterministic: tolerance 1e-9 relative); it never falls.  Measured at 0.3 s, 6 revolutions:
    the sampled sum read 13 % (soft) and 53 % (plastic) below it (models/bolt/README.md "Twin vs paper model")."""
    import copy
    kw = dict(foot_contact="plastic", loop_timeconst=5e-5, timestep=2.5e-5) if foot == "plastic" else {}
    r = Bolt(crank_period=0.3, **kw)
    (run,) = batch.run_points([r], Bolt, cycles=1, nthread=1)
    cum = run.aux[:, Bolt.AUX.index("foot_impulse")]
    m = copy.copy(r.model())
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, r.initial_state(m), mujoco.mjtState.mjSTATE_INTEGRATION)
    mujoco.mj_forward(m, d)
    touch, total, f0 = m.sensor("foot_touch").adr[0], 0.0, None
    for _ in range(r.steps_per_cycle):     # the row at step N: the force of the states before it (+ the first twice)
        d.ctrl[:] = r.controls(np.array([d.time]))[0]
        f0 = d.sensordata[touch] if f0 is None else f0
        r.feedback(m, d)
        mujoco.mj_step(m, d)
        total += d.sensordata[touch] * m.opt.timestep
    assert total > 0.5                                       # it touched down
    assert cum[-1] == pytest.approx(total + f0 * m.opt.timestep, rel=1e-9)
    assert np.all(np.diff(cum) >= 0)


def test_speed_sweep_plot_draws_the_runs_own_limits(tmp_path, monkeypatch):
    """The peak panels' limit lines are the configured tau_max and P_max (they were 30 N m and 1350 W always)."""
    from gaittwin.bolt.paper import plots
    figs = []
    monkeypatch.setattr(plots, "save_figure", lambda fig, path, dpi=120: figs.append(fig))
    keys = ("speed", "stride_time", "duty_factor", "max_loop_gap", "peak_torque_flight", "peak_torque_stance",
            "peak_power_flight", "peak_power_stance")
    rows = [dict({k: 0.1 for k in keys}, crank_period=T, steady=True) for T in (0.3, 0.4)]
    plots.speed_sweep(rows, 0, (20.0, 450.0), "paper", tmp_path / "s.png")
    ax = figs[0].axes
    lines = {ln.get_label(): ln.get_ydata()[0] for a in ax for ln in a.get_lines()}
    assert lines["tau_max = 20 N m"] == 20.0 and lines["P_max = 450 W"] == 450.0
    assert "the paper model (engine=paper)" in figs[0]._suptitle.get_text()     # which engine drew it
