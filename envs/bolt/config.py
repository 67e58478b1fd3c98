"""BOLT's parameters and its experiments' options: the one declaration of each.

Config names: angles in degrees with a `_deg` suffix, everything else SI
(models/bolt/README.md has the provenance of every value).
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from envs.core.config import plain_experiment
from envs.core.schema import param

LENGTH = dict(gt=0, le=2, model=True)
MASS = dict(gt=0, le=100, model=True)
COM = dict(ge=-1, le=1, model=True)
INERTIA = dict(gt=0, le=1, model=True)


@dataclasses.dataclass
class Params:
    """One BOLT point."""

    name: str = "bolt"
    # gait input: one crank revolution = one stride; the power limit makes the clamp depend on it
    crank_period: float = param(0.3, "s", gt=0, le=100, model=True)
    theta_1_0_deg: float = param(0.0, "deg", ge=-360, le=360)
    # Table 2 (optimised values)
    l_c: float = param(0.080, "m", **LENGTH)
    l_1: float = param(0.020, "m", **LENGTH)
    l_2: float = param(0.105, "m", **LENGTH)
    l_3: float = param(0.190, "m", **LENGTH)
    l_4: float = param(0.210, "m", **LENGTH)
    l_5: float = param(0.303, "m", **LENGTH)
    l_s: float = param(0.052, "m", **LENGTH)
    l_f: float = param(0.080, "m", **LENGTH)
    l_t: float = param(0.050, "m", **LENGTH)
    theta_deg: float = param(41.41, "deg", ge=-180, le=180, model=True)
    # Table 3 (row 6 is the body on the boom, m_b)
    m_1: float = param(2.5639, "kg", **MASS)
    m_2: float = param(0.0802, "kg", **MASS)
    m_3: float = param(0.0921, "kg", **MASS)
    m_4: float = param(1.1163, "kg", **MASS)
    m_5: float = param(0.9754, "kg", **MASS)
    m_b: float = param(2.5639, "kg", **MASS)
    l_cm_1: float = param(0.0, "m", **COM)
    l_cm_2: float = param(0.0661, "m", **COM)
    l_cm_3: float = param(0.1051, "m", **COM)
    l_cm_4: float = param(0.0574, "m", **COM)
    l_cm_5: float = param(0.0983, "m", **COM)
    I_1: float = param(2.51e-5, "kg m^2", **INERTIA)
    I_2: float = param(1.53e-4, "kg m^2", **INERTIA)
    I_3: float = param(4.18e-4, "kg m^2", **INERTIA)
    I_4: float = param(4.8e-3, "kg m^2", **INERTIA)
    I_5: float = param(3.9e-3, "kg m^2", **INERTIA)
    # eq. 20 PD law and Sec. 5.1 limits
    K_P: float = param(300.0, "N m/rad", gt=0, le=1e5, model=True)
    K_D: float = param(2.0, "N m s/rad", ge=0, le=1e3, model=True)
    tau_max: float = param(30.0, "N m", gt=0, le=1e3, model=True)
    P_max: float = param(1350.0, "W", gt=0, le=1e5, model=True)
    armature: float = param(0.0, "kg m^2", ge=0, le=10, model=True)
    # foot, contact, loop closure, boom
    foot_radius: float = param(0.01, "m", gt=0, le=0.05, model=True)
    mu: float = param(1.0, gt=0, le=5, model=True)
    contact_timeconst: float = param(0.005, "s", gt=0, le=1, model=True)
    loop_timeconst: float = param(0.002, "s", gt=0, le=1, model=True)
    body_fixed: bool = param(False, model=True)
    fixed_height: float = param(0.55, "m", gt=0, le=10, model=True)
    bumper_height: Optional[float] = param(0.40, "m", gt=0, le=10, model=True, note="null: no bumper")
    timestep: float = param(2e-4, "s", gt=0, le=1e-3)


plain_experiment("bolt_foot_path", "envs.bolt.experiments.foot_path")
plain_experiment("bolt_running", "envs.bolt.experiments.running")
plain_experiment("bolt_speed_sweep", "envs.bolt.experiments.speed_sweep")
