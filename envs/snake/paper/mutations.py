"""Twin mutations of the snake (envs/core/report/mutation.py): each breaks the MuJoCo twin only (its floor and link
friction, its step time), never eqs. 11-14; the report must notice (tests/test_fidelity_twin_mutation.py).  `flips`:
the validation rows each one flips on the reduced grids, as measured (row id -> its verdict under the mutation)."""
from __future__ import annotations

from ...core.report.mutation import Mutation, scale_friction, spec_edit


def scaled_step_time(k: float):
    """A patch: every step of the inchworm gait k times as long (the gait and the period it sets), the calibrated
    T_step left as configured."""
    def patch(cls):
        period = cls.period
        from ..gait import InchwormGait

        def slow(self):
            p = self.p
            return InchwormGait(p.n, p.N, p.alpha, k * p.T_step, p.timing)
        return {"gait": property(slow), "period": property(lambda self: k * period.fget(self))}
    return patch


MUTATIONS = [
    Mutation("snake_friction_half", "snake", "floor and section friction x 0.5 (the calibrated mu halved)",
             spec_edit(lambda r, s: scale_friction(s, 0.5)), flips={}),
    Mutation("snake_step_time_double", "snake", "step time x 2 (the calibrated T_step doubled)", scaled_step_time(2.0),
             flips={"S2.5.trend": "agrees", "S2.5.loss_order": "disagrees"}),
]
