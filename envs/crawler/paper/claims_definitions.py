"""The crawler's row definitions (envs/core/report/definition.py): each row's quantity, target, tolerance,
reference and kind, declared once; the rows in claims*.py are bound to them when the report runs.  A changed
definition gets a new id and the old one moves to SUPERSEDED with its last verdict; REGISTERED holds every
definition's hash and kind (tests/test_report_definitions.py).  PREVIOUS: the counts of the report version before
this one; UNCOVERED: validation rows no twin mutation flips, and why."""
from __future__ import annotations

from ...core.report.definition import Definition, Last, Relabel, Superseded
from ...core.report.verdict import CALIBRATION, CONSISTENCY, VALIDATION, WITHHELD_KIND, Tol

WITHHELD = WITHHELD_KIND
EXACT = "the exact hybrid model (envs/crawler/paper/hybrid.py)"
GRID_TOL = ("half the larger psi grid spacing next to the grid point nearest the paper's value (at least 0.5 deg), from "
            "the run's psi grid")
IDEAL = ("its target is the project's own quasi-static ideal stride (the paper gives no number), and the exact model "
         "the reference: the twin against the project's equations")

DEFINITIONS = [
    Definition('C1', CONSISTENCY, 'omega = 0.3 rad/s (range 1): S, against the quasi-static ideal stride',
      "the project's quasi-static ideal stride (envs/crawler/robot.py ideal_stride; the paper prints no number)", Tol(0, 0.03, "'almost ideal': 3 %"), EXACT, relabel=Relabel('validation', 'v4', IDEAL)),
    Definition('C2', VALIDATION, 'S(5.1) / S(0.3): S almost cancelled at omega = 5.1',
      '0', Tol(0.05, 0, "'almost cancelled' read from Fig. 4(a): |S| <= 5 % of S(0.3)"), EXACT),
    Definition('C3', VALIDATION, "S(16) - S(8): S grows slightly in range 3 (proxy: positive, and within tolerance of the exact model's)",
      '>= 0', Tol(1.5, 0.03, 'twin-vs-exact acceptance of the contact recipe, max(1.5 mm, 3 %)'), EXACT),
    Definition('C4', VALIDATION, "V(16) - V(8): V rises rapidly in range 3 (proxy: the rise exceeds V(8), and is within tolerance of the exact model's)",
      '>= V(8) (the rise exceeds V(8))', Tol(3.819718634205488, 0.03, 'TOL_S carried to V = S omega / 2 pi at omega = 16'), EXACT),
    Definition('C27', VALIDATION, "V(omega_m) - V(0.3) and V(5.1) - V(omega_m), omega_m the grid's V maximum between (range 1 ends there; proxy: positive, then negative)",
      '>= 0; <= 0', Tol(1.2175353146529992, 0.03, 'TOL_S carried to V = S omega / 2 pi at omega = 5.1'), EXACT),
    Definition('C5', VALIDATION, 'number of interior local extrema of V(omega) on the frequency grid',
      '>= 2', Tol(0, 0, 'a count: exact'), EXACT),
    Definition('C8', VALIDATION, 'psi*(omega) at the grid\'s highest omega (16 rad/s)',
      '120', "max(10 deg, half the psi grid step): Fig. 6 read to 10 deg, or half the psi grid step (a grid argmax's resolution) if coarser", EXACT),
    Definition('C30', VALIDATION, 'largest change of psi* between successive omegas of the Fig. 6 grid (negative: a drop)',
      '>= -(one psi grid step)', "a range: 'almost monotonically' read as no drop larger than one psi grid step (a grid argmax's resolution; the paper smooths its curve by a moving average)", ''),
    Definition('C9', CONSISTENCY, "omegas where S changes sign, phi0 = 145 deg, mu = 0.172 (every crossing, against the exact model's; the paper prints no number: twin against the project's model, a consistency check)",
      'direction reversal (sign change of S) vs omega at phi0 = 145 deg', Tol(0.5, 0, 'Fig. 7(a) read to 0.5 rad/s; the crossings are interpolated on a 1-2 rad/s grid'), EXACT),
    Definition('C10', CONSISTENCY, "phi0 where S changes sign, omega = 9 rad/s, mu = 0.398 (every crossing, against the exact model's; the paper prints no number: twin against the project's model, a consistency check)",
      'direction reversal vs phi0 at omega = 9 rad/s', Tol(2.5, 0, 'half the 5-deg phi0 grid (Fig. 7(b) read to 2.5 deg)'), EXACT),
    Definition('C6', CONSISTENCY, "omega = 0.3, psi = 20 deg: S_mu / S (the model's prediction of the experiment)",
      '0.5', Tol(0.05, 0, "the paper's '~ 0.5': 1 significant digit"), ''),
    Definition('C11', VALIDATION, "omega = 0.3: psi maximising nominal S (the Fig. 8 psi grid); Fig. 6's 'psi* -> 0 at low omega' is this same fact (its lowest omega is 0.3), so one row",
      '16', GRID_TOL, EXACT),
    Definition('C12', CONSISTENCY, 'omega = 0.3: 1 - S_mu/S at psi* (eq. 6, mu_i in [0.9, 1.1] mu)',
      '50', Tol(5, 0, "the paper's '50 %': 1 significant digit"), EXACT),
    Definition('C13', CALIBRATION, 'omega = 0.3: psi maximising S_mu (the Fig. 8 psi grid)',
      '56', GRID_TOL, EXACT),
    Definition('C14.2', VALIDATION, 'omega = 0.3: 1 - S_mu(psi_mu*) / max_psi S (Fig. 8 is normalised by the maximal S)',
      '24', Tol(2, 0, "the paper's 2 significant digits (0.5) plus the twin's grid/cycle convergence (about 1 %-point, reduced vs full)"), EXACT, replaces='C14'),
    Definition('C15', VALIDATION, "omega = 16: 1 - S_mu/S at psi* (proxy for 'close': at most 10 %, and at most a fifth of the loss at omega = 0.3)",
      '[-10, min(10, (1 - S_mu/S at psi*, omega 0.3) / 5)] %', Tol(0, 0, "a range: 'close' read from Fig. 8's black curves as within 10 %"), ''),
    Definition('C23', VALIDATION, 'omega = 16: psi_mu* - psi* (the omega-16 psi grid)',
      '0', 'half the psi grid step: both optima are grid points', ''),
    Definition('C29', VALIDATION, "omega = 0.3: (S_max - S_min)(psi_mu*) / (S_max - S_min)(psi*), the shaded band's width over the friction set (proxy for 'much narrower': at most 0.5)",
      '[0, 0.5]', Tol(0, 0, "a range: 'much narrower' read as at most half"), ''),
    Definition('C28', VALIDATION, "V(psi*) at omega 16 / V(psi*) at omega 0.3, and loss(16) - loss(0.3) (1 - S_mu/S at psi*, %-points) (proxy: 'similar or higher' V read as at least 0.8; 'smaller sensitivity' as a negative difference)",
      '>= 0.8; <= 0', Tol(0, 0, 'ranges: bounds stated in the claim'), ''),
    Definition('C16', VALIDATION, "omega = 0.3: S_mu(psi_mu*) / S_mu(psi*) (proxy for 'significantly above': >= 1.1)",
      '>= 1.1', Tol(0, 0.03, "TOL_S's 3 % on the ratio to the exact model's"), EXACT),
    Definition('C31', VALIDATION, 'largest |S(mu1 = mu2 = (1 +/- 0.1) mu) / S(mu) - 1| over omega 0.3 and 16 (psi 20 deg, mu 0.172)',
      '[0, 0.1]', Tol(0, 0, "a range: 'insignificantly' read as |S((1 +/- eps) mu) / S(mu) - 1| <= 0.1, a fifth of the 50 % loss the asymmetric perturbation gives at omega 0.3 (C12)"), ''),
    Definition('C17', VALIDATION, "omega = 0.3: max over m1/m2 on the grid (m1/m2 != 1) of S / S(m1 = m2) (proxy for 'significant decrease': <= 0.8)",
      '<= 0.8', Tol(0.05, 0, "5 % of S(m1 = m2), TOL_S's order"), EXACT),
    Definition('C18', VALIDATION, 'S-maximising m1/m2 (Fig. 12 grid) at the mid-range omegas (1 < omega < 10)',
      '>= 1.01', Tol(0, 0, 'grid argmax: the same grid point'), EXACT),
    Definition('C19', VALIDATION, 'S-maximising m1/m2 (Fig. 12 grid) at the high omegas (>= 10)',
      '<= 0.99', Tol(0, 0, 'grid argmax: the same grid point'), EXACT),
    Definition('C32', VALIDATION, 'number of mid-range omegas (1 < omega < 10) at which S changes sign over the m1/m2 grid (direction reversal by mass asymmetry)',
      '>= 1', Tol(0, 0, 'a count: at least one mid-range omega with a sign change of S over the m1/m2 grid'), ''),
    Definition('C24', VALIDATION, "per omega of the Fig. 11 grid: S(mass ratio 0.25) - S(1) (m1 = m2; proxy for 'grows almost monotonically as the distal links get lighter': positive at every omega, dips between allowed)",
      '>= 0', Tol(1.5, 0.03, 'twin-vs-exact acceptance of the contact recipe, max(1.5 mm, 3 %)'), EXACT),
    Definition('C26', VALIDATION, "S(best time-scaled input) / S(best alpha = 0 input) at each omega of the grid (Optuna TPE trials after the alpha = 0 psi grid; proxy for 'significant improvement': >= 1.2)",
      '>= 1.2', Tol(0, 0, "a range: 'significant' read as a 20 % gain"), ''),
    Definition('C33', VALIDATION, "omega 3.2: forward and backward slip distance per cycle (both feet), time-scaled optimum minus its alpha = 0 baseline (twin runs of the search's points)",
      '>= 0; <= 0', Tol(0, 0, 'signs: forward slip grows (> 0) and backward slip shrinks (< 0)'), ''),
    Definition('C34', VALIDATION, 'omega 3.2: fraction of the period the legs extend (feet distance growing) under the best time-scaled input the search found',
      '[0, 0.45]', Tol(0, 0, "a range: 'extending rapidly, retracting slowly' read as extending for at most 45 % of the period (the unscaled sine: 50 %)"), ''),
    Definition('C20', WITHHELD, 'omega = 8: mean S of the last 2 steps, open loop (prescribed angles)',
      'withheld', None, EXACT),
    Definition('C21', WITHHELD, 'omega = 8: mean S of the last 2 steps with the eq. 19 feedback (K_v 10, K_P 80, K_D 100, Phi [90, 130] deg)',
      'withheld', None, EXACT),
    Definition('C25', VALIDATION, 'omega = 8, eq. 19 feedback: period (in steps) of the steady gait over the last 4 steps (0: not periodic within 3 steps)',
      '2', Tol(0, 0, "a period: exact; steps equal within crawler_feedback's steady criterion 2e-3 relative"), EXACT),
    Definition('C35', VALIDATION, 'S(eq. 19 feedback) / S(open loop) at omega 8 and 16 (K_v 10, K_P 80, K_D 100, Phi [90, 130] deg, psi 20 deg)',
      '>= 1.1; <= 1', Tol(0, 0, "ranges: 'works' read as a gain >= 1.1 at omega 8; 'only for a range' as no gain (<= 1) at 16"), ''),
    Definition('C-opt-psi_star', CONSISTENCY, "psi*(omega): the twin's optimiser (crawler_optimize over psi_deg) "
               "against the exact model's argmax on a psi grid", "psi*(omega) (Fig. 6, no number)",
               "10 deg: the exact grid's step + the zoom's resolution + the twin's S tolerance on a flat peak", EXACT),
    Definition('C-opt-psi_mu_star', CONSISTENCY, "psi_mu*(omega): the twin's optimiser (crawler_optimize over psi_deg, "
               "objective S_mu) against the exact model's argmax on a psi grid", "psi_mu*(omega) (Fig. 9, no number)",
               "10 deg: the exact grid's step + the zoom's resolution + the twin's S tolerance on a flat peak", EXACT),
    Definition('C-opt-S', CONSISTENCY, "S at the twin's optimum psi*(omega) (crawler_optimize): the twin against the "
               "exact model re-run at the same inputs (experiment.reference)", "no number: the reference model's S",
               Tol(1.5, 0.03, "the twin-vs-exact target of tests/crawler/test_crawler_hybrid.py", combine="max"), EXACT),
    Definition('C22', VALIDATION, "Fig. 5 slip directions: range 1: backward slip distance / S at omega 0.3 (<= 0.02); range 2: growth of the backward-slip fraction (summed over the feet) from omega 0.3 to 5.1 (>= 0.1); range 2, 3: the smaller foot's backward-slip fraction at omega 5.1 and at 16 (>= 0.1 each); range 3: fraction of the cycle both feet slip forward together at omega 16 (in (0, 0.25]: 'a short part'; > 0 read as at least 0.5 % of the cycle)",
      '<= 0.02; >= 0.1; >= 0.1; >= 0.1; [0.005, 0.25]', Tol(0.02, 0.0, "mode fractions: the twin's velocity threshold disagrees with the exact model's own mode log on <= 1.4 % of the cycle"), EXACT),
]

SUPERSEDED = [
    Superseded(Definition("C14", VALIDATION, "omega = 0.3: 1 - S_mu/S at psi_mu*", "24",
                          Tol(2, 0, "the paper's 2 significant digits (0.5) plus the twin's grid/cycle convergence "
                                    "(about 1 %-point, reduced vs full)"), EXACT),
               by="C14.2", why="read against S at psi_mu* itself; the paper's sentence ('This is illustrated in Fig. 8 "
               "... normalized by the maximal S ... only 24% decrease of the step distance') and Fig. 8's axis S/max{S} "
               "make the decrease relative to max S; C14.2 reads it so (twin and exact model both gave 16.9 % here, "
               "25.3 % there in the full report)", source="Sec. VI, Fig. 8", paper="S_mu 24 % below S at psi = 56 deg",
               unit="%",
               last=dict(full=Last("disagrees", "16.8828", "-7.11717 vs paper; 0.0352352 vs reference",
                                   "docs/fidelity_report.md at dcfc429"),
                         reduced=Last("disagrees", "16.8783", "-7.12166 vs paper",
                                      "docs/fidelity_report_reduced.md at dcfc429"))),
]

REGISTERED = {                  # id -> [definition hash, kind]: change only with a new id or a Relabel
    'C1': ['411a02d18a', 'consistency'], 'C2': ['0d0022a7e2', 'validation'], 'C3': ['4f9579eac4', 'validation'],
    'C4': ['0ed6cc2121', 'validation'], 'C27': ['349dd1af00', 'validation'], 'C5': ['368967e63b', 'validation'],
    'C8': ['92ef728b71', 'validation'], 'C30': ['1259214d0c', 'validation'], 'C9': ['1bf2599883', 'consistency'],
    'C10': ['c4dd1a428d', 'consistency'], 'C6': ['6e3bc05fc4', 'consistency'], 'C11': ['bfde013f13', 'validation'],
    'C12': ['65b59a5387', 'consistency'], 'C13': ['e95d1051bd', 'calibration'], 'C14.2': ['accdaf2eaf', 'validation'],
    'C15': ['7d20c297de', 'validation'], 'C23': ['7157d78b02', 'validation'], 'C29': ['ba3365f6df', 'validation'],
    'C28': ['3bb32cec50', 'validation'], 'C16': ['ea5c9a5c0b', 'validation'], 'C31': ['1ff22aa110', 'validation'],
    'C17': ['e81443b1b4', 'validation'], 'C18': ['b7079f123e', 'validation'], 'C19': ['f233369204', 'validation'],
    'C32': ['4cadf8c5ef', 'validation'], 'C24': ['e6025ac4eb', 'validation'], 'C26': ['f13407afe1', 'validation'],
    'C33': ['275624a4ae', 'validation'], 'C34': ['c6bd4a6a5a', 'validation'], 'C20': ['f937ad5b1f', 'withheld'],
    'C21': ['15888297c6', 'withheld'], 'C25': ['e85c297e0a', 'validation'], 'C35': ['770e4b7bc6', 'validation'],
    'C-opt-psi_star': ['07ebf384aa', 'consistency'], 'C-opt-psi_mu_star': ['10948c0827', 'consistency'],
    'C-opt-S': ['4bb79af8b3', 'consistency'],
    'C22': ['714286ccd8', 'validation'], 'C14': ['eb15d514e5', 'validation'],
}

PREVIOUS = dict(version="v3 (3aaf9ca)",
                full={"validation": 27, "agrees": 22, "disagrees": 5, "no data yet": 0, "calibration": 1,
                      "consistency": 4, "withheld": 2},
                reduced={"validation": 27, "agrees": 20, "disagrees": 7, "no data yet": 0, "calibration": 1,
                         "consistency": 4, "withheld": 2})

UNCOVERED = {        # measured on the reduced grids (envs/crawler/paper/mutations.py: all four crawler mutations)
    **{k: "none of the four crawler mutations (friction x 0.5, phase reversed, MuJoCo's default contact, masses "
          "swapped) flips it" for k in ("C15", "C19", "C23", "C30")},
    **{k: "disagrees on the nominal twin, and none of the four crawler mutations turns it to agree"
       for k in ("C18", "C24", "C25", "C26", "C35")},
}
