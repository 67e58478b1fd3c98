"""BOLT's contacts as explicit pairs (gaittwin.bolt.model.floor_pairs, in Bolt.finish_spec): the same contacts with
the same parameters as MuJoCo's broad phase gives the same geoms, in every model variant (feet, die spring and pad,
treadmill belt); and built after any edit of spec(), so a study's or a mutation's edit of a geom reaches its
contacts."""

import mujoco
import numpy as np
import pytest

from gaittwin.bolt.paper.mutations import soften_foot
from gaittwin.bolt.robot import Bolt

VARIANTS = {
    "soft": {},
    "coulomb_implicit": dict(foot_contact="coulomb", foot_friction="implicit", loop_timeconst=5e-5, timestep=1.25e-5),
    "plastic": dict(foot_contact="plastic", loop_timeconst=5e-5, timestep=2.5e-5),
    "spring_pad": dict(spring_stiffness=2e4, pad_stiffness=5e4),
    "treadmill": dict(belt_speed=0.5),
    "mu_0.6": dict(mu=0.6),
}
FIELDS = ("dim", "dist", "pos", "frame", "friction", "solref", "solreffriction", "solimp", "mu", "includemargin")


def _contacts(model, dz: float) -> dict:
    """{(geom names): per-contact fields} with the body lowered by dz from the authored pose."""
    data = mujoco.MjData(model)
    data.qpos[model.joint("z").qposadr[0]] -= dz
    mujoco.mj_forward(model, data)
    out = {}
    for c in data.contact[:data.ncon]:
        key = tuple(sorted(model.geom(int(g)).name for g in c.geom))
        out.setdefault(key, []).append(tuple(np.atleast_1d(getattr(c, f)).tolist() for f in FIELDS))
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_pairs_are_the_broad_phase_contacts(variant):
    params = VARIANTS[variant]
    paired = Bolt(**params).model()               # spec(), then finish_spec(): the pairs
    broad = Bolt(**params).spec().compile()       # spec() alone: MuJoCo's broad phase
    assert paired.npair > 0 and broad.npair == 0
    assert not (paired.geom_contype.any() or paired.geom_conaffinity.any())
    seen = set()
    foot_z = lambda m: mujoco.mj_forward(m, d := mujoco.MjData(m)) or d.geom_xpos[m.geom("foot").id][2]  # noqa
    lift = foot_z(broad) - broad.geom_size[broad.geom("foot").id][0]   # the foot sphere's lowest point
    for dz in (lift + 0.005, lift + 0.03, lift + 0.2, 0.35, 0.4):   # the foot in, deeper, the tibia, all of the leg
        a, b = _contacts(broad, dz), _contacts(paired, dz)
        assert a == b, dz
        seen |= {g for key in a for g in key}
    solid = {broad.geom(i).name for i in range(broad.ngeom) if broad.geom_contype[i] or broad.geom_conaffinity[i]}
    if variant != "treadmill":   # the belt is a 10 cm box: the deep poses pass under it
        assert seen == solid, solid - seen
    else:
        assert {"foot", "floor", "tibia"} <= seen


def test_an_edit_of_spec_reaches_the_contact():
    """A subclass's edit of spec() (the Coulomb studies' condim 1) and a twin mutation's (bolt_soft_foot's solref) are
    in the compiled pair: the pairs are built from the final geoms (they were once built inside spec(), and such
    edits silently missed the contact)."""
    class Frictionless(Bolt):
        def spec(self):
            s = super().spec()
            s.geom("foot").condim = 1
            soften_foot(self, s)
            return s
    plain = Bolt(foot_contact="plastic", loop_timeconst=5e-5, timestep=2.5e-5).model()
    edited = Frictionless(foot_contact="plastic", loop_timeconst=5e-5, timestep=2.5e-5).model()
    i, j = (int(np.flatnonzero((m.pair_geom2 == m.geom("foot").id) | (m.pair_geom1 == m.geom("foot").id))[0])
            for m in (plain, edited))
    assert (plain.pair_dim[i], edited.pair_dim[j]) == (3, 1)
    assert edited.pair_solref[j][1] == pytest.approx(plain.pair_solref[i][1] / 5)
