"""A run of BOLT's paper model (envs/bolt/paper/model.py): the hybrid loop (flight, plastic touch-down,
pinned-foot stance, lift-off at zero normal force) with solve_ivp, its samples and the twin's
summary columns computed from them."""
from __future__ import annotations

import dataclasses
import math
import time

import numpy as np
from scipy.integrate import solve_ivp

from ..kinematics import loop_kinematics
from .model import BUMPER, FLIGHT, MAX_SWITCHES, PEAK_SAMPLES, SLIDE, STANCE, Model, check_options
from ..robot import INITIAL_PENETRATION, Bolt
from .summary import PAPER_METRICS, summarize  # noqa: F401  (the run's columns)

PIERCE = 1e-3   # m: a sample this far through the ground or the bumper ends the run as an error (a missed event)
STOP_TOL = 1e-8  # a Painleve stop whose F_T (relative) or rates (m/s, rad/s) differ more from eq. 18-19's ends the run as an error
DELTA = 1e-6    # m: after a lift-off the foot must rise this far before a touch-down counts (no chatter)


@dataclasses.dataclass
class PaperRun:
    robot: Bolt
    t: np.ndarray
    samples: dict                  # name -> (n,) arrays on the uniform grid
    touchdowns: list               # dicts: t, impulse (complex, N s), ke_before, ke_after, foot_speed_after
    liftoffs: list                 # times
    cycles: int
    error: str | None = None
    wall_s: float = math.nan
    nfev: int = 0
    options: dict = dataclasses.field(default_factory=dict)
    grazes: list = dataclasses.field(default_factory=list)    # grazing re-touches (frictionless normal impacts)
    bumps: list = dataclasses.field(default_factory=list)     # bumper landings and releases (robot.bumper_height)
    switches: list = dataclasses.field(default_factory=list)  # stick <-> slip times (paper.foot=coulomb)
    impasses: list = dataclasses.field(default_factory=list)  # Painleve impasses (stopped or released foot)
    # impasse stops: t, slip_speed [m/s], impulse (complex F_T + i F_N, N s: F_T applied, F_N the no-slip impulse's),
    # F_T_gap [N s] and rates_gap (x_b [m/s], q_1 [rad/s]): the applied stop against eq. 18-19's no-slip impulse
    stops: list = dataclasses.field(default_factory=list)


def impact(model: Model, Q, sd, eps, rows=(0, 1), mu=None, pulling_slides=True):
    """Eq. 18-19: plastic, no-slip impact on the flight coordinates s = (x_b, y_b, q_1).  With `mu`
    (the Coulomb foot, an addition) an impulse outside the friction cone (|F_T| > mu F_N, or F_N <= 0: the pin
    would pull) is replaced by the sliding impact: tangential impulse mu times the normal one, against the
    foot's slip after it (the direction that is consistent; the no-slip impulse's side first), the normal foot
    velocity zero after; if neither direction is consistent, or the no-slip impulse pulls and not
    `pulling_slides` (a re-touch within DELTA of a lift-off: the caller's frictionless graze), the no-slip
    impulse is returned.  Returns (s_d after, impulse F (complex, N s), KE before, KE after, foot velocity
    after)."""
    v, rho, *_ = model.split_velocity(Q, sd, FLIGHT, None, eps)
    H, _, _ = model.mass_matrix(Q, v)
    Hr = rho.T @ H @ rho
    _, Jf, _ = model.point(Q, v, "F")
    Jc = np.vstack([Jf.real, Jf.imag])[list(rows)] @ rho
    Hi = np.linalg.inv(Hr)
    lam = -np.linalg.solve(Jc @ Hi @ Jc.T, Jc @ sd)
    if mu is not None and len(rows) == 2 and not abs(lam[0]) <= mu * lam[1] and (lam[1] > 0 or pulling_slides):
        first = float(np.sign(lam[0])) or 1.0
        for sgn in (first, -first):                # friction impulse +mu sgn F_N: the foot slips towards -sgn
            d = np.array([mu * sgn, 1.0])
            den = float(Jc[1] @ Hi @ Jc.T @ d)
            lam_n = -float(Jc[1] @ sd) / den if den > 0 else -1.0
            if lam_n > 0 and sgn * float(Jc[0] @ (sd + Hi @ Jc.T @ (d * lam_n))) <= 0:
                lam = d * lam_n
                break
    sd_new = sd + Hi @ Jc.T @ lam
    ke = lambda s: 0.5 * float(s @ Hr @ s)   # noqa: E731
    lam = lam if len(rows) == 2 else np.array([0.0, lam[0]])
    return sd_new, complex(lam[0], lam[1]), ke(sd), ke(sd_new), Jc @ sd_new


def simulate(robot: Bolt, cycles: int, **opts) -> PaperRun:
    """Run `cycles` crank periods of the paper model from the twin's initial pose (at rest; without
    bumper the foot 1 um above the ground, in flight (Sec. 5.1); with it on the bumper, foot in the air).
    paper.foot: "pinned" (the paper's no-slip pivot) or "coulomb" (the pivot slides when |F_T| > mu F_N:
    an addition)."""
    o = check_options(opts)
    eps, coulomb = o["epsilon"], o["foot"] == "coulomb"
    den_min = o["den_min"]    # sliding ends before Painleve's paradox (den -> 0): README "Painleve rule"
    m = Model(robot)
    p, T = robot.p, robot.period
    r_foot, mu = p.foot_radius, p.mu
    crank = robot.inputs
    th0, dirw = float(crank.offsets[0]), float(crank.directions[0]) * crank.omega
    f_none = np.zeros(7)      # no external force but the constraints' (the bumper is a mode: BUMPER)
    slip = [0.0]              # slip direction of the sliding foot (+1: towards +x)

    def torque(t, q1, q1d, stance):
        tau = p.K_P * (th0 + dirw * t - q1) - p.K_D * q1d
        lim = robot.torque_limit(stance, q1d)
        return float(np.clip(tau, -lim, lim))

    def state(y, mode, F0):
        Q, sd = y[:7], y[7:]
        v, *_ = m.split_velocity(Q, sd, mode, F0, eps)
        return Q, sd, v

    def dynamics(t, y, mode, F0):
        Q, sd, v = state(y, mode, F0)
        tau = torque(t, Q[2], v[2], mode.foot)
        if mode is SLIDE:
            v, sdd, a, f, _ = m.slide_accel(Q, sd, mode, F0, eps, tau, slip[0], mu)
        else:
            f = f_none
            v, sdd, a = m.accel(Q, sd, mode, F0, eps, tau, f)
        return v, sdd, a, tau, f

    def rhs(t, y, mode, F0):
        v, sdd, *_ = dynamics(t, y, mode, F0)
        return np.concatenate([v, sdd])

    def ground_force(t, y, mode, F0):
        v, _, a, _, _ = dynamics(t, y, mode, F0)
        return m.external_force(y[:7], v, a, 0.0)

    def foot_y(y):
        return m.point(y[:7], np.zeros(7), "F")[0].imag - r_foot

    def touchdown(t, y, mode, F0):
        return foot_y(y)
    touchdown.terminal, touchdown.direction = True, -1

    def armed(t, y, mode, F0):         # the foot has left the ground by DELTA: touch-down armed
        return foot_y(y) - DELTA
    armed.terminal, armed.direction = True, 1

    def sunk(t, y, mode, F0):          # an unarmed foot that sinks DELTA into the ground touches down
        return foot_y(y) - sink
    sunk.terminal, sunk.direction = True, -1

    def lands(t, y, mode, F0):         # the body reaches the bumper, falling
        return y[1] - h_bump
    lands.terminal, lands.direction = True, -1

    def liftoff(t, y, mode, F0):       # the foot's normal force (on the bumper: the bumper's) reaches zero
        return ground_force(t, y, mode, F0).imag
    liftoff.terminal, liftoff.direction = True, -1

    def slips(t, y, mode, F0):         # the pinned foot's force leaves the friction cone
        F = ground_force(t, y, mode, F0)
        return mu * F.imag - abs(F.real)
    slips.terminal, slips.direction = True, -1

    def sticks(t, y, mode, F0):        # the sliding foot's velocity reaches zero
        _, _, v = state(y, mode, F0)
        return slip[0] * (m.point(y[:7], v, "F")[1] @ v).real
    sticks.terminal, sticks.direction = True, -1

    def impasse(t, y, mode, F0):       # the sliding solution is about to cease to exist (Painleve)
        Q, sd, v = state(y, mode, F0)
        return m.slide_accel(Q, sd, mode, F0, eps, torque(t, Q[2], v[2], True), slip[0], mu)[4] - den_min
    impasse.terminal, impasse.direction = True, -1

    def on_ground(t, y, F0, mode, slide=False):
        """(state, mode) of a foot on the ground: pinned if the cone holds (and not `slide`), else
        sliding against the force the pin would need; None if it pulls or neither mode exists
        (Painleve: the foot is released)."""
        if mode is STANCE and coulomb:
            F = ground_force(t, y, STANCE, F0)
            if slide or mu * F.imag < abs(F.real):
                slip[0] = -float(np.sign(F.real))
                _, _, v = state(y, STANCE, F0)
                y, mode = np.concatenate([y[:7], v[SLIDE.ind]]), SLIDE
                if impasse(t, y, mode, F0) <= 0:
                    impasses.append(t)
                    return None
        return (y, mode) if ground_force(t, y, mode, F0).imag > 0 else None

    def stop_slide(y, F0):
        """(rates (x_b, q_1) after, F_T [N s]): the tangential impulse F_T that stops the sliding foot (its height
        held: the normal impulse is the SLIDE mode's constraint's)."""
        Q, sd, v = state(y, SLIDE, F0)
        _, rho, *_ = m.split_velocity(Q, sd, SLIDE, F0, eps)
        Hr = rho.T @ m.mass_matrix(Q, v)[0] @ rho
        jx = m.point(Q, v, "F")[1].real @ rho
        F_T = -(jx @ sd) / (jx @ np.linalg.solve(Hr, jx))
        return sd + np.linalg.solve(Hr, jx) * F_T, float(F_T)

    def onto_bumper(y):
        """Flight rates after the plastic impact of the body on the bumper (y_b's rate zero after)."""
        Q, sd = y[:7], y[7:]
        v, rho, *_ = m.split_velocity(Q, sd, FLIGHT, None, eps)
        Hr = rho.T @ m.mass_matrix(Q, v)[0] @ rho
        e = np.array([0.0, 1.0, 0.0])
        return sd - np.linalg.solve(Hr, e) * sd[1] / (e @ np.linalg.solve(Hr, e))

    # initial pose: the twin's (Bolt.initial_pose), foot 1 um above the ground instead of touching
    k = loop_kinematics(np.array([p.theta_1_0]), robot.geometry)
    Q = np.array([0.0, 0.0] + [float(k[f"q{i}"][0]) for i in range(1, 6)])
    Q[1] = r_foot + INITIAL_PENETRATION - float(k["F"][0].imag)
    y, mode, F0 = np.concatenate([Q, np.zeros(3)]), FLIGHT, None
    h_bump = m.bumper if m.bumper is not None else -np.inf
    if Q[1] <= h_bump:                 # with the bumper: resting on it, foot in the air (the twin's start)
        Q[1] = h_bump
        y, mode = np.concatenate([Q, np.zeros(2)]), BUMPER
    t, t_end = 0.0, cycles * T
    grid = np.linspace(0.0, t_end, cycles * PEAK_SAMPLES + 1)
    names = ("x", "y", "x_dot", "y_dot", "p_x", "foot_x", "q_1", "q_1_dot", "tau", "power", "stance", "sliding", "loop_gap", "foot_y", "F_N", "F_T",
             "psi")
    S = {k_: np.full(len(grid), np.nan) for k_ in names}
    tds, los, nfev, err, arm, sink, grazes, switches, impasses, bumps = [], [], 0, None, True, -DELTA, [], [], [], []
    stops = []
    t0 = time.perf_counter()
    while t < t_end - 1e-12:
        if len(tds) + len(los) + len(grazes) + len(switches) + len(impasses) + len(bumps) > MAX_SWITCHES * cycles:   # grazing counts too
            err = f"more than {MAX_SWITCHES} phase switches per revolution (Zeno)"
            break
        ev = ([touchdown] if arm else [armed, sunk]) if mode is FLIGHT or mode is BUMPER else (
            [liftoff, slips] if mode is STANCE and coulomb else [liftoff, sticks, impasse] if mode is SLIDE else [liftoff])
        if m.bumper is not None:
            ev = ev + ([liftoff] if mode is BUMPER else [lands])
        if m.bumper is not None and mode is not BUMPER and y[1] - h_bump <= 1e-9 and state(y, mode, F0)[2][1] < 0:
            fired = lands                              # at the bumper and falling: the event at the start itself
        else:
            try:
                sol = solve_ivp(rhs, (t, t_end), y, method=o["method"], rtol=o["rtol"], atol=o["atol"], events=ev,
                                args=(mode, F0), dense_output=True)
            except (ValueError, np.linalg.LinAlgError) as e:   # event location on an inexact dense output
                err = f"solve_ivp failed after t = {t:.4f} s: {e}"
                break
            nfev += sol.nfev
            if sol.status == -1:
                err = f"solve_ivp: {sol.message}"
                break
            t1 = float(sol.t[-1])
            seg = np.flatnonzero((grid >= t) & (grid <= t1))
            for j in seg:
                _sample(S, j, m, grid[j], sol.sol(grid[j]), mode, F0, dynamics, r_foot)
            if len(seg) and (np.min(S["foot_y"][seg]) < -PIERCE or np.min(S["y"][seg]) < h_bump - PIERCE):
                err = f"the foot or the body went {PIERCE * 1e3:g} mm through the ground or the bumper at t = {t:.4f} s"
                break
            y, t = sol.y[:, -1].copy(), t1
            if sol.status != 1:
                break
            fired = ev[next(i for i, te in enumerate(sol.t_events) if len(te))]
        if fired is armed:
            arm = True
            continue
        if fired is liftoff and mode is BUMPER:        # off the bumper: flight
            _, _, v = state(y, mode, F0)
            y, mode = np.concatenate([y[:7], v[FLIGHT.ind]]), FLIGHT
            bumps.append(t)
            continue
        if fired is lands:                             # plastic impact on the bumper; a foot on the ground leaves it
            _, _, v = state(y, mode, F0)
            if mode is not FLIGHT:
                los.append(t)
                arm, F0 = False, None
                sink = min(foot_y(y), 0.0) - DELTA
            sd = onto_bumper(np.concatenate([y[:7], v[FLIGHT.ind]]))
            y, mode = np.concatenate([y[:7], sd[[0, 2]]]), BUMPER
            bumps.append(t)
            if liftoff(t, y, mode, None) <= 0:          # pulled off at once: keep flying
                y, mode = np.concatenate([y[:7], sd]), FLIGHT
            continue
        if fired is slips:                             # pinned -> sliding against the force the pin needs
            switches.append(t)
            nxt = on_ground(t, y, F0, STANCE, slide=True)
            if nxt is not None:
                y, mode = nxt
                continue
        if fired is impasse:                           # a tangential plastic impulse stops the sliding foot
            impasses.append(t)
            _, _, v = state(y, mode, F0)
            sd, F_T = stop_slide(y, F0)
            # F_N: the height constraint's impulse, eq. 18-19's no-slip impulse on the flight rates (the same
            # stop: its F_T and rates after are the applied ones, tests/test_bolt_paper_impasse.py)
            check = impact(m, y[:7], v[FLIGHT.ind], eps)
            stops.append(dict(t=t, slip_speed=abs(float((m.point(y[:7], v, "F")[1] @ v).real)),
                              impulse=complex(F_T, check[1].imag), F_T_gap=abs(F_T - check[1].real),
                              rates_gap=float(np.abs(sd - check[0][[0, 2]]).max())))
            if stops[-1]["F_T_gap"] > STOP_TOL * abs(F_T) or stops[-1]["rates_gap"] > STOP_TOL:
                err = (f"Painleve stop at t = {t:.4f} s: the applied stop and eq. 18-19's impulse differ "
                       f"(F_T gap {stops[-1]['F_T_gap']:.3g} N s, rates gap {stops[-1]['rates_gap']:.3g})")
                break
            y = np.concatenate([y[:7], sd])
            fired = sticks
        if fired is sticks:                            # sliding -> pinned where it stopped (or slides back)
            _, _, v = state(y, mode, F0)
            F0 = m.point(y[:7], np.zeros(7), "F")[0]
            nxt = on_ground(t, np.concatenate([y[:7], v[STANCE.ind]]), F0, STANCE)
            switches.append(t)
            if nxt is not None:
                y, mode = nxt
                continue
        if mode is BUMPER:                              # touch-down from the bumper: flight rates first
            _, _, v = state(y, mode, F0)
            y, mode = np.concatenate([y[:7], v[FLIGHT.ind]]), FLIGHT
        if fired in (touchdown, sunk):                 # touch-down: the reset map, then stance
            sd, lam, ke0, ke1, vf = impact(m, y[:7], y[7:], eps, mu=mu if coulomb else None, pulling_slides=arm)
            if lam.imag <= 0 or not arm:       # a grazing re-touch: frictionless normal impact, keep flying
                sd2, lam2, k0, k1, _ = impact(m, y[:7], y[7:], eps, rows=(1,))
                if lam.imag <= 0 or lam2.imag > 0 and _pulls(m, y, sd, eps, ground_force):
                    y = np.concatenate([y[:7], sd2])
                    grazes.append(dict(t=t, impulse=lam2, ke_before=k0, ke_after=k1))
                    # disarmed: a touch-down event would start at its own root (foot_y = 0) and miss the crossing
                    arm, sink = False, min(foot_y(y), 0.0) - DELTA
                    continue
            F0 = m.point(y[:7], np.zeros(7), "F")[0]
            slid = abs(vf[0]) > 1e-9
            tds.append(dict(t=t, impulse=lam, ke_before=ke0, ke_after=ke1, foot_speed_after=float(np.abs(vf).max()),
                            slid=slid))
            if slid:
                slip[0] = float(np.sign(vf[0]))
                nxt = on_ground(t, np.concatenate([y[:7], sd[[0, 2]]]), F0, SLIDE)
            else:
                nxt = on_ground(t, np.concatenate([y[:7], sd[2:]]), F0, STANCE)
            if nxt is not None:
                y, mode = nxt
                continue
            y, mode = (np.concatenate([y[:7], sd[[0, 2]]]), SLIDE) if slid else (np.concatenate([y[:7], sd[2:]]),
                                                                                STANCE)
            # the foot would pull at once: the impact only, no stance
        _, _, v = state(y, mode, F0)                    # lift-off
        los.append(t)
        y, mode, F0, arm = np.concatenate([y[:7], v[FLIGHT.ind]]), FLIGHT, None, False
        sink = min(m.point(y[:7], v, "F")[0].imag - r_foot, 0.0) - DELTA
    wall = time.perf_counter() - t0
    return PaperRun(robot, grid, S, tds, los, cycles, err, wall, nfev, o, grazes, bumps, switches, impasses, stops)


def _sample(S, j, m, t, y, mode, F0, dynamics, r_foot):
    v, _, a, tau, f = dynamics(t, y, mode, F0)
    Q = y[:7]
    S["x"][j], S["y"][j], S["q_1"][j], S["q_1_dot"][j] = Q[0], Q[1], Q[2], v[2]
    S["x_dot"][j], S["y_dot"][j] = v[0], v[1]
    S["p_x"][j] = m.p.m_b * v[0] + sum(b[0] * (m.point(Q, v, b[3])[1] @ v).real for b in m.bodies)   # N s
    S["tau"][j], S["power"][j] = tau, tau * v[2]
    S["stance"][j] = mode.foot
    S["sliding"][j] = mode is SLIDE
    gap = [abs(m.point(Q, v, a_)[0] - m.point(Q, v, b_)[0]) for a_, b_ in (("B_hfe", "B_femur"), ("G_kfe", "G_tibia"))]
    S["loop_gap"][j] = max(gap)
    pf = m.point(Q, v, "F")[0]
    S["foot_x"][j], S["foot_y"][j] = pf.real, pf.imag - r_foot
    psi = m.constraints(Q, np.zeros(7), F0, mode.slide, mode.bumper)[0]
    S["psi"][j] = float(np.abs(psi).max())
    if mode.foot:
        F = m.external_force(Q, v, a, 0.0)
        S["F_N"][j], S["F_T"][j] = F.imag, F.real
    else:
        S["F_N"][j] = S["F_T"][j] = 0.0


def _pulls(m, y, sd, eps, ground_force):
    """Would the pinned foot pull (normal force <= 0) right after this impact?"""
    F0 = m.point(y[:7], np.zeros(7), "F")[0]
    return ground_force(0.0, np.concatenate([y[:7], sd[2:]]), STANCE, F0).imag <= 0
