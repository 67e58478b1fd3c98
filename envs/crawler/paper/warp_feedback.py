"""The crawler's eq. 19 feedback law on the device (engine=warp): `FeedbackCrawler.feedback` as a
Warp kernel, in float64 on MuJoCo Warp's float32 state (envs/crawler/paper/feedback_robot.py).

Per world, before every step (after the device law wrote the open-loop references into ctrl):
mode from the previous step's foot velocity sensors; in slip-slip with both angles in Phi the
contact-velocity law -- S_1, S_0 of eqs. 20-23 from the hybrid model's body rows and foot
Jacobians (envs/crawler/paper/hybrid_model.py Model.terms/solve, no Baumgarte terms; the 5x5 system of
slip-slip solved by Gaussian elimination with partial pivoting) and the reference foot velocities
from FeedbackLaw's periodic spline of x2 - x1 (its coefficients in the world's parameters) -- else
PD tracking of eq. 5; the result integrated into the world's servo references (hook state).
tests/test_warp_feedback.py: the kernel is FeedbackCrawler.feedback on the same state."""
from __future__ import annotations

import numpy as np
import warp as wp

from ...core.engines.warp_hook import DeviceFeedback

# P columns
ON, DT, OMEGA, AMP, PHI0, DELTA, ALPHA, UPS = 0, 1, 2, 3, 4, 5, 7, 8     # DELTA: 2 columns
KV, KP, KD = 9, 13, 17                      # 2x2 gains, row-major
LIM, VSLIP = 21, 23                         # phi_lim (2), v_slip
MASS = 24                                   # m0 m1 m2 J0 J1 J2 l0 l mu1 mu2 g dc0 dc1 dc2
QADR, DADR, VADR = 38, 43, 48               # qpos (5), dof (5) addresses of JOINTS, foot velocity sensors (2)
PERIOD, NSEG, SPL = 50, 51, 52              # spline period, segments, 4 coefficients per segment
NSEG_LAW = 1024                             # FeedbackLaw's spline: 1025 knots over one period

mat55 = wp.types.matrix(shape=(5, 5), dtype=wp.float64)
mat53 = wp.types.matrix(shape=(5, 3), dtype=wp.float64)
vec5d = wp.types.vector(length=5, dtype=wp.float64)


@wp.func
def _solve(A: mat55, R: mat53) -> mat53:
    """A X = R (5x5, 3 right-hand sides) by Gaussian elimination with partial pivoting."""
    for c in range(5):
        p = c
        for r in range(c + 1, 5):
            if wp.abs(A[r, c]) > wp.abs(A[p, c]):
                p = r
        if p != c:
            for k in range(5):
                t = A[c, k]
                A[c, k] = A[p, k]
                A[p, k] = t
            for k in range(3):
                t = R[c, k]
                R[c, k] = R[p, k]
                R[p, k] = t
        for r in range(c + 1, 5):
            f = A[r, c] / A[c, c]
            for k in range(c, 5):
                A[r, k] = A[r, k] - f * A[c, k]
            for k in range(3):
                R[r, k] = R[r, k] - f * R[c, k]
    X = mat53()
    for i in range(5):
        c = 4 - i
        for k in range(3):
            s = R[c, k]
            for j in range(c + 1, 5):
                s = s - A[c, j] * X[j, k]
            X[c, k] = s / A[c, c]
    return X


@wp.func
def _velocity_law(P: wp.array2d(dtype=wp.float64), w: int, t: wp.float64, q: vec5d, qd: vec5d,
                  s1: wp.float64, s2: wp.float64,
                  Kv: wp.mat22d) -> wp.vec2d:
    """q_c'' of eq. 19's contact-velocity branch in slip-slip (s1, s2: the feet's slip directions)."""
    m0 = P[w, MASS]
    m1 = P[w, MASS + 1]
    m2 = P[w, MASS + 2]
    J0 = P[w, MASS + 3]
    J1 = P[w, MASS + 4]
    J2 = P[w, MASS + 5]
    h = wp.float64(0.5) * P[w, MASS + 6]
    l = P[w, MASS + 7]
    mu1 = P[w, MASS + 8]
    mu2 = P[w, MASS + 9]
    g = P[w, MASS + 10]
    d0 = P[w, MASS + 11]
    hl1 = wp.float64(0.5) * l + P[w, MASS + 12]
    hl2 = wp.float64(0.5) * l + P[w, MASS + 13]
    mt = m0 + m1 + m2
    th = q[2]
    thd = qd[2]
    a1 = q[3] - th
    a2 = q[4] + th
    a1d = qd[3] - thd
    a2d = qd[4] + thd
    st = wp.sin(th)
    ct = wp.cos(th)
    sa1 = wp.sin(a1)
    ca1 = wp.cos(a1)
    sa2 = wp.sin(a2)
    ca2 = wp.cos(a2)
    j0xt = -d0 * st
    j0yt = d0 * ct
    j1xt = h * st + hl1 * sa1
    j1yt = -h * ct + hl1 * ca1
    j1xp = -hl1 * sa1
    j1yp = -hl1 * ca1
    j2xt = -h * st + hl2 * sa2
    j2yt = h * ct - hl2 * ca2
    j2xp = hl2 * sa2
    j2yp = -hl2 * ca2
    M02 = m0 * j0xt + m1 * j1xt + m2 * j2xt
    M12 = m0 * j0yt + m1 * j1yt + m2 * j2yt
    M22 = m0 * d0 * d0 + m1 * (j1xt * j1xt + j1yt * j1yt) + m2 * (j2xt * j2xt + j2yt * j2yt) + J0 + J1 + J2
    M23 = m1 * (j1xt * j1xp + j1yt * j1yp) - J1
    M24 = m2 * (j2xt * j2xp + j2yt * j2yp) + J2
    t2 = thd * thd
    a12 = a1d * a1d
    a22 = a2d * a2d
    b0x = -d0 * ct * t2
    b0y = -d0 * st * t2
    b1x = h * ct * t2 - hl1 * ca1 * a12
    b1y = h * st * t2 + hl1 * sa1 * a12
    b2x = -h * ct * t2 + hl2 * ca2 * a22
    b2y = -h * st * t2 + hl2 * sa2 * a22
    hb0 = m0 * b0x + m1 * b1x + m2 * b2x
    hb1 = m0 * b0y + m1 * b1y + m2 * b2y + g * mt
    hb2 = m1 * (j1xt * b1x + j1yt * b1y) + m2 * (j2xt * b2x + j2yt * b2y) + g * (m0 * j0yt + m1 * j1yt + m2 * j2yt)
    # foot Jacobian rows (x1, y1, x2, y2) and W' q'
    W1x2 = h * st + l * sa1
    W1x3 = -l * sa1
    W1y2 = -h * ct + l * ca1
    W1y3 = -l * ca1
    W2x2 = -h * st + l * sa2
    W2x4 = l * sa2
    W2y2 = h * ct - l * ca2
    W2y4 = -l * ca2
    wb0 = h * ct * t2 - l * ca1 * a12
    wb1 = h * st * t2 + l * sa1 * a12
    wb2 = -h * ct * t2 + l * ca2 * a22
    wb3 = -h * st * t2 + l * sa2 * a22
    one = wp.float64(1.0)
    zero = wp.float64(0.0)
    c1 = mu1 * s1
    c2 = mu2 * s2
    # unknowns [x'', y'', theta'', f1y, f2y]; rows: body x, y, theta; y1'' = 0, y2'' = 0
    A = mat55(mt, zero, M02, -(zero - c1 * one), -(zero - c2 * one),
              zero, mt, M12, -(one - c1 * zero), -(one - c2 * zero),
              M02, M12, M22, -(W1y2 - c1 * W1x2), -(W2y2 - c2 * W2x2),
              zero, one, W1y2, zero, zero,
              zero, one, W2y2, zero, zero)
    # right-hand sides: b0 (u = 0) and the columns of u1, u2 (rhs = b0 + B u)
    R = mat53(-hb0, -(m1 * j1xp), -(m2 * j2xp),
              -hb1, -(m1 * j1yp), -(m2 * j2yp),
              -hb2, -M23, -M24,
              -wb1, -W1y3, zero,
              -wb3, zero, -W2y4)
    X = _solve(A, R)
    # foot x accelerations acc(u) = Wx . [qdd_b, u] + wb: S0 at u = 0, S1 its derivative in u
    S0 = wp.vec2d(X[0, 0] + W1x2 * X[2, 0] + wb0, X[0, 0] + W2x2 * X[2, 0] + wb2)
    S1 = wp.mat22d(X[0, 1] + W1x2 * X[2, 1] + W1x3, X[0, 2] + W1x2 * X[2, 2],
                   X[0, 1] + W2x2 * X[2, 1], X[0, 2] + W2x2 * X[2, 2] + W2x4)
    # reference foot velocities (FeedbackLaw.v_ref, FORWARD = -x): the spline of x2 - x1
    T = P[w, PERIOD]
    n = int(P[w, NSEG])
    tt = wp.mod(t, T)
    hk = T / wp.float64(n)
    i = wp.clamp(int(tt / hk), 0, n - 1)
    x = tt - wp.float64(i) * hk
    b = SPL + 4 * i
    d1 = wp.float64(3.0) * P[w, b] * x * x + wp.float64(2.0) * P[w, b + 1] * x + P[w, b + 2]
    d2 = wp.float64(6.0) * P[w, b] * x + wp.float64(2.0) * P[w, b + 1]
    vr = wp.vec2d(zero, d1)
    vrd = wp.vec2d(zero, d2)
    if d1 > zero:
        vr = wp.vec2d(-d1, zero)
        vrd = wp.vec2d(-d2, zero)
    vx = wp.vec2d(qd[0] + (h * st + l * sa1) * qd[2] - l * sa1 * qd[3],
                  qd[0] + (-h * st + l * sa2) * qd[2] + l * sa2 * qd[4])
    return wp.inverse(S1) * (vrd - Kv * (vx - vr) - S0)


@wp.kernel
def eq19_kernel(P: wp.array2d(dtype=wp.float64), wstep: wp.array(dtype=wp.int32),
                qpos: wp.array2d(dtype=wp.float32), qvel: wp.array2d(dtype=wp.float32),
                sd: wp.array2d(dtype=wp.float32), ctrl: wp.array2d(dtype=wp.float32),
                S: wp.array2d(dtype=wp.float64)):
    w = wp.tid()
    if P[w, ON] < wp.float64(0.5):
        return
    one = wp.float64(1.0)
    zero = wp.float64(0.0)
    dt = P[w, DT]
    t = wp.float64(wstep[w]) * dt
    if S[w, 4] < wp.float64(0.5) or wstep[w] == 0:     # the run's first step: the open-loop references
        for i in range(4):
            S[w, i] = wp.float64(ctrl[w, i])
        S[w, 4] = one
    q = vec5d()
    qd = vec5d()
    for i in range(5):
        q[i] = wp.float64(qpos[w, int(P[w, QADR + i])])
        qd[i] = wp.float64(qvel[w, int(P[w, DADR + i])])
    # mode: +-1 slipping, 0 sticking (|x_i'| <= v_slip), from the previous step's sensors
    s1 = zero
    s2 = zero
    v1 = wp.float64(sd[w, int(P[w, VADR])])
    v2 = wp.float64(sd[w, int(P[w, VADR + 1])])
    if wp.abs(v1) > P[w, VSLIP]:
        s1 = wp.sign(v1)
    if wp.abs(v2) > P[w, VSLIP]:
        s2 = wp.sign(v2)
    # eq. 5 with eq. 8's time scaling: the references
    om = P[w, OMEGA]
    qr = wp.vec2d()
    qdr = wp.vec2d()
    qddr = wp.vec2d()
    for j in range(2):
        xi = om * t + P[w, DELTA + j]
        a = P[w, ALPHA]
        s = xi + a * wp.sin(xi + P[w, UPS])
        ds = one + a * wp.cos(xi + P[w, UPS])
        dds = -a * wp.sin(xi + P[w, UPS])
        qr[j] = P[w, PHI0] + P[w, AMP] * wp.sin(s)
        qdr[j] = P[w, AMP] * wp.cos(s) * ds * om
        qddr[j] = P[w, AMP] * (-wp.sin(s) * ds * ds + wp.cos(s) * dds) * om * om
    Kv = wp.mat22d(P[w, KV], P[w, KV + 1], P[w, KV + 2], P[w, KV + 3])
    Kp = wp.mat22d(P[w, KP], P[w, KP + 1], P[w, KP + 2], P[w, KP + 3])
    Kd = wp.mat22d(P[w, KD], P[w, KD + 1], P[w, KD + 2], P[w, KD + 3])
    phi = wp.vec2d(q[3], q[4])
    phid = wp.vec2d(qd[3], qd[4])
    inlim = q[3] >= P[w, LIM] and q[4] >= P[w, LIM] and q[3] <= P[w, LIM + 1] and q[4] <= P[w, LIM + 1]
    qdd = qddr - Kd * (phid - qdr) - Kp * (phi - qr)
    if s1 != zero and s2 != zero and inlim:
        qdd = _velocity_law(P, w, t, q, qd, s1, s2, Kv)
    for j in range(2):
        S[w, 2 + j] = S[w, 2 + j] + dt * qdd[j]
        S[w, j] = S[w, j] + dt * S[w, 2 + j]
        ctrl[w, j] = wp.float32(S[w, j])
        ctrl[w, 2 + j] = wp.float32(S[w, 2 + j])


class Eq19(DeviceFeedback):
    """FeedbackCrawler.feedback on the device."""

    nparam, nstate, naux = SPL + 4 * NSEG_LAW, 5, 0

    def row(self, robot, model) -> np.ndarray:
        P = np.zeros(self.nparam)
        if robot.gains is None:
            return P
        law, hm = robot.law()
        inp, hp = robot.inputs, hm.P
        qa, da, va = robot.addresses(model)
        P[[ON, DT, OMEGA, AMP, PHI0, DELTA, DELTA + 1, ALPHA, UPS]] = (
            1.0, robot.timestep, inp.omega, inp.A, inp.phi0, *inp.offsets, inp.alpha, inp.upsilon)
        P[KV:KV + 4], P[KP:KP + 4], P[KD:KD + 4] = law.Kv.ravel(), law.Kp.ravel(), law.Kd.ravel()
        P[LIM:LIM + 2], P[VSLIP] = law.phi_lim, robot.v_slip
        P[MASS:MASS + 14] = (hp.m0, hp.m1, hp.m2, hp.J0, hp.J1, hp.J2, hp.l0, hp.l, hp.mu1, hp.mu2, hp.g,
                             hp.dc0, hp.dc1, hp.dc2)
        P[QADR:QADR + 5], P[DADR:DADR + 5], P[VADR:VADR + 2] = qa, da, va
        c = law.D.c                                   # (4, segments): the cubic's coefficients
        if c.shape[1] != NSEG_LAW:
            raise ValueError(f"FeedbackLaw's spline has {c.shape[1]} segments, the kernel {NSEG_LAW}")
        P[PERIOD], P[NSEG] = law.T, NSEG_LAW
        P[SPL:] = c.T.ravel()
        return P

    def launch(self, M, D, P, S, aux, wstep, device) -> None:
        wp.launch(eq19_kernel, dim=D.nworld, inputs=[P, wstep, D.qpos, D.qvel, D.sensordata, D.ctrl, S],
                  device=device)
