"""Twin mutations of MinIAQ-II (envs/core/report/mutation.py); the report must notice
(tests/test_fidelity_twin_mutation.py).  `flips`: the validation rows each one flips on the reduced grids, as
measured (row id -> its verdict under the mutation)."""
from __future__ import annotations

from ...core.report.mutation import Mutation, scale_friction, spec_edit

# legs [fl, fr, hl, hr]: fr and hr exchange their phases (same side, same spin direction): the trot
# (0, 180, 180, 0) becomes a bound (0, 0, 180, 180)
SHUFFLE = (0, 3, 2, 1)


def shuffled_phases(cls) -> dict:
    orig = cls.phases
    return {"phases": property(lambda self: tuple(orig.fget(self)[i] for i in SHUFFLE))}


MUTATIONS = [
    Mutation("miniaq_phases_shuffled", "miniaq", "gait phases shuffled: fr and hr exchange phase offsets "
             "(the trot becomes a bound)", shuffled_phases, flips={"M7": "disagrees"}, cost="ci"),
    Mutation("miniaq_friction_double", "miniaq", "every foot's and the floor's friction x 2",
             spec_edit(lambda r, s: scale_friction(s, 2.0)), flips={}),
]
