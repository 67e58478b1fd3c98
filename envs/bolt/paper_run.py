"""A run of BOLT's paper model (envs/bolt/paper.py): the hybrid loop (flight, plastic touch-down,
pinned-foot stance, lift-off at zero normal force) with solve_ivp, its samples and the twin's
summary columns computed from them."""
from __future__ import annotations

import dataclasses
import math
import time

import numpy as np
from scipy.integrate import solve_ivp

from envs.bolt.kinematics import loop_kinematics
from envs.bolt.paper import MAX_SWITCHES, PEAK_SAMPLES, Model, check_options
from envs.bolt.robot import INITIAL_PENETRATION, Bolt

FLIGHT, STANCE, SLIDE = [0, 1, 2], [2], [0, 2]   # independent coordinates per mode
DEN_MIN = 0.05  # sliding ends before Painleve's paradox (den = 1 + mu dir dF_N/dF_T -> 0): README "Paper model"
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
    switches: list = dataclasses.field(default_factory=list)  # stick <-> slip times (paper.foot=coulomb)
    impasses: list = dataclasses.field(default_factory=list)  # Painleve impasses (stopped or released foot)


def impact(model: Model, Q, sd, eps, rows=(0, 1), mu=None):
    """Eq. 18-19: plastic, no-slip impact on the flight coordinates s = (x_b, y_b, q_1).  With `mu`
    (the Coulomb foot, an addition) an impulse outside the friction cone is replaced by the sliding
    impact: tangential impulse mu times the normal one, the normal foot velocity zero after.
    Returns (s_d after, impulse F (complex, N s), KE before, KE after, foot velocity after)."""
    v, rho, *_ = model.split_velocity(Q, sd, FLIGHT, None, eps)
    H, _, _ = model.mass_matrix(Q, v)
    Hr = rho.T @ H @ rho
    _, Jf, _ = model.point(Q, v, "F")
    Jc = np.vstack([Jf.real, Jf.imag])[list(rows)] @ rho
    Hi = np.linalg.inv(Hr)
    lam = -np.linalg.solve(Jc @ Hi @ Jc.T, Jc @ sd)
    if mu is not None and len(rows) == 2 and abs(lam[0]) > mu * lam[1] > 0:
        d = np.array([mu * np.sign(lam[0]), 1.0])
        lam = d * (-(Jc[1] @ sd) / (Jc[1] @ Hi @ Jc.T @ d))
    sd_new = sd + Hi @ Jc.T @ lam
    ke = lambda s: 0.5 * float(s @ Hr @ s)   # noqa: E731
    lam = lam if len(rows) == 2 else np.array([0.0, lam[0]])
    return sd_new, complex(lam[0], lam[1]), ke(sd), ke(sd_new), Jc @ sd_new


def simulate(robot: Bolt, cycles: int, **opts) -> PaperRun:
    """Run `cycles` crank periods of the paper model from the twin's initial pose without bumper (at
    rest, foot 1 um above the ground), starting in flight (Sec. 5.1).  paper.foot: "pinned" (the
    paper's no-slip pivot) or "coulomb" (the pivot slides when |F_T| > mu F_N: an addition)."""
    o = check_options(opts)
    eps, coulomb = o["epsilon"], o["foot"] == "coulomb"
    m = Model(robot)
    p, T = robot.p, robot.period
    r_foot, mu = p["foot_radius"], p["mu"]
    crank = robot.inputs
    th0, dirw = float(crank.offsets[0]), float(crank.directions[0]) * crank.omega
    f_none = np.zeros(7)      # no bumper in the paper's Sec. 5 (refused)
    slip = [0.0]              # slip direction of the sliding foot (+1: towards +x)

    def torque(t, q1, q1d, stance):
        tau = p["K_P"] * (th0 + dirw * t - q1) - p["K_D"] * q1d
        lim = robot.torque_limit(stance, q1d)
        return float(np.clip(tau, -lim, lim))

    def state(y, ind, F0):
        Q, sd = y[:7], y[7:]
        v, *_ = m.split_velocity(Q, sd, ind, F0, eps)
        return Q, sd, v

    def dynamics(t, y, ind, F0):
        Q, sd, v = state(y, ind, F0)
        tau = torque(t, Q[2], v[2], ind is not FLIGHT)
        if ind is SLIDE:
            v, sdd, a, f, _ = m.slide_accel(Q, sd, ind, F0, eps, tau, slip[0], mu)
        else:
            f = f_none
            v, sdd, a = m.accel(Q, sd, ind, F0, eps, tau, f)
        return v, sdd, a, tau, f

    def rhs(t, y, ind, F0):
        v, sdd, *_ = dynamics(t, y, ind, F0)
        return np.concatenate([v, sdd])

    def ground_force(t, y, ind, F0):
        v, _, a, _, _ = dynamics(t, y, ind, F0)
        return m.external_force(y[:7], v, a, 0.0)

    def foot_y(y):
        return m.point(y[:7], np.zeros(7), "F")[0].imag - r_foot

    def touchdown(t, y, ind, F0):
        return foot_y(y)
    touchdown.terminal, touchdown.direction = True, -1

    def armed(t, y, ind, F0):          # the foot has left the ground by DELTA: touch-down armed
        return foot_y(y) - DELTA
    armed.terminal, armed.direction = True, 1

    def sunk(t, y, ind, F0):           # an unarmed foot that sinks DELTA into the ground touches down
        return foot_y(y) - sink
    sunk.terminal, sunk.direction = True, -1

    def liftoff(t, y, ind, F0):        # the foot's normal force reaches zero
        return ground_force(t, y, ind, F0).imag
    liftoff.terminal, liftoff.direction = True, -1

    def slips(t, y, ind, F0):          # the pinned foot's force leaves the friction cone
        F = ground_force(t, y, ind, F0)
        return mu * F.imag - abs(F.real)
    slips.terminal, slips.direction = True, -1

    def sticks(t, y, ind, F0):         # the sliding foot's velocity reaches zero
        _, _, v = state(y, ind, F0)
        return slip[0] * (m.point(y[:7], v, "F")[1] @ v).real
    sticks.terminal, sticks.direction = True, -1

    def impasse(t, y, ind, F0):        # the sliding solution is about to cease to exist (Painleve)
        Q, sd, v = state(y, ind, F0)
        return m.slide_accel(Q, sd, ind, F0, eps, torque(t, Q[2], v[2], True), slip[0], mu)[4] - DEN_MIN
    impasse.terminal, impasse.direction = True, -1

    def on_ground(t, y, F0, ind, slide=False):
        """(state, mode) of a foot on the ground: pinned if the cone holds (and not `slide`), else
        sliding against the force the pin would need; None if it pulls or neither mode exists
        (Painleve: the foot is released)."""
        if ind is STANCE and coulomb:
            F = ground_force(t, y, STANCE, F0)
            if slide or mu * F.imag < abs(F.real):
                slip[0] = -float(np.sign(F.real))
                _, _, v = state(y, STANCE, F0)
                y, ind = np.concatenate([y[:7], v[SLIDE]]), SLIDE
                if impasse(t, y, ind, F0) <= 0:
                    impasses.append(t)
                    return None
        return (y, ind) if ground_force(t, y, ind, F0).imag > 0 else None

    def stop_slide(y, F0):
        """Rates (x_b, q_1) after the impulse F_T that stops the sliding foot (its height held)."""
        Q, sd, v = state(y, SLIDE, F0)
        _, rho, *_ = m.split_velocity(Q, sd, SLIDE, F0, eps)
        Hr = rho.T @ m.mass_matrix(Q, v)[0] @ rho
        jx = m.point(Q, v, "F")[1].real @ rho
        return sd - np.linalg.solve(Hr, jx) * (jx @ sd) / (jx @ np.linalg.solve(Hr, jx))

    # initial pose: the twin's (Bolt.initial_pose), foot 1 um above the ground instead of touching
    k = loop_kinematics(np.array([p["theta_1_0"]]), robot.geometry)
    Q = np.array([0.0, 0.0] + [float(k[f"q{i}"][0]) for i in range(1, 6)])
    Q[1] = r_foot + INITIAL_PENETRATION - float(k["F"][0].imag)
    y, ind, F0 = np.concatenate([Q, np.zeros(3)]), FLIGHT, None
    t, t_end = 0.0, cycles * T
    grid = np.linspace(0.0, t_end, cycles * PEAK_SAMPLES + 1)
    names = ("x", "y", "q_1", "q_1_dot", "tau", "power", "stance", "sliding", "loop_gap", "foot_y", "F_N", "F_T",
             "psi")
    S = {k_: np.full(len(grid), np.nan) for k_ in names}
    tds, los, nfev, err, arm, sink, grazes, switches, impasses = [], [], 0, None, True, -DELTA, [], [], []
    t0 = time.perf_counter()
    while t < t_end - 1e-12:
        if len(tds) + len(los) + len(grazes) + len(switches) + len(impasses) > MAX_SWITCHES * cycles:   # grazing counts too
            err = f"more than {MAX_SWITCHES} phase switches per revolution (Zeno)"
            break
        ev = ([touchdown] if arm else [armed, sunk]) if ind is FLIGHT else (
            [liftoff, slips] if ind is STANCE and coulomb else [liftoff, sticks, impasse] if ind is SLIDE else [liftoff])
        try:
            sol = solve_ivp(rhs, (t, t_end), y, method=o["method"], rtol=o["rtol"], atol=o["atol"], events=ev,
                            args=(ind, F0), dense_output=True)
        except (ValueError, np.linalg.LinAlgError) as e:   # event location on an inexact dense output, singular J_z
            err = f"solve_ivp failed after t = {t:.4f} s: {e}"
            break
        nfev += sol.nfev
        if sol.status == -1:
            err = f"solve_ivp: {sol.message}"
            break
        t1 = float(sol.t[-1])
        for j in np.flatnonzero((grid >= t) & (grid <= t1)):
            _sample(S, j, m, grid[j], sol.sol(grid[j]), ind, F0, dynamics, r_foot)
        y, t = sol.y[:, -1].copy(), t1
        if sol.status != 1:
            break
        fired = ev[next(i for i, te in enumerate(sol.t_events) if len(te))]
        if fired is armed:
            arm = True
            continue
        if fired is slips:                             # pinned -> sliding against the force the pin needs
            switches.append(t)
            nxt = on_ground(t, y, F0, STANCE, slide=True)
            if nxt is not None:
                y, ind = nxt
                continue
        if fired is impasse:                           # a tangential plastic impulse stops the sliding foot
            impasses.append(t)
            y = np.concatenate([y[:7], stop_slide(y, F0)])
            fired = sticks
        if fired is sticks:                            # sliding -> pinned where it stopped (or slides back)
            _, _, v = state(y, ind, F0)
            F0 = m.point(y[:7], np.zeros(7), "F")[0]
            nxt = on_ground(t, np.concatenate([y[:7], v[STANCE]]), F0, STANCE)
            switches.append(t)
            if nxt is not None:
                y, ind = nxt
                continue
        if fired in (touchdown, sunk):                 # touch-down: the reset map, then stance
            sd, lam, ke0, ke1, vf = impact(m, y[:7], y[7:], eps, mu=mu if coulomb else None)
            if lam.imag <= 0 or not arm:       # a grazing re-touch: frictionless normal impact, keep flying
                sd2, lam2, k0, k1, _ = impact(m, y[:7], y[7:], eps, rows=(1,))
                if lam.imag <= 0 or lam2.imag > 0 and _pulls(m, y, sd, eps, ground_force):
                    y = np.concatenate([y[:7], sd2])
                    grazes.append(dict(t=t, impulse=lam2, ke_before=k0, ke_after=k1))
                    sink = min(foot_y(y), 0.0) - DELTA
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
                y, ind = nxt
                continue
            y, ind = (np.concatenate([y[:7], sd[[0, 2]]]), SLIDE) if slid else (np.concatenate([y[:7], sd[2:]]),
                                                                                STANCE)
            # the foot would pull at once: the impact only, no stance
        _, _, v = state(y, ind, F0)                    # lift-off
        los.append(t)
        y, ind, F0, arm = np.concatenate([y[:7], v[FLIGHT]]), FLIGHT, None, False
        sink = min(m.point(y[:7], v, "F")[0].imag - r_foot, 0.0) - DELTA
    wall = time.perf_counter() - t0
    return PaperRun(robot, grid, S, tds, los, cycles, err, wall, nfev, o, grazes, switches, impasses)


def _sample(S, j, m, t, y, ind, F0, dynamics, r_foot):
    v, _, a, tau, f = dynamics(t, y, ind, F0)
    Q = y[:7]
    S["x"][j], S["y"][j], S["q_1"][j], S["q_1_dot"][j] = Q[0], Q[1], Q[2], v[2]
    S["tau"][j], S["power"][j] = tau, tau * v[2]
    S["stance"][j] = ind is not FLIGHT
    S["sliding"][j] = ind is SLIDE
    gap = [abs(m.point(Q, v, a_)[0] - m.point(Q, v, b_)[0]) for a_, b_ in (("B_hfe", "B_femur"), ("G_kfe", "G_tibia"))]
    S["loop_gap"][j] = max(gap)
    S["foot_y"][j] = m.point(Q, v, "F")[0].imag - r_foot
    psi = m.constraints(Q, np.zeros(7), F0, ind is SLIDE)[0]
    S["psi"][j] = float(np.abs(psi).max())
    if ind is not FLIGHT:
        F = m.external_force(Q, v, a, 0.0)
        S["F_N"][j], S["F_T"][j] = F.imag, F.real
    else:
        S["F_N"][j] = S["F_T"][j] = 0.0


def _pulls(m, y, sd, eps, ground_force):
    """Would the pinned foot pull (normal force <= 0) right after this impact?"""
    F0 = m.point(y[:7], np.zeros(7), "F")[0]
    return ground_force(0.0, np.concatenate([y[:7], sd[2:]]), STANCE, F0).imag <= 0


PAPER_METRICS = ("stance_impulse", "impact_impulse", "impact_energy_loss", "pull_fraction", "max_constraint_error",
                 "grazing_impacts", "max_friction_ratio", "slip_fraction", "slide_fraction", "painleve_impasses", "wall_s", "nfev", "method", "engine")


def summarize(run: PaperRun) -> dict:
    """The twin's running columns (Bolt.summarize's definitions: steady window = the second half of
    the revolutions, stride time between touch-downs after >= 1/4 revolution of flight) from the
    paper model's events and samples; impact_force is NaN (a plastic impact is an impulse: see
    impact_impulse, N s, and stance_impulse, N s per stride incl. the impact)."""
    r, S, t = run.robot, run.samples, run.t
    T, ncyc, p = r.period, run.cycles, r.p
    k0 = min(ncyc // 2, max(ncyc - 1, 0))
    ta, tb = k0 * T, ncyc * T
    win = (t >= ta - 1e-12)
    st = S["stance"] > 0.5
    pk = lambda x, msk: float(np.nanmax(np.abs(x[msk]))) if msk.any() else 0.0   # noqa: E731
    out = dict(crank_period=T, omega=r.omega, cycles=ncyc, engine="paper", method=run.options.get("method"),
               wall_s=run.wall_s, nfev=run.nfev)
    out.update(peak_torque_flight=pk(S["tau"], ~st), peak_torque_stance=pk(S["tau"], st),
               peak_power_flight=pk(S["power"], ~st), peak_power_stance=pk(S["power"], st),
               max_loop_gap=float(np.nanmax(S["loop_gap"])), max_constraint_error=float(np.nanmax(S["psi"])))
    out.update(r.limit_columns(out))
    ref = p["theta_1_0"] + float(r.inputs.directions[0]) * r.omega * t
    out["max_tracking_error_deg"] = float(np.degrees(np.nanmax(np.abs(S["q_1"] - ref))))
    span = tb - ta
    x = S["x"]
    out["speed"] = float((x[-1] - x[win][0]) / span)
    turned = abs(S["q_1"][-1] - S["q_1"][win][0])
    out["crank_period_measured"] = float(2 * math.pi * span / turned) if turned > 0 else math.nan
    # touch-downs after >= T/4 of flight (the twin's rule) in the window
    strides, last_off = [], None
    los = sorted(run.liftoffs)
    for td in run.touchdowns:
        if last_off is None or td["t"] - last_off >= T / 4:
            strides.append(td)
        later = [lo for lo in los if lo >= td["t"]]
        last_off = later[0] if later else math.inf
    tdw = [d for d in strides if d["t"] >= ta]
    out["touchdowns"] = len(strides)
    out["stride_time"] = float(np.mean(np.diff([d["t"] for d in tdw]))) if len(tdw) >= 2 else math.nan
    out["touchdowns_per_revolution"] = float(len(tdw) / (ncyc - k0))
    out["stride_length"] = out["speed"] * T
    # duty factor from the events (exact): stance time in the window / its length
    stance_t, on = 0.0, None
    events = sorted([(d["t"], 1) for d in run.touchdowns] + [(lo, 0) for lo in los])
    for te, kind in events + [(tb, 0)]:
        if kind == 1 and on is None:
            on = te
        elif kind == 0 and on is not None:
            stance_t += max(0.0, min(te, tb) - max(on, ta))
            on = None
    out["duty_factor"] = stance_t / span
    out["impact_force"] = math.nan
    imp = [d["impulse"].imag for d in run.touchdowns if d["t"] >= ta]
    out["impact_impulse"] = float(np.median(imp)) if imp else 0.0
    out["impact_energy_loss"] = float(np.median([d["ke_before"] - d["ke_after"] for d in run.touchdowns
                                                 if d["t"] >= ta])) if imp else 0.0
    dt = t[1] - t[0]
    fn = np.nan_to_num(S["F_N"][win])
    out["stance_impulse"] = float((np.sum(fn) * dt + sum(imp)) / len(tdw)) if tdw else math.nan   # per touch-down
    out["pull_fraction"] = float(np.mean(fn[st[win]] < 0)) if st[win].any() else 0.0
    out["grazing_impacts"] = len(run.grazes)
    out["painleve_impasses"] = len(run.impasses)
    out["slide_fraction"] = float(np.mean(S["sliding"][win & st] > 0.5)) if (win & st).any() else 0.0
    fs = st & (S["F_N"] > 0)          # friction the no-slip pivot needs: |F_T| / F_N (the twin has mu)
    out["max_friction_ratio"] = float(np.nanmax(np.abs(S["F_T"][fs]) / S["F_N"][fs])) if fs.any() else 0.0
    sw_ = st & win
    out["slip_fraction"] = (float(np.mean(np.abs(S["F_T"][sw_]) > p["mu"] * S["F_N"][sw_])) if sw_.any()
                            else 0.0)    # stance samples whose pivot force lies outside the twin's cone mu
    out["height_min"], out["height_max"] = float(np.nanmin(S["y"][win])), float(np.nanmax(S["y"][win]))
    adv = [x[min(len(x) - 1, (k + 1) * PEAK_SAMPLES)] - x[k * PEAK_SAMPLES] for k in range(k0, ncyc)]
    out["steady"] = bool(len(adv) >= 2 and np.ptp(adv[-2:]) <= 0.002 * max(abs(np.mean(adv[-2:])), 1e-9))
    out["min_point_height"] = math.nan
    return out
