"""The Coulomb-foot hook of gaittwin.bolt.paper.studies.bolt_coulomb_foot (its docstring has the law, candidate 2's
impasse stop and all results): CoulombFoot (the per-step friction force of one compiled model) and CoulombBolt
(Bolt with the plastic foot made frictionless and the hook after Bolt.feedback, its v_eps / impasse / DEN_MIN
variable for the study).  The law itself (CoulombFoot) lives in envs/bolt/coulomb_foot.py, the option
`robot/foot=coulomb` (v_eps 0.005, impasse "stop", DEN_MIN 0.05), imported here: one copy."""

from ...coulomb_foot import DEN_MIN, PROBE, CoulombFoot  # noqa: F401  (the one copy of the law)
from ...robot import Bolt


class CoulombBolt(Bolt):
    """Bolt with the plastic foot made frictionless and the Coulomb hook; v_eps (m/s) and impasse ("lag" or
    "stop", CoulombFoot) set on the instance."""

    v_eps, impasse, den_min = 0.005, "lag", DEN_MIN

    def spec(self):
        s = super().spec()
        s.geom("foot").condim = 1   # the foot's priority makes its condim the contact's
        return s

    def feedback(self, model, data):
        out = super().feedback(model, data)
        hooks = self.__dict__.setdefault("_coulomb", {})
        if id(model) not in hooks:
            hooks[id(model)] = CoulombFoot(model, self.p.mu, self.v_eps, self.impasse, self.den_min)
        hooks[id(model)](model, data)   # last: its forward passes overwrite sensordata and actuator_force
        return out


def coulomb_bolt(v_eps: float, impasse: str = "lag", den_min: float = DEN_MIN, **params) -> CoulombBolt:
    r = CoulombBolt(**params)
    r.v_eps, r.impasse, r.den_min = v_eps, impasse, den_min
    return r
