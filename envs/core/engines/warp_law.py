"""Prescribed inputs on the device: `inputs.DeviceLaw` evaluated by a Warp kernel from per-world
parameters and each world's step count, before every step (no host->device control copies).

The law is computed in float64 (t = step x dt as the host computes it) and rounded to float32 once,
into MuJoCo Warp's ctrl, as the host path rounds its float64 controls (tests/test_warp_law.py)."""
from __future__ import annotations

import numpy as np
import warp as wp



def quiet(on: bool = True) -> None:
    """Warp's init banner and its per-module compile/load lines off (on=False: back on, e.g. to
    time compiles); warnings still print."""
    wp.config.quiet = on
    wp.config.log_level = wp.LOG_WARNING if on else wp.LOG_INFO


quiet()

HEAD = 4        # per-world columns: omega, alpha, upsilon, dt
PER_ACT = 5     # per-actuator columns: c0, c1, a_sin, a_cos, delta


@wp.kernel
def law_kernel(P: wp.array2d(dtype=wp.float64), wstep: wp.array(dtype=wp.int32), ctrl: wp.array2d(dtype=wp.float32)):
    w, i = wp.tid()
    t = wp.float64(wstep[w]) * P[w, 3]
    b = HEAD + PER_ACT * i
    xi = P[w, 0] * t + P[w, b + 4]
    alpha = P[w, 1]
    s = xi + alpha * wp.sin(xi + P[w, 2])
    ds = wp.float64(1.0) + alpha * wp.cos(xi + P[w, 2])
    ctrl[w, i] = wp.float32(P[w, b] + P[w, b + 1] * t + P[w, b + 2] * wp.sin(s) + P[w, b + 3] * wp.cos(s) * ds)


def row(law, dt: float, nu: int) -> np.ndarray:
    """One world's parameter row (HEAD + PER_ACT nu) of `law` (an inputs.DeviceLaw) at timestep dt."""
    cols = (law.c0, law.c1, law.a_sin, law.a_cos, law.delta)
    if any(len(c) != nu for c in cols):
        raise ValueError(f"device law has {[len(c) for c in cols]} actuator entries, the model nu={nu}")
    return np.concatenate([[law.omega, law.alpha, law.upsilon, dt], np.asarray(cols, float).T.ravel()])


def evaluate(law, dt: float, steps, device: str = "cpu") -> np.ndarray:
    """The kernel's controls at step counts `steps` (one world per step): (len(steps), nu), float32."""
    nu = len(law.c0)
    P = wp.array(np.tile(row(law, dt, nu), (len(steps), 1)), dtype=wp.float64, device=device)
    ws = wp.array(np.asarray(steps, np.int32), dtype=wp.int32, device=device)
    out = wp.zeros((len(steps), nu), dtype=wp.float32, device=device)
    wp.launch(law_kernel, dim=(len(steps), nu), inputs=[P, ws, out], device=device)
    return out.numpy()
