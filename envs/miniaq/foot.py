"""MinIAQ-II feet: the default contact map and the optional foot pad (`foot=pad`).

The point foot (`foot=point`, the default) is a sphere on the coupler.  Its default floor contact
(`contact_law=hunt_crossley`, `hunt_crossley_point`) gives it the paper's eq. 15 through MuJoCo's own
depth-rising impedance; with the linear secant map (`contact_law=linear`) the leg's mass rides on the
contact and the hind foot, leaning on the floor during its swing, bounces (models/miniaq/README.md,
"Foot study").  A pad moves the foot sphere and its touch/position site onto a light body (`pad_mass`)
on a slide joint whose axis is the world vertical at the leg's mid-stance, in the coupler frame.  The
slide's rest stop (q = 0) is the designed foot point E; it can be pushed up by `pad_travel`, against a
spring that already pushes `pad_preload` at the stop and stiffens at `pad_stiffness`, damped at
`pad_damping_ratio` times the critical damping of the pad on the spring and the contact in series with
it.  The foot contact then sits on the pad's mass: its stiffness is the usual Hunt-Crossley secant, its
damping `contact_damping_ratio` times the critical damping of that stiffness on the pad's mass.
"""
from __future__ import annotations

import math

import mujoco

from .paper_laws import step_f

PAD = "pad"


def add_pads(spec: mujoco.MjSpec, legs, theta3_mid: float, p, k_contact: float) -> None:
    """Move each leg's foot geom and site (`<leg>_foot`) onto a pad body `<leg>_pad` on a slide joint;
    the pad's mass is taken from the coupler's (the robot still weighs m)."""
    axis = [math.sin(theta3_mid), 0.0, math.cos(theta3_mid)]   # up at mid-stance, coupler frame
    if p.pad_axis == "body":
        axis = [0.0, 0.0, 1.0]
    k, m = p.pad_stiffness, p.pad_mass
    b = p.pad_damping_ratio * 2 * math.sqrt((k + k_contact) * m)
    for leg in legs:
        coupler = spec.body(f"{leg}_coupler")
        foot, site = spec.geom(f"{leg}_foot"), spec.site(f"{leg}_foot")
        # the pad's mass comes out of the coupler's (at E): the leg's mass and centre of mass are kept
        mk = coupler.mass
        coupler.ipos = [(mk * c - m * e) / (mk - m) for c, e in zip(coupler.ipos, foot.pos)]
        coupler.inertia = [v * (mk - m) / mk for v in coupler.inertia]
        coupler.mass = mk - m
        body = coupler.add_body(name=f"{leg}_{PAD}", pos=list(foot.pos))
        body.mass, body.ipos, body.inertia, body.explicitinertial = m, [0.0, 0.0, 0.0], [1e-12] * 3, True
        if p.pad_axis == "body":
            # a hinge held at minus the coupler's angle in the body (crank + coupler joints; a tendon
            # equality): the pad's frame stays the body's, its slide vertical in the body frame
            h = body.add_joint(name=f"{leg}_{PAD}_hinge", type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, -1, 0],
                               armature=1e-9)
            ten = spec.add_tendon(name=f"{leg}_{PAD}_level")
            for jn in (f"{leg}_crank", f"{leg}_coupler", h.name):
                ten.wrap_joint(jn, 1.0)
            spec.add_equality(type=mujoco.mjtEq.mjEQ_TENDON, name1=ten.name, name=f"{leg}_{PAD}_level",
                              solref=[p.loop_timeconst, 1.0])
        # q: how far the pad is pushed up (toward the leg) from its rest stop
        j = body.add_joint(name=f"{leg}_{PAD}", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=axis,
                           range=[0.0, p.pad_travel], limited=mujoco.mjtLimited.mjLIMITED_TRUE,
                           stiffness=k, springref=-p.pad_preload / k, damping=b)
        j.solref_limit = [p.loop_timeconst, 1.0]          # the stops as stiff as the loop closure
        g = body.add_geom(name=f"{leg}_foot_{PAD}", type=mujoco.mjtGeom.mjGEOM_SPHERE, size=list(foot.size),
                          contype=1, conaffinity=1, condim=foot.condim, friction=list(foot.friction),
                          priority=1, solref=list(foot.solref), solimp=list(foot.solimp), group=3,
                          rgba=list(foot.rgba))
        st = body.add_site(name=f"{leg}_foot_{PAD}", type=mujoco.mjtGeom.mjGEOM_SPHERE, size=list(site.size),
                           group=4, rgba=list(site.rgba))
        foot.contype = foot.conaffinity = 0                  # the leg's own tip no longer touches
        foot.group = 5
        # every sensor names `<leg>_foot` (touch, framepos, contact): from here on, the pad's geom and site
        foot.name, g.name = f"{leg}_foot_leg", f"{leg}_foot"
        site.name, st.name = f"{leg}_foot_leg", f"{leg}_foot"


def critical_solref(k: float, zeta: float, impedance: float, inv_weight: float) -> tuple:
    """Direct solref (-k, -b) for a contact of secant stiffness k (N/m) and damping zeta x 2 sqrt(k m)
    on the body of inverse weight `inv_weight` (m = 1/inv_weight), at constant impedance (README)."""
    b = zeta * 2 * math.sqrt(k / inv_weight)
    scale = (1 - impedance) * inv_weight
    return (-k * scale, -b * scale)


def drop_depth(c_max: float, d: float, mass: float, v: float) -> float:
    """Depth at which the paper's damping C(x) = c_max STEP(x; 0, d) stops `mass` falling at `v` (the impulse
    int_0^x C dx = mass v; the elastic K x^2 is left out: 6 % of the damping force at the 190 deg drop)."""
    lo, hi = 0.0, 1.0
    for _ in range(60):                     # c_max d (s^3 - s^4 / 2) = mass v, increasing in s on [0, 1]
        s = (lo + hi) / 2
        lo, hi = (s, hi) if c_max * d * (s**3 - s**4 / 2) < mass * v else (lo, s)
    return lo * d if c_max * d / 2 > mass * v else math.inf


def mj_impedance(solimp, r: float) -> float:
    """MuJoCo's impedance d(r) (engine_core_constraint.c getImpedance), r >= 0 the depth past the margin."""
    d0, d1, w, mid, pw = solimp
    x = min(max(r / w, 0.0), 1.0)
    if pw == 1:
        y = x
    elif x <= mid:
        y = x**pw / mid ** (pw - 1)
    else:
        y = 1 - (1 - x) ** pw / (1 - mid) ** (pw - 1)
    return min(max(d0 + y * (d1 - d0), 1e-4), 0.9999)


def static_force(model, geom: str, r: float) -> float:
    """The normal force (N) the compiled floor contact of foot geom `geom` holds at rest at depth r (m):
    MuJoCo's aref / R at zero velocity and acceleration, imp(r)^2 k r / ((1 - imp(r)) A), k = -solref[0] / dmax^2
    (direct solref, as every foot map here sets it), A the foot body's invweight0.  Every contact_law and foot."""
    g = model.geom(geom)
    if g.solref[0] >= 0:
        raise ValueError(f"geom {geom}: static_force needs a direct (negative) solref, not {list(g.solref)}")
    A = float(model.body_invweight0[g.bodyid[0], 0])
    imp = mj_impedance(tuple(g.solimp), r)
    return imp * imp * (-g.solref[0] / g.solimp[1] ** 2) * r / ((1 - imp) * A)


class NoStaticDepth(ValueError):
    """No depth below 1 m lets the feet carry the weight (too soft a contact): MiniAQ.validate names K."""


def static_depth(model, geoms, weight: float) -> float:
    """The common depth (m) at which the contacts of foot geoms `geoms` carry `weight` (N) together at rest
    (their `static_force`s, increasing in r, summed), bisected to 1e-12 relative: MiniAQ.initial_pose's start."""
    total = lambda r: sum(static_force(model, g, r) for g in geoms)    # noqa: E731
    lo, hi = 0.0, 1e-6
    while total(hi) < weight:
        lo, hi = hi, 2 * hi
        if hi > 1.0:
            raise NoStaticDepth(f"geoms {list(geoms)}: no depth below 1 m carries {weight:g} N (they carry "
                                f"{total(1.0):.3g} N at 1 m)")
    while hi - lo > 1e-12 * hi:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if total(mid) < weight else (lo, mid)
    return 0.5 * (lo + hi)


def hunt_crossley_constraint(K, e, c_max, d, rate, inv_weight, depth_op, depth_drop, elastic_at_drop=False) -> tuple:
    """(solref, solimp) for a MuJoCo constraint (a contact or a joint limit) on a body of inverse weight A whose
    force follows the paper's F = K r^e + C(r) v, C = c_max STEP(r; 0, d) (eq. 15), at two depths.

    MuJoCo's soft constraint with impedance imp(r) and direct solref (-K' dmax^2, -B' dmax) exerts
    f = g(r) (K' imp(r) r + B' v - r'') / A, g = imp / (1 - imp) (README, Contact): as imp -> 1 a hard stop
    that brings the motion to rest at the acceleration-space rate B' (`rate`, 1/s).  The damping g B' / A is
    matched to the paper's C at the operating depth `depth_op` and at the drop's depth `depth_drop` (dmax
    from the latter; MuJoCo's sigmoid with midpoint 0.5 and power 2, close to the paper's cubic STEP, reaches
    the former's impedance at `depth_op`, which sets the width); K' makes the elastic part g imp K' r / A
    equal K r^e at `depth_op`, or with `elastic_at_drop` at `depth_drop` (then the hard stop's own damping
    ratio B' / (2 sqrt K') is the paper's at the drop, C / (2 sqrt(K r^(e-1) m_stopped)), since B' = C / m_stopped)."""
    g_op, g_dr = (c_max * step_f(r, 0.0, 0.0, d, 1.0) * inv_weight / rate for r in (depth_op, depth_drop))
    dmin, dmax = 1e-4, min(g_dr / (1 + g_dr), 0.9999)
    imp = g_op / (1 + g_op)
    y = (imp - dmin) / (dmax - dmin)
    x = math.sqrt(y / 2) if y <= 0.5 else 1 - math.sqrt((1 - y) / 2)
    solimp = (dmin, dmax, min(depth_op / x, depth_drop), 0.5, 2.0)
    k = K * depth_op ** (e - 1) * inv_weight / (g_op * imp)
    if elastic_at_drop:
        imp_dr = mj_impedance(solimp, depth_drop)
        k = K * depth_drop ** (e - 1) * inv_weight / (imp_dr / (1 - imp_dr) * imp_dr)
    return (-k * dmax**2, -rate * dmax), solimp     # MuJoCo: K' = -solref[0] / dmax^2, B' = -solref[1] / dmax


def hunt_crossley_point(p, inv_weight: float, depth_op: float | None = None,
                        elastic_at_drop: bool = False) -> dict:
    """`contact_law=hunt_crossley` (the default): the point foot's floor contact given the paper's law
    (eq. 15, Table II K, e, c_max, d) by `hunt_crossley_constraint`, matched at the operating depth
    `hc_depth` (the paper model's feet rest 3-7 um deep) and at the depth where the paper's damping
    stops m/2 falling at `hc_drop_speed` (the body's fall onto the new diagonal pair at theta1 = 190 deg,
    measured in both engines); B' is the paper's C at that depth on m/2 (models/miniaq/README.md,
    "Hunt-Crossley through MuJoCo's own impedance").  `inv_weight`: the coupler's A (invweight0).  The law's
    damping sets the constraint's rate: c_max = 0 has none to match (ConfigError)."""
    if not p.c_max > 0:
        from ..core.model.errors import ConfigError
        raise ConfigError("c_max", p.c_max, "(0, 1e6] N s/m with contact_law=hunt_crossley and foot=point (the "
                          "default; contact_law=linear or power take c_max=0)", "no damping to match the contact's rate to")
    depth_drop = drop_depth(p.c_max, p.d, p.m / 2, p.hc_drop_speed)
    rate = p.c_max * step_f(depth_drop, 0.0, 0.0, p.d, 1.0) / (p.m / 2)
    solref, solimp = hunt_crossley_constraint(p.K, p.e, p.c_max, p.d, rate, inv_weight,
                                              p.hc_depth if depth_op is None else depth_op, depth_drop,
                                              elastic_at_drop=elastic_at_drop)
    return dict(solref=solref, solimp=solimp, rate=rate, depth_drop=depth_drop)
