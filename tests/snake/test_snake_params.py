"""The snake's contact softness, per-section friction and centre-of-mass offset (issue #17): the
defaults compile to exactly the authored model, each parameter changes exactly its own model fields,
per-section friction reaches the contacts, bad values are refused, and snake_robustness draws them."""
from __future__ import annotations

import mujoco
import numpy as np
import pytest

from gaittwin.core.runs import config
from gaittwin.core.analysis import robustness as rb
from gaittwin.core.model.errors import ConfigError
from gaittwin.snake.robot import SCENE, Snake

# model fields MuJoCo's compiler derives from a body's inertial frame (a moved COM changes them too)
COM_DERIVED = {"actuator_acc0", "body_invweight0", "dof_M0", "dof_invweight0", "dof_length", "cam_poscom0",
               "light_poscom0", "bvh_aabb", "geom_sameframe", "site_sameframe"}


def arrays(model) -> dict:
    out = {}
    for name in dir(model):
        if not name.startswith("_") and isinstance(a := getattr(model, name, None), np.ndarray):
            out[name] = a
    return out


def changed(a, b) -> set:
    A, B = arrays(a), arrays(b)
    assert A.keys() == B.keys()
    return {k for k in A if A[k].shape != B[k].shape or not np.array_equal(A[k], B[k])}


def compiled(**kw):
    return Snake(**kw).spec().compile()


def link_geoms(model, N=8):
    return [model.geom(f"link{k}").id for k in range(1, N + 1)]


def link_bodies(model, N=8):
    return [model.body(f"link{k}").id for k in range(1, N + 1)]


@pytest.mark.parametrize("N", [8, 5, 12])
def test_defaults_compile_to_exactly_the_authored_model(N):
    """Every array of the compiled default model is == (no tolerance) the authored MJCF's (N = 8) and the
    explicit section inertials equal the ones MuJoCo infers from the capsules (every N)."""
    m = compiled(N=N)
    if N == 8:
        assert changed(mujoco.MjModel.from_xml_path(str(SCENE)), m) == set()
    spec = Snake(N=N).spec()
    for k in range(1, N + 1):
        spec.body(f"link{k}").explicitinertial = False       # MuJoCo infers the inertia from the geom
    assert changed(spec.compile(), m) == set()


def test_each_parameter_changes_exactly_its_fields():
    m0 = compiled()
    g, b = link_geoms(m0), link_bodies(m0)
    others = [i for i in range(m0.ngeom) if i not in g]
    m = compiled(contact_timeconst=0.006)
    assert changed(m0, m) == {"geom_solref"}
    assert np.all(m.geom_solref[g] == [0.006, 1.0]) and np.array_equal(m.geom_solref[others], m0.geom_solref[others])
    m = compiled(contact_dampratio=0.7)
    assert changed(m0, m) == {"geom_solref"} and np.all(m.geom_solref[g] == [0.004, 0.7])
    rel = [0.1, -0.2, 0.0, 0.3, -0.5, 0.0, 0.2, -0.9]
    m = compiled(mu_links_rel=rel)
    assert changed(m0, m) == {"geom_friction"}
    assert m.geom_friction[g, 0].tolist() == [0.4 * (1 + v) for v in rel]
    assert np.array_equal(m.geom_friction[g, 1:], m0.geom_friction[g, 1:])
    assert np.array_equal(m.geom_friction[others], m0.geom_friction[others])       # floor: mu
    m = compiled(com_offset=-0.005)
    assert "body_ipos" in changed(m0, m) <= {"body_ipos"} | COM_DERIVED
    assert np.array_equal(m.body_ipos[b], np.tile([0.042 - 0.005, 0, 0], (8, 1)))   # l/2 + com_offset
    for f in ("body_mass", "body_inertia", "body_iquat", "body_pos", "geom_pos", "geom_size"):
        assert np.array_equal(getattr(m, f), getattr(m0, f)), f


def test_per_section_friction_and_softness_reach_the_contacts():
    """At t = 0 every section touches the floor; each contact carries its section's friction (the
    section's priority wins over the floor, also where the floor's friction is higher: no max rule) and
    the configured solref."""
    rel = [0.0, -0.75, 0.5, 0.0, 0.0, 0.0, 0.0, -0.5]
    r = Snake(mu_links_rel=rel, contact_timeconst=0.005, contact_dampratio=0.9)
    m = r.model()
    d = mujoco.MjData(m)
    r.initial_pose(m, d)
    mujoco.mj_forward(m, d)
    floor = m.geom("floor").id
    seen = set()
    for c in d.contact[:d.ncon]:
        k = [m.geom(i).name for i in (c.geom1, c.geom2) if i != floor][0]
        i = int(k[4:]) - 1
        assert c.friction[0] == pytest.approx(0.4 * (1 + rel[i]), rel=1e-12), k
        assert c.solref.tolist() == [0.005, 0.9]
        seen.add(i)
    assert seen == set(range(8))


@pytest.mark.parametrize("params, name", [
    (dict(mu_links_rel=[0.0] * 7), "mu_links_rel"), (dict(N=10, mu_links_rel=[0.0] * 8), "mu_links_rel"),
    (dict(mu_links_rel=[0.0] * 7 + [-1.0]), "mu_links_rel"), (dict(mu_links_rel=[0.0] * 7 + [4.5]), "mu_links_rel"),
    (dict(com_offset=0.042), "com_offset"), (dict(l=0.05, com_offset=-0.03), "com_offset"),
    (dict(com_offset=0.6), "com_offset"), (dict(contact_timeconst=0.0), "contact_timeconst"),
    (dict(contact_dampratio=-1.0), "contact_dampratio"),
])
def test_bad_values_are_refused(params, name):
    with pytest.raises(ConfigError) as e:
        Snake(**params)
    assert e.value.param == name and "allowed range" in str(e.value)


def _worlds(*overrides, n=3):
    return rb.worlds(config.compose(["experiment=snake_robustness", f"experiment.n={n}", "run.progress=false",
                                     *overrides]))


def test_robustness_draws_every_section_and_follows_N():
    robots, _, key, names, X = _worlds()[:5]
    assert {"mu_links_rel", "contact_timeconst", "com_offset"} <= set(key)
    j = [names.index(f"mu_links_rel[{e}]") for e in range(8)]
    assert np.all(X[0, j] == 0) and np.all(np.abs(X[1:, j]) <= 0.2) and len(set(X[1:, j].ravel())) == 24
    assert robots[0].cfg["mu_links_rel"] is None and robots[2].cfg["mu_links_rel"] == X[2, j].tolist()
    c = X[:, names.index("com_offset")]
    t = X[:, names.index("contact_timeconst")]
    assert c[0] == 0 and np.all(np.abs(c) <= 0.0084) and t[0] == 0.004 and np.all(np.abs(t / 0.004 - 1) <= 0.3)
    robots, names = (lambda w: (w[0], w[3]))(_worlds("robot.N=10", "robot.n=5"))     # size: N follows the robot
    assert sum(v.startswith("mu_links_rel[") for v in names) == 10 and len(robots[1].cfg["mu_links_rel"]) == 10


@pytest.mark.parametrize("overrides, key", [
    (["robot.N=10", "experiment.spread.mu_links_rel.size=8"], "experiment.spread.mu_links_rel.size"),
    (["experiment.spread.com_offset.abs=0.05"], "experiment.spread.com_offset"),      # leaves the section
    (["experiment.spread.mu_links_rel.abs=1.5"], "experiment.spread.mu_links_rel"),   # friction <= 0
    (["experiment.spread.mu_links_rel.size=alpha_deg"], "experiment.spread.mu_links_rel.size"),
])
def test_bad_robustness_spread_one_early_error(overrides, key):
    with pytest.raises(ConfigError) as e:
        _worlds(*overrides)
    assert str(e.value).startswith(f"{key}=")


def test_of_gives_a_list_its_nominal_for_every_element():
    d = rb.parse_spread(Snake, {"mu_links_rel": dict(dist="uniform", abs=0.1, size="N", of="mu")}, {"N": 6})
    assert d[0].size == 6
    _, names, X = rb.draw(Snake, {"N": 6}, d, 4, 0)
    assert X[0].tolist() == [0.4] * 6 and np.all(np.abs(X[1:] - 0.4) <= 0.1)
