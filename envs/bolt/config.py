"""BOLT's parameters and its experiments' options: the one declaration of each.

Config names: angles in degrees with a `_deg` suffix, everything else SI
(models/bolt/README.md has the provenance of every value).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Dict, Optional

from ..core.runs.config import Experiment, experiment, option_group, plain_experiment
from ..core.analysis import optimize
from ..core.analysis.identify import register
from ..core.analysis.robustness import Robustness, uniform
from . import channels as _channels  # noqa: F401  (declares the observable channels)
from ..core.model.schema import param

# ---- mass sets (README "Mass sets") -------------------------------------------------------
# Table 3 link masses m_1..m_5 (CAD) in both.  "sim": Table 3 as printed -- its row 6 (the body,
# m_b) repeats row 1 -- and no rotor inertia, as the paper's simulation.  "hardware": the
# prototype of Sec. 2.1, about 6.1 kg in all (the body takes the remainder) and the motor's rotor
# inertia reflected through the 32:1 gearbox (rotor_inertia * gear_ratio^2) as the crank's armature.
TABLE3_LINKS = dict(m_1=2.5639, m_2=0.0802, m_3=0.0921, m_4=1.1163, m_5=0.9754)
HARDWARE_TOTAL_MASS = 6.1   # kg, Sec. 2.1 ("weighs approximately 6.1 kg")
MASS_SETS = {
    "sim": dict(TABLE3_LINKS, m_b=2.5639),
    "hardware": dict(TABLE3_LINKS, m_b=round(HARDWARE_TOTAL_MASS - sum(TABLE3_LINKS.values()), 6)),
}
MASS_KEYS = ("m_1", "m_2", "m_3", "m_4", "m_5", "m_b")

LENGTH = dict(gt=0, le=2, model=True)
MASS = dict(gt=0, le=100, model=True, note="null: the mass set's value")
COM = dict(ge=-1, le=1, model=True)
INERTIA = dict(gt=0, le=1, model=True)


@dataclasses.dataclass
class Params:
    """One BOLT point."""

    name: str = "bolt"
    # gait input: one crank revolution = one stride
    crank_period: float = param(0.3, "s", gt=0, le=100)
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
    # masses: mass_set "sim" (Table 3 as printed, row 6 the body m_b, no rotor inertia) or
    # "hardware" (Sec. 2.1: 6.1 kg, the rotor inertia reflected through the gearbox as armature);
    # m_1..m_5, m_b, armature left null take the set's values, a number overrides one
    mass_set: str = param("sim", choices=("sim", "hardware"), model=True)
    m_1: Optional[float] = param(None, "kg", **MASS)
    m_2: Optional[float] = param(None, "kg", **MASS)
    m_3: Optional[float] = param(None, "kg", **MASS)
    m_4: Optional[float] = param(None, "kg", **MASS)
    m_5: Optional[float] = param(None, "kg", **MASS)
    m_b: Optional[float] = param(None, "kg", **MASS)
    # motor (Sec. 2.1): MOOG BN34-25EU-02LH rotor inertia (assumed, README "Mass sets"), 32:1 gearbox
    rotor_inertia: float = param(1.0e-4, "kg m^2", ge=0, le=1, model=True)
    gear_ratio: float = param(32.0, gt=0, le=1e3, model=True)
    # Table 3: mass centres from the proximal joint, inertias about the COM
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
    # not in the paper (its model has frictionless pins): viscous damping on each of the six passive pins
    passive_damping: float = param(0.0, "N m s/rad", ge=0, le=10, model=True,
                                   note="each passive pin of the two loops (D, C, A, E: joint damping; B, G: "
                                        "a fixed tendon on their relative angle); not the crank, not the boom")
    tau_max: float = param(30.0, "N m", gt=0, le=1e3, model=True)
    P_max: float = param(1350.0, "W", gt=0, le=1e5, model=True)
    armature: Optional[float] = param(None, "kg m^2", ge=0, le=10, model=True,
                                      note="null: the mass set's, sim 0, hardware rotor_inertia gear_ratio^2")
    # "phase": Sec. 5.1 (tau_max in flight, P_max in stance, switched every step from the foot
    # contact); "clamp": the earlier constant +-min(tau_max, P_max / commanded rate), for comparison
    limit_mode: str = param("phase", choices=("phase", "clamp"))
    # compliance (Sec. 2.1; null: rigid, as the paper's model, Sec. 4; README "Compliance")
    spring_stiffness: Optional[float] = param(None, "N/m", gt=0, le=1e8, model=True,
                                              note="the die spring, 65000; null: a rigid tibia")
    spring_travel: float = param(0.015, "m", gt=0, le=0.1, model=True)
    spring_damping_ratio: float = param(0.05, ge=0, le=2, model=True)
    foot_mass: float = param(0.05, "kg", gt=0, le=0.5, model=True)
    pad_stiffness: Optional[float] = param(None, "N/m", gt=0, le=1e9, model=True,
                                           note="the rubber pad, estimate 2.3e5; null: none")
    pad_damping: float = param(20.0, "N s/m", ge=0, le=1e4, model=True)
    pad_mass: float = param(0.01, "kg", gt=0, le=0.1, model=True)
    pad_travel: float = param(0.004, "m", gt=0, le=0.05, model=True)
    # foot, contact, loop closure (gaittwin.bolt.paper.studies.bolt_loop_study), boom
    foot_radius: float = param(0.01, "m", gt=0, le=0.05, model=True)
    mu: float = param(1.0, gt=0, le=5, model=True)
    contact_timeconst: float = param(0.001, "s", gt=0, le=1, model=True,
                                     note="the soft foot's and the bumper's; with foot_contact=plastic the "
                                          "bumper's alone (refused off its default without a bumper)")
    # "soft": solref (contact_timeconst, 1), MuJoCo's impedance; "plastic": the paper's plastic impact (Sec. 4.4)
    # as a spring-free damper, derived in gaittwin.bolt.paper.studies.bolt_foot_restitution (docs/notes/2026-11-28-bolt-foot-impact.md);
    # "coulomb": plastic, frictionless in MuJoCo's cone, Coulomb's law by a per-step hook (envs/bolt/coulomb_foot.py,
    # converged in gaittwin.bolt.paper.studies.bolt_coulomb_foot; docs/notes/2026-11-28-bolt-coulomb-foot.md)
    foot_contact: str = param("soft", choices=("soft", "plastic", "coulomb"), model=True,
                              note="plastic: solref [0, -1/(4 loop_timeconst)], the loops' impedance; needs "
                                   "loop_timeconst <= 5e-5 s (so timestep <= 2.5e-5 s); coulomb: plastic + "
                                   "condim 1 + the Coulomb hook (C engine only), needs loop_timeconst = 5e-5 s, "
                                   "timestep <= 6.25e-6 s (<= 1.25e-5 s with foot_friction=implicit)")
    # with foot_contact=coulomb: "regularised" (the option's law, v_eps) or "implicit" (friction implicit in the
    # slip: gaittwin.bolt.paper.studies.bolt_implicit_friction; docs/notes/2026-11-28-bolt-implicit-friction.md)
    foot_friction: str = param("regularised", choices=("regularised", "implicit"),
                               note="the Coulomb foot's friction law (foot_contact=coulomb only)")
    loop_timeconst: float = param(2e-4, "s", gt=0, le=1, model=True)
    loop_dmin: float = param(0.99, gt=0, lt=1, model=True)
    loop_dmax: float = param(0.999, gt=0, lt=1, model=True)
    body_fixed: bool = param(False, model=True)
    fixed_height: float = param(0.55, "m", gt=0, le=10, model=True)
    bumper_height: Optional[float] = param(0.40, "m", gt=0, le=10, model=True, note="null: no bumper")
    # treadmill (Sec. 6.1): null = fixed ground; a speed = the floor is a belt moving towards -x
    belt_speed: Optional[float] = param(None, "m/s", ge=-20, le=20, note="null: the fixed ground")
    belt_mass: float = param(100.0, "kg", gt=0, le=1e5, model=True)
    timestep: float = param(1e-4, "s", gt=0, le=1e-3)
    # MuJoCo's integrator: implicitfast (scene.xml's) or the explicit Euler (robot/foot=coulomb_implicit's, judged
    # by its dt ladder: gaittwin.bolt.paper.studies.bolt_implicit_friction; docs/notes/2026-11-28-bolt-fewer-steps.md)
    integrator: str = param("implicitfast", choices=("implicitfast", "euler"), model=True,
                            note="euler: the crank servo's K_D explicit (time constant ~1.9 ms)")


plain_experiment("bolt_foot_path")
plain_experiment("bolt_running")
plain_experiment("bolt_speed_sweep")


@option_group("paper", "bolt")
@dataclasses.dataclass
class PaperOptions:
    """`+paper.<key>=...`: settings of engine=paper, the paper's Sec. 4-5 model (envs/bolt/paper/model.py
    check_options and paper_run.simulate; the defaults here are theirs, only given keys are passed on)."""

    method: str = param("Radau", choices=("Radau", "LSODA", "BDF", "RK45", "DOP853"))
    rtol: float = param(1e-7, ge=1e-13, le=1e-2)
    atol: float = param(1e-9, ge=1e-15, le=1e-2)
    epsilon: float = param(1e-3, "s", ge=1e-6, le=0.1, note="SPF time constant of the loop constraints "
                                                              "(not in the paper; models/bolt/README.md)")
    foot: str = param("coulomb", choices=("coulomb", "pinned"),
                      note="pinned: the paper's no-slip pivot as printed; coulomb: it slides when |F_T| > mu F_N "
                           "(robot.mu; an addition, models/bolt/README.md)")
    den_min: float = param(0.05, gt=0, le=0.5, note="coulomb foot: a sliding stance ends (tangential plastic impulse) "
                                                    "where 1 + mu dir dF_N/dF_T falls to this (Painleve; a modelling "
                                                    "choice: models/bolt/README.md \"Painleve rule\")")
    rules: str = param("zero_force", choices=("zero_force", "printed"),
                       note="zero_force: lift-off at zero normal force, the crank at its constant speed; printed: "
                            "Sec. 5.1 as printed, lift-off at a set leg angle and eq. 20 tracking a constant-speed "
                            "crank that waits at the attack angle until touch-down (needs paper.foot=pinned and "
                            "robot.bumper_height=null; "
                            "docs/notes/2026-11-28-bolt-printed-rules.md)")
    liftoff_angle_deg: Optional[float] = param(None, "deg", gt=-90, lt=90,
                                               note="printed rules: the leg angle (hip A to foot F, from {B}'s "
                                                    "downward vertical, + foot ahead) that ends a stance; null: the "
                                                    "mirror of its value at the attack angle (not in the paper)")
    attack_crank_deg: float = param(0.0, "deg", ge=-360, le=360,
                                    note="printed rules: the crank angle q_1 the flight trajectory stops at "
                                         "(alpha_m^des = 0 read as q_1 = 0: 'the impact happens when q_1 reaches "
                                         "360 deg', Sec. 5.2)")


@experiment("bolt_twin_vs_paper")
class TwinVsPaper(Experiment):
    """The twin beside the paper's own model (engine=paper) per crank period, no bumper."""

    speed_tolerance: float = param(0.10, gt=0, le=10, note="|v_twin - v_paper| / |v_paper| accepted")
    duty_tolerance: float = param(0.05, gt=0, le=1, note="|duty_twin - duty_paper| accepted")


@experiment("bolt_treadmill")
class Treadmill(Experiment):
    """Sec. 6.1-6.2: the belt speed for in-place running per crank period; the one for 3.2 m/s."""

    target_speed: float = param(3.2, "m/s", gt=0, le=20, note="the paper's fastest treadmill speed")
    tolerance: float = param(0.01, "m/s", gt=0, le=1, note="|mean x velocity| accepted as in place")
    max_iter: int = param(6, ge=0, le=100, note="belt speeds tried after the first run at belt speed 0")
    min_time: float = param(8.0, "s", ge=0, le=1000, note="running per evaluation at least")


@experiment
@dataclasses.dataclass
class BoltRobustness(Robustness):
    """Robustness map: running speed and loop-closure gap of the Sec. 6 gait (crank period 0.3 s) over randomised
    worlds: foot friction, link and body masses, mass centres, PD gains, contact time constant, passive-pin
    damping (distributions stated here; models/bolt/README.md "Robustness")."""

    name: str = "bolt_robustness"
    spread: Dict[str, Any] = dataclasses.field(default_factory=lambda: {
        **uniform(0.2, "mu"), **uniform(0.1, "m_1", "m_2", "m_3", "m_4", "m_5", "m_b"),
        **uniform(0.1, "l_cm_2", "l_cm_3", "l_cm_4", "l_cm_5"), **uniform(0.2, "K_P", "K_D"),
        **uniform(0.3, "contact_timeconst"),
        # one-sided: the nominal 0 is the end of its range; 0.05 N m s/rad adds ~3 % of K_D at the crank
        # (assumption, models/bolt/README.md "Robustness")
        "passive_damping": dict(dist="uniform", abs=0.05, side="up")})
    merit: Dict[str, Any] = dataclasses.field(default_factory=lambda: dict(speed="max", max_loop_gap="min"))


register("bolt", ["m_5", "contact_timeconst"])   # identifiable: bolt_trajectory, bolt_identify (envs/core/analysis/identify.py)
optimize.register("bolt", variables=dict(crank_period=[0.15, 0.6]), objective="speed", budget=12,
                  constraints=dict(peak_torque_flight={"max": 30.0}, peak_power_stance={"max": 1350.0},
                                   max_tracking_error_deg={"max": 20.0}))
