"""Twin mutations (envs/core/report/mutation.py): the fidelity report must notice a broken twin.

Unlike tests/test_fidelity_mutation.py (which perturbs recorded values), these break the twin itself
(friction, contact, inputs, masses) and rerun the report's claim groups: every listed mutation must
flip at least one validation row of the affected robot (slow: the robot's reduced groups), and in CI
one mutation on the smallest group.  The other tests check that a mutation reaches the model or the
inputs and is undone afterwards (compile only, no simulation).
"""
from __future__ import annotations

import json
import math
import pathlib
import sys

import numpy as np
import pytest

import gaittwin
from gaittwin.core.report import mutation

ROOT = pathlib.Path(__file__).resolve().parent.parent
LISTED = {"friction_half", "crawler_phase_reversed", "default_contact", "masses_swapped", "bolt_soft_foot",
          "bolt_crank_longer", "bolt_tibia_shorter", "miniaq_phases_shuffled", "miniaq_friction_double",
          "snake_friction_half", "snake_step_time_double"}


def test_the_listed_mutations_are_declared():
    reg = mutation.registry()
    assert LISTED <= set(reg)
    assert all(m.robot in gaittwin.ROBOTS and m.what for m in reg.values())


def _model(name):
    m = gaittwin.robot_class(name)().model()
    return m


@pytest.mark.parametrize("name,check", [
    ("friction_half", lambda a, b: np.allclose(b.pair_friction[:, 0], 0.5 * a.pair_friction[:, 0])),
    ("default_contact", lambda a, b: np.allclose(b.pair_solref, mutation.DEFAULT_SOLREF)
     and not np.allclose(a.pair_solref, mutation.DEFAULT_SOLREF) and b.opt.impratio == 1.0),
    ("masses_swapped", lambda a, b: math.isclose(b.body("center").mass[0], a.body("link1").mass[0])
     and math.isclose(b.body("link1").mass[0], a.body("center").mass[0])),
    ("bolt_soft_foot", lambda a, b: math.isclose(b.geom("foot").solref[0], math.sqrt(5) * a.geom("foot").solref[0])),
])
def test_a_model_mutation_reaches_the_model_and_is_undone(name, check):
    m = mutation.registry()[name]
    before = _model(m.robot)
    with mutation.applied(m):
        during = _model(m.robot)
    after = _model(m.robot)
    assert check(before, during), name
    assert not check(before, after)
    assert np.array_equal(after.geom_friction, before.geom_friction)
    assert np.array_equal(after.body_mass, before.body_mass)


def test_an_input_mutation_reaches_the_inputs_and_is_undone():
    t = np.linspace(0, 1, 7)
    r = gaittwin.robot_class("crawler")()
    u0 = r.controls(t)
    with mutation.applied(mutation.registry()["crawler_phase_reversed"]):
        u1 = gaittwin.robot_class("crawler")().controls(t)
    assert np.allclose(u1, u0[:, [1, 0, 3, 2]]) and not np.allclose(u1, u0)
    assert np.allclose(gaittwin.robot_class("crawler")().controls(t), u0)
    q = gaittwin.robot_class("miniaq")()
    p0 = q.phases
    with mutation.applied(mutation.registry()["miniaq_phases_shuffled"]):
        p1 = gaittwin.robot_class("miniaq")().phases
    assert p1 == tuple(p0[i] for i in (0, 3, 2, 1)) and p1 != p0
    assert gaittwin.robot_class("miniaq")().phases == p0


def test_flips_compares_validation_verdicts_only():
    base = [dict(id="A", kind="validation", verdict="agrees"), dict(id="B", kind="consistency", verdict="agrees"),
            dict(id="C", kind="validation", verdict="disagrees")]
    mut = [dict(id="A", kind="validation", verdict="disagrees"), dict(id="B", kind="consistency", verdict="disagrees"),
           dict(id="C", kind="validation", verdict="disagrees")]
    flipped, compared = mutation.flips(base, mut)
    assert compared == ["A", "C"] and flipped == [dict(id="A", base="agrees", mutated="disagrees")]
    assert mutation.flips(base, base)[0] == []


def test_cli_rejects_an_unknown_mutation(tmp_path, capsys):
    sys.path.insert(0, str(ROOT / "scripts"))
    import fidelity_report
    assert fidelity_report.main(["--mutate", "nope", "--out", str(tmp_path)]) == 2
    assert "--mutate" in capsys.readouterr().err and not any(tmp_path.iterdir())
    assert fidelity_report.main(["--mutate", "friction_half", "--baseline", str(tmp_path / "x.json"),
                                 "--out", str(tmp_path)]) == 2


def _run(name, tmp_path, groups=None) -> dict:
    path = mutation.run(name, tmp_path, reduced=True, log=lambda *a: None, groups=groups)
    return json.loads(path.read_text())


def test_phase_reversal_flips_the_high_omega_optimum(tmp_path):
    """CI-sized: the crawler's reversed input phase through the smallest group with validation rows
    (Fig. 6's ends, omega 0.3 and 16, two small reduced runs): psi* at omega 16 moves off the paper's 120 deg."""
    res = _run("crawler_phase_reversed", tmp_path, groups=["claims_crawler_psi_map"])
    assert res["validation_rows_compared"] == ["C8", "C30"]
    assert dict(id="C8", base="agrees", mutated="disagrees") in res["flipped"] and not res["blind_spot"]


def _matrix(name, tmp_path):
    """The mutation's declared groups on the reduced grids flip exactly the validation rows it declares (`flips`, the
    report's mutation-coverage table; {}: a declared blind spot, None: not yet measured, which fails here)."""
    res = _run(name, tmp_path)
    assert res["validation_rows_compared"], name
    measured = {f["id"]: f["mutated"] for f in res["flipped"]}
    assert measured == mutation.registry()[name].flips, f"{name}: declare its measured flips {measured}"


@pytest.mark.parametrize("name", sorted(n for n, m in mutation.registry().items() if m.cost == "ci"))
def test_the_cheap_mutations_flip_what_they_declare(name, tmp_path):
    _matrix(name, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(n for n, m in mutation.registry().items() if m.cost != "ci"))
def test_every_mutation_flips_what_it_declares(name, tmp_path):
    _matrix(name, tmp_path)


def test_bolt_soft_foot_reaches_the_default_plastic_coulomb_foot():
    """The default foot (robot/foot=coulomb_implicit) is a spring-free damper (solref (0, -B)): the mutation divides
    its rate by 5 (the soft foot's case is the parametrized test above)."""
    from gaittwin.bolt.robot import Bolt
    kw = dict(foot_contact="coulomb", foot_friction="implicit", loop_timeconst=5e-5, timestep=1.25e-5)
    before = Bolt(**kw).model().geom("foot").solref.copy()
    with mutation.applied(mutation.registry()["bolt_soft_foot"]):
        during = Bolt(**kw).model().geom("foot").solref.copy()
    assert before[0] == 0 and before[1] < 0 and during[0] == 0
    assert math.isclose(during[1], before[1] / 5)
    assert np.array_equal(Bolt(**kw).model().geom("foot").solref, before)
