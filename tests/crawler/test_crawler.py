"""The crawler twin against the paper's equations and its Fig. 4 shape."""
import math
import re

import mujoco
import numpy as np
import pytest

from gaittwin.core.engines import batch
from gaittwin.core.model import schema
from gaittwin.core.model.errors import ConfigError
from gaittwin.crawler.robot import Crawler, FORWARD, feet, ideal_stride, theta_on_floor


def mass_matrix_eq9(q, m0, m, l0, l, J0, J):
    """Eq. 9 of the paper (appendix), q = [x, y, theta, phi1, phi2]."""
    _, _, th, p1, p2 = q
    s1, s2, c1, c2 = math.sin(p1 - th), math.sin(p2 + th), math.cos(p1 - th), math.cos(p2 + th)
    M33 = 2 * J + J0 + m / 2 * (l0**2 + l**2 - l0 * l * math.cos(p1) - l0 * l * math.cos(p2))
    a = l * m / 2
    return np.array([
        [m0 + 2 * m, 0, a * (s1 + s2), -a * s1, a * s2],
        [0, m0 + 2 * m, a * (c1 - c2), -a * c1, -a * c2],
        [a * (s1 + s2), a * (c1 - c2), M33, l * m / 4 * (l0 * math.cos(p1) - l) - J, J + l * m / 4 * (l - l0 * math.cos(p2))],
        [-a * s1, -a * c1, l * m / 4 * (l0 * math.cos(p1) - l) - J, l**2 * m / 4 + J, 0],
        [a * s2, -a * c2, J + l * m / 4 * (l - l0 * math.cos(p2)), 0, l**2 * m / 4 + J],
    ])


def test_mass_matrix_matches_eq9():
    r = Crawler()
    model = r.model()
    data = mujoco.MjData(model)
    rng = np.random.default_rng(0)
    for _ in range(20):
        q = np.r_[rng.uniform(-1, 1, 2), rng.uniform(-0.8, 0.8), rng.uniform(0.3, 2.8, 2)]
        data.qpos[1:] = q            # qpos[0] is the passive lateral slide
        mujoco.mj_forward(model, data)
        M = np.zeros((model.nv, model.nv))
        mujoco.mj_fullM(model, data, M)
        M = M[1:, 1:]
        ref = mass_matrix_eq9(q, 0.194, 0.021, 0.187, 0.17, 776.3e-6, 98.7e-6)
        np.testing.assert_allclose(M, ref, atol=1e-12, rtol=1e-9)


def test_feet_kinematics_match_mujoco():
    r = Crawler()
    model = r.model()
    data = mujoco.MjData(model)
    q = np.array([0.03, 0.02, 0.2, 1.7, 2.1])
    data.qpos[1:] = q
    mujoco.mj_forward(model, data)
    x1, y1, x2, y2 = feet(*q, 0.187, 0.17)
    z0 = model.body("center").pos[2]
    np.testing.assert_allclose(data.site("foot1").xpos[[0, 2]], [x1, y1 + z0], atol=1e-12)
    np.testing.assert_allclose(data.site("foot2").xpos[[0, 2]], [x2, y2 + z0], atol=1e-12)


def test_starts_at_rest_with_both_feet_touching():
    for psi in (0.0, 20.0, 90.0):
        r = Crawler(psi_deg=psi, omega=3.0)
        model = r.model()
        data = mujoco.MjData(model)
        r.initial_pose(model, data)
        mujoco.mj_forward(model, data)
        rad = r.p.foot_radius
        for i in (1, 2):
            assert data.site(f"foot{i}").xpos[2] == pytest.approx(rad - 1e-6, abs=1e-12)
        assert not data.qvel.any()
        assert data.ncon == 2


def _sweep(omegas, **kw):
    runs = batch.run_points([dict(omega=w, **kw) for w in omegas], Crawler, cycles=20,
                            stop_when_steady=True)
    return {w: r.robot.summarize(r) for w, r in zip(omegas, runs)}


@pytest.fixture(scope="module")
def fig4():
    return _sweep([0.3, 5.1, 8.0, 16.0])


def test_low_frequency_stride_is_quasistatic_ideal(fig4):
    ideal = ideal_stride(Crawler(omega=0.3).inputs, 0.187, 0.17)
    assert fig4[0.3]["steady"]
    assert fig4[0.3]["S"] == pytest.approx(ideal, rel=0.03)


def test_fig4_shape(fig4):
    S = {w: s["S"] for w, s in fig4.items()}
    assert S[0.3] > 0.1                      # the low-frequency gait advances (sign convention)
    assert abs(S[5.1]) < 0.05 * S[0.3]       # advancement almost cancelled in range 2
    assert S[16.0] > S[8.0]                  # rigid-body progression returns in range 3


def test_tracking_error_below_0p1_deg(fig4):
    for w, s in fig4.items():
        assert s["tracking_error_deg"] < 0.1, (w, s["tracking_error_deg"])


def test_low_frequency_contact_modes_are_ideal_switching(fig4):
    s = fig4[0.3]
    for i in (1, 2):
        assert s[f"foot{i}_slip_backward"] < 0.02
        assert s[f"foot{i}_liftoff"] == 0.0
        assert 0.4 < s[f"foot{i}_slip_forward"] < 0.6


def test_no_liftoff_at_omega_8():
    """Default contact recipe: both feet press on the floor at every step of the steady cycle at
    omega = 8, as in the exact hybrid model (whose minimum normal force there is 0.81 N)."""
    from gaittwin.crawler.paper import hybrid as H

    r = Crawler(omega=8.0)
    r.samples_per_cycle = r.steps_per_cycle      # record every step (the same timestep as the default)
    run = batch.run_point(r, None, cycles=40, stop_when_steady=True)
    assert run.robot.summarize(run)["steady"] and run.error is None
    n = run.robot.steps_per_cycle
    exact = H.simulate(dict(omega=8.0), cycles=40, samples_per_cycle=1000)
    fn_exact = exact.fn[-1001:].min()
    assert fn_exact > 0.5
    for i in (1, 2):
        fn = run.sensor(f"foot{i}_touch")[-n - 1:, 0]
        assert fn.min() > 0.9 * fn_exact, (i, fn.min(), fn_exact)


def test_ideal_stride_is_foot_distance_swing():
    r = Crawler(omega=1.0, psi_deg=0.0)
    # psi = 0: phi1 = phi2 = phi, theta = 0, D = l0 - 2 l cos(phi)
    expect = 2 * 0.17 * (math.cos(math.radians(92)) - math.cos(math.radians(128)))
    assert ideal_stride(r.inputs, 0.187, 0.17) == pytest.approx(expect, rel=1e-4)
    assert theta_on_floor(1.9, 1.9, 0.187, 0.17) == pytest.approx(0.0, abs=1e-12)


def test_forward_convention():
    # the paper's low-frequency gait travels towards foot 1, i.e. -x in the model
    assert FORWARD == -1.0


@pytest.mark.parametrize("name", [k for k in schema.fields(Crawler.Params) if k.startswith("contact_")])
def test_contact_parameter_ranges(name):
    """Each end the message states as included is accepted, an excluded one is not."""
    f = schema.fields(Crawler.Params)[name]
    s = f.spec
    for bound, is_open, outside in ((s.lo, s.lo_open, s.lo - 1e-9), (s.hi, s.hi_open, s.hi * (1 + 1e-9))):
        if is_open:
            with pytest.raises(ConfigError, match=re.escape(f.allowed)):
                Crawler(**{name: bound})
        else:
            assert Crawler(**{name: bound}).cfg[name] == bound
        with pytest.raises(ConfigError, match=re.escape(f.allowed)):
            Crawler(**{name: outside})


def test_contact_parameters_reach_the_foot_floor_pairs():
    r = Crawler(mu1=0.3, mu2=0.2, contact_timeconst=0.002, contact_dampratio=0.7, contact_friction_timeconst=0.04,
                contact_impedance_min=0.1, contact_impedance_max=0.3, contact_impedance_width=0.002,
                contact_impedance_midpoint=0.4, contact_impedance_power=3.0)
    m = r.model()
    feet_ids = [m.geom("foot1").id, m.geom("foot2").id]
    assert m.npair == 2 and not m.geom_contype[feet_ids].any() and not m.geom_conaffinity[feet_ids].any()
    for i, mu in ((0, 0.3), (1, 0.2)):
        np.testing.assert_allclose(m.pair_friction[i], [mu, mu, 0, 0, 0])
        np.testing.assert_allclose(m.pair_solref[i], [0.002, 0.7])
        assert m.pair_solreffriction[i][0] == 0.04
        np.testing.assert_allclose(m.pair_solimp[i], [0.1, 0.3, 0.002, 0.4, 3.0])


# ---- COM offsets dc0-dc2 (robustness only; 0 = the paper's mid-link COM) ------------------
# what MuJoCo's compiler derives from the mass distribution at qpos0 (a mass change m1 moves the same fields)
DERIVED = {"actuator_acc0", "body_invweight0", "dof_M0", "dof_invweight0", "dof_length", "cam_poscom0",
           "light_poscom0", "body_sameframe", "stat.meaninertia", "stat.meansize"}


def _arrays(m):
    out = {k: getattr(m, k) for k in dir(m) if not k.startswith("_") and isinstance(getattr(m, k), np.ndarray)}
    out.update({f"stat.{k}": np.asarray(getattr(m.stat, k)) for k in ("meaninertia", "meansize", "meanmass", "extent")})
    return out


def test_default_com_is_the_authored_mjcf():
    """dc = 0: every body's inertial frame is the one crawler.xml authors (bit for bit)."""
    from gaittwin.crawler.robot import SCENE
    authored = mujoco.MjModel.from_xml_path(str(SCENE))
    built = Crawler().model()
    assert np.array_equal(built.body_ipos, authored.body_ipos)
    assert np.array_equal(built.body_iquat, authored.body_iquat)
    assert np.array_equal(built.body_mass, authored.body_mass)


@pytest.mark.parametrize("name, body, sign", [("dc0", "center", 1), ("dc1", "link1", 1), ("dc2", "link2", -1)])
def test_com_offset_moves_only_its_links_inertial_position(name, body, sign):
    """A 3 mm offset moves exactly that body's body_ipos along the link (towards the link-2 hinge for dc0,
    towards the foot for dc1, dc2); other changed arrays are only the compiler's mass-derived quantities."""
    base, moved = _arrays(Crawler().model()), _arrays(Crawler(**{name: 0.003}).model())
    changed = {k for k in base if not np.array_equal(base[k], moved[k])}
    assert "body_ipos" in changed and changed <= DERIVED | {"body_ipos"}, changed - DERIVED
    delta = moved["body_ipos"] - base["body_ipos"]
    b = Crawler().model().body(body).id
    expected = np.zeros_like(delta)
    expected[b, 0] = sign * 0.003
    np.testing.assert_allclose(delta, expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize("kw, half", [(dict(dc0=0.04, l0=0.08), 0.04), (dict(dc1=-0.04, l=0.08), 0.04),
                                      (dict(dc2=0.045, l=0.09), 0.045)])
def test_com_offset_must_stay_on_its_link(kw, half):
    """|dc0| < l0/2, |dc_i| < l/2 (the declared bounds +-0.05 m are wider than that for short links)."""
    with pytest.raises(ConfigError, match=re.escape(f"(-{half:g}, {half:g}) m")):
        Crawler(**kw)
    with pytest.raises(ConfigError, match=re.escape(schema.fields(Crawler.Params)["dc0"].allowed)):
        Crawler(dc0=0.051)


def test_fig4_plot_pairs_each_sweep_value_by_colour_and_each_engine_by_line_style(tmp_path, monkeypatch):
    """With another sweep key (+sweep.psi_deg=[0,20]), the twin and the exact model of one psi share a colour
    and differ in line style (they had six unrelated colours, the exact curves hiding the twin's)."""
    from gaittwin.crawler.paper import plots
    figs = []
    monkeypatch.setattr(plots, "save_figure", lambda fig, path, dpi=120: figs.append(fig))
    pts = [dict(omega=w, S=0.01 * w, V=0.002 * w, steady=True) for w in (1.0, 2.0)]
    plots.s_v({f"{e}, psi_deg={p}": pts for e in ("mujoco", "hybrid") for p in (0, 20)}, 0, tmp_path / "f.png")
    lines = {ln.get_label(): ln for ln in figs[0].axes[0].get_lines() if not ln.get_label().startswith("_")}
    assert set(lines) == {f"{n}, psi = {p} deg" for n in ("MuJoCo twin", "exact hybrid model") for p in (0, 20)}
    for p in (0, 20):
        twin, exact = lines[f"MuJoCo twin, psi = {p} deg"], lines[f"exact hybrid model, psi = {p} deg"]
        assert twin.get_color() == exact.get_color() and (twin.get_linestyle(), exact.get_linestyle()) == ("-", "--")
    assert lines["MuJoCo twin, psi = 0 deg"].get_color() != lines["MuJoCo twin, psi = 20 deg"].get_color()
    plots.s_v({"mujoco": pts, "hybrid": pts}, 0, tmp_path / "g.png")      # one curve per engine: as before
    assert [ln.get_label() for ln in figs[1].axes[0].get_lines()][:2] == ["MuJoCo twin", "exact hybrid model"]
