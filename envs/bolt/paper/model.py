"""BOLT: the paper's own running model (Liu & Ben-Tzvi, Sec. 4-5), the reference engine beside the twin.

A 2-D hopper whose body only translates (q_Pitch = 0, Sec. 5): full coordinates
Q = [x_b, y_b, q_1, q_2, q_3, q_4, q_5] of the virtually separated tree (Sec. 4.2, Fig. 7: loop 1 cut
at B, loop 2 at G), Table 3 masses (links 1-5 and the body m_b at the crank centre P, the twin's
`mass_set`), the geometry of `gaittwin.bolt.kinematics` (one source of the six-bar).

Singular perturbation (SPF, eq. 17): the independent coordinates s (flight: x_b, y_b, q_1; stance:
q_1) carry the slow dynamics H_r s_dd = rho^T (B tau + F_g - C - H b), rho the velocity map of the
constraints; the dependent ones z follow the fast dynamics J_z z_d = -Phi / epsilon - J_s s_d, so
every constraint error decays as Phi(t) = Phi(0) exp(-t / epsilon) (Fig. 11).  Flight's constraints
are the loops Phi_1..Phi_4 (Appendix A, `kinematics.phi`); stance adds the foot pinned at its
touch-down point (x_b, y_b become dependent: "the foot is considered a pivot point").  State:
[Q, s_d] (10 in flight, the paper's "10-dimensional output"; 8 in stance).

Touch-down: the foot F reaches the ground (y = foot_radius: the twin's sphere centre, so both engines
stand at the same height), falling; the reset map is eq. 18-19's plastic, no-slip impact on the
flight coordinates (the foot's velocity is zero after).  Lift-off: the pivot's normal force reaches
zero (`paper.rules=zero_force`, default), the crank at its constant speed; or Sec. 5.1 as printed
(`paper.rules=printed`, envs/bolt/paper/run.py): lift-off at a set leg angle, eq. 20 tracking a constant-speed
crank that waits at the attack angle until touch-down, so the stride time is an outcome (the paper gives
neither angle's value: docs/notes/2026-11-28-bolt-printed-rules.md).
Additions, each an option (README "Paper model"): the Coulomb foot (`paper.foot=coulomb`: the pivot slides
when |F_T| > mu F_N) and the Sec. 6.1 bumper (`robot.bumper_height`: y_b >= h, a plastic impact and a
release at zero force; null, the paper's Sec. 5 free hopper).  Eq. 20 PD with the Sec. 5.1 limits in their
phases (`Bolt.torque_limit`, the twin's).  The foot springs (ignored in Sec. 4) are refused.
SciPy `solve_ivp` (hybrid loop: envs/bolt/paper/run.py).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..robot import Bolt
from ...core.model.errors import ConfigError

G = 9.81
MAX_SWITCHES = 40       # phase switches (incl. grazing re-touches) per revolution above this: Zeno, an error
PEAK_SAMPLES = 500      # samples per revolution for the peaks by phase

# twin-only parameters (name -> (default, why)): a non-default value is refused, never dropped
TWIN_ONLY = {"passive_damping": (0.0, "frictionless pins"), "spring_stiffness": (None, "no foot springs (Sec. 4)"),
             "pad_stiffness": (None, "no foot springs (Sec. 4)"), "belt_speed": (None, "a fixed ground"),
             "body_fixed": (False, "a free hopper (Sec. 5)")}


def check_supported(cfg: dict) -> None:
    """ConfigError for a parameter of TWIN_ONLY away from its default (config values)."""
    for k, (v0, why) in TWIN_ONLY.items():
        if cfg.get(k, v0) != v0:
            raise ConfigError(k, cfg[k], f"{'null' if v0 is None else v0} with engine=paper",
                              f"the paper's model has {why}: use engine=mujoco")


def check_job(params: dict, robots, opts: dict) -> dict:
    """The paper engine's input check, one for every experiment that runs it: the twin-only parameters of the
    config (`params`) and of every point (`robots`, constructed: their values), then the options (returned
    with their defaults filled in)."""
    check_supported(params)
    opts = check_options(opts)
    for r in robots:
        check_supported(r.cfg)
        printed_rules(r, opts)
    return opts


def check_options(opts: dict) -> dict:
    """The paper engine's options (paper.*): checked against their one declaration, `PaperOptions`
    in envs/bolt/config.py (Radau, rtol 1e-7, atol 1e-9, epsilon 1e-3 s: README "Paper model"),
    with its defaults filled in."""
    from ..config import PaperOptions
    from ...core.model import schema
    defaults = {k: f.default for k, f in schema.fields(PaperOptions).items()}
    return {**defaults, **schema.check(PaperOptions, opts, prefix="paper.", what="paper option")}


PRINTED_ONLY = ("rules", "liftoff_angle_deg", "attack_crank_deg")    # paper.* options of the printed rules


def identity_options(opts: dict) -> dict:
    """The options (checked) that can change a result, part of a point's identity: den_min acts only on the
    Coulomb foot's sliding, so a pinned foot's identity leaves it out (one stored result for every den_min); the
    printed rules' options only under those rules (a zero-force point keeps the identity it always had)."""
    return {k: v for k, v in opts.items() if not (k == "den_min" and opts["foot"] == "pinned")
            and not (k in PRINTED_ONLY and opts["rules"] == "zero_force")}


def leg_angle_range(robot: Bolt) -> tuple[float, float]:
    """(min, max) of the leg angle (`Model.leg_angle`, rad) over a crank revolution in {B}: the back and front
    ends of the stance arc, between which the printed rules' lift-off angle must lie."""
    from ..kinematics import loop_kinematics
    g = robot.geometry
    F = loop_kinematics(np.linspace(0.0, 2 * np.pi, 721), g)["F"]
    psi = leg_angle_of(F - g.l_c * np.exp(1j * g.theta))
    return float(psi.min()), float(psi.max())


def leg_angle_of(AF):
    """The leg angle of the hip-to-foot vector A -> F (complex, {B} = world axes: q_Pitch = 0): from the downward
    vertical, positive with the foot ahead (+x, the running direction)."""
    return np.arctan2(np.real(AF), -np.imag(AF))


def printed_rules(robot: Bolt, opts: dict) -> tuple[float, float] | None:
    """The printed rules' (lift-off leg angle, attack crank angle) in rad for this point, checked; None under the
    zero-force rules.  ConfigError: the Coulomb foot (the printed rules are the paper's pinned pivot's), a bumper
    (the crank waits at the attack angle until touch-down, and with the body on the bumper a foot there may never
    land), or a lift-off angle the stance never reaches (outside the leg angle's range between the stance arc's
    back end and its value at the attack angle)."""
    if opts["rules"] != "printed":
        return None
    if opts["foot"] != "pinned":
        raise ConfigError("paper.foot", opts["foot"], "pinned with paper.rules=printed",
                          "Sec. 5.1's rules are the paper's no-slip pivot's, which holds until the set angle")
    if robot.p.bumper_height is not None:
        raise ConfigError("robot.bumper_height", robot.p.bumper_height, "null with paper.rules=printed",
                          "Sec. 5.1's rules are the free hopper's; the crank waits at the attack angle until touch-down")
    from ..kinematics import loop_kinematics
    att = float(np.radians(opts["attack_crank_deg"]))
    g = robot.geometry
    psi_att = float(leg_angle_of(loop_kinematics(np.array([att]), g)["F"][0] - g.l_c * np.exp(1j * g.theta)))
    lo = leg_angle_range(robot)[0]
    psi = -psi_att if opts["liftoff_angle_deg"] is None else float(np.radians(opts["liftoff_angle_deg"]))
    if not lo < psi < psi_att:
        raise ConfigError("paper.liftoff_angle_deg", opts["liftoff_angle_deg"] if opts["liftoff_angle_deg"] is not None
                          else f"null (mirror: {np.degrees(psi):.2f})",
                          f"({np.degrees(lo):.2f}, {np.degrees(psi_att):.2f}) deg: between the stance arc's back end "
                          f"and the leg angle at the attack angle q_1 = {opts['attack_crank_deg']:g} deg",
                          "a stance would never reach it")
    return psi, att


@dataclasses.dataclass(frozen=True, eq=False)
class Mode:
    """A phase of the hybrid model (compared by identity): its independent coordinates `ind` (indices into
    Q) and which constraints hold besides the loops: the foot on the ground (pinned at F0: x and y; `slide`:
    its height only) or the body on the bumper (y_b = bumper_height)."""
    name: str
    ind: list
    foot: bool = False
    slide: bool = False
    bumper: bool = False


# flight; foot pinned; foot sliding (Coulomb, an addition); foot in the air with the body on the Sec. 6.1
# bumper (robot.bumper_height, an addition to Sec. 5)
FLIGHT = Mode("flight", [0, 1, 2])
STANCE = Mode("stance", [2], foot=True)
SLIDE = Mode("slide", [0, 2], foot=True, slide=True)
BUMPER = Mode("bumper", [0, 2], bumper=True)


# absolute link angles a = CQ @ [q_1..q_5]: crank, HFE, KFE, femur, tibia
CQ = np.array([[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 1, 1]], float)


class Model:
    """Kinematics and dynamics of one Bolt point's tree (SI): points as sums of link segments."""

    def __init__(self, robot: Bolt):
        p = robot.p
        g = robot.geometry
        self.robot, self.p, self.g = robot, p, g
        self.A = g.l_c * np.exp(1j * g.theta)
        # point -> (starts at A, [(length, link index)])
        self.points = {
            "B_hfe": (False, [(g.l_1, 0), (g.l_2, 1)]), "B_femur": (True, [(g.l_f, 3)]),
            "G_kfe": (False, [(g.l_1, 0), (g.l_s, 1), (g.l_3, 2)]), "G_tibia": (True, [(g.l_4, 3), (g.l_t, 4)]),
            "F": (True, [(g.l_4, 3), (g.l_5, 4)])}
        self.bodies = [(p.m_1, p.I_1, 0, (False, [(p.l_cm_1, 0)])),
                       (p.m_2, p.I_2, 1, (False, [(g.l_1, 0), (p.l_cm_2, 1)])),
                       (p.m_3, p.I_3, 2, (False, [(g.l_1, 0), (g.l_s, 1), (p.l_cm_3, 2)])),
                       (p.m_4, p.I_4, 3, (True, [(p.l_cm_4, 3)])),
                       (p.m_5, p.I_5, 4, (True, [(g.l_4, 3), (p.l_cm_5, 4)]))]
        self.M = float(sum(b[0] for b in self.bodies) + p.m_b)
        self.armature = float(p.armature)
        self.bumper = p.bumper_height           # m (crank-centre height) or None

    # ---- kinematics ----------------------------------------------------------------------
    def point(self, Q, Qd, pt):
        """(position, Jacobian row (7,), J_dot Q_d) of a point as complex numbers x + i y (world)."""
        fromA, segs = pt if isinstance(pt, tuple) else self.points[pt]
        a = CQ @ Q[2:]
        ad = CQ @ Qd[2:]
        pos = Q[0] + 1j * Q[1] + (self.A if fromA else 0.0)
        J = np.zeros(7, complex)
        J[0], J[1] = 1.0, 1j
        cen = 0.0
        for L, k in segs:
            e = L * np.exp(1j * a[k])
            pos = pos + e
            J[2:] += 1j * e * CQ[k]
            cen = cen - e * ad[k] ** 2
        return pos, J, cen

    def mass_matrix(self, Q, Qd):
        """H (7, 7), bias C Q_d + ... (7,) and gravity's generalized force F_g (7,)."""
        H = np.zeros((7, 7))
        bias = np.zeros(7)
        Fg = np.zeros(7)
        H[0, 0] = H[1, 1] = self.p.m_b
        Fg[1] = -self.p.m_b * G
        for m, I, k, pt in self.bodies:
            _, J, cen = self.point(Q, Qd, pt)
            Jr, Ji = J.real, J.imag
            H += m * (np.outer(Jr, Jr) + np.outer(Ji, Ji))
            w = np.zeros(7)
            w[2:] = CQ[k]
            H += I * np.outer(w, w)
            bias += m * (Jr * cen.real + Ji * cen.imag)
            Fg -= m * G * Ji
        H[2, 2] += self.armature
        return H, bias, Fg

    def constraints(self, Q, Qd, F0=None, slide=False, bumper=False):
        """Psi (loops B, G, and the pinned foot in stance: x and y, or only y while it slides; or the body
        on the bumper: y_b = bumper_height), its Jacobian (n, 7) and J_dot Q_d."""
        rows, Js, cens = [], [], []
        pairs = [("B_hfe", "B_femur"), ("G_kfe", "G_tibia")]
        for a, b in pairs:
            pa, Ja, ca = self.point(Q, Qd, a)
            pb, Jb, cb = self.point(Q, Qd, b)
            rows.append(pa - pb), Js.append(Ja - Jb), cens.append(ca - cb)
        if F0 is not None:
            pf, Jf, cf = self.point(Q, Qd, "F")
            rows.append(pf - F0), Js.append(Jf), cens.append(cf)
        split = lambda z: np.ravel(np.column_stack([np.real(z), np.imag(z)]), order="C")   # noqa: E731
        J = np.array(Js)
        Jm = np.empty((2 * len(Js), 7))
        Jm[0::2], Jm[1::2] = J.real, J.imag
        Psi, cen = split(np.array(rows)), split(np.array(cens))
        if slide:                       # the sliding foot keeps its height only (row 4: its x)
            keep = [0, 1, 2, 3, 5]
            return Psi[keep], Jm[keep], cen[keep]
        if bumper:                      # the body rests on the bumper: y_b = h
            e = np.zeros((1, 7))
            e[0, 1] = 1.0
            return np.append(Psi, Q[1] - self.bumper), np.vstack([Jm, e]), np.append(cen, 0.0)
        return Psi, Jm, cen

    def split_velocity(self, Q, sd, mode: Mode, F0, eps):
        """(full velocity v, rho, J, J_dot v, Psi, dependent indices, J_z^-1) in `mode` with rates sd of its
        independent coordinates (flight: x_b, y_b, q_1; pinned stance: q_1; sliding stance and bumper: x_b,
        q_1); F0: the foot's ground point (complex), given exactly when the foot is on the ground."""
        if mode.foot != (F0 is not None):   # a programming error, not a failed point (paper_run catches ValueError)
            raise TypeError(f"mode {mode.name}: the foot's ground point F0 is {'missing' if mode.foot else 'given'}")
        ind = mode.ind
        dep = [i for i in range(7) if i not in ind]
        Qd0 = np.zeros(7)
        Psi, J, _ = self.constraints(Q, Qd0, F0, mode.slide, mode.bumper)
        Jd_inv = np.linalg.inv(J[:, dep])
        rho = np.zeros((7, len(ind)))
        rho[ind, range(len(ind))] = 1.0
        rho[dep] = -Jd_inv @ J[:, ind]
        v = np.zeros(7)
        v[ind] = sd
        v[dep] = -Jd_inv @ (J[:, ind] @ sd + Psi / eps)
        _, _, cen = self.constraints(Q, v, F0, mode.slide, mode.bumper)
        return v, rho, J, cen, Psi, dep, Jd_inv

    def accel(self, Q, sd, mode: Mode, F0, eps, tau, f_ext):
        """SPF slow dynamics: (v, s_dd, full acceleration a)."""
        v, rho, J, cen, Psi, dep, Jd_inv = self.split_velocity(Q, sd, mode, F0, eps)
        H, bias, Fg = self.mass_matrix(Q, v)
        b = np.zeros(7)
        b[dep] = -Jd_inv @ (cen + J @ v / eps)
        gen = Fg - bias - H @ b + f_ext
        gen[2] += tau
        Hr = rho.T @ H @ rho
        sdd = np.linalg.solve(Hr, rho.T @ gen)
        return v, sdd, rho @ sdd + b

    def slide_accel(self, Q, sd, mode: Mode, F0, eps, tau, direction, mu):
        """Sliding stance (an addition to the paper's model, README "Paper model"): Coulomb friction
        F_T = -mu direction F_N at the foot, F_N the normal constraint force.  F_N = N0 + N1 F_T is
        affine in F_T (the accelerations are), so F_T = -mu direction N0 / den, den = 1 + mu direction N1,
        is solved exactly from two evaluations; den <= 0 is Painleve's paradox (no sliding solution).
        Returns (v, s_dd, a, generalized force of the friction, den)."""
        jx = self.point(Q, np.zeros(7), "F")[1].real          # d foot_x / dQ
        v, s0, a0 = self.accel(Q, sd, mode, F0, eps, tau, np.zeros(7))
        _, s1, a1 = self.accel(Q, sd, mode, F0, eps, tau, jx)
        N0 = self.external_force(Q, v, a0, 0.0).imag
        N1 = self.external_force(Q, v, a1, 0.0).imag - N0
        den = 1.0 + mu * direction * N1
        FT = -mu * direction * N0 / den if den > 0 else 0.0
        return v, s0 + FT * (s1 - s0), a0 + FT * (a1 - a0), FT * jx, den

    def leg_angle(self, Q) -> float:
        """The leg angle (rad) of the hip A to the foot F (`leg_angle_of`): the printed rules' phase angle."""
        return float(leg_angle_of(self.point(Q, np.zeros(7), "F")[0] - (Q[0] + 1j * Q[1] + self.A)))

    def external_force(self, Q, Qd, a, f_ext_xy):
        """The ground's force on the foot (x, y) from Newton's law of the whole leg (the boom's
        slides are free in x, y): sum m_i a_i - M g - bumper."""
        F = self.p.m_b * (a[0] + 1j * a[1])
        for m, _, _, pt in self.bodies:
            _, J, cen = self.point(Q, Qd, pt)
            F += m * (J @ a + cen)
        F = F + 1j * self.M * G - f_ext_xy
        return F
