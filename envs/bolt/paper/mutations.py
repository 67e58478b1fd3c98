"""Twin mutations of BOLT (envs/core/report/mutation.py); the report must notice (tests/test_fidelity_twin_mutation.py)."""
from __future__ import annotations

import math

from ...core.report.mutation import Mutation, spec_edit


def soften_foot(robot, spec, k: float = 5.0) -> None:
    """The foot's contact stiffness / k: solref's time constant x sqrt(k) at the same damping ratio
    (MuJoCo's reference stiffness goes as 1 / timeconst^2)."""
    foot = spec.geom("foot")
    foot.solref = [foot.solref[0] * math.sqrt(k), foot.solref[1]]


MUTATIONS = [
    Mutation("bolt_soft_foot", "bolt", "foot contact 5x softer (solref time constant x sqrt 5)",
             spec_edit(soften_foot)),
]
