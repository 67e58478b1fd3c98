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

FLIGHT, STANCE = [0, 1, 2], [2]
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
    slides: list = dataclasses.field(default_factory=list)    # grazing re-touches (frictionless normal impacts)


def impact(model: Model, Q, sd, eps, rows=(0, 1)):
    """Eq. 18-19: plastic, no-slip impact on the flight coordinates s = (x_b, y_b, q_1).
    Returns (s_d after, impulse F (complex, N s), KE before, KE after, foot velocity after)."""
    v, rho, *_ = model.split_velocity(Q, sd, FLIGHT, None, eps)
    H, _, _ = model.mass_matrix(Q, v)
    Hr = rho.T @ H @ rho
    _, Jf, _ = model.point(Q, v, "F")
    Jc = np.vstack([Jf.real, Jf.imag])[list(rows)] @ rho
    Hi = np.linalg.inv(Hr)
    lam = -np.linalg.solve(Jc @ Hi @ Jc.T, Jc @ sd)
    sd_new = sd + Hi @ Jc.T @ lam
    ke = lambda s: 0.5 * float(s @ Hr @ s)   # noqa: E731
    lam = lam if len(rows) == 2 else np.array([0.0, lam[0]])
    return sd_new, complex(lam[0], lam[1]), ke(sd), ke(sd_new), Jc @ sd_new


def simulate(robot: Bolt, cycles: int, **opts) -> PaperRun:
    """Run `cycles` crank periods of the paper model from the twin's initial pose without bumper (at
    rest, foot 1 um above the ground), starting in flight (Sec. 5.1)."""
    o = check_options(opts)
    eps = o["epsilon"]
    m = Model(robot)
    p, T = robot.p, robot.period
    r_foot = p["foot_radius"]
    crank = robot.inputs
    th0, dirw = float(crank.offsets[0]), float(crank.directions[0]) * crank.omega
    f_none = np.zeros(7)      # external generalized force: none (no bumper in the paper's Sec. 5; refused)

    def bumper(Q, v):
        return f_none

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
        tau = torque(t, Q[2], v[2], ind is STANCE)
        f = bumper(Q, v)
        v, sdd, a = m.accel(Q, sd, ind, F0, eps, tau, f)
        return v, sdd, a, tau, f

    def rhs(t, y, ind, F0):
        v, sdd, *_ = dynamics(t, y, ind, F0)
        return np.concatenate([v, sdd])

    def ground_force(t, y, F0):
        v, _, a, _, f = dynamics(t, y, STANCE, F0)
        return m.external_force(y[:7], v, a, f[0] + 1j * f[1])

    def touchdown(t, y, ind, F0):
        return m.point(y[:7], np.zeros(7), "F")[0].imag - r_foot
    touchdown.terminal, touchdown.direction = True, -1

    def armed(t, y, ind, F0):          # the foot has left the ground by DELTA: touch-down armed
        return m.point(y[:7], np.zeros(7), "F")[0].imag - r_foot - DELTA
    armed.terminal, armed.direction = True, 1

    def sunk(t, y, ind, F0):           # an unarmed foot that sinks DELTA into the ground touches down
        return m.point(y[:7], np.zeros(7), "F")[0].imag - r_foot - sink
    sunk.terminal, sunk.direction = True, -1

    def foot_in_B(Q):
        return m.point(np.concatenate([[0.0, 0.0], Q[2:]]), np.zeros(7), "F")[0].imag

    def liftoff(t, y, ind, F0):        # the pivot's normal force reaches zero
        return ground_force(t, y, F0).imag
    liftoff.terminal, liftoff.direction = True, -1

    # initial pose: the twin's (Bolt.initial_pose), foot 1 um above the ground instead of touching
    k = loop_kinematics(np.array([p["theta_1_0"]]), robot.geometry)
    Q = np.array([0.0, 0.0] + [float(k[f"q{i}"][0]) for i in range(1, 6)])
    Q[1] = r_foot + INITIAL_PENETRATION - float(k["F"][0].imag)
    y, ind, F0 = np.concatenate([Q, np.zeros(3)]), FLIGHT, None
    t, t_end = 0.0, cycles * T
    grid = np.linspace(0.0, t_end, cycles * PEAK_SAMPLES + 1)
    names = ("x", "y", "q_1", "q_1_dot", "tau", "power", "stance", "loop_gap", "foot_y", "F_N", "F_T", "psi")
    S = {k_: np.full(len(grid), np.nan) for k_ in names}
    tds, los, nfev, err, arm, F0_B, sink, slides = [], [], 0, None, True, 0.0, -DELTA, []
    t0 = time.perf_counter()
    while t < t_end - 1e-12:
        if len(tds) + len(los) + len(slides) > MAX_SWITCHES * cycles:   # grazing re-touches count too
            err = f"more than {MAX_SWITCHES} phase switches per revolution (Zeno)"
            break
        ev = ([touchdown] if arm else [armed, sunk]) if ind is FLIGHT else [liftoff]
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
        sel = (grid >= t) & (grid <= t1)
        for j in np.flatnonzero(sel):
            _sample(S, j, m, grid[j], sol.sol(grid[j]), ind, F0, dynamics, eps, r_foot)
        y, t = sol.y[:, -1].copy(), t1
        if sol.status != 1:
            break
        if ind is FLIGHT and not arm and len(sol.t_events[0]):
            arm = True
            continue
        if ind is FLIGHT:                              # touch-down: the reset map, then stance
            sd, lam, ke0, ke1, vf = impact(m, y[:7], y[7:], eps)
            if lam.imag <= 0 or not arm:       # a grazing re-touch: frictionless normal impact, keep flying
                sd2, lam2, k0, k1, _ = impact(m, y[:7], y[7:], eps, rows=(1,))
                if lam.imag <= 0 or lam2.imag > 0 and _pulls(m, y, sd, eps, ground_force):
                    y = np.concatenate([y[:7], sd2])
                    slides.append(dict(t=t, impulse=lam2, ke_before=k0, ke_after=k1))
                    sink = min(m.point(y[:7], np.zeros(7), "F")[0].imag - r_foot, 0.0) - DELTA
                    continue
            F0 = m.point(y[:7], np.zeros(7), "F")[0]
            tds.append(dict(t=t, impulse=lam, ke_before=ke0, ke_after=ke1, foot_speed_after=float(np.abs(vf).max())))
            y, ind = np.concatenate([y[:7], sd[2:]]), STANCE
            F0_B = foot_in_B(y[:7])
            if ground_force(t, y, F0).imag > 0:
                continue
            # the pivot would pull at once: the impact only, no stance
        _, _, v = state(y, ind, F0)
        los.append(t)
        y, ind, F0, arm = np.concatenate([y[:7], v[FLIGHT]]), FLIGHT, None, False
        sink = min(m.point(y[:7], v, "F")[0].imag - r_foot, 0.0) - DELTA
    wall = time.perf_counter() - t0
    return PaperRun(robot, grid, S, tds, los, cycles, err, wall, nfev, o, slides)


def _sample(S, j, m, t, y, ind, F0, dynamics, eps, r_foot):
    v, _, a, tau, f = dynamics(t, y, ind, F0)
    Q = y[:7]
    S["x"][j], S["y"][j], S["q_1"][j], S["q_1_dot"][j] = Q[0], Q[1], Q[2], v[2]
    S["tau"][j], S["power"][j] = tau, tau * v[2]
    S["stance"][j] = ind is STANCE
    gap = [abs(m.point(Q, v, a_)[0] - m.point(Q, v, b_)[0]) for a_, b_ in (("B_hfe", "B_femur"), ("G_kfe", "G_tibia"))]
    S["loop_gap"][j] = max(gap)
    S["foot_y"][j] = m.point(Q, v, "F")[0].imag - r_foot
    psi = m.constraints(Q, np.zeros(7), F0)[0]
    S["psi"][j] = float(np.abs(psi).max())
    if ind is STANCE:
        F = m.external_force(Q, v, a, f[0] + 1j * f[1])
        S["F_N"][j], S["F_T"][j] = F.imag, F.real
    else:
        S["F_N"][j] = S["F_T"][j] = 0.0


def _pulls(m, y, sd, eps, ground_force):
    """Would the pinned foot pull (normal force <= 0) right after this impact?"""
    F0 = m.point(y[:7], np.zeros(7), "F")[0]
    return ground_force(0.0, np.concatenate([y[:7], sd[2:]]), F0).imag <= 0


PAPER_METRICS = ("stance_impulse", "impact_impulse", "impact_energy_loss", "pull_fraction", "max_constraint_error",
                 "grazing_impacts", "max_friction_ratio", "slip_fraction", "wall_s", "nfev", "method", "engine")


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
    out["stance_impulse"] = float((np.sum(fn) * dt + sum(imp)) / max(len(tdw), 1))
    out["pull_fraction"] = float(np.mean(fn[st[win]] < 0)) if st[win].any() else 0.0
    out["grazing_impacts"] = len(run.slides)
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
