"""What BOLT's Coulomb foot becomes with only what MuJoCo Warp's per-step device hook has (issue 37, engine=warp).

The runner's device feedback (`Robot.device_feedback`, gaittwin.core.engines.warp_hook) runs before each step on the
previous step's results: its sensors (the foot's normal force) and its kinematics, with the current qpos/qvel.  It
has no frictionless pass of the step about to be taken, which the accurate foot's law (`foot_friction=implicit`,
coulomb_foot.c) needs for the step's own normal force and response.  What such a hook can apply is Coulomb friction
explicit in the normal force, one step late: F_t = -mu F_n(previous step) v_t / sqrt(|v_t|^2 + v_eps^2), v_t the
foot point's slip (the previous step's Jacobian times the current qvel), v_eps the regularised option's 0.005 m/s.
This study runs that law on the C engine (the Python loop: a study subclass overrides `feedback`) with the accurate
foot's model otherwise (plastic contact frictionless in MuJoCo's cone, condim 1; loops 5e-5 s; Euler) at the six
compared crank periods, against the committed paper model, and judges it by the accurate foot's own rules (R1 the
target, R2 a halving; docs/notes/2026-11-28-bolt-fewer-steps.md, "engine=warp"), stated before the runs there.

    nice -n 10 .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_lagged_friction [--timesteps 1.25e-5 6.25e-6]
"""
import argparse
import math
import os
import time

import mujoco
import numpy as np

from ...robot import Bolt
from .bolt_implicit_friction import PERIODS, RULES, judge, print_halvings, print_rows, reference

V_EPS = 0.005


class LaggedBolt(Bolt):
    """The accurate foot's model (plastic, frictionless in the cone) with the friction a device hook could apply."""

    def spec(self):
        spec = super().spec()
        spec.geom("foot").condim = 1     # as foot_contact=coulomb: MuJoCo's cone unused
        return spec

    def feedback(self, model, data):
        aux = super().feedback(model, data)            # Sec. 5.1's actuator limit (foot_contact=plastic: no hook)
        data.qfrc_applied[:] = 0.0
        fn = float(data.sensordata[self._indices(model)[0]])     # the previous step's normal force
        if fn > 0.0:
            foot = model.geom("foot")
            body = int(foot.bodyid[0])
            p = data.geom_xpos[foot.id].copy()
            p[2] -= float(foot.size[0])                             # the sphere's lowest point
            jac = np.zeros((3, model.nv))
            mujoco.mj_jac(model, data, jac, None, p, body)          # the previous step's kinematics
            v = jac @ data.qvel                                     # the current state's velocity
            vt = np.array([v[0], v[1], 0.0])
            f = -self.p.mu * fn * vt / math.sqrt(vt @ vt + V_EPS ** 2)
            mujoco.mj_applyFT(model, data, f, np.zeros(3), p, body, data.qfrc_applied)
        return aux


def params(dt: float) -> dict:
    return dict(foot_contact="plastic", loop_timeconst=5e-5, timestep=dt, integrator="euler", bumper_height=0.40)


def rung(dt: float, periods, ref: dict) -> list:
    return judge([LaggedBolt(**dict(params(dt), crank_period=T)) for T in periods], LaggedBolt, ref)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timesteps", nargs="*", type=float, default=[1.25e-5, 6.25e-6])
    ap.add_argument("--periods", nargs="*", type=float, default=list(PERIODS))
    args = ap.parse_args(argv)
    ref, res = reference(), {}
    print(RULES, flush=True)
    for dt in args.timesteps:
        t0 = time.time()
        rows = res[dt] = rung(dt, args.periods, ref)
        print(f"dt {dt:g} s, loops 5e-5 s, Euler, friction one step late ({time.time() - t0:.0f} s wall, load "
              f"{os.getloadavg()[0]:.1f})", flush=True)
        print_rows(rows, dt)
    print_halvings(res, args.periods)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
