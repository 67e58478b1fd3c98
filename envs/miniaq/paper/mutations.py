"""Twin mutations of MinIAQ-II (envs/core/report/mutation.py); the report must notice
(tests/test_fidelity_twin_mutation.py)."""
from __future__ import annotations

from ...core.report.mutation import Mutation

# legs [fl, fr, hl, hr]: fr and hr exchange their phases (same side, same spin direction): the trot
# (0, 180, 180, 0) becomes a bound (0, 0, 180, 180)
SHUFFLE = (0, 3, 2, 1)


def shuffled_phases(cls) -> dict:
    orig = cls.phases
    return {"phases": property(lambda self: tuple(orig.fget(self)[i] for i in SHUFFLE))}


MUTATIONS = [
    Mutation("miniaq_phases_shuffled", "miniaq", "gait phases shuffled: fr and hr exchange phase offsets "
             "(the trot becomes a bound)", shuffled_phases),
]
