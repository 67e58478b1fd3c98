"""BOLT's Sec. 5.1 actuator limit on the device (engine=warp): `Bolt.feedback` as a Warp kernel.

Before every step, per world: stance (the previous step's foot touch sensor > 0) gets the power
limit P_max / |dq_1/dt| at the current crank rate, flight the torque limit tau_max (limit_mode
clamp: min(tau_max, P_max / omega) always), written into the world's actuator_forcerange; the
per-step values (AUX: |tau| and |tau dq_1/dt| by the phase of the previous step's limit, foot
force, loop gap, the foot's cumulative impulse) are folded into the world's running
maxima.  The arithmetic is Bolt.feedback's,
in float64 on float32 inputs (tests/test_warp_feedback.py: the kernel is the hook on the same
state).  The shared mechanism: envs/core/engines/warp_hook.py."""
from __future__ import annotations

import numpy as np
import warp as wp

from ..core.engines.warp_hook import DeviceFeedback

# P columns: tau_max, P_max, clamp (1: limit_mode clamp), the clamp's limit; then the sensor and
# dof addresses (as float64, exact): foot_touch, crank_rate, q_1's dof, B_hfe, B_femur, G_kfe, G_tibia; the
# time step.  S columns: the previous step's phase, the foot's cumulative impulse (float64)
NPARAM = 12


@wp.func
def _gap(sd: wp.array2d(dtype=wp.float32), w: int, a: int, b: int) -> wp.float64:
    dx = wp.float64(sd[w, a]) - wp.float64(sd[w, b])
    dy = wp.float64(sd[w, a + 1]) - wp.float64(sd[w, b + 1])
    dz = wp.float64(sd[w, a + 2]) - wp.float64(sd[w, b + 2])
    return dx * dx + dy * dy + dz * dz


@wp.kernel
def limit_kernel(P: wp.array2d(dtype=wp.float64), sd: wp.array2d(dtype=wp.float32),
                 force: wp.array2d(dtype=wp.float32), qvel: wp.array2d(dtype=wp.float32),
                 forcerange: wp.array2d(dtype=wp.vec2), S: wp.array2d(dtype=wp.float64),
                 aux: wp.array2d(dtype=wp.float32)):
    w = wp.tid()
    i_touch = int(P[w, 4])
    i_rate = int(P[w, 5])
    i_dof = int(P[w, 6])
    tau = wp.abs(wp.float64(force[w, 0]))
    power = wp.abs(tau * wp.float64(sd[w, i_rate]))
    gap = wp.sqrt(wp.max(_gap(sd, w, int(P[w, 7]), int(P[w, 8])), _gap(sd, w, int(P[w, 9]), int(P[w, 10]))))
    f = wp.float64(sd[w, i_touch])
    stance = f > wp.float64(0.0)
    lim = P[w, 0]
    if P[w, 2] > wp.float64(0.5):
        lim = P[w, 3]
    elif stance:
        lim = P[w, 1] / wp.max(wp.abs(wp.float64(qvel[w, i_dof])), wp.float64(1e-9))
    forcerange[w, 0] = wp.vec2(wp.float32(-lim), wp.float32(lim))
    prev = S[w, 0] > wp.float64(0.5)
    S[w, 0] = wp.float64(0.0)
    if stance:
        S[w, 0] = wp.float64(1.0)
    k = 0              # columns tau, power of the phase: flight 0, 2; stance (previous step's) 1, 3
    if prev:
        k = 1
    aux[w, k] = wp.max(aux[w, k], wp.float32(tau))
    aux[w, 1 - k] = wp.max(aux[w, 1 - k], wp.float32(0.0))
    aux[w, 2 + k] = wp.max(aux[w, 2 + k], wp.float32(power))
    aux[w, 3 - k] = wp.max(aux[w, 3 - k], wp.float32(0.0))
    aux[w, 4] = wp.max(aux[w, 4], wp.float32(f))
    aux[w, 5] = wp.max(aux[w, 5], wp.float32(gap))
    S[w, 1] = S[w, 1] + f * P[w, 11]
    aux[w, 6] = wp.max(aux[w, 6], wp.float32(S[w, 1]))


class ActuatorLimit(DeviceFeedback):
    """Bolt.feedback on the device (AUX = Bolt.AUX)."""

    nparam, nstate, naux = NPARAM, 2, 7
    fields = ("actuator_forcerange",)

    def row(self, robot, model) -> np.ndarray:
        p = robot.p
        return np.array([p.tau_max, p.P_max, float(p.limit_mode == "clamp"),
                         min(p.tau_max, p.P_max / robot.omega), *robot._indices(model), robot.timestep],
                        float)

    def launch(self, M, D, P, S, aux, wstep, device) -> None:
        wp.launch(limit_kernel, dim=D.nworld, inputs=[P, D.sensordata, D.actuator_force, D.qvel,
                                                     M.actuator_forcerange, S, aux], device=device)
