"""BOLT's model variations: the MjSpec of one point (link lengths, mass sets, gains, limits, boom,
treadmill belt, die spring, rubber pad), a mixin of the `Bolt` robot class."""
from __future__ import annotations

import math

import mujoco
import numpy as np

from .kinematics import loop_kinematics
from ..core.model.errors import ConfigError
from ..core.model.robot import MODELS

MODEL_DIR = MODELS / "bolt"
# foot_contact=plastic (README "Foot impact test"): a damper with no spring, its rate B = PLASTIC_RATE /
# loop_timeconst (the fastest impact the loop closures carry without a rebound, measured), valid for loop
# closures at least as stiff as PLASTIC_MAX_LOOP_TIMECONST
PLASTIC_RATE, PLASTIC_MAX_LOOP_TIMECONST = 0.25, 5e-5
# foot_contact=coulomb (README "A Coulomb foot outside MuJoCo's cone"): the plastic foot, frictionless, with the
# Coulomb hook (envs/bolt/coulomb_foot.py); converged at these loops and this step (gaittwin.bolt.paper.studies.bolt_coulomb_foot)
COULOMB_LOOP_TIMECONST, COULOMB_MAX_TIMESTEP = 5e-5, 6.25e-6
# foot_friction=implicit (docs/notes/2026-11-28-bolt-implicit-friction.md): converged at the Coulomb foot's loops
# and this step (gaittwin.bolt.paper.studies.bolt_implicit_friction)
IMPLICIT_MAX_TIMESTEP = 1.25e-5
SCENE = MODEL_DIR / "scene.xml"
LINKS = ("crank", "hfe", "kfe", "femur", "tibia")
# the six passive pins: four are tree joints (D: q_2, C: q_3, A: q_4, E: q_5); the loop pins B and G are
# `connect` equalities, damped through a fixed tendon on the relative angle of the two links they join
# (absolute link angles: crank q_1, hfe q_1 + q_2, kfe q_1 + q_2 + q_3, femur q_4, tibia q_4 + q_5)
PIN_JOINTS = ("q_2", "q_3", "q_4", "q_5")
LOOP_PINS = dict(B=dict(q_1=1.0, q_2=1.0, q_4=-1.0), G=dict(q_1=1.0, q_2=1.0, q_3=1.0, q_4=-1.0, q_5=-1.0))


def plastic_contact(p) -> tuple:
    """The plastic foot's (solref, solimp[:3]) for parameters p (SI): direct form [-K, -B] with K = 0 and
    B = PLASTIC_RATE / loop_timeconst, and the loop closures' impedance."""
    return [0.0, -PLASTIC_RATE / p.loop_timeconst], [p.loop_dmin, p.loop_dmax, 0.001]


def _mixed(g1, g2) -> dict:
    """The contact parameters MuJoCo gives a dynamic contact of geoms g1, g2 (the higher priority's, else condim and
    friction the larger, solref and solimp mixed by solmix, margin and gap the larger)."""
    if g1.priority != g2.priority:
        h = g1 if g1.priority > g2.priority else g2
        fr, condim, solref, solimp = list(h.friction), h.condim, list(h.solref), list(h.solimp)
    else:
        fr, condim = [max(a, b) for a, b in zip(g1.friction, g2.friction)], max(g1.condim, g2.condim)
        small = g1.solmix < mujoco.mjMINVAL and g2.solmix < mujoco.mjMINVAL
        w = 0.5 if small else g1.solmix / (g1.solmix + g2.solmix)
        solref = [w * a + (1 - w) * b for a, b in zip(g1.solref, g2.solref)]
        solimp = [w * a + (1 - w) * b for a, b in zip(g1.solimp, g2.solimp)]
    return dict(condim=condim, friction=[fr[0], fr[0], fr[1], fr[2], fr[2]], solref=solref, solimp=solimp,
                margin=max(g1.margin, g2.margin), gap=max(g1.gap, g2.gap))


def floor_pairs(spec) -> None:
    """BOLT's contacts as explicit <pair>s: every geom that can touch the floor (or the treadmill's belt, also
    "floor") gets a pair with it carrying the parameters MuJoCo would mix, and no geom is left to the broad phase,
    whose sweep costs about 15 % of a BOLT step (docs/notes/2026-11-28-bolt-fewer-steps.md).  The same contacts
    and parameters (tests/bolt/test_bolt_floor_pairs.py).  Only geom-floor contacts exist in BOLT (the links'
    conaffinity is 0: they never touch each other); anything else is refused rather than dropped."""
    floor = spec.geom("floor")
    solid = [g for g in spec.geoms if (g.contype or g.conaffinity) and g.name != "floor"]
    for a in solid:
        for b in solid:
            if a.name < b.name and (a.contype & b.conaffinity or b.contype & a.conaffinity):
                raise ValueError(f"BOLT's contacts are geom-floor only; {a.name} and {b.name} could collide")
    for g in solid:
        if g.contype & floor.conaffinity or floor.contype & g.conaffinity:
            if any(g.surfacevel) or g.adhesion or floor.adhesion:
                raise ValueError(f"{g.name}: surfacevel or adhesion has no pair equivalent here")
            pair = spec.add_pair(geomname1=g.name, geomname2="floor")
            for k, v in _mixed(g, floor).items():
                setattr(pair, k, v)
        g.contype = g.conaffinity = 0
    floor.contype = floor.conaffinity = 0


class BoltModel:
    """The `spec()` of a Bolt point and its helpers (self: a Bolt)."""

    def check_foot_contact(self) -> None:
        """foot_contact=plastic is measured plastic only with stiff loop closures and the rigid foot;
        foot_contact=coulomb (plastic + the Coulomb hook) is converged only at its loops and step."""
        p = self.p
        if p.foot_friction != "regularised" and p.foot_contact != "coulomb":
            raise ConfigError("foot_friction", self.cfg["foot_friction"], "regularised unless foot_contact=coulomb "
                              "(the Coulomb foot's friction law)", "it would have no effect")
        if p.foot_contact == "soft":
            return
        if p.foot_contact == "coulomb":   # first: its own, stricter, settings (robot/foot=coulomb[_implicit] sets both)
            if p.foot_friction == "implicit":
                self.check_coulomb("foot_friction=implicit", "coulomb_implicit", IMPLICIT_MAX_TIMESTEP)
            else:
                self.check_coulomb("foot_contact=coulomb", "coulomb", COULOMB_MAX_TIMESTEP)
        if p.foot_contact == "plastic" and p.loop_timeconst > PLASTIC_MAX_LOOP_TIMECONST:
            raise ConfigError("loop_timeconst", self.cfg["loop_timeconst"], f"(0, {PLASTIC_MAX_LOOP_TIMECONST:g}] s "
                              "with foot_contact=plastic, and timestep <= loop_timeconst / 2 (softer loops rebound "
                              "the impact; robot/foot=plastic sets all three: models/bolt/README.md 'Foot impact test')")
        if self.timestep > p.loop_timeconst / 2:
            raise ConfigError("timestep", self.cfg["timestep"], "(0, loop_timeconst/2] s with foot_contact=plastic "
                              f"(loop_timeconst={self.cfg['loop_timeconst']:g} s: the loops need two steps)")
        for k, v in (("pad_stiffness", p.pad_stiffness), ("spring_stiffness", p.spring_stiffness)):
            if v is not None:
                raise ConfigError(k, self.cfg[k], f"null with foot_contact={p.foot_contact} (the paper's rigid foot)")
        # the plastic foot's solref comes from loop_timeconst; contact_timeconst then acts on the bumper alone
        no_bumper = p.bumper_height is None or p.body_fixed
        default = self.Params.contact_timeconst
        if no_bumper and p.contact_timeconst != default:
            raise ConfigError("contact_timeconst", self.cfg["contact_timeconst"], f"{default:g} s (its default) with foot_contact={p.foot_contact} and no bumper (bumper_height=null or "
                              "body_fixed)", "it would have no effect")

    def check_coulomb(self, law: str, foot: str, max_timestep: float) -> None:
        """The Coulomb foot (`law`) is converged only at its loops and steps up to `max_timestep`
        (robot/foot=`foot` sets both)."""
        p = self.p
        if p.loop_timeconst != COULOMB_LOOP_TIMECONST:
            raise ConfigError("loop_timeconst", self.cfg["loop_timeconst"], f"{COULOMB_LOOP_TIMECONST:g} s with "
                              f"{law} (converged there only; robot/foot={foot} sets it)")
        if self.timestep > max_timestep:
            raise ConfigError("timestep", self.cfg["timestep"], f"(0, {max_timestep:g}] s with {law} (its converged "
                              f"step; robot/foot={foot} sets it)")

    # ---- model ----------------------------------------------------------------------
    def spec(self) -> mujoco.MjSpec:
        p, g = self.p, self.geometry
        spec = mujoco.MjSpec.from_file(str(SCENE))
        spec.option.timestep = self.timestep
        spec.option.integrator = dict(implicitfast=mujoco.mjtIntegrator.mjINT_IMPLICITFAST,
                                      euler=mujoco.mjtIntegrator.mjINT_EULER)[p.integrator]
        k = loop_kinematics(np.array([0.0]), g)   # the authored (assembled) pose: q_1 = 0
        q = {i: float(k[f"q{i}"][0]) for i in range(1, 6)}
        xz = lambda c: [float(np.real(c)), 0.0, float(np.imag(c))]   # noqa: E731
        base = spec.body("base")
        base.mass = p.m_b
        if p.body_fixed:
            for j in ("x", "z"):
                spec.delete(spec.joint(j))
            base.pos = [0.0, 0.0, p.fixed_height]
        elif p.bumper_height is not None:
            jz = spec.joint("z")
            jz.limited = mujoco.mjtLimited.mjLIMITED_TRUE
            jz.range = [p.bumper_height - base.pos[2], 10.0]
            jz.solref_limit = [p.contact_timeconst, 1.0]
        spec.site("A").pos = xz(k["A"][0])
        spec.geom("base_link").fromto = [0, 0, 0] + xz(k["A"][0])
        # each link: body frame at its proximal joint, local x along the link, joint ref = authored angle
        frames = dict(crank=([0, 0, 0], q[1]), hfe=([g.l_1, 0, 0], q[2]), kfe=([g.l_s, 0, 0], q[3]),
                      femur=(xz(k["A"][0]), q[4]), tibia=([g.l_4, 0, 0], q[5]))
        lengths = dict(crank=g.l_1, hfe=g.l_2, kfe=g.l_3, femur=g.l_4, tibia=g.l_5)
        inertial = ((p.m_1, p.l_cm_1, p.I_1), (p.m_2, p.l_cm_2, p.I_2), (p.m_3, p.l_cm_3, p.I_3),
                    (p.m_4, p.l_cm_4, p.I_4), (p.m_5, p.l_cm_5, p.I_5))   # per link: mass, COM along it, inertia
        for i, (link, (m, l_cm, I)) in enumerate(zip(LINKS, inertial), start=1):
            body = spec.body(link)
            body.pos, ang = frames[link]
            body.alt.type = mujoco.mjtOrientation.mjORIENTATION_AXISANGLE   # as authored in bolt.xml
            body.alt.axisangle = [0.0, -1.0, 0.0, ang]
            spec.joint(f"q_{i}").ref = ang
            body.mass, body.ipos = m, [l_cm, 0, 0]
            body.inertia = [0.05 * I, I, I]
            geom = spec.geom(link)
            end = lengths[link]
            if link == "tibia":   # the tibia's capsule stops short of the foot: only the foot touches the floor
                end -= 2 * p.foot_radius + (p.spring_travel if p.spring_stiffness is not None else 0.0) + (
                    p.pad_travel if p.pad_stiffness is not None else 0.0)
            geom.fromto = [0, geom.fromto[1], 0, end, geom.fromto[4], 0]
        spec.geom("crank_disk").size[0] = 1.5 * g.l_1
        for name, pos in (("D", g.l_1), ("B_hfe", g.l_2), ("C", g.l_s), ("G_kfe", g.l_3), ("B_femur", g.l_f),
                          ("E", g.l_4), ("G_tibia", g.l_t)):
            spec.site(name).pos = [pos, 0, 0]
        foot = spec.geom("foot")
        foot.size[0], foot.friction[0] = p.foot_radius, p.mu
        foot.solref = [p.contact_timeconst, 1.0]
        if p.foot_contact in ("plastic", "coulomb"):
            foot.solref, foot.solimp[:3] = plastic_contact(p)
        if p.foot_contact == "coulomb":   # frictionless in MuJoCo's cone: the hook applies Coulomb's law
            foot.condim = 1                   # (the foot's priority makes its condim the contact's)
        spec.body("foot").pos = [g.l_5, 0, 0]
        spec.site("foot_touch").size[0] = 1.5 * p.foot_radius
        if p.spring_stiffness is not None:
            self._add_spring(spec)
        if p.pad_stiffness is not None:
            self._add_pad(spec)
        spec.geom("floor").friction[0] = p.mu
        if self.treadmill:
            self._add_belt(spec)
        for eq in ("loop_B", "loop_G"):
            spec.equality(eq).solref = [p.loop_timeconst, 1.0]
            spec.equality(eq).solimp[:2] = [p.loop_dmin, p.loop_dmax]
        spec.joint("q_1").armature = p.armature
        if p.passive_damping > 0:   # 0: nothing added, the model is the undamped one bit for bit
            self._add_pin_damping(spec, p.passive_damping)
        act = spec.actuator("crank")
        act.gainprm[0], act.biasprm[1], act.biasprm[2] = p.K_P, -p.K_P, -p.K_D
        # the flight limit; feedback() switches it to the power limit in stance every step
        act.forcerange = [-p.tau_max, p.tau_max]
        if not self.treadmill:   # one island (the loops join the trees): MuJoCo's per-island solver path only
            # costs here, and the solution is the same to the bit (docs/notes/2026-11-28-bolt-fewer-steps.md); with
            # the belt, a second island in flight, it is not, so the treadmill keeps it
            spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_ISLAND
        return spec

    def finish_spec(self, spec) -> None:
        """Before compiling, after any edit of spec() (a study's condim, a twin mutation's solref): the contacts as
        explicit pairs, their parameters taken from the final geoms."""
        floor_pairs(spec)

    @staticmethod
    def _add_pin_damping(spec, b: float) -> None:
        """Viscous damping b (N m s/rad) on every passive pin: joint damping on the four tree pins, and
        a fixed tendon of damping b on the relative angle at each loop pin (its torque b x relative rate
        acts on the two links as the pin's would: planar, so the relative angle is a sum of joint angles)."""
        for j in PIN_JOINTS:
            spec.joint(j).damping[0] = b
        for pin, coefs in LOOP_PINS.items():
            t = spec.add_tendon(name=f"pin_{pin}")
            t.damping[0] = b
            for j, c in coefs.items():
                t.wrap_joint(j, c)

    def _take_from_tibia(self, spec, m: float, name: str) -> None:
        """Move mass m from the tibia to the foot point F (l_5): the tibia keeps the rest with its
        COM and inertia shifted so that the pair still has Table 3's m_5, l_cm_5 and I_5."""
        l5 = self.geometry.l_5
        tib = spec.body("tibia")
        m5, c5, I5 = tib.mass, tib.ipos[0], tib.inertia[1]
        mt = m5 - m
        ct = (m5 * c5 - m * l5) / mt
        It = I5 - mt * (ct - c5) ** 2 - m * (l5 - c5) ** 2
        if not (mt > 0 and It > 0):
            raise ConfigError(name, self.cfg[name], "a value that leaves the tibia a positive mass and inertia")
        tib.mass, tib.ipos, tib.inertia = mt, [ct, 0, 0], [0.05 * It, It, It]

    def _add_belt(self, spec) -> None:
        """Sec. 6.1's treadmill: the floor becomes a belt, a box (top at z = 0, 100 m long) on an
        x slide of belt_mass, driven by a velocity servo (time constant 1 ms) at -belt_speed.  The
        foot's contact sees the belt's velocity (MuJoCo's contact friction acts on the relative
        velocity of the two bodies)."""
        p = self.p
        floor = spec.geom("floor")
        fkw = dict(friction=floor.friction.copy(), condim=floor.condim, material=floor.material,
                   contype=floor.contype, conaffinity=floor.conaffinity)
        spec.delete(floor)
        belt = spec.worldbody.add_body(name="belt", pos=[0, 0, 0])
        belt.add_joint(name="belt", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[1, 0, 0])
        belt.add_geom(name="floor", type=mujoco.mjtGeom.mjGEOM_BOX, size=[50.0, 0.5, 0.05], pos=[0, 0, -0.05],
                      mass=p.belt_mass, **fkw)
        spec.add_actuator(name="belt", trntype=mujoco.mjtTrn.mjTRN_JOINT, target="belt",
                          gaintype=mujoco.mjtGain.mjGAIN_FIXED, biastype=mujoco.mjtBias.mjBIAS_AFFINE,
                          gainprm=[p.belt_mass / 1e-3] + [0] * 9, biasprm=[0, 0, -p.belt_mass / 1e-3] + [0] * 7)
        spec.add_sensor(name="belt_vel", type=mujoco.mjtSensor.mjSENS_JOINTVEL, objtype=mujoco.mjtObj.mjOBJ_JOINT,
                        objname="belt")

    def _add_spring(self, spec) -> None:
        """Sec. 2.1's die spring: the foot tip slides along the tibia (local x) on a joint of
        stiffness spring_stiffness, free length at the stop (q = 0, no preload), compressing by
        at most spring_travel (a stiff limit); its moving mass foot_mass comes out of m_5."""
        p = self.p
        mf = p.foot_mass
        self._take_from_tibia(spec, mf, "foot_mass")
        foot = spec.body("foot")
        foot.mass, foot.ipos = mf, [0, 0, 0]
        r = p.foot_radius
        foot.inertia = [0.4 * mf * r * r] * 3
        k = p.spring_stiffness
        j = foot.add_joint(name="spring", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[1, 0, 0])
        j.stiffness[0], j.springref = k, 0.0
        j.damping[0] = 2.0 * p.spring_damping_ratio * math.sqrt(k * mf)
        j.limited = mujoco.mjtLimited.mjLIMITED_TRUE
        j.range = [-p.spring_travel, 0.0]
        j.solref_limit = [p.loop_timeconst, 1.0]          # the stop: as stiff as the loop closures
        j.solimp_limit[:3] = [p.loop_dmin, p.loop_dmax, 0.001]
        spec.add_sensor(name="spring", type=mujoco.mjtSensor.mjSENS_JOINTPOS, objtype=mujoco.mjtObj.mjOBJ_JOINT,
                        objname="spring")

    def _add_pad(self, spec) -> None:
        """The rubber pad: the foot's contact geom (and its touch site) on a body of mass pad_mass
        that slides along the tibia on a spring-damper pad_stiffness, pad_damping (N/m, N s/m),
        compressing by at most pad_travel.  The contact itself is then made rigid (2 time steps):
        the pad is the contact's softness, in physical units (README "Compliance": MuJoCo's solref
        is a per-unit-mass reference whose static and impact stiffness differ, measured)."""
        p = self.p
        foot = spec.body("foot")
        if p.spring_stiffness is not None:   # the pad is part of the sprung foot tip's mass
            if not foot.mass > p.pad_mass:
                raise ConfigError("pad_mass", self.cfg["pad_mass"], f"(0, foot_mass={p.foot_mass:g}) kg")
            foot.mass -= p.pad_mass
        else:
            self._take_from_tibia(spec, p.pad_mass, "pad_mass")
        pad = foot.add_body(name="pad", pos=[0, 0, 0], mass=p.pad_mass, ipos=[0, 0, 0],
                            inertia=[0.4 * p.pad_mass * p.foot_radius ** 2] * 3)
        j = pad.add_joint(name="pad", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[1, 0, 0])
        j.stiffness[0], j.springref, j.damping[0] = p.pad_stiffness, 0.0, p.pad_damping
        j.limited = mujoco.mjtLimited.mjLIMITED_TRUE
        j.range = [-p.pad_travel, 0.0]
        j.solref_limit = [p.loop_timeconst, 1.0]
        j.solimp_limit[:3] = [p.loop_dmin, p.loop_dmax, 0.001]
        old = spec.geom("foot")
        kw = dict(name="foot", type=old.type, size=old.size.copy(), friction=old.friction.copy(),
                  condim=old.condim, priority=old.priority, contype=old.contype, conaffinity=old.conaffinity,
                  rgba=old.rgba.copy(), solimp=old.solimp.copy(), density=0.0)
        spec.delete(old)
        g = pad.add_geom(**kw)
        g.solref = [2 * self.timestep, 1.0]
        site = spec.site("foot_touch")
        skw = dict(name="foot_touch", type=site.type, size=site.size.copy(), group=site.group)
        spec.delete(site)
        pad.add_site(**skw)
        spec.add_sensor(name="pad", type=mujoco.mjtSensor.mjSENS_JOINTPOS, objtype=mujoco.mjtObj.mjOBJ_JOINT,
                        objname="pad")
