"""MinIAQ-II foot pads (`foot=pad`, issue #25): a light foot body on a damped, preloaded slide.

The point foot (`foot=point`, the default) is a sphere on the coupler: the leg's mass rides on the
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

PAD = "pad"


def add_pads(spec: mujoco.MjSpec, legs, theta3_mid: float, p: dict, k_contact: float) -> None:
    """Move each leg's foot geom and site (`<leg>_foot`) onto a pad body `<leg>_pad` on a slide joint;
    the pad's mass is taken from the coupler's (the robot still weighs m)."""
    axis = [math.sin(theta3_mid), 0.0, math.cos(theta3_mid)]   # up at mid-stance, coupler frame
    if p["pad_axis"] == "body":
        axis = [0.0, 0.0, 1.0]
    k, m = p["pad_stiffness"], p["pad_mass"]
    b = p["pad_damping_ratio"] * 2 * math.sqrt((k + k_contact) * m)
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
        if p["pad_axis"] == "body":
            # a hinge held at minus the coupler's angle in the body (crank + coupler joints; a tendon
            # equality): the pad's frame stays the body's, its slide vertical in the body frame
            h = body.add_joint(name=f"{leg}_{PAD}_hinge", type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, -1, 0],
                               armature=1e-9)
            ten = spec.add_tendon(name=f"{leg}_{PAD}_level")
            for jn in (f"{leg}_crank", f"{leg}_coupler", h.name):
                ten.wrap_joint(jn, 1.0)
            spec.add_equality(type=mujoco.mjtEq.mjEQ_TENDON, name1=ten.name, name=f"{leg}_{PAD}_level",
                              solref=[p["loop_timeconst"], 1.0])
        # q: how far the pad is pushed up (toward the leg) from its rest stop
        j = body.add_joint(name=f"{leg}_{PAD}", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=axis,
                           range=[0.0, p["pad_travel"]], limited=mujoco.mjtLimited.mjLIMITED_TRUE,
                           stiffness=k, springref=-p["pad_preload"] / k, damping=b)
        j.solref_limit = [p["loop_timeconst"], 1.0]          # the stops as stiff as the loop closure
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
