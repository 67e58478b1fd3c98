"""The crawler paper's exact hybrid model (Gamus, Gat & Or, Section III + Appendix): the simulation.

Two persistent point contacts with exact Coulomb friction: each foot sticks or slips, and the
contact states stick-slip / slip-stick / slip-slip switch by events (scipy `solve_ivp`, Fig. 3).
Normal forces are computed all along; where one is negative the persistent-contact assumption
fails (reported as contact mode `liftoff`, `foot{i}_fn_min` < 0, `liftoff_t`).  The model terms
(M, B, G, the constrained dynamics of one contact state, prescribed and feedback inputs) are in
envs/crawler/paper/hybrid_model.py, with the typos found in the printed appendix.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from ...core.model import metrics
from ..robot import FORWARD, Crawler, feet, theta_on_floor
# the model terms, re-exported: `from gaittwin.crawler import hybrid as H` is the exact model's one namespace
from .hybrid_model import (G_ACC, SAMPLES_PER_CYCLE, STICK, FeedbackLaw, Model, Params,  # noqa: F401
                                       Prescribed, bias, foot_bias, foot_jacobians, gravity, mass_matrix,
                                       paper_B, paper_G, paper_M)


# ---- simulation --------------------------------------------------------------------
@dataclasses.dataclass
class HybridRun:
    """Recorded samples of one hybrid simulation (same metrics as batch.Run)."""

    robot: Crawler
    t: np.ndarray
    q: np.ndarray          # (samples, 5)
    qd: np.ndarray         # (samples, 5)
    vx: np.ndarray         # (samples, 2) tangential foot velocities
    fn: np.ndarray         # (samples, 2) normal forces
    ft: np.ndarray         # (samples, 2) tangential forces
    mode: np.ndarray       # (samples, 2) contact state per foot: 0 stick, +-1 slip direction (x)
    x1: np.ndarray         # (samples,) foot 1 x
    cycle_values: np.ndarray
    steady: metrics.SteadyState | None
    switches: list         # (t, old mode, new mode, foot velocities (x1', x2'), forces) at each event
    liftoff_t: float | None = None
    error: str | None = None
    control: np.ndarray | None = None   # (samples,) 1 where the velocity-tracking law acts

    @property
    def cycles(self):
        return len(self.cycle_values)


class Simulator:
    """Integrate the hybrid model of one Crawler point."""

    def __init__(self, robot: Crawler, *, law=None, rtol=1e-8, atol=1e-10, baumgarte=40.0,
                 liftoff="flag", samples_per_cycle=SAMPLES_PER_CYCLE, max_switches_per_cycle=2000):
        self.robot = robot
        self.P = Params.from_robot(robot)
        self.model = Model(self.P, baumgarte)
        self.law = law if law is not None else Prescribed(robot.inputs)
        self.rtol, self.atol = rtol, atol
        self.liftoff = liftoff
        self.spc = samples_per_cycle
        self.max_switches = max_switches_per_cycle
        self.T = robot.period
        self._cache_key, self._cache_val = None, None

    # state z = [q (5), qd (5)]; with prescribed inputs q_c, qd_c are taken from t
    def _qc(self, t, z):
        if self.law.feedback:
            return z[3:5], z[8:10]
        q, qd, _ = self.law(t)
        return q, qd

    def evaluate(self, t, z, mode):
        """(q, qd, qdd, forces, law branch) at state z in contact state `mode` (cached: events re-ask)."""
        key = (t, mode, z.tobytes())
        if key == self._cache_key:
            return self._cache_val
        qc, qdc = self._qc(t, z)
        q = np.concatenate((z[:3], qc))
        qd = np.concatenate((z[5:8], qdc))
        branch = None
        if self.law.feedback:
            qddc, branch = self.law.qdd_c(t, q, qd, mode, self.model)
        else:
            qddc = self.law(t)[2]
        qddb, f = self.model.solve(q, qd, qddc, mode)
        val = (q, qd, np.concatenate((qddb, qddc)), f, branch)
        self._cache_key, self._cache_val = key, val
        return val

    def _rhs(self, mode):
        def f(t, z):
            _, qd, qdd, _, _ = self.evaluate(t, z, mode)
            return np.concatenate((qd, qdd))
        return f

    def _events(self, mode):
        evs = []
        for i, s in enumerate(mode):
            mu = (self.P.mu1, self.P.mu2)[i]
            if s == STICK:
                def ev(t, z, i=i, mu=mu):
                    _, _, _, f, _ = self.evaluate(t, z, mode)
                    return mu * f[2 * i + 1] - abs(f[2 * i])
            else:
                def ev(t, z, i=i, s=s):
                    q, qd, _, _, _ = self.evaluate(t, z, mode)
                    return s * self.model.foot_vx(q, qd)[i]
            ev.terminal, ev.direction = True, -1
            evs.append(ev)
        if self.law.feedback:   # the law switches where an angle leaves Phi
            for j in (3, 4):
                for lim in self.law.phi_lim:
                    def ev(t, z, j=j, lim=lim):
                        return z[j] - lim
                    ev.terminal, ev.direction = True, 0
                    evs.append(ev)
        return evs

    def _choose_mode(self, t, z, prev=None, tol_v=1e-7, must_slip=()):
        """The consistent contact state at (t, z) (Fig. 3 transitions).

        must_slip: feet whose sticking just ended at the friction-cone boundary (they
        slip, in the direction of their acceleration)."""
        qc, qdc = self._qc(t, z)
        v = self.model.foot_vx(np.r_[z[:3], qc], np.r_[z[5:8], qdc])
        opts = []
        for i in (0, 1):
            if abs(v[i]) > tol_v:
                opts.append([int(np.sign(v[i]))])
            elif i in must_slip:
                opts.append([1, -1])
            else:
                opts.append([STICK, 1, -1])
        cands = [(a, b) for a in opts[0] for b in opts[1] if not (a == STICK and b == STICK)]

        def rank(m):   # prefer: sticking where at rest, then the previously sticking foot
            return (sum(s != STICK for s in m), 0 if prev is None else -sum(
                (m[i] == STICK and prev[i] == STICK) for i in (0, 1)))
        cands.sort(key=rank)
        best, best_viol = None, math.inf
        mus = (self.P.mu1, self.P.mu2)
        for m in cands:
            try:
                q, qd, qdd, f, _ = self.evaluate(t, z, m)
            except np.linalg.LinAlgError:
                continue
            a = self.model.foot_ax(q, qd, qdd)
            viol = 0.0
            for i in (0, 1):
                if m[i] == STICK:
                    viol += max(0.0, abs(f[2 * i]) - mus[i] * f[2 * i + 1])
                elif abs(v[i]) <= tol_v:
                    viol += max(0.0, -m[i] * a[i]) * 1e-3   # slip direction = its acceleration
            if viol <= 1e-12:
                return m
            if viol < best_viol:
                best, best_viol = m, viol
        return best

    def _project(self, t, z):
        """Put the state on the constraint manifold: y1 = y2 = 0, y1' = y2' = 0."""
        z = z.copy()
        qc, qdc = self._qc(t, z)
        P = self.P
        for _ in range(5):
            q = np.r_[z[:3], qc]
            x1, y1, x2, y2 = feet(*q, P.l0, P.l)
            W1, W2 = foot_jacobians(q, P)
            A = np.array([W1[1, 1:3], W2[1, 1:3]])
            dz = np.linalg.solve(A, -np.array([y1, y2]))
            z[1:3] += dz
            if abs(dz).max() < 1e-15:
                break
        q = np.r_[z[:3], qc]
        W1, W2 = foot_jacobians(q, P)
        A = np.array([W1[1, 1:3], W2[1, 1:3]])
        qd = np.r_[z[5:8], qdc]
        z[6:8] -= np.linalg.solve(A, np.array([W1[1] @ qd, W2[1] @ qd]))
        return z

    def initial_state(self):
        """At rest on the floor at q_c(0); x' such that foot 1 is at rest (joint rates of eq. 5 at t=0)."""
        P = self.P
        if self.law.feedback:
            qc, qdc, _ = self.law.reference(0.0)
        else:
            qc, qdc, _ = self.law(0.0)
        th = float(theta_on_floor(qc[0], qc[1], P.l0, P.l))
        _, y1, _, _ = feet(0.0, 0.0, th, qc[0], qc[1], P.l0, P.l)
        z = np.zeros(10)
        z[:5] = [0.0, -y1, th, qc[0], qc[1]]
        z[8:10] = qdc
        z = self._project(0.0, z)
        # foot 1 at rest: x' = -(W1x[1:] . qd[1:])
        W1, _ = foot_jacobians(np.r_[z[:3], qc], P)
        qd = np.r_[z[5:8], qdc]
        z[5] = -(W1[0, 1:] @ qd[1:])
        return z

    def run(self, cycles=20, min_cycles=3, stop_when_steady=True, steady_kw=None):
        from scipy.integrate import solve_ivp     # here, not at import: scipy costs ~0.5 s of every start

        steady_kw = steady_kw or {}
        T, spc = self.T, self.spc
        z = self.initial_state()
        self._z_at0 = z
        t = 0.0
        mode = self._choose_mode(t, z)
        ts, zs, modes = [], [], []
        switches = []
        boundary = []
        error = None
        nsw = 0
        k = 0
        while k < cycles:
            t_end = (k + 1) * T
            grid = k * T + np.arange(spc) * (T / spc)
            gi = 0
            while True:
                sol = solve_ivp(self._rhs(mode), (t, t_end), z, method="DOP853", rtol=self.rtol, atol=self.atol,
                                events=self._events(mode), dense_output=True)
                if sol.status < 0:
                    error = f"integration failed at t={sol.t[-1]:.4f}: {sol.message}"
                    break
                t1 = sol.t[-1]
                j = gi
                while j < spc and grid[j] < t1 - 1e-13:
                    j += 1
                if j > gi:
                    take = np.clip(grid[gi:j], t, t1)
                    ts.extend(take)
                    zs.extend(sol.sol(take).T)
                    modes.extend([mode] * (j - gi))
                    gi = j
                z, t = self._project(t1, sol.y[:, -1]), t1
                if sol.status == 0:
                    break
                # a sticking foot whose friction force reached the cone boundary must slip (Fig. 3)
                fired = [j for j, te in enumerate(sol.t_events) if len(te)]
                must_slip = {j for j in fired if j < 2 and mode[j] == STICK}
                new = self._choose_mode(t, z, prev=mode, must_slip=must_slip)
                if new is None:
                    error = f"no consistent contact state at t={t:.5f}"
                    break
                q_, qd_, _, f_, _ = self.evaluate(t, z, new)
                switches.append((t, mode, new, self.model.foot_vx(q_, qd_), f_.copy()))
                mode = new
                # step a hair past the event so that it does not refire at the same instant
                dt = min(1e-9 * T, t_end - t)
                z = z + dt * self._rhs(mode)(t, z)
                t += dt
                nsw += 1
                if nsw > self.max_switches * (k + 1):
                    error = f"more than {self.max_switches} contact switches per cycle (Zeno?) at t={t:.4f}"
                    break
            if error:
                break
            boundary.append((t, z))
            k += 1
            if stop_when_steady and k >= min_cycles:
                if metrics.steady_state(self._cycle_values(boundary), **steady_kw).steady:
                    break
        if not error:
            ts.append(t)
            zs.append(z)
            modes.append(mode)
        return self._record(np.array(ts), np.array(zs), modes, boundary, switches, error, steady_kw)

    def _x1_of(self, tzs):
        out = []
        for t, z in tzs:
            q = np.r_[z[:3], self._qc(t, z)[0]]
            out.append(feet(*q, self.P.l0, self.P.l)[0])
        return np.array(out)

    def _cycle_values(self, boundary):
        x0 = self._x1_of([(0.0, self._z_at0)])[0]
        xs = np.r_[x0, self._x1_of(boundary)]
        return FORWARD * metrics.per_cycle(xs)

    def _record(self, t, zs, modes, boundary, switches, error, steady_kw):
        n = len(t)
        q = np.zeros((n, 5))
        qd = np.zeros((n, 5))
        vx, fn, ft = np.zeros((n, 2)), np.zeros((n, 2)), np.zeros((n, 2))
        ctrl = np.zeros(n)
        for j in range(n):
            qq, qqd, qdd, f, branch = self.evaluate(t[j], zs[j], modes[j])
            q[j], qd[j] = qq, qqd
            vx[j] = self.model.foot_vx(qq, qqd)
            fn[j] = f[1], f[3]
            ft[j] = f[0], f[2]
            ctrl[j] = branch == "velocity"
        x1 = feet(*q.T, self.P.l0, self.P.l)[0] if n else np.zeros(0)
        vals = self._cycle_values(boundary) if boundary else np.zeros(0)
        st = metrics.steady_state(vals, **steady_kw) if len(vals) else None
        neg = np.flatnonzero((fn <= 0).any(axis=1))
        liftoff_t = float(t[neg[0]]) if len(neg) else None
        if liftoff_t is not None and self.liftoff == "stop" and error is None:
            error = f"normal force <= 0 (lift-off) at t={liftoff_t:.4f} s"
        return HybridRun(self.robot, t, q, qd, vx, fn, ft, np.array(modes, dtype=int).reshape(-1, 2), x1, vals, st,
                         switches, liftoff_t, error, ctrl if self.law.feedback else None)


def simulate(robot_or_params, *, cycles=20, min_cycles=3, stop_when_steady=True, law=None, **kw) -> HybridRun:
    """Run one point (a Crawler or its config parameters) with the hybrid model."""
    r = robot_or_params if isinstance(robot_or_params, Crawler) else Crawler(**robot_or_params)
    sim = Simulator(r, law=law, **kw)
    return sim.run(cycles=cycles, min_cycles=min_cycles, stop_when_steady=stop_when_steady)


def summarize(run: HybridRun) -> dict:
    """The twin's summary columns (Crawler.summarize) from a hybrid run."""
    r = run.robot
    T, spc = r.period, SAMPLES_PER_CYCLE
    st = run.steady
    S = st.value if st else float("nan")
    if run.error and run.liftoff_t is not None:
        S = float("nan")
    last = slice(max(0, len(run.t) - spc - 1), len(run.t))
    out = dict(S=S, V=S / T, steady=bool(st.steady) if st else False,
               period_cycles=st.period if st else 0, cycles=run.cycles, tracking_error_deg=0.0)
    for i in (1, 2):
        vx = run.vx[last, i - 1]
        fn = run.fn[last, i - 1]
        modes = metrics.contact_modes(vx, fn, forward=FORWARD)
        for name, frac in metrics.mode_fractions(modes).items():
            out[f"foot{i}_{name}"] = frac
        out[f"foot{i}_fn_min"] = float(fn.min()) if len(fn) else float("nan")
    return out
