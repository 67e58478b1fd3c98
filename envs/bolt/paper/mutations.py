"""Twin mutations of BOLT (envs/core/report/mutation.py); the report must notice (tests/test_fidelity_twin_mutation.py).
`flips`: the validation rows each one flips on the reduced grids, as measured (row id -> its verdict under the
mutation); `groups`: the claim groups holding BOLT's validation rows (the design rows are kinematic, B6c/B6d
consistency)."""
from __future__ import annotations

import dataclasses
import math

from ...core.report.mutation import Mutation, spec_edit

VALIDATION_GROUPS = ("claims_bolt",)


def soften_foot(robot, spec, k: float = 5.0) -> None:
    """The foot's contact k times softer.  The soft foot (solref (timeconst, dampratio)): its stiffness / k, the time
    constant x sqrt(k) at the same damping ratio (MuJoCo's reference stiffness goes as 1 / timeconst^2).  The plastic
    and Coulomb feet (the default; direct form (-K, -B), K = 0): the damper's rate B / k (and K / k)."""
    foot = spec.geom("foot")
    if foot.solref[0] <= 0 and foot.solref[1] < 0:
        foot.solref = [foot.solref[0] / k, foot.solref[1] / k]
    else:
        foot.solref = [foot.solref[0] * math.sqrt(k), foot.solref[1]]


def scaled_link(name: str, k: float):
    """A patch: the linkage's link `name` (a field of bolt.kinematics.Geometry) x k everywhere the twin reads its
    geometry (the MuJoCo model, the assembled start pose, the loop kinematics), the parameters left as configured."""
    def patch(cls):
        orig = cls.geometry
        return {"geometry": property(lambda self: dataclasses.replace(orig.fget(self), **{
            name: k * getattr(orig.fget(self), name)}))}
    return patch


MUTATIONS = [
    Mutation("bolt_soft_foot", "bolt", "foot contact 5x softer (solref time constant x sqrt 5)",
             spec_edit(soften_foot), groups=VALIDATION_GROUPS, flips={}),
    Mutation("bolt_crank_longer", "bolt", "crank radius l_1 x 1.25 (link length)", scaled_link("l_1", 1.25),
             groups=VALIDATION_GROUPS, flips={}),
    Mutation("bolt_tibia_shorter", "bolt", "tibia l_5 x 0.85 (link length)", scaled_link("l_5", 0.85),
             groups=VALIDATION_GROUPS, flips={"B5": "disagrees"}),
]
