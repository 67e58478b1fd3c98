"""The crawler under the eq. 19 feedback law as a closed-loop robot: one point per run of the batch
runner on either engine (the C engine: `feedback`, the law in Python before every step;
engine=warp: the same law as a device kernel, envs/crawler/paper/warp_feedback.py).

`feedback` is the one implementation of the law on the C engine (Sec. VIII): the crawler_feedback
experiment's C path (`gaittwin.crawler.paper.feedback.mujoco_feedback_run`) steps it too.  Joint
accelerations from the measured state (eq. 19; slip-slip -- both |x_i'| > v_slip from the previous
step's foot velocity sensors -- with both angles in Phi: contact-velocity tracking through the
hybrid model's S_1, S_0 of eqs. 20-23, else PD tracking of eq. 5), integrated into the servo
references (position and velocity feed-forward), starting from the open-loop references at t = 0.
`gains=None`: the open loop (the same class, so both run as worlds of one batch)."""
from __future__ import annotations

from types import MappingProxyType

import numpy as np

from ..robot import Crawler

LAW_DEFAULTS = MappingProxyType({})   # gains: FeedbackLaw's own defaults (Sec. VIII's, declared there once)
V_SLIP = 2e-3            # m/s: a foot slips when its tangential velocity exceeds this
JOINTS = ("root_x", "root_z", "theta", "phi1", "phi2")


class FeedbackCrawler(Crawler):
    """A crawler point under eq. 19 (gains: FeedbackLaw's Kv, Kp, Kd, phi_lim, those not given at
    FeedbackLaw's defaults; None: open loop)."""

    closed_loop = True
    v_slip = V_SLIP          # the slip threshold the device kernel reads (envs/crawler/paper/warp_feedback.py)

    def __init__(self, gains: dict | None = LAW_DEFAULTS, **params):
        super().__init__(**params)
        self.gains = None if gains is None else dict(gains)
        self._cmd: dict = {}

    def law(self):
        """(FeedbackLaw, hybrid Model with no Baumgarte terms) of this point, built once."""
        if "_law" not in self.__dict__:
            from . import hybrid as H
            P = H.Params.from_robot(self)
            self._law = (H.FeedbackLaw(self.inputs, P, **self.gains), H.Model(P, baumgarte=0.0))
        return self._law

    def addresses(self, model) -> tuple:
        """(qpos addresses, dof addresses of JOINTS, foot1_vel and foot2_vel sensor addresses), looked
        up by name once per model (the last model asked for is kept, with a reference, so its
        identity cannot be reused by another)."""
        cached = self.__dict__.get("_addresses")
        if cached is None or cached[0] is not model:
            j = [model.joint(n) for n in JOINTS]
            cached = self._addresses = (model, ([int(x.qposadr[0]) for x in j], [int(x.dofadr[0]) for x in j],
                                                [int(model.sensor(f"foot{i}_vel").adr[0]) for i in (1, 2)]))
        return cached[1]

    def feedback(self, model, data):
        if self.gains is None:
            return None
        law, hm = self.law()
        qa, da, va = self.addresses(model)
        cmd = self._cmd.get(id(data))
        if cmd is None or data.time == 0.0:          # the run's first step: the open-loop references
            cmd = self._cmd[id(data)] = [data.ctrl[:2].copy(), data.ctrl[2:4].copy()]
        q, qd = data.qpos[qa].copy(), data.qvel[da].copy()
        v = data.sensordata[va]
        mode = tuple(int(np.sign(x)) if abs(x) > self.v_slip else 0 for x in v)
        qdd, _ = law.qdd_c(data.time, q, qd, mode if mode[0] != 0 and mode[1] != 0 else (0, 1), hm)
        cmd[1] = cmd[1] + model.opt.timestep * qdd
        cmd[0] = cmd[0] + model.opt.timestep * cmd[1]
        data.ctrl[:2], data.ctrl[2:4] = cmd[0], cmd[1]
        return None

    def device_feedback(self):
        from .warp_feedback import Eq19
        return Eq19()
