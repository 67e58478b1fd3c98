"""A closed-loop robot's per-step `feedback` on the device: the shared mechanism of engine=warp.

A robot whose `feedback` hook (closed_loop) has a Warp version returns a `DeviceFeedback` from
`Robot.device_feedback()`; its kernel lives in the robot's package (envs/bolt/warp_feedback.py,
envs/crawler/paper/warp_feedback.py).  The MuJoCo Warp runner (envs/core/engines/warp_batch.py) launches it
before every step, after the controls are written, with the state about to be stepped and the
previous step's sensors and actuator forces -- what `feedback(model, data)` sees in the C engine
(a world's first step sees its initial state's, computed on the host by mj_forward as the C
runner does).  Per world it holds:

  P    (nworld, nparam) float64   the point's parameters (`row`), set when a world takes a point
  S    (nworld, nstate) float64   the hook's own state between steps (`state0` at the start)
  aux  (nworld, naux)   float32   running maxima of the per-step values `feedback` returns
                                  (Robot.n_aux); the record kernel writes them with each sample
                                  and resets them, as the C runner does (Run.aux)

`fields`: the model fields the kernel writes (e.g. actuator_forcerange): the runner makes them
per world.  `launch(M, D, P, S, aux, wstep, device)` launches the kernel for every world (wstep:
each world's step count, the time being wstep x dt)."""
from __future__ import annotations

import numpy as np

AUX_RESET = -1.0e30     # an aux accumulator with nothing folded in (the C runner's -inf)


class DeviceFeedback:
    nparam: int = 1
    nstate: int = 1
    naux: int = 0
    fields: tuple = ()

    def row(self, robot, model) -> np.ndarray:
        """World parameters of point `robot` (nparam)."""
        raise NotImplementedError

    def state0(self, robot, model) -> np.ndarray:
        """The hook's state at the point's start (nstate; zeros: e.g. BOLT's flight phase, eq. 19's
        "not started")."""
        return np.zeros(self.nstate)

    def launch(self, M, D, P, S, aux, wstep, device) -> None:
        raise NotImplementedError
