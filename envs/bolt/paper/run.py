"""A run of BOLT's paper model (envs/bolt/paper/model.py): the hybrid loop (flight, plastic touch-down,
pinned-foot stance, lift-off) with solve_ivp, its samples and the twin's summary columns computed from them.

Two rule sets (`paper.rules`).  zero_force (default): lift-off where the pivot's normal force reaches zero, eq.
20 tracking theta_1d = theta_1_0 + direction omega t (the crank's period imposed).  printed (Sec. 5.1 as printed):
lift-off where the leg angle (hip A to foot F, `Model.leg_angle`) falls to a set point, the paper's pinned pivot
(paper.foot=pinned) holding until then, pulling if need be (pull_fraction counts it; every touch-down starts a
stance); theta_1d runs at the constant speed omega through stance and, from lift-off, on towards the attack crank
angle, where it waits until touch-down; the next stance starts from the command's value there, so the stride time
is an outcome.  Where the floor still pushes the foot at the set angle (F_N > 0: released, the foot would move
into the floor), the stance goes on until F_N reaches zero (the paper does not say; a literal release sends the
foot through the floor: docs/notes/2026-11-28-bolt-printed-rules.md)."""
from __future__ import annotations

import dataclasses
import math
import time

import numpy as np

from ..kinematics import loop_kinematics
from .model import BUMPER, FLIGHT, MAX_SWITCHES, PEAK_SAMPLES, SLIDE, STANCE, Model, check_options, printed_rules
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
    an addition); paper.rules: "zero_force" or "printed" (the module's docstring)."""
    from scipy.integrate import solve_ivp     # here, not at import: scipy costs ~0.5 s of every start

    o = check_options(opts)
    rules = printed_rules(robot, o)           # (lift-off leg angle, attack crank angle) [rad], or None
    eps, coulomb = o["epsilon"], o["foot"] == "coulomb"
    den_min = o["den_min"]    # sliding ends before Painleve's paradox (den -> 0): README "Painleve rule"
    m = Model(robot)
    p, T = robot.p, robot.period
    r_foot, mu = p.foot_radius, p.mu
    crank = robot.inputs
    th0, dirw = float(crank.offsets[0]), float(crank.directions[0]) * crank.omega
    f_none = np.zeros(7)      # no external force but the constraints' (the bumper is a mode: BUMPER)
    bilateral = rules is not None     # printed rules (pinned foot): the pivot holds, pulling if need be, until the set angle
    past = False                      # printed rules: the set angle passed with the floor still pushing
    slip = [0.0]              # slip direction of the sliding foot (+1: towards +x)

    # theta_1d: th + dirw (t - t0) from (t0, th), stopped at `target` (printed rules' flight) if not None
    cmd = [0.0, th0, None]

    def theta_d(t):
        th = cmd[1] + dirw * (t - cmd[0])
        return cmd[2] if cmd[2] is not None and (th - cmd[2]) * dirw > 0 else th

    def attack_after(th):
        """The first crank angle attack + 2 pi k that theta_1d reaches from th turning in its direction."""
        k = (th - rules[1]) / (2 * math.pi)
        return rules[1] + 2 * math.pi * (math.floor(k + 1e-9) if dirw < 0 else math.ceil(k - 1e-9))

    if rules is not None:
        cmd[2] = attack_after(th0)

    def torque(t, q1, q1d, stance):
        tau = p.K_P * (theta_d(t) - q1) - p.K_D * q1d
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

    def phase(t, y, mode, F0):         # printed rules: the leg angle falls to the lift-off set point
        return m.leg_angle(y[:7]) - rules[0]
    phase.terminal, phase.direction = True, -1

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
        return (y, mode) if bilateral or ground_force(t, y, mode, F0).imag > 0 else None

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
             "psi", "theta_1d")
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
        if rules is not None and mode.foot:            # printed: the set angle ends the stance (the pin may pull)
            ev = [liftoff] if past else [phase]
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
                S["theta_1d"][j] = theta_d(grid[j])
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
        if fired is phase and ground_force(t, y, mode, F0).imag > 0:   # the floor still pushes: on to zero force
            past = True
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
            # a grazing re-touch: frictionless normal impact, keep flying (not for the bilateral pivot)
            if not bilateral and (lam.imag <= 0 or not arm):
                sd2, lam2, k0, k1, _ = impact(m, y[:7], y[7:], eps, rows=(1,))
                if lam.imag <= 0 or lam2.imag > 0 and _pulls(m, y, sd, eps, ground_force):
                    y = np.concatenate([y[:7], sd2])
                    grazes.append(dict(t=t, impulse=lam2, ke_before=k0, ke_after=k1))
                    # disarmed: a touch-down event would start at its own root (foot_y = 0) and miss the crossing
                    arm, sink = False, min(foot_y(y), 0.0) - DELTA
                    continue
            F0 = m.point(y[:7], np.zeros(7), "F")[0]
            if rules is not None:                      # the command turns on from where it waited (or was)
                cmd[:] = [t, theta_d(t), None]
            slid = abs(vf[0]) > 1e-9
            tds.append(dict(t=t, impulse=lam, ke_before=ke0, ke_after=ke1, foot_speed_after=float(np.abs(vf).max()),
                            slid=slid))
            if slid:
                slip[0] = float(np.sign(vf[0]))
                nxt = on_ground(t, np.concatenate([y[:7], sd[[0, 2]]]), F0, SLIDE)
            else:
                nxt = on_ground(t, np.concatenate([y[:7], sd[2:]]), F0, STANCE)
            # printed rules: landed behind the lift-off angle, the impact only, no stance
            behind = rules is not None and m.leg_angle(y[:7]) <= rules[0]
            past = behind
            if nxt is not None and not (behind and ground_force(t, *nxt, F0).imag <= 0):
                y, mode = nxt
                continue
            y, mode = (np.concatenate([y[:7], sd[[0, 2]]]), SLIDE) if slid else (np.concatenate([y[:7], sd[2:]]),
                                                                                STANCE)
            # the foot would pull at once: the impact only, no stance
        _, _, v = state(y, mode, F0)                    # lift-off
        los.append(t)
        y, mode, F0, arm = np.concatenate([y[:7], v[FLIGHT.ind]]), FLIGHT, None, False
        sink = min(m.point(y[:7], v, "F")[0].imag - r_foot, 0.0) - DELTA
        if rules is not None:                          # on at the constant speed to the attack angle, then wait
            cmd[:] = [t, theta_d(t), attack_after(theta_d(t))]
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


CURVE_COLUMNS = ("rule_set", "rules", "crank_period", "liftoff_angle_deg", "stride_time", "speed",
                 "touchdowns_per_revolution", "duty_factor", "pull_fraction", "steady", "wall_s", "error")


def speed_stride_curve(params: dict, periods, cycles: int, rule_sets: dict) -> list[dict]:
    """The paper model's speed against its *measured* stride time (summarize's stride_time: touch-down to
    touch-down over the second half), one row (CURVE_COLUMNS) per rule set and crank period.  `rule_sets`: label ->
    (robot parameter overrides, paper options), e.g. {"zero_force": ({}, {}), "printed": ({"bumper_height": None},
    {"rules": "printed", "foot": "pinned"})}; `params`: the robot's config values.  A failed run is a row with its
    error and NaN metrics, never a number."""
    rows = []
    for label, (over, opts) in rule_sets.items():
        for T in periods:
            robot = Bolt(**{**params, **over, "crank_period": float(T)})
            run = simulate(robot, cycles, **opts)
            s = {} if run.error else summarize(run)
            lo = printed_rules(robot, run.options) if run.options.get("rules") == "printed" else None
            rows.append(dict(rule_set=label, rules=run.options.get("rules"), crank_period=float(T),
                             liftoff_angle_deg=math.degrees(lo[0]) if lo else math.nan,
                             **{k: s.get(k, math.nan) for k in CURVE_COLUMNS[4:-2]}, wall_s=run.wall_s,
                             error=run.error or ""))
    return rows
