"""MinIAQ-II foot contact in MuJoCo: the paper's Hunt-Crossley law (eq. 15) mapped to solref/solimp.

`contact_law=linear` (the default): constant impedance, the secant at the trot load point
(`hunt_crossley_contact`); `contact_law=power`: a depth-dependent impedance shaped to K delta^2
(`power_law_contact`).  models/miniaq/README.md ("Contact") has the derivation and the study.
"""
from __future__ import annotations

import math

import numpy as np

from .paper_laws import step_f

G = 9.81


def hunt_crossley_contact(K: float, e: float, c_max: float, d: float, m: float, n_feet: int,
                          impedance: float, inv_weight: float) -> dict:
    """Map the Hunt-Crossley contact (eq. 15) to MuJoCo's direct solref (-k, -b).

    MuJoCo's soft contact produces, at (quasi-)static balance, the force
    f = (k r + b v) / ((1 - d_imp) A) for penetration r and rate v, with d_imp the (constant)
    impedance and A the contact's diagonal inverse-mass approximation (the foot body's
    translational invweight0).  k and b are chosen so that f equals the Hunt-Crossley force's
    secant at the static load point: n feet carrying the weight m g penetrate
    delta0 = (m g / (n K))^(1/e), with damping C = c_max STEP(delta0; 0, d).
    """
    delta0 = (m * G / (n_feet * K)) ** (1.0 / e)
    C = step_f(delta0, 0.0, 0.0, d, c_max)                 # eq. 15's C = STEP(delta0; 0, 0, d, c_max)
    k_sec = m * G / (n_feet * delta0)
    scale = (1 - impedance) * inv_weight
    k_lin = e * K * delta0 ** (e - 1)
    return dict(delta0=delta0, stiffness=k_sec, damping=C, solref=(-k_sec * scale, -C * scale),
                zeta_hc=C / (2 * math.sqrt(k_lin * m / n_feet)))


def power_law_contact(K: float, e: float, c_max: float, d: float, m: float, n_feet: int, d0: float,
                      inv_weight: float) -> dict:
    """Map the Hunt-Crossley contact (eq. 15) to MuJoCo with a depth-dependent impedance.

    MuJoCo's reference acceleration is a_ref = -B v - K_mj imp(r) r and its constraint regulariser
    R = (1 - imp)/imp A (A: the diagonal inverse-mass approximation, the foot body's invweight0);
    at (quasi-)static balance the normal force is f = imp (B v + K_mj imp r) / ((1 - imp) A).  With
    the impedance rising linearly with depth, imp(r) = d0 (1 + r / delta0) up to 10 delta0
    (solimp = (d0, 11 d0, 10 delta0, 0.5, 1)), the elastic part d0^2 (1 + r/delta0)^2 K_mj r / A is
    a cubic whose log-slope is exactly 2 at the load point delta0 (1.5 .. 2.5 over delta0/3 .. 3
    delta0): K_mj is set so that it equals K delta0^e there.  The damping imp B / ((1 - imp) A)
    grows with depth as imp does (half at zero depth, twice at 3 delta0); B matches the
    Hunt-Crossley C = c_max STEP(delta0; 0, d) at delta0.  With imp <= 11 d0 << 1 the contact is
    a force law, not the near-hard constraint of a high impedance: MuJoCo's constraint adds an
    apparent mass imp / (1 - imp) / A to the foot in contact (9 foot masses at imp = 0.9, 0.01 .. 0.12
    here).  Returns solref (direct, -k, -b), solimp and the force-law curves for the README.
    """
    delta0 = (m * G / (n_feet * K)) ** (1.0 / e)
    C0 = step_f(delta0, 0.0, 0.0, d, c_max)
    d1, width = 11.0 * d0, 10.0 * delta0
    imp0 = 2.0 * d0
    K_mj = K * delta0 ** (e - 1) * (1 - imp0) * inv_weight / imp0**2
    B = C0 * (1 - imp0) * inv_weight / imp0
    # MuJoCo divides direct solref by dmax^2 (stiffness) and dmax (damping)
    return dict(delta0=delta0, damping=C0, solref=(-K_mj * d1 * d1, -B * d1), solimp=(d0, d1, width, 0.5, 1.0),
                K_mj=K_mj, B=B, inv_weight=inv_weight)


def power_law_force(r, v, c: dict):
    """The quasi-static normal force of `power_law_contact` at depth r (m) and closing rate v (m/s)."""
    d0, d1, width = c["solimp"][:3]
    imp = d0 + (d1 - d0) * np.clip(np.asarray(r, float) / width, 0.0, 1.0)
    r, v = np.asarray(r, float), np.asarray(v, float)
    return imp * (c["B"] * v + c["K_mj"] * imp * r) / ((1 - imp) * c["inv_weight"])
