"""The MinIAQ-II twin: four-bar legs, loop closure, gaits, turning, gait diagrams, contract files."""
import csv
import json
import math

import mujoco
import numpy as np
import pytest

import gaittwin
from gaittwin.core.engines import batch
from gaittwin.core.model import metrics
from gaittwin.core.model.errors import ConfigError
from gaittwin.miniaq.robot import (FORWARD_SPIN, GAITS, LEGS, MiniAQ, foot_path, foot_point, fourbar,
                         grashof_l1_range, mid_stance_angle, quat_to_euler)
from tests.util import assert_fails_early, render_frames, run_script


# ---- configuration and validation -------------------------------------------------------
def test_registered():
    assert gaittwin.robot_class("miniaq") is MiniAQ


@pytest.mark.parametrize("l1", [0.004, 0.036, 0.05])
def test_non_grashof_link_set_rejected(l1):
    lo, hi = grashof_l1_range(0.0051, 0.02121, 0.01885)
    assert lo == pytest.approx(0.0051 + 0.02121 - 0.01885) and hi == pytest.approx(0.02121 + 0.01885 - 0.0051)
    with pytest.raises(ConfigError, match=r"l1=.*allowed range is \[0.0074.*, 0.0349.*\] m.*Grashof") as e:
        MiniAQ(l1=l1)
    assert e.value.param == "l1"


def test_grashof_range_is_the_full_rotation_range():
    p = MiniAQ().p
    lo, hi = grashof_l1_range(p.l2, p.l3, p.l4)
    th = np.linspace(0, 2 * np.pi, 721)
    for l1 in (lo + 1e-4, 0.5 * (lo + hi), hi - 1e-4):       # inside: the crank turns fully
        fourbar(th, l1, p.theta1, p.l2, p.l3, p.l4)
    for l1 in (hi + 1e-3,):                                    # outside: the loop breaks somewhere
        with pytest.raises(ValueError):
            fourbar(th, l1, p.theta1, p.l2, p.l3, p.l4)


@pytest.mark.parametrize("kw, param", [
    (dict(gait="gallop"), "gait"), (dict(phase_deg=[0, 90, 180]), "phase_deg"),
    (dict(direction_left=0), "direction_left"), (dict(f=0), "f"), (dict(m_leg=0.01), "m_leg"),
    (dict(pivot_z=0.03), "pivot_z"), (dict(mu_d_feet=[0.3, 0.3, 0.3]), "mu_d_feet"),
    (dict(mu_d_feet=[0.3, 0.3, 0.3, 0.0]), "mu_d_feet"), (dict(mu_d_feet=[0.3, 2.5, 0.3, 0.3]), "mu_d_feet"),
    (dict(com_offset_x=0.05), "com_offset_x"), (dict(com_offset_y=-0.02), "com_offset_y"),
    (dict(passive_damping=-1e-6), "passive_damping"), (dict(passive_damping=0.02), "passive_damping"),
])
def test_bad_parameters_rejected(kw, param):
    with pytest.raises(ConfigError) as e:
        MiniAQ(**kw)
    assert e.value.param == param


def test_bad_per_foot_friction_exits_2_nothing_written(tmp_path):
    assert_fails_early(tmp_path, "mu_d_feet", "experiment=miniaq_trot", "robot.mu_d_feet=[0.3,0.3,0.3]",
                       text="(0, 2]")


# ---- robustness-only parameters: per-foot friction, torso COM offset, hinge damping -----------
def _model_arrays(**kw) -> dict:
    m = MiniAQ(**kw).spec().compile()
    return {k: getattr(m, k).copy() for k in dir(m) if not k.startswith("_")
            and isinstance(getattr(m, k, None), np.ndarray)}


def _changed(a: dict, b: dict) -> dict:
    """name -> sorted first-axis indices where two models' arrays differ (bit-exact)."""
    return {k: sorted(set(np.argwhere(a[k] != b[k])[:, 0].tolist())) for k in a if not np.array_equal(a[k], b[k])}


def test_default_robustness_parameters_leave_the_model_unchanged():
    """mu_d on every foot and a zero COM offset, given explicitly, compile bit-exactly to the default model."""
    a = _model_arrays()
    assert _changed(a, _model_arrays(mu_d_feet=[0.3] * 4, com_offset_x=0.0, com_offset_y=0.0,
                                     passive_damping=0.0)) == {}


def test_passive_damping_damps_only_the_passive_hinges_and_loads_the_motors():
    """passive_damping changes exactly dof_damping of the 8 coupler and rocker hinges (not the cranks, not
    the free joint), to b.  Walking, the hinges' dissipation reaches the motors: each crank's mean torque
    over 2 steady cycles grows by b mean(w_D^2 + w_A^2) / w, the four-bar's own pin rates (w_D of the
    coupler relative to the crank, w_A of the rocker) at crank rate w, within 2 %."""
    b = 5e-5
    m = MiniAQ().model()
    diff = _changed(_model_arrays(), _model_arrays(passive_damping=b))
    passive = sorted(int(m.joint(f"{leg}_{j}").dofadr[0]) for leg in LEGS for j in ("coupler", "rocker"))
    assert diff == {"dof_damping": passive}
    damping = _model_arrays(passive_damping=b)["dof_damping"]
    assert np.array_equal(damping[passive], [b] * 8) and np.count_nonzero(damping) == 8
    p = MiniAQ().p
    w = 2 * math.pi * p.f
    th2 = np.linspace(0.0, 2 * math.pi, 20001)
    _, _, th3, th4 = fourbar(th2, p.l1, p.theta1, p.l2, p.l3, p.l4)
    rate = [np.gradient(np.unwrap(a), th2) * w for a in (th3 - th2, th4)]
    predicted = FORWARD_SPIN * b * np.mean(rate[0] ** 2 + rate[1] ** 2) / w     # torque along the crank's spin
    mean = []
    for kw in (dict(), dict(passive_damping=b)):
        r = batch.run_point(kw, MiniAQ, cycles=3, nthread=1)
        assert r.error is None
        steady = slice(len(r.t) // 3, None)
        mean.append(np.array([r.sensor(f"{leg}_motor_torque")[steady, 0].mean() for leg in LEGS]))
    np.testing.assert_allclose(mean[1] - mean[0], predicted, rtol=0.02)


def test_per_foot_friction_changes_only_that_foot_and_reaches_its_contact():
    """mu_d_feet changes exactly the feet's geom friction; while walking each foot's floor force stays in
    its own friction cone and reaches its edge (the feet slide): max |F_t| / F_N equals that foot's mu
    (rel 1e-9), 0.03 on the hind feet, 0.3 on the front ones (priority 1: the foot's, not max with the floor)."""
    mu = [0.3, 0.3, 0.03, 0.03]
    m = MiniAQ(mu_d_feet=mu).model()
    diff = _changed(_model_arrays(), _model_arrays(mu_d_feet=mu))
    assert diff == {"geom_friction": sorted(m.geom(f"{leg}_foot").id for leg in ("hl", "hr"))}
    r = batch.run_point(dict(mu_d_feet=mu), MiniAQ, cycles=2, nthread=1)
    assert r.error is None
    for leg, mu_j in zip(LEGS, mu):
        f = r.sensor(f"{leg}_contact")
        fn = np.abs(f[:, 2])
        on = fn > 1e-3                                        # N, 7 % of m g / 2
        assert on.sum() > 50, leg
        assert np.max(np.linalg.norm(f[on, :2], axis=1) / fn[on]) == pytest.approx(mu_j, rel=1e-9), leg


def test_com_offset_moves_the_torso_mass_centre_only():
    """com_offset_x/y move the torso's inertial frame (its mass and inertia unchanged): the robot's mass
    centre moves by (m - 4 m_leg) / m x the offset (tolerance 1e-12 m); contact softness is recalibrated, so
    the start height moves by the change of the contact's rest depth (under 1e-9 m; measured 6e-11 m)."""
    off = (0.003, -0.002)
    a, b = _model_arrays(), _model_arrays(com_offset_x=off[0], com_offset_y=off[1])
    diff = _changed(a, b)
    assert diff["body_ipos"] == [1] and np.array_equal(b["body_ipos"][1], [off[0], off[1], 0.0])
    for k in ("body_mass", "body_inertia", "body_pos", "geom_size", "geom_pos", "geom_friction", "actuator_gainprm"):
        assert k not in diff, k
    coms, heights = [], []
    for kw in (dict(), dict(com_offset_x=off[0], com_offset_y=off[1])):
        r = MiniAQ(**kw)
        m = r.model()
        d = mujoco.MjData(m)
        r.initial_pose(m, d)
        mujoco.mj_forward(m, d)
        coms.append(d.subtree_com[1].copy())
        heights.append(float(d.joint("root").qpos[2]))
    p = MiniAQ().p
    dz = heights[1] - heights[0]
    assert abs(dz) < 1e-9
    shift = (p.m - 4 * p.m_leg) / p.m * np.array([off[0], off[1], 0.0]) + [0.0, 0.0, dz]
    np.testing.assert_allclose(coms[1] - coms[0], shift, rtol=0, atol=1e-12)


# ---- kinematics ------------------------------------------------------------------------------
def test_designed_foot_path():
    p = MiniAQ().p
    path = foot_path(p)
    assert 0.015 < path["stride"] < 0.03          # fore-aft sweep
    assert 0.004 < path["step_height"] < 0.012
    # the robot is about 45 mm tall: lowest foot to highest joint (the rocker pivot A)
    th = np.linspace(0, 2 * np.pi, 721)
    D, C, _, _ = fourbar(th, p.l1, p.theta1, p.l2, p.l3, p.l4)
    A = p.l1 * np.array([math.cos(p.theta1), math.sin(p.theta1)])
    assert max(A[1], C[:, 1].max()) - path["z_min"] == pytest.approx(0.045, abs=0.002)
    # the loop closes with the link lengths
    np.testing.assert_allclose(np.linalg.norm(C - D, axis=1), p.l3, rtol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(C - A, axis=1), p.l4, rtol=1e-12)
    # driven with FORWARD_SPIN, the foot moves backward at mid-stance (so the body moves forward)
    th0 = mid_stance_angle(p)
    E0, _ = foot_point(th0, p)
    E1, _ = foot_point(th0 + FORWARD_SPIN * 1e-3, p)
    assert E1[0] < E0[0]


def test_feet_follow_designed_four_bar_path_when_body_held():
    r = MiniAQ(gait="walk")
    spec = r.spec()
    spec.delete(spec.joint("root"))           # body welded in the air
    spec.body("torso").pos = [0, 0, 0.2]
    model = spec.compile()
    model.opt.timestep = r.timestep
    data = mujoco.MjData(model)
    th0 = r.inputs(np.zeros(1))[0][0]
    for leg, th in zip(LEGS, th0):
        for name, q in zip(("crank", "coupler", "rocker"), r.leg_angles(th)):
            data.joint(f"{leg}_{name}").qpos[0] = q
    err, gap, n = 0.0, 0.0, r.steps_per_cycle
    for i in range(n):
        data.ctrl[:] = r.controls(np.array([data.time]))[0]
        mujoco.mj_step(model, data)
        if i % 50:
            continue
        for j, leg in enumerate(LEGS):
            th2 = data.joint(f"{leg}_crank").qpos[0]
            E, _ = foot_point(th2, r.p)
            B = model.body(f"{leg}_crank").pos
            xpos = data.site(f"{leg}_foot").xpos - np.array([0, 0, 0.2])
            err = max(err, np.hypot(xpos[0] - B[0] - E[0], xpos[2] - B[2] - E[1]))
            gap = max(gap, np.linalg.norm(data.site(f"{leg}_C_coupler").xpos - data.site(f"{leg}_C_rocker").xpos))
    assert err < 5e-5          # 50 um of a 24 mm stride (loop compliance)
    assert gap < 1e-5
    # and the cranks turned a full cycle at constant speed
    assert data.joint("fl_crank").qpos[0] - th0[0] == pytest.approx(FORWARD_SPIN * 2 * np.pi, abs=0.01)


def test_gait_phase_offsets_and_directions():
    t = np.linspace(0, 0.4, 9)
    for gait, ph in GAITS.items():
        r = MiniAQ(gait=gait)
        q, qd, _ = r.inputs(t)
        # leg j is at mid-stance at t = phase_j / (360 f)
        for j, deg in enumerate(ph):
            tj = np.array([deg / 360.0 / r.p.f])
            assert np.mod(r.inputs(tj)[0][0, j] - mid_stance_angle(r.p) + np.pi, 2 * np.pi) - np.pi == \
                pytest.approx(0.0, abs=1e-9)
        np.testing.assert_allclose(qd, FORWARD_SPIN * 2 * np.pi * 2.5)
    trot = MiniAQ().inputs(t)[0]
    np.testing.assert_allclose(trot[:, 0], trot[:, 3])                 # diagonals in phase
    np.testing.assert_allclose(trot[:, 1] - trot[:, 0], FORWARD_SPIN * -np.pi)
    custom = MiniAQ(phase_deg=[0, 90, 180, 270])
    assert custom.phases == pytest.approx(tuple(np.radians([0, 90, 180, 270])))
    turn = MiniAQ(direction_left=-1)
    qd = turn.inputs(t)[1][0]
    assert np.sign(qd).tolist() == [-FORWARD_SPIN, FORWARD_SPIN, -FORWARD_SPIN, FORWARD_SPIN]


def test_euler_angles_zyx():
    for roll, pitch, yaw in ((0.1, -0.2, 0.3), (-0.5, 0.4, -2.0)):
        q = np.empty(4)
        mat = np.empty(9)
        # R = Rz(yaw) Ry(pitch) Rx(roll)
        cr, sr, cp, sp, cy, sy = (math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch),
                                  math.cos(yaw), math.sin(yaw))
        R = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]]) @ np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]]) \
            @ np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
        mat[:] = R.ravel()
        mujoco.mju_mat2Quat(q, mat)
        np.testing.assert_allclose(quat_to_euler(q), [roll, pitch, yaw], atol=1e-12)


# ---- contact mapping ------------------------------------------------------------------------
def _standing(**kw):
    """Feet forces and depths after 0.3 s standing in pronk (all four feet down)."""
    r = MiniAQ(gait="pronk", **kw)
    m = r.model()
    d = mujoco.MjData(m)
    r.initial_pose(m, d)
    for _ in range(3000):
        d.ctrl[:] = r.controls(np.zeros(1))[0]
        mujoco.mj_step(m, d)
    fn = np.array([d.sensor(f"{leg}_touch").data[0] for leg in LEGS])
    pen = np.array([r.p.foot_radius - d.site(f"{leg}_foot").xpos[2] for leg in LEGS])
    assert fn.sum() == pytest.approx(r.p.m * 9.81, rel=0.01)
    return r, m, fn, pen


def test_standing_depth_follows_the_hunt_crossley_impedance_map():
    """Default contact_law=hunt_crossley: each foot rests where MuJoCo's elastic force g imp K' r / A (its
    impedance read by foot.mj_impedance) carries its load (1 %), and, the map being exact at hc_depth = 5 um and
    stiffer than K r^2 beyond it (README), between 0.7 and 1.0 of the paper's depth (F/K)^(1/2) (6-8 um here)."""
    from scipy.optimize import brentq

    from gaittwin.miniaq.foot import mj_impedance
    r, m, fn, pen = _standing()
    A = float(m.body_invweight0[m.body("fl_coupler").id, 0])
    c = r.contact(A)
    si, k = c["solimp"], -c["solref"][0] / c["solimp"][1] ** 2
    elastic = lambda x: mj_impedance(si, x) ** 2 / (1 - mj_impedance(si, x)) * k * x / A   # noqa: E731
    law = np.array([brentq(lambda x: elastic(x) - F, 1e-9, 1e-4) for F in fn])
    np.testing.assert_allclose(pen, law, rtol=0.01)
    ratio = pen / np.sqrt(fn / r.p.K)
    assert np.all((ratio > 0.7) & (ratio < 1.0)), ratio


def test_standing_penetration_matches_hunt_crossley_secant():
    r, _, fn, pen = _standing(contact_law="linear")
    c = r.contact()
    np.testing.assert_allclose(pen, fn / c["stiffness"], rtol=0.05)
    # at the calibration load (m g / 2 per foot) that is the Hunt-Crossley penetration
    assert c["delta0"] == pytest.approx(math.sqrt(0.023 * 9.81 / 2 / 1150) * 1e-3, rel=1e-9)


# ---- walking -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def runs():
    pts = [dict(), dict(direction_left=-1), dict(direction_right=-1)]
    out = batch.run_points(pts, MiniAQ, cycles=4, nthread=1)
    return {name: r for name, r in zip(("trot", "turn_left", "turn_right"), out)}


def test_no_mujoco_warnings(runs):
    for name, r in runs.items():
        assert r.error is None, (name, r.error)


def test_loops_stay_closed_while_walking(runs):
    for name, r in runs.items():
        gaps = r.robot.loop_gaps(r)
        assert gaps.shape == (len(r.t), 4)
        assert gaps.max() < 1e-4, name               # 0.1 mm, against 5-29 mm links


def test_trot_moves_forward(runs):
    s = runs["trot"].robot.summarize(runs["trot"])
    assert s["speed"] > 0.05                          # m/s, forward (+X)
    assert abs(s["drift_y"]) < 0.1 * s["speed"]
    assert abs(s["yaw_rate_deg_s"]) < 2.0
    assert 1.0 < s["roll_amplitude_deg"] < 30.0        # the trot rocks the body about the diagonals
    assert s["crank_lag_max_deg"] < 2.0               # constant crank speed held
    # the paper's own model (engine=paper) trots with the front feet down half the cycle and the hind feet
    # dragging through their swing (0.51 / 0.51 / 0.92 / 0.92): the default twin within 0.15 of that
    for leg, paper_duty in zip(LEGS, (0.51, 0.51, 0.92, 0.92)):
        assert abs(s[f"{leg}_duty_factor"] - paper_duty) <= 0.15, (leg, s[f"{leg}_duty_factor"])


def test_reversing_one_side_turns_in_place(runs):
    left = runs["turn_left"].robot.summarize(runs["turn_left"])
    right = runs["turn_right"].robot.summarize(runs["turn_right"])
    assert left["yaw_rate_deg_s"] > 10.0              # left side backward: counter-clockwise
    assert right["yaw_rate_deg_s"] < -10.0
    assert abs(left["speed"]) < 0.3 * runs["trot"].robot.summarize(runs["trot"])["speed"]


def test_motor_stalls_under_torque_limit():
    r = batch.run_point(dict(tau_max=2e-4), MiniAQ, cycles=2, nthread=1)
    s = r.robot.summarize(r)
    assert s["motor_saturated_fraction"] > 0.2
    assert s["crank_lag_max_deg"] > 10.0


# ---- gait diagram extraction (generic, envs/metrics.py) ----------------------------------------
def test_gait_diagram_on_synthetic_record():
    # 3 feet, 10 samples: foot 0 on 0-4 (pushes 0-2, drags 3-4); foot 1 on 3-8 (pushes);
    # foot 2 on 0-1 and 8-9 (drags at 9)
    c = np.zeros((10, 3), bool)
    c[0:5, 0] = True
    c[3:9, 1] = True
    c[0:2, 2] = c[8:10, 2] = True
    ff = np.ones((10, 3))
    ff[3:5, 0] = -0.1
    ff[9, 2] = -1.0
    ff[5:8, 0] = -5.0                 # in the air: ignored
    g = metrics.gait_diagram(c, ff)
    assert g.intervals == [[(0, 5)], [(3, 9)], [(0, 2), (8, 10)]]
    assert g.segments[0] == [(0, 3, metrics.PUSH), (3, 5, metrics.DRAG)]
    assert g.segments[1] == [(3, 9, metrics.PUSH)]
    assert g.segments[2] == [(0, 2, metrics.PUSH), (8, 9, metrics.PUSH), (9, 10, metrics.DRAG)]
    assert g.duty_factor == pytest.approx([0.5, 0.6, 0.4])
    assert g.drag_fraction == pytest.approx([0.4, 0.0, 0.25])
    # feet on the floor per sample: 2 2 1 2 2 1 1 1 2 1
    assert g.support_fraction == pytest.approx({0: 0.0, 1: 0.5, 2: 0.5, 3: 0.0})
    assert g.push[6, 0] == 0 and g.push[4, 0] == metrics.DRAG
    with pytest.raises(ValueError):
        metrics.gait_diagram(c, ff[:, :2])


def test_intended_trot_is_two_legs_at_a_time():
    r = MiniAQ()
    t = np.arange(400) / 400 * r.period
    g = metrics.gait_diagram(r.intended_contact(t), np.ones((400, 4)))
    assert g.duty_factor == pytest.approx([0.5] * 4, abs=0.005)
    assert g.support_fraction[2] > 0.98


# ---- dm_control ------------------------------------------------------------------------------
def test_dm_control_environment():
    env = gaittwin.load("miniaq", cycles=0.25)
    ts = env.reset()
    steps, fn = 0, []
    while not ts.last():
        ts = env.step([])
        steps += 1
        fn.append(env.physics.normal_forces().sum())
    ph = env.physics
    assert abs(steps - 1000) <= 1
    assert ph.loop_gaps().max() < 1e-4
    assert ph.foot_positions().shape == (4, 3)
    assert np.mean(fn) == pytest.approx(0.023 * 9.81, rel=0.25)      # the feet carry the weight
    assert np.all(np.abs(ph.orientation()[:2]) < 0.5)
    assert ph.body_position()[0] > 0.005                               # walked forward
    assert ph.crank_angles() == pytest.approx(MiniAQ().inputs(np.array([ph.data.time]))[0][0], abs=0.02)


# ---- experiments (Hydra) -----------------------------------------------------------------------
def test_trot_experiment_writes_contract_files(tmp_path):
    out = tmp_path / "trot"
    res = run_script("scripts/run.py", "experiment=miniaq_trot", "experiment.duration=1.2", f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    for k in ("speed", "roll_amplitude_deg", "pitch_amplitude_deg", "max_loop_gap", "duty_factor", "support_fraction"):
        assert k in s
    assert set(s["duty_factor"]) == set(LEGS)
    assert set(s["support_fraction"]) == {"2", "3", "4"}
    assert s["speed"] > 0.05 and s["max_loop_gap"] < 1e-4
    one = list(csv.DictReader(open(out / "results.csv")))     # a single run's one-row results.csv
    assert len(one) == 1 and float(one[0]["speed"]) == pytest.approx(s["speed"], rel=1e-6)
    assert "roll_amplitude_deg" in one[0]
    rows = list(csv.DictReader(open(out / "timeseries.csv")))
    assert float(rows[-1]["t"]) == pytest.approx(1.2)
    for col in ("t", "x", "y", "z", "roll_deg", "pitch_deg", "yaw_deg", "fl_contact", "hr_push", "power",
                "fl_crank_ref_deg", "fl_crank_deg", "hr_normal_force"):
        assert col in rows[0]
    lag = max(abs(float(r["fl_crank_ref_deg"]) - float(r["fl_crank_deg"])) for r in rows)
    assert 0 < lag < 5.0              # the crank follows its prescribed input within 5 deg (servo lag)
    assert (out / "gait_diagram.png").stat().st_size > 20_000


def test_turn_experiment_and_bad_geometry(tmp_path):
    out = tmp_path / "turn"
    res = run_script("scripts/run.py", "experiment=miniaq_turn", "experiment.duration=1.2", f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    assert len(list(csv.DictReader(open(out / "results.csv")))) == 1     # the one-row results.csv
    assert json.loads((out / "summary.json").read_text())["yaw_rate_deg_s"] > 10.0
    assert_fails_early(tmp_path, "l1", "experiment=miniaq_turn", "robot.l1=0.04", text="Grashof")


def test_gait_sweep_experiment(tmp_path):
    out = tmp_path / "sweep"
    res = run_script("scripts/run.py", "experiment=miniaq_gait_sweep", "sweep.gait=[trot,pronk]", "sweep.f=[2.5]",
                     "run.cycles=2", "run.progress=false", f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    rows = list(csv.DictReader(open(out / "results.csv")))
    assert [r["gait"] for r in rows] == ["trot", "pronk"]
    for col in ("speed", "yaw_rate_deg_s", "drift_y", "support_2", "support_3", "support_4"):
        assert col in rows[0]
    assert not any(r.get("error") for r in rows)
    assert float(rows[0]["speed"]) > 5 * abs(float(rows[1]["speed"]))


def test_video(tmp_path):
    imgs = render_frames(tmp_path, 240, 160, "--cycles", "0.5", "robot=miniaq")
    assert len(imgs) >= 5 and imgs[0].std() > 5
    assert np.abs(imgs[0].astype(int) - imgs[-1]).mean() > 0.1


# ---- the paper's runs (long) ---------------------------------------------------------------------
@pytest.mark.slow
def test_paper_trot_and_turn_5s(tmp_path):
    trot = tmp_path / "trot"
    res = run_script("scripts/run.py", "experiment=miniaq_trot", f"hydra.run.dir={trot}")
    assert res.returncode == 0, res.stderr[-2000:]
    s = json.loads((trot / "summary.json").read_text())
    assert s["speed"] > 0.05 and s["max_loop_gap"] < 1e-4
    assert sum(s["support_fraction"].values()) > 0.8
    turn = tmp_path / "turn"
    res = run_script("scripts/run.py", "experiment=miniaq_turn", f"hydra.run.dir={turn}")
    assert res.returncode == 0, res.stderr[-2000:]
    assert json.loads((turn / "summary.json").read_text())["yaw_rate_deg_s"] > 10.0


# ---- contact_law=power: the Hunt-Crossley-shaped solimp ---------------------------------------------
def test_power_contact_map_follows_K_delta_squared():
    from gaittwin.miniaq.robot import power_law_force
    r = MiniAQ(contact_law="power")
    p = r.p
    c = r.contact(1760.0)
    d0 = c["delta0"]
    assert d0 == pytest.approx(math.sqrt(p.m * 9.81 / (2 * p.K)))
    assert power_law_force(d0, 0.0, c) == pytest.approx(p.K * d0**2, rel=1e-9)          # at the load point
    slope = np.gradient(np.log(power_law_force(d0 * np.array([0.999, 1.0, 1.001]), 0.0, c)), math.log(1.001))[1]
    assert slope == pytest.approx(2.0, abs=0.02)                                            # its log-slope is e
    for x in (1 / 3, 3.0):                                                                  # within 40 % over 9x depth
        assert power_law_force(x * d0, 0.0, c) / (p.K * (x * d0) ** 2) == pytest.approx(1.0, abs=0.4)
    # the damping grows with depth, matching Hunt-Crossley's C at the load point
    damp = lambda r_: (power_law_force(r_, 1e-3, c) - power_law_force(r_, 0.0, c)) / 1e-3   # noqa: E731
    assert damp(d0) == pytest.approx(c["damping"], rel=1e-9) and damp(3 * d0) > 1.9 * damp(d0) > 3.5 * damp(0.0)
    m = r.model()
    assert m.geom_solimp[m.geom("fl_foot").id][:3] == pytest.approx([0.01, 0.11, 10 * d0])


def test_power_contact_keeps_the_reliability_limits():
    """The documented trot (README, contact study): healthy, loops closed, shallow impacts."""
    r = MiniAQ(contact_law="power")
    run = batch.run_point(r, MiniAQ, cycles=3, stop_when_steady=False, nthread=1)
    assert run.error is None
    z = np.stack([run.sensor(f"{leg}_foot_pos")[:, 2] for leg in LEGS], axis=1)
    depth = float((r.p.foot_radius - z).max())
    assert depth < min(MiniAQ.max_penetration, 60e-6)          # the linear map's impacts reach about 0.13 mm
    assert r.loop_gaps(run).max() < min(MiniAQ.max_loop_gap, 50e-6)
    s = r.summarize(run)
    assert s["speed"] > 0.08 and s["hl_touchdowns_per_cycle"] >= 1
