"""MinIAQ-II's parameters and its experiments' options: the one declaration of each.

Config names: angles in degrees with a `_deg` suffix, everything else SI
(models/miniaq/README.md has the provenance of every value).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Optional

from ..core.runs.config import Experiment, experiment, option_group, plain_experiment
from ..core.analysis import optimize
from ..core.analysis.identify import register
from ..core.analysis.robustness import Robustness, uniform
from . import channels as _channels  # noqa: F401  (declares the observable channels)
from ..core.model.schema import param

GAIT_NAMES = ("trot", "pace", "bound", "pronk", "walk")
LINK = dict(gt=0, le=1, model=True)
BODY = dict(gt=0, le=1, model=True)


@dataclasses.dataclass
class Params:
    """One MinIAQ-II point."""

    name: str = "miniaq"
    # gait: motor frequency, the legs' phases
    f: float = param(2.5, "Hz", gt=0, le=20, note="paper: 2.5")
    gait: str = param("trot", choices=GAIT_NAMES)
    phase_deg: Optional[List[float]] = param(None, "deg", note="4 offsets [fl, fr, hl, hr]; overrides gait")
    # the paper's phase error (Sec. II: its phase loop holds each leg to about 20 deg): fixed offsets
    # and/or a slow bounded random wander, added to the gait's offsets; both engines read them from
    # MiniAQ.inputs
    phase_error_deg: Optional[List[float]] = param(None, "deg", note="4 fixed errors [fl, fr, hl, hr], "
                                                   "each in [-180, 180]: a leg lags by its gait offset + error")
    phase_wander_deg: float = param(0.0, "deg", ge=0, le=90, note="bound of a slow random phase error per leg")
    phase_wander_period: float = param(2.0, "s", gt=0, le=3600, note="its shortest period (longest: 5x)")
    phase_wander_seed: int = param(0, ge=0, le=2**31 - 1)
    # motor directions (one side reversed: in-place turning)
    direction_left: int = param(1, choices=(-1, 1), note="+1 forward, -1 reversed (in-place turning)")
    direction_right: int = param(1, choices=(-1, 1))
    # masses and leg geometry
    m: float = param(0.023, "kg", gt=0, le=10, model=True)
    m_leg: float = param(0.0002, "kg", gt=0, le=0.01, model=True, note="and 4 m_leg < m")
    body_length: float = param(0.088, "m", **BODY)
    body_width: float = param(0.036, "m", **BODY)
    body_height: float = param(0.010, "m", **BODY)
    l2: float = param(0.0051, "m", **LINK)
    l3: float = param(0.02121, "m", **LINK)
    l4: float = param(0.01885, "m", **LINK)
    l5: float = param(0.02915, "m", **LINK)
    l6: float = param(0.00296, "m", **LINK)
    theta35_deg: float = param(69.5, "deg", ge=-180, le=180, model=True)
    theta36_deg: float = param(53.4, "deg", ge=-180, le=180, model=True)
    # assumptions (not in the paper): ground link and crank pivots
    l1: float = param(0.018, "m", **LINK, note="and a Grashof crank-rocker with l2, l3, l4")
    theta1_deg: float = param(130.0, "deg", ge=-180, le=360, model=True)
    pivot_x: float = param(0.040, "m", ge=0, le=1, model=True)
    pivot_y: float = param(0.024, "m", ge=0, le=1, model=True)
    pivot_z: float = param(0.0, "m", ge=-1, le=1, model=True)
    foot_radius: float = param(0.0005, "m", gt=0, le=0.005, model=True)
    # Table II contact (Hunt-Crossley) and friction
    K: float = param(1.15e9, "N/m^e", gt=0, le=1e13, model=True)
    e: float = param(2.0, ge=1, le=3, model=True)
    c_max: float = param(588.0, "N s/m", ge=0, le=1e6, model=True)
    d: float = param(0.0001, "m", gt=0, le=0.01, model=True)
    mu_d: float = param(0.3, gt=0, le=2, model=True)
    # robustness-only (not in the paper, README "Robustness"): per-foot friction and a torso COM offset
    mu_d_feet: Optional[List[float]] = param(None, gt=0, le=2, model=True,
                                             note="4 values [fl, fr, hl, hr] each in (0, 2]: the "
                                                  "friction of each foot's contact; null: mu_d on every foot")
    com_offset_x: float = param(0.0, "m", ge=-0.02, le=0.02, model=True,
                                note="torso centre of mass ahead of the body centroid")
    com_offset_y: float = param(0.0, "m", ge=-0.01, le=0.01, model=True,
                                note="torso centre of mass left of the body centroid")
    # foot contact law (models/miniaq/README.md)
    contact_law: str = param("hunt_crossley", choices=("hunt_crossley", "linear", "power"), model=True,
                             note="hunt_crossley: the paper's eq. 15 by MuJoCo's depth-rising impedance "
                                  "(envs/miniaq/foot.py, README); linear: constant solimp, the secant at the "
                                  "load point (foot=pad needs it); power: solimp shaped to K delta^e, timestep 5e-5")
    hc_depth: float = param(5e-6, "m", gt=0, le=1e-4, model=True,
                            note="contact_law=hunt_crossley: depth where force and damping match eq. 15 "
                                 "(the paper model's feet rest 3-7 um deep); assumption")
    hc_drop_speed: float = param(0.132, "m/s", gt=0, le=1, model=True,
                                 note="contact_law=hunt_crossley: m/2 falling at this speed is stopped as eq. 15 "
                                      "stops it (the theta1 = 190 deg drop, measured in both engines)")
    impedance: float = param(0.9, gt=0, lt=1, model=True, note="MuJoCo solimp (constant); assumption")
    impedance_min: float = param(0.01, gt=0, le=0.09, model=True,
                                 note="contact_law=power: solimp at zero depth (rises to 11x at 10 delta0)")
    contact_feet: int = param(2, choices=(1, 2, 3, 4), model=True,
                              note="feet carrying the weight at the calibration point")
    # foot (models/miniaq/README.md "Foot study"): the point foot on the coupler, or a light pad
    # on a damped, preloaded slide (envs/miniaq/foot.py); every pad value is an assumption, derived in the README
    foot: str = param("point", choices=("point", "pad"), model=True,
                      note="point: the foot sphere on the coupler; pad: on a light damped slide, use timestep 2.5e-5")
    pad_mass: float = param(1e-5, "kg", gt=0, le=1e-3, model=True, note="foot=pad: the pad body (5 % of m_leg)")
    pad_travel: float = param(1e-4, "m", gt=0, le=0.005, model=True, note="foot=pad: its slide's range (Table II d)")
    pad_preload: float = param(0.01, "N", ge=0, le=1, model=True, note="foot=pad: spring force at the rest stop")
    pad_stiffness: float = param(1e3, "N/m", gt=0, le=1e6, model=True,
                                 note="foot=pad: m g / 2 - pad_preload takes the whole travel")
    pad_axis: str = param("coupler", choices=("coupler", "body"), model=True,
                          note="foot=pad: the slide is fixed in the coupler (vertical at mid-stance) or kept vertical in the body")
    pad_damping_ratio: float = param(4.0, ge=1, le=100, model=True,
                                     note="foot=pad: slide damping over critical (pad on spring + contact)")
    contact_damping_ratio: float = param(1.0, ge=1, le=100, model=True,
                                         note="foot=pad: foot contact damping over critical on the pad's mass")
    # motors
    tau_max: float = param(0.01, "N m", gt=0, le=10, model=True)
    kp: float = param(0.5, "N m/rad", gt=0, le=1e3, model=True)
    kv: float = param(0.002, "N m s/rad", ge=0, le=10, model=True)
    armature: float = param(1e-6, "kg m^2", ge=0, le=1, model=True, note="reflected rotor inertia")
    # robustness-only (not in the paper, whose legs have ideal pins; README "Robustness"): the folded
    # cellulose-acetate hinges' viscous loss, on the coupler (pin D) and rocker (pin A) joints
    passive_damping: float = param(0.0, "N m s/rad", ge=0, le=0.01, model=True,
                                   note="viscous damping of every passive leg hinge (the cranks have kv)")
    # simulation
    timestep: float = param(1e-4, "s", gt=0, le=1e-3)
    impratio: float = param(10.0, ge=1, le=1e4, model=True)
    loop_timeconst: float = param(4e-4, "s", gt=0, le=0.1, model=True,
                                  note="solref of the loop-closing connect equalities")


@option_group("paper", "miniaq")
@dataclasses.dataclass
class PaperOptions:
    """`+paper.<key>=...`: settings of engine=paper, the paper's model (envs/miniaq/paper/model.py simulate and
    Params.from_robot; the defaults here are theirs, and only given keys are passed on)."""

    method: str = param("LSODA", choices=("LSODA", "BDF", "Radau", "RK45", "DOP853"))
    rtol: float = param(1e-6, gt=0, lt=1)
    atol: float = param(1e-9, gt=0, le=1)
    max_step: Optional[float] = param(None, "s", gt=0, le=10, note="null: T / 20")
    clip_normal: bool = param(False)
    mu_s: float = param(0.4, gt=0, le=5, note="static friction coefficient")
    V_s: float = param(1e-3, "m/s", gt=0, le=1)
    V_d: float = param(1e-2, "m/s", gt=0, le=1)
    foot_radius: Optional[float] = param(None, "m", ge=0, le=0.1, note="0: the paper's point feet; null: the robot's")
    stiffness: str = param("power", choices=("power", "secant"))
    damping: str = param("depth", choices=("depth", "constant"))


@experiment("miniaq_trot")
class Trot(Experiment):
    duration: float = param(5.0, "s", gt=0, le=3600, note="whole cycles are simulated")
    compare: bool = param(False, note="also run the other engine: gait_diagram_engines.png (both stacked), and "
                                      "its numbers under summary 'other_engine'")


@experiment
@dataclasses.dataclass
class Turn(Trot):
    """Fig. 7: in-place turning, one side reversed (same options as the trot)."""

    name: str = "miniaq_turn"


plain_experiment("miniaq_gait_sweep")


@experiment("miniaq_geometry_map")
class GeometryMap(Experiment):
    """Support pattern and speed over the assumed ground link (l1, theta1): a map (either engine)."""

    l1: List[float] = param([0.0075, 0.011, 0.0145, 0.018, 0.0215, 0.025, 0.0285, 0.032, 0.0349], "m",
                            note="ground-link lengths; Grashof: [7.46, 34.96] mm for Table I's l2..l4")
    theta1_deg: List[float] = param([70.0, 90.0, 110.0, 130.0, 150.0, 170.0, 190.0], "deg", note="ground-link angles")
    three_legs: float = param(0.5, ge=0, le=1, note="time on >= 3 legs from which a point has the paper's "
                                                    "three-legged pattern")
    hind_duty: float = param(0.75, ge=0, le=1, note="and a hind duty factor from which (above the front's) the "
                                                    "three legs are the paper's Fig. 9 pattern: hind legs dragging")
    height: float = param(0.045, "m", gt=0, le=1, note="the paper's robot height (lowest foot to highest joint)")
    height_tol: float = param(0.0025, "m", ge=0, le=1, note="a geometry matches the height within this")
    length: float = param(0.12, "m", gt=0, le=1, note="the paper's robot length (hind-most to front-most leg "
                                                      "point over a cycle; the 6 cm width is set by pivot_y alone)")
    length_tol: float = param(0.006, "m", ge=0, le=1, note="a geometry matches the length within this")


@experiment
@dataclasses.dataclass
class MiniAQRobustness(Robustness):
    """Robustness map: forward speed and yaw rate of the 2.5 Hz trot over randomised worlds: the paper's +-20 deg
    phase error per leg, each foot's friction (uniform +-20 % of mu_d, the four drawn independently; mu_d
    itself is then only the floor's, which no foot contact uses: not drawn), the torso's centre of mass
    (+-3 mm along, +-1.5 mm across the 88 x 36 mm body), masses, motor gains, contact stiffness and
    damping, and the passive leg hinges' viscous damping (one-sided: uniform on [0, 5e-5] N m s/rad, an
    assumption: a folded acetate hinge's loss; at the top the hinges take ~9 % of tau_max off each motor)
    (distributions stated here; models/miniaq/README.md "Robustness")."""

    name: str = "miniaq_robustness"
    spread: Dict[str, Any] = dataclasses.field(default_factory=lambda: {
        "phase_error_deg": dict(dist="uniform", abs=20.0, size=4),
        "mu_d_feet": dict(dist="uniform", rel=0.2, size=4, of="mu_d"),
        "com_offset_x": dict(dist="uniform", abs=0.003), "com_offset_y": dict(dist="uniform", abs=0.0015),
        **uniform(0.1, "m", "m_leg"), **uniform(0.2, "kp", "kv"), **uniform(0.3, "K", "c_max"),
        "passive_damping": dict(dist="uniform", abs=5e-5, side="up")})
    merit: Dict[str, Any] = dataclasses.field(default_factory=lambda: dict(speed="max", yaw_rate_deg_s="abs"))


register("miniaq", ["mu_d", "kp"])   # identifiable: miniaq_trajectory, miniaq_identify (envs/core/analysis/identify.py)
optimize.register("miniaq", variables={"phase_deg[1]": [0.0, 360.0], "phase_deg[2]": [0.0, 360.0],
                                        "phase_deg[3]": [0.0, 360.0]}, objective="speed")
