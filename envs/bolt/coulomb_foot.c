/* BOLT's Coulomb foot, one step: the law of envs/bolt/coulomb_foot.py (CoulombFoot.__call__ with impasse "stop"
   or "lag") in C, compiled at first use by gaittwin.bolt.coulomb_native.

   F_t = -mu F_n v_t / sqrt(|v_t|^2 + v_eps^2), F_n the step's own normal force consistent with that friction.

   The frictionless forward pass gives F_n = a and the constraint solution; F_n is affine in an applied friction
   force g (one active set), F_n(g) = a + dF_n(g).  Where every constraint row is quadratic or satisfied (no
   friction-loss or cone rows: always for BOLT's frictionless foot), the response is read from that solution:
   with the active rows' A = J M^-1 J' + R, the force g at the contact point p (J_p: the foot's point Jacobian
   relative to the floor's body) moves the constraint forces by df = -A^-1 J M^-1 J_p' g and the acceleration by
   dqacc = M^-1 (J_p' g + J' df).  Otherwise a second forward pass with the trial force measures it (the Python
   hook's way).  The branch logic (consistent slide, lag, the impasse stop) is the Python hook's line for line.

   friction implicit (prm[9] = 1, foot_friction=implicit; docs/notes/2026-11-28-bolt-implicit-friction.md): no
   regularisation; the slip the step would end with without friction, v_free = v_t + dt a_t0, gives the direction d;
   the force -f d with f = min(f_stick, f_max): f_stick ends the step with zero slip, f_max = mu a / (1 - mu k_n) the
   cone at the normal force a + k_n f it produces (unbounded where 1 - mu k_n <= 0: the impasse stop's Painleve
   rule).  Stick inside the cone, slide on it.

   prm:   mu, v_eps, den_min, impasse (1: stop, 0: lag), probe, foot geom, floor geom, foot body, floor body,
          friction (0: regularised, 1: implicit)
   state: in_contact, after_stop, contact_steps, inconsistent, lost, stops, probe_passes, sticks (in/out)
   out:   F_n, |F_t|, slip |v_t|, branch (0 none, 1 slide, 2 stop, 3 lag, 4 stick), touch-down (0/1), lift-off (0/1)  */
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <mujoco/mujoco.h>

#define NMAX 32      /* constraint rows handled from the solution; more: the probe pass */
#define NVMAX 32     /* dofs; more: refused */

static void apply(const mjModel* m, mjData* d, const mjtNum f[3], const mjtNum p[3], int body, int floor_body) {
  mjtNum r[3], t[3];
  mjtNum* xf = d->xfrc_applied + 6 * body;
  mju_sub3(r, p, d->xipos + 3 * body);
  mju_cross(t, r, f);
  mju_copy3(xf, f);
  mju_copy3(xf + 3, t);
  if (floor_body) {
    mjtNum nf[3];
    xf = d->xfrc_applied + 6 * floor_body;
    mju_scl3(nf, f, -1);
    mju_sub3(r, p, d->xipos + 3 * floor_body);
    mju_cross(t, r, nf);
    mju_copy3(xf, nf);
    mju_copy3(xf + 3, t);
  }
}

static int find_contact(const mjModel* m, const mjData* d, int foot, int floor, mjtNum* fn) {
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* c = d->contact + i;
    if ((c->geom[0] == foot && c->geom[1] == floor) || (c->geom[0] == floor && c->geom[1] == foot)) {
      mjtNum f6[6];
      mj_contactForce(m, d, i, f6);
      *fn = f6[0] > 0 ? f6[0] : 0;
      return i;
    }
  }
  *fn = 0;
  return -1;
}

static void efc_row(const mjModel* m, const mjData* d, int i, mjtNum* row) {
  int nv = m->nv;
  if (!mj_isSparse(m)) {
    mju_copy(row, d->efc_J + i * nv, nv);
    return;
  }
  mju_zero(row, nv);
  for (int k = 0; k < d->efc_J_rownnz[i]; k++) {
    int a = d->efc_J_rowadr[i] + k;
    row[d->efc_J_colind[a]] = d->efc_J[a];
  }
}

/* the constraint solution with the force g applied at the contact point (J: its 3 x nv Jacobian), as the solver's:
   f_S = -(A_SS + R_S)^-1 (J_S qacc_s - aref_S) on the active rows S (equalities always; an inequality row -- a
   limit or a frictionless contact -- while its force stays positive, and again once its constraint is violated),
   qacc = qacc_s + M^-1 J_S' f_S, qacc_s = qacc_smooth + M^-1 J' g.  Writes the foot contact's force *fn and J qacc;
   returns 0, or -1 where it cannot (friction rows of another contact, too many rows, no active set found) */
static int solve(const mjModel* m, mjData* d, const mjtNum* J, const mjtNum g[3], int efc_contact,
                 mjtNum* fn, mjtNum Jqacc[3]) {
  int nv = m->nv, nefc = d->nefc, on[NMAX], act[NMAX];
  if (nv > NVMAX || nefc > NMAX) return -1;
  mjtNum qf[NVMAX], qs[NVMAX], row[NVMAX], Jr[NMAX * NVMAX], JS[NMAX * NVMAX], MJr[NMAX * NVMAX], A[NMAX * NMAX];
  mjtNum rhs[NMAX], f[NMAX], qacc[NVMAX];
  mju_mulMatTVec(qf, J, g, 3, nv);
  mj_solveM(m, d, qs, qf, 1);
  mju_addTo(qs, d->qacc_smooth, nv);
  for (int i = 0; i < nefc; i++) {
    int t = d->efc_type[i];
    if (t != mjCNSTR_EQUALITY && t != mjCNSTR_LIMIT_JOINT && t != mjCNSTR_LIMIT_TENDON &&
        t != mjCNSTR_CONTACT_FRICTIONLESS) return -1;
    on[i] = t == mjCNSTR_EQUALITY || d->efc_state[i] == mjCNSTRSTATE_QUADRATIC;
    efc_row(m, d, i, Jr + i * nv);
  }
  for (int iter = 0; iter < 8; iter++) {
    int na = 0;
    for (int i = 0; i < nefc; i++) if (on[i]) act[na++] = i;
    for (int a = 0; a < na; a++) mju_copy(JS + a * nv, Jr + act[a] * nv, nv);
    if (na) mj_solveM(m, d, MJr, JS, na);
    for (int a = 0; a < na; a++) {
      for (int b = 0; b < na; b++) A[a * na + b] = mju_dot(Jr + act[a] * nv, MJr + b * nv, nv);
      A[a * na + a] += d->efc_R[act[a]];
      rhs[a] = d->efc_aref[act[a]] - mju_dot(Jr + act[a] * nv, qs, nv);
    }
    if (na && mju_cholFactor(A, na, 0) < na) return -1;
    if (na) mju_cholSolve(f, A, rhs, na);
    mju_copy(qacc, qs, nv);
    for (int a = 0; a < na; a++) mju_addToScl(qacc, MJr + a * nv, f[a], nv);
    int changed = 0, a = 0;
    *fn = 0;
    for (int i = 0; i < nefc; i++) {
      mjtNum fi = 0;
      if (on[i]) fi = f[a++];
      if (i == efc_contact) *fn = fi;
      if (d->efc_type[i] == mjCNSTR_EQUALITY) continue;
      mju_copy(row, Jr + i * nv, nv);
      int want = on[i] ? fi > 0 : mju_dot(row, qacc, nv) - d->efc_aref[i] < 0;
      changed |= want != on[i];
      on[i] = want;
    }
    if (!changed) {
      mju_mulMatVec(Jqacc, J, qacc, 3, nv);
      return 0;
    }
  }
  return -1;
}


/* the constrained response to the force g at the contact point: the foot contact's normal force change *dfn and
   the point's acceleration change Jdqacc, from two solutions of the frictionless step's constraints (g and 0) */
static int response(const mjModel* m, mjData* d, const mjtNum* J, const mjtNum g[3], int efc_contact,
                    mjtNum* dfn, mjtNum Jdqacc[3]) {
  const mjtNum zero[3] = {0, 0, 0};
  mjtNum f0, f1, j0[3];
  if (solve(m, d, J, zero, efc_contact, &f0, j0) || solve(m, d, J, g, efc_contact, &f1, Jdqacc)) return -1;
  *dfn = f1 - f0;
  mju_subFrom3(Jdqacc, j0);
  return 0;
}


/* A trial force fp along -t moved the normal force from a to a1 and the slip's rate by Jdq: k_n (normal force per
   newton along -t), k_t (slip removed over the step per newton) and the cone's bound on the force along -t with
   the normal force a + k_n f it produces (INFINITY where 1 - mu k_n <= 0). */
static mjtNum cone(mjtNum mu, mjtNum a, mjtNum a1, mjtNum fp, mjtNum dt, const mjtNum t[3], const mjtNum Jdq[3],
                   mjtNum* k_n, mjtNum* k_t) {
  *k_n = (a1 - a) / fp;
  *k_t = dt * (-mju_dot3(t, Jdq)) / fp;
  return 1.0 - mu * *k_n > 0 ? mu * a / (1.0 - mu * *k_n) : INFINITY;
}


/* clear: the caller knows the foot is out of contact for this step (the run loop below, from the previous step's
   positions), so the frictionless forward pass would find no contact: the step is the no-contact branch without it
   (mj_step recomputes everything that pass would have written, so the run is the same to the bit). */
static int coulomb_step(const mjModel* m, mjData* d, const double* prm, double* state, double* out, int clear,
                        int* passed) {
  const mjtNum mu = prm[0], v_eps = prm[1], den_min = prm[2], probe = prm[4];
  const int stop_on = prm[3] > 0.5, foot = (int)prm[5], floor = (int)prm[6], body = (int)prm[7];
  const int implicit = prm[9] > 0.5;
  const int floor_body = (int)prm[8], nv = m->nv;
  const mjtNum zero[3] = {0, 0, 0};
  mjtNum a, p[3], n[3], J[3 * NVMAX], Jf[3 * NVMAX], v[3], vt[3], acc0[3], u[3], g[3];
  memset(out, 0, 6 * sizeof(double));
  *passed = 0;
  if (nv > NVMAX) return -1;
  apply(m, d, zero, zero, body, floor_body);
  if (clear && state[0] < 0.5) {
    state[1] = 0;
    return 0;
  }
  mj_forwardSkip(m, d, mjSTAGE_NONE, 1);       /* no sensors: mj_step computes them */
  *passed = 1;
  int i = find_contact(m, d, foot, floor, &a);
  state[1] = 0;
  if (i < 0 || a <= 0) {
    if (state[0] > 0.5) out[5] = 1;
    state[0] = 0;
    return 0;
  }
  if (state[0] < 0.5) out[4] = 1;
  state[0] = 1;
  state[2] += 1;
  const mjContact* c = d->contact + i;
  mju_copy3(p, c->pos);
  mju_copy3(n, c->frame);
  mj_jac(m, d, J, NULL, p, body);
  if (floor_body) {
    mj_jac(m, d, Jf, NULL, p, floor_body);
    mju_subFrom(J, Jf, 3 * nv);
  }
  mju_mulMatVec(v, J, d->qvel, 3, nv);
  mju_mulMatVec(acc0, J, d->qacc, 3, nv);
  mju_addScl3(vt, v, n, -mju_dot3(v, n));
  mjtNum s = mju_norm3(vt), vf[3], sf = 0, dt = m->opt.timestep;
  if (implicit) {                                            /* the slip at the step's end without friction */
    mju_addScl3(vf, vt, acc0, dt);
    mju_addToScl3(vf, n, -mju_dot3(vf, n));
    sf = mju_norm3(vf);
    if (sf <= 0) {
      state[7] += 1;
      out[0] = a; out[2] = s; out[3] = 4;
      return 0;
    }
    mju_scl3(u, vf, -mu / sf);                               /* the cone's force per newton, against v_free */
  } else {
    mju_scl3(u, vt, -mu / sqrt(s * s + v_eps * v_eps));     /* friction per newton of normal force */
  }
  mju_scl3(g, u, probe * a);                                 /* the trial force */
  mjtNum dfn, Jdq[3], a1;
  int lost = 0, how = response(m, d, J, g, c->efc_address, &dfn, Jdq);
  if (how == 0) {
    a1 = a + dfn;
    lost = a1 <= 0;
  } else {                                                   /* the probe pass (the Python hook's way) */
    apply(m, d, g, p, body, floor_body);
    mj_forwardSkip(m, d, mjSTAGE_NONE, 1);
    int j = find_contact(m, d, foot, floor, &a1);
    lost = j < 0 || a1 <= 0;
    mjtNum acc1[3];
    mju_mulMatVec(acc1, J, d->qacc, 3, nv);
    mju_sub3(Jdq, acc1, acc0);
    state[6] += 1;
  }
  mjtNum b = (a1 - a) / (probe * a);
  state[4] += lost;
  if (implicit) {                                            /* the stop's law at every contact step, along v_free */
    mjtNum t[3], fp = probe * a * mu, k_n, k_t;
    mju_scl3(t, vf, 1.0 / sf);
    mjtNum f_max = cone(mu, a, a1, fp, dt, t, Jdq, &k_n, &k_t);
    mjtNum f = k_t > 0 ? sf / k_t : INFINITY;
    int stick = f <= f_max;
    if (!stick) f = f_max;
    if (!isfinite(f)) f = 0;                                 /* no tangential response and no cone bound: none */
    mjtNum ft[3];
    mju_scl3(ft, t, -f);
    apply(m, d, ft, p, body, floor_body);
    state[7] += stick;
    out[0] = a + k_n * f; out[1] = f; out[2] = s; out[3] = stick ? 4 : 1;
    return 0;
  }
  if (stop_on && !lost && s > 0 && 1.0 - b <= den_min) {    /* the impasse stop (CoulombFoot.stop) */
    mjtNum t[3], fp = probe * a * mju_norm3(u), k_n, k_t;
    mju_scl3(t, vt, 1.0 / s);
    mjtNum f_max = cone(mu, a, a1, fp, dt, t, Jdq, &k_n, &k_t);
    mjtNum w0 = -s + dt * (-mju_dot3(t, acc0));
    mjtNum f = k_t > 0 ? -w0 / k_t : 0.0;
    f = f < 0 ? 0 : (f > f_max ? f_max : f);
    mjtNum ft[3];
    mju_scl3(ft, t, -f);
    apply(m, d, ft, p, body, floor_body);
    state[1] = 1;
    state[5] += 1;
    out[0] = a + k_n * f; out[1] = f; out[2] = s; out[3] = 2;
    return 0;
  }
  int ok = !lost && b < 1.0;
  mjtNum fn = ok ? a / (1.0 - b) : a1, f[3];
  state[3] += !ok;
  mju_scl3(f, u, fn);
  apply(m, d, f, p, body, floor_body);
  out[0] = fn; out[1] = mju_norm3(f); out[2] = s; out[3] = ok ? 1 : 3;
  return 0;
}


int gaittwin_bolt_coulomb_step(const mjModel* m, mjData* d, const double* prm, double* state, double* out) {
  int passed;
  return coulomb_step(m, d, prm, state, out, 0, &passed);
}


/* Bolt.feedback (envs/bolt/robot.py: the Sec. 5.1 actuator limit switched from the foot contact, the per-step
   values it returns) followed by the Coulomb step above, in one call: line for line the Python method.
   fprm:  tau_max, P_max, clamp (1: limit_mode clamp), the clamp's limit, then the sensor and dof addresses
          foot_touch, crank_rate, q_1's dof, B_hfe, B_femur, G_kfe, G_tibia
   aux:   Bolt.AUX = tau_flight, tau_stance, power_flight, power_stance, foot_force, loop_gap, foot_impulse */
static mjtNum gap2(const mjtNum* sd, int a, int b) {   /* pow as Python's `** 2` (built with -fno-builtin-pow) */
  mjtNum dx = sd[a] - sd[b], dy = sd[a + 1] - sd[b + 1], dz = sd[a + 2] - sd[b + 2];
  return pow(dx, 2) + pow(dy, 2) + pow(dz, 2);
}

static int feedback(mjModel* m, mjData* d, const double* fprm, const double* prm, double* state, double* out,
                    double* aux, int clear, int* passed) {
  const mjtNum* sd = d->sensordata;
  int i_touch = (int)fprm[4], i_rate = (int)fprm[5], i_dof = (int)fprm[6];
  int prev_stance = d->userdata[0] > 0.5;
  mjtNum tau = fabs(d->actuator_force[0]);
  mjtNum power = fabs(tau * sd[i_rate]);
  mjtNum g1 = gap2(sd, (int)fprm[7], (int)fprm[8]), g2 = gap2(sd, (int)fprm[9], (int)fprm[10]);
  mjtNum gap = sqrt(g1 > g2 ? g1 : g2);
  mjtNum force = sd[i_touch];
  int stance = force > 0.0;
  mjtNum lim;
  if (fprm[2] > 0.5) {
    lim = fprm[3];
  } else if (stance) {
    mjtNum rate = fabs(d->qvel[i_dof]);
    lim = fprm[1] / (rate > 1e-9 ? rate : 1e-9);
  } else {
    lim = fprm[0];
  }
  m->actuator_forcerange[0] = -lim;   /* feedback edits its run's private model copy, as the Python method */
  m->actuator_forcerange[1] = lim;
  d->userdata[0] = stance ? 1.0 : 0.0;
  d->userdata[1] += force * m->opt.timestep;
  mjtNum imp = d->userdata[1];
  *passed = 0;
  int rc = prm ? coulomb_step(m, d, prm, state, out, clear, passed) : 0;   /* prm NULL: no Coulomb foot */
  aux[0] = prev_stance ? 0.0 : tau;
  aux[1] = prev_stance ? tau : 0.0;
  aux[2] = prev_stance ? 0.0 : power;
  aux[3] = prev_stance ? power : 0.0;
  aux[4] = force;
  aux[5] = gap;
  aux[6] = imp;
  return rc;
}


int gaittwin_bolt_feedback(mjModel* m, mjData* d, const double* fprm, const double* prm, double* state,
                           double* out, double* aux) {
  int passed;
  return feedback(m, d, fprm, prm, state, out, aux, 0, &passed);
}


/* The closed-loop runner's inner loop (gaittwin.core.engines.batch `_run_closed_loop`, and Stepper) in one call: for
   each of n steps, the controls ctrl[k] (nu each), the feedback above (prm NULL: the actuator limit alone, the soft
   foot), mj_step; where rec is given, row k (width nsens + naux) gets the sensors after the step, and a sampled step
   ((step0 + k) % stride == 0) the maxima of the feedback's values since the previous sample (acc: the running
   maxima, carried between calls).  The Coulomb step skips its frictionless pass where the foot is out of contact
   for sure: not in contact at the previous step and the foot sphere's lowest point more than CLEAR above the
   horizontal floor plane (plus the pair's margins) at the previous step's positions (a step moves it 1 mm only at
   1 mm / timestep, 80 m/s at 1.25e-5 s); never at k = 0 (the positions may be another state's).  Returns 0, or
   the feedback's error. */
#define CLEAR 1e-3

/* The floor plane every contact pair of the model shares, where MuJoCo's contacts are those pairs alone (no geom
   left to the broad phase) and each pairs a sphere or a capsule with it; else -1.  Once per run call. */
static int pairs_floor(const mjModel* m) {
  if (!m->npair) return -1;
  for (int g = 0; g < m->ngeom; g++)
    if (m->geom_contype[g] || m->geom_conaffinity[g]) return -1;
  int floor = m->geom_type[m->pair_geom1[0]] == mjGEOM_PLANE ? m->pair_geom1[0] : m->pair_geom2[0];
  if (m->geom_type[floor] != mjGEOM_PLANE) return -1;
  for (int i = 0; i < m->npair; i++) {
    int g = m->pair_geom1[i] == floor ? m->pair_geom2[i] : (m->pair_geom2[i] == floor ? m->pair_geom1[i] : -1);
    if (g < 0 || (m->geom_type[g] != mjGEOM_SPHERE && m->geom_type[g] != mjGEOM_CAPSULE)) return -1;
  }
  return floor;
}

/* 1 where the plane geom `floor` is horizontal (what `height` assumes). */
static int level(const mjData* d, int floor) { return d->geom_xmat[9 * floor + 8] > 1 - 1e-12; }

/* A sphere's or capsule's lowest point (a capsule's lower end) above the horizontal plane geom `floor`, at the
   positions of the last forward pass. */
static mjtNum height(const mjModel* m, const mjData* d, int g, int floor) {
  const mjtNum* size = m->geom_size + 3 * g;
  mjtNum low = d->geom_xpos[3 * g + 2] - size[0];
  if (m->geom_type[g] == mjGEOM_CAPSULE) low -= fabs(d->geom_xmat[9 * g + 8]) * size[1];
  return low - d->geom_xpos[3 * floor + 2];
}

/* 1 where no contact can start in this step, judged at the previous step's positions as the foot's `clear` below:
   no contact then, the model's contacts the pairs of `floor` (pairs_floor), the plane horizontal and every pair's
   geom more than CLEAR plus the pair's margin above it.  Such a step runs with MuJoCo's contacts off: the collision
   pass (whose broad phase costs ~10 % of a step even with pairs alone) would find nothing, so nothing else changes
   (the same run to the bit). */
static int all_clear(const mjModel* m, const mjData* d, int floor) {
  if (floor < 0 || d->ncon || !level(d, floor)) return 0;
  for (int i = 0; i < m->npair; i++) {
    int g = m->pair_geom1[i] == floor ? m->pair_geom2[i] : m->pair_geom1[i];
    if (height(m, d, g, floor) - m->pair_margin[i] <= CLEAR) return 0;
  }
  return 1;
}


/* mj_step where the Coulomb step's frictionless pass ran this step: the same qpos, qvel, ctrl and actuator limit,
   only xfrc_applied changed since, and that enters at the acceleration stage; so the position and velocity stages
   are that pass's and are not computed again (their sensors are: the pass skipped them).  mj_step's own order
   otherwise: the checks (a reset by them recomputes everything), the forward pass, the acceleration check, the
   integrator.  Any option this does not cover (RK4; energy, fwdinv or sleep enabled) takes mj_step.  The same run
   to the bit (tests/bolt/test_bolt_native_loop.py). */
static void step_after_pass(const mjModel* m, mjData* d) {
  if (m->opt.integrator == mjINT_RK4 || (m->opt.enableflags & (mjENBL_ENERGY | mjENBL_FWDINV | mjENBL_SLEEP))) {
    mj_step(m, d);
    return;
  }
  int bad = d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number;
  mj_checkPos(m, d);
  mj_checkVel(m, d);
  if (d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number != bad) {
    mj_forward(m, d);
  } else {
    mj_sensorPos(m, d);
    mj_sensorVel(m, d);
    mj_forwardSkip(m, d, mjSTAGE_VEL, 0);
  }
  mj_checkAcc(m, d);
  if (m->opt.integrator == mjINT_EULER)
    mj_Euler(m, d);
  else
    mj_implicit(m, d);
}


/* MuJoCo's profiling timers (mjData.timer) read a clock around each stage of a step (the Python bindings install
   one), about 12 % of a BOLT step (docs/notes/2026-11-28-bolt-fewer-steps.md); nothing in the project reads them.
   While any run is inside gaittwin_bolt_run the clock is a constant (mjData.timer reads 0 there: profile with
   GAITTWIN_NATIVE_LOOP=0); the last run out puts back the clock that was installed.  The physics never reads it. */
static mjtNum no_clock(void) { return 0; }
static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;
static int clock_users = 0;
static mjfTime clock_saved = NULL;

static void timers_off(void) {
  pthread_mutex_lock(&clock_lock);
  if (clock_users++ == 0) {
    clock_saved = mjcb_time;
    mjcb_time = no_clock;
  }
  pthread_mutex_unlock(&clock_lock);
}

static void timers_back(void) {
  pthread_mutex_lock(&clock_lock);
  if (--clock_users == 0 && mjcb_time == no_clock) mjcb_time = clock_saved;
  pthread_mutex_unlock(&clock_lock);
}

static int run_steps(mjModel* m, mjData* d, const double* fprm, const double* prm, double* state, double* out,
                     double* aux, const double* ctrl, int n, double* rec, int nsens, int naux, int stride,
                     long step0, double* acc) {
  const int nu = m->nu, pfloor = pairs_floor(m);
  int can_clear = 0, foot = -1, floor = -1;
  mjtNum margin = 0;
  if (prm) {
    foot = (int)prm[5];
    floor = (int)prm[6];
    can_clear = m->geom_type[foot] == mjGEOM_SPHERE && m->geom_type[floor] == mjGEOM_PLANE;
    margin = m->geom_margin[foot] + m->geom_margin[floor];
  }
  for (int k = 0; k < n; k++) {
    memcpy(d->ctrl, ctrl + (size_t)k * nu, nu * sizeof(mjtNum));
    int clear = can_clear && k > 0 && level(d, floor) && height(m, d, foot, floor) - margin > CLEAR;
    int passed;
    int rc = feedback(m, d, fprm, prm, state, out, aux, clear, &passed);
    if (rc) return rc;
    for (int j = 0; j < naux; j++)
      if (aux[j] > acc[j] || isnan(aux[j])) acc[j] = aux[j];   /* np.maximum: a NaN stays */
    if (passed) {
      step_after_pass(m, d);
    } else if (k > 0 && all_clear(m, d, pfloor)) {
      int flags = m->opt.disableflags;
      m->opt.disableflags |= mjDSBL_CONTACT;
      mj_step(m, d);
      m->opt.disableflags = flags;
    } else {
      mj_step(m, d);
    }
    if (rec) {
      double* row = rec + (size_t)k * (nsens + naux);
      memcpy(row, d->sensordata, nsens * sizeof(mjtNum));
      if (naux && (step0 + k) % stride == 0) {
        for (int j = 0; j < naux; j++) {
          row[nsens + j] = acc[j];
          acc[j] = -INFINITY;
        }
      }
    }
  }
  return 0;
}


int gaittwin_bolt_run(mjModel* m, mjData* d, const double* fprm, const double* prm, double* state, double* out,
                      double* aux, const double* ctrl, int n, double* rec, int nsens, int naux, int stride,
                      long step0, double* acc) {
  timers_off();
  int rc = run_steps(m, d, fprm, prm, state, out, aux, ctrl, n, rec, nsens, naux, stride, step0, acc);
  timers_back();
  return rc;
}
