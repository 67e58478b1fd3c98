"""The crawler's parameters and its experiments' options: the one declaration of each.

Config names: angles in degrees with a `_deg` suffix, everything else SI.  Table I of the
paper unless marked; models/crawler/README.md has the provenance of every value.
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
from .friction import DEFAULT_SAMPLING, SAMPLINGS


@option_group("hybrid", "crawler")
@dataclasses.dataclass
class HybridOptions:
    """`+hybrid.<key>=...`: settings of engine=hybrid, the paper's exact model (envs/crawler/paper/hybrid.py
    Simulator; the defaults here are its own, and only given keys are passed on)."""

    rtol: float = param(1e-8, gt=0, lt=1, note="DOP853 relative tolerance")
    atol: float = param(1e-10, gt=0, le=1, note="DOP853 absolute tolerance")
    liftoff: str = param("flag", choices=("flag", "stop"), note="stop: a lift-off fails the point")
    baumgarte: float = param(40.0, "1/s", gt=0, le=1e6, note="loop-closure stabilisation rate")


@dataclasses.dataclass
class Params:
    """One crawler point."""

    name: str = "crawler"
    # inputs, eq. 5 / eq. 8
    omega: float = param(1.0, "rad/s", gt=0, le=200)
    A_deg: float = param(18.0, "deg", ge=0, le=90, note="and within the geometric limit for phi0_deg")
    phi0_deg: float = param(110.0, "deg", gt=0, lt=180)
    psi_deg: float = param(20.0, "deg", ge=-360, le=360)
    alpha: float = param(0.0, ge=-1, le=1, note="|alpha| > 1 makes the time scaling s non-monotone")
    upsilon_deg: float = param(0.0, "deg", ge=-360, le=360)
    # friction: hard tips 0.172, soft tips 0.398; mu1/mu2 override per foot (None: mu)
    mu: float = param(0.172, gt=0, le=5, model=True)
    mu1: Optional[float] = param(None, gt=0, le=5, model=True)
    mu2: Optional[float] = param(None, gt=0, le=5, model=True)
    # masses, inertias about the link COM, lengths
    m0: float = param(0.194, "kg", gt=0, le=100, model=True)
    m1: float = param(0.021, "kg", gt=0, le=100, model=True)
    m2: float = param(0.021, "kg", gt=0, le=100, model=True)
    J0: float = param(776.3e-6, "kg m^2", gt=0, le=10, model=True)
    J1: float = param(98.7e-6, "kg m^2", gt=0, le=10, model=True)
    J2: float = param(98.7e-6, "kg m^2", gt=0, le=10, model=True)
    l0: float = param(0.187, "m", gt=0, le=10, model=True)
    l: float = param(0.17, "m", gt=0, le=10, model=True)
    # centre-of-mass offsets along each link's own axis (not in the paper, whose eq. 9 puts every COM at its
    # link's midpoint: 0 is that model).  Not named c_i: the appendix's c1, c2 are cosines.  J0-J2 stay about
    # the (moved) COM; the COM must stay on its link (|dc0| < l0/2, |dc_i| < l/2, checked in validate)
    dc0: float = param(0.0, "m", ge=-0.05, le=0.05, model=True,
                       note="robustness only: central-link COM from its midpoint towards the link-2 hinge (+x)")
    dc1: float = param(0.0, "m", ge=-0.05, le=0.05, model=True,
                       note="robustness only: link-1 COM from l/2 along the link, positive towards foot 1")
    dc2: float = param(0.0, "m", ge=-0.05, le=0.05, model=True,
                       note="robustness only: link-2 COM from l/2 along the link, positive towards foot 2")
    # feet
    foot_radius: float = param(0.001, "m", gt=0, le=0.01, model=True, note="assumption: point-like feet")
    # simulation (contact recipe, README): max timestep, impratio, servo gains
    timestep: float = param(2e-4, "s", gt=0, le=1e-3)
    impratio: float = param(100.0, ge=1, le=1e4, model=True)
    kp: float = param(400.0, "N m/rad", gt=0, le=1e6, model=True)
    kv: float = param(1.2, "N m s/rad", ge=0, le=1e4, model=True)
    # foot-floor contact: one explicit MuJoCo <pair> per foot (models/crawler/scene.xml), chosen by the
    # measured study in models/crawler/README.md ("Contact recipe", gaittwin.crawler.paper.studies.crawler_contact_recipe)
    contact_timeconst: float = param(5e-4, "s", gt=0, le=1, model=True,
                                     note="normal solref[0] of the foot-floor pairs; MuJoCo uses max(this, 2 dt)")
    contact_dampratio: float = param(1.0, gt=0, le=100, model=True, note="normal solref[1]")
    contact_friction_timeconst: float = param(0.05, "s", gt=0, le=1, model=True,
                                              note="solreffriction[0]: the friction rows' own reference")
    contact_impedance_min: float = param(0.05, ge=1e-4, le=0.9999, model=True, note="solimp[0], dmin")
    contact_impedance_max: float = param(0.1, ge=1e-4, le=0.9999, model=True, note="solimp[1], dmax")
    contact_impedance_width: float = param(0.001, "m", gt=0, le=1, model=True, note="solimp[2]")
    contact_impedance_midpoint: float = param(0.5, gt=0, lt=1, model=True, note="solimp[3]")
    contact_impedance_power: float = param(2.0, ge=1, le=10, model=True, note="solimp[4]")

ENGINES = ("mujoco", "hybrid")


@experiment("crawler_frequency_sweep")
class FrequencySweep(Experiment):
    """Fig. 4: S and V vs omega."""

    overlay: Optional[str] = param("hybrid", choices=ENGINES, note="also run this engine and draw its curve")


@experiment("crawler_twin_vs_hybrid")
class TwinVsHybrid(Experiment):
    tol_abs_mm: float = param(1.5, "mm", ge=0, le=1e3, note="the target: max(1.5 mm, 3 %)")
    tol_rel: float = param(0.03, ge=0, le=1)


plain_experiment("crawler_psi_omega_map")


@experiment("crawler_slip_pattern")
class SlipPattern(Experiment):
    """Fig. 5: per foot, the fraction of the steady cycle in stick, slip forward and slip backward."""

    warp = "crawler_slip_pattern's twin traces are single C-engine runs sampled every step"

    omega: List[float] = param([0.3, 5.1, 16.0], "rad/s", note="one point per range of Fig. 4; each in (0, 200]")
    engines: str = param("both", choices=("both",) + ENGINES)
    v_stick_rel: float = param(0.01, gt=0, lt=1, note="twin stick threshold on |x_i'| as a fraction of the "
                                                      "kinematic foot-speed scale omega (max D - min D) / 2")
    samples_per_cycle: int = param(1000, ge=200, le=100000, note="at least; a divisor of the steps per cycle")


@experiment("crawler_direction_reversal")
class DirectionReversal(Experiment):
    """Fig. 7: (a) S vs omega at fixed parameters, (b) S vs phi0 at fixed parameters."""

    a: Dict[str, Any] = dataclasses.field(default_factory=lambda: dict(
        fixed=dict(phi0_deg=145.0, mu=0.172),
        omega=[0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 12.0, 14.0, 16.0]))
    b: Dict[str, Any] = dataclasses.field(default_factory=lambda: dict(
        fixed=dict(omega=9.0, mu=0.398),
        phi0_deg=[100, 105, 110, 115, 120, 125, 130, 135, 140, 145, 150]))


@experiment("crawler_friction_robustness")
class FrictionRobustness(Experiment):
    """Figs. 8/9, eqs. 6-7: S over the friction uncertainty set (envs/crawler/friction.py)."""

    eps: float = param(0.1, ge=0, lt=1)
    levels: List[float] = param([-1.0, 0.0, 1.0], note="multiples of eps, each in [-1, 1]")
    sampling: str = param(DEFAULT_SAMPLING, choices=SAMPLINGS,
                          note="ratio: mu1/mu2 in {1 + eps k}, mu1 mu2 = mu^2 (captions); eq7: mu_i grid")


@experiment("crawler_mass_distribution")
class MassDistribution(Experiment):
    """Figs. 11/12."""

    mass_ratio: List[float] = param([0.1, 0.25, 0.5, 1.0])
    m1_over_m2: List[float] = param([0.5, 0.67, 1.0, 1.5, 2.0])


@experiment("crawler_time_scaling")
class TimeScaling(Experiment):
    """Sec. VII / Fig. 10: Bayesian optimisation of the time-scaled inputs (eq. 8)."""

    omega: List[float] = param([3.2, 8.0, 16.0])
    objective: str = param("S", choices=("S", "S_mu"))
    eps: float = param(0.1, ge=0, lt=1)
    sampling: str = param(DEFAULT_SAMPLING, choices=SAMPLINGS, note="friction set of S_mu (as friction_robustness)")
    n_trials: int = param(24, ge=1, le=100000)
    batch: int = param(4, ge=1, le=1024)
    seed: int = param(0, ge=0, le=2**31 - 1)
    psi_baseline: List[float] = param([0, 20, 40, 60, 80, 100, 120])
    bounds: Dict[str, Any] = dataclasses.field(
        default_factory=lambda: dict(alpha=[-0.95, 0.95], upsilon_deg=[0, 360], psi_deg=[0, 150]))
    fig10_omega: float = param(3.2, "rad/s", gt=0, le=200, note="the omega drawn in Fig. 10")


@experiment("crawler_feedback")
class Feedback(Experiment):
    """Sec. VIII: the eq. 19 feedback law at one omega."""

    cycles: int = param(20, "periods", ge=1, le=100000)
    n_avg: int = param(2, ge=1, le=1000, note="steady value: mean of the last n_avg steps")
    feedback: Dict[str, Any] = dataclasses.field(
        default_factory=lambda: dict(Kv=10.0, Kp=80.0, Kd=100.0, phi_lim_deg=[90.0, 130.0]))


@experiment
@dataclasses.dataclass
class CrawlerRobustness(Robustness):
    """Robustness map: S and V at the Table I gait over randomised worlds: per-foot friction (eq. 7's box as a uniform
    draw), link masses, servo gains, contact time constant, COM offsets along the links (distributions stated
    here; models/crawler/README.md "Robustness")."""

    name: str = "crawler_robustness"
    # COM offsets: uniform +-3 mm (1.6 % of l0 = 187 mm, 1.8 % of l = 170 mm); the paper gives no COM, the
    # model puts it at mid-link: a few mm is what balancing a link on an edge locates, and what moving 10 %
    # of a link's mass (the mass spread) by a quarter of its length (4-5 mm) would shift
    spread: Dict[str, Any] = dataclasses.field(default_factory=lambda: {
        **uniform(0.1, "mu1", "mu2", of="mu"), **uniform(0.1, "m0", "m1", "m2"),
        **uniform(0.2, "kp", "kv", "contact_timeconst"),
        **{k: dict(dist="uniform", abs=0.003) for k in ("dc0", "dc1", "dc2")}})
    merit: Dict[str, Any] = dataclasses.field(default_factory=lambda: dict(S="max", V="max"))
    # S peaks near equal feet and falls on both sides (eq. 7's asymmetry): analysed as the ratio too
    derived: Dict[str, Any] = dataclasses.field(default_factory=lambda: {"mu2/mu1": ["mu2", "mu1"]})


register("crawler", ["mu", "m0"])   # identifiable: crawler_trajectory, crawler_identify (envs/core/analysis/identify.py)
optimize.register("crawler", variables=dict(psi_deg=[0.0, 150.0]), objective="speed")   # psi*(omega), Fig. 6
