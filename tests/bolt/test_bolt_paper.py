"""BOLT's paper model (envs/bolt/paper/model.py, paper_run.py): SPF constraint decay, the plastic impact map,
bad input.  Seconds each."""
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from gaittwin.bolt.paper.model import Model
from gaittwin.bolt.paper.run import FLIGHT, impact
from gaittwin.bolt.robot import Bolt
from gaittwin.bolt.kinematics import loop_kinematics

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _state(q1=-1.0, dz=0.0):
    r = Bolt(crank_period=0.3, bumper_height=None)
    m = Model(r)
    k = loop_kinematics(np.array([q1]), r.geometry)
    Q = np.array([0.0, 0.5] + [float(k[f"q{i}"][0]) for i in range(1, 6)])
    Q[3] += dz
    return m, Q


def test_spf_constraint_error_decays_at_rate_one_over_epsilon():
    """Fig. 11 / eq. 17: the fast dynamics make dPsi/dt = -Psi/epsilon (tolerance 1e-6 relative)."""
    eps = 1e-3
    m, Q = _state(dz=0.02)
    sd = np.array([0.3, -1.0, -20.0])
    v, rho, J, cen, Psi, dep, _ = m.split_velocity(Q, sd, FLIGHT, None, eps)
    assert np.abs(Psi).max() > 1e-4                       # the loops really are open
    np.testing.assert_allclose(J @ v, -Psi / eps, rtol=1e-6, atol=1e-9)
    # integrated: Psi(t) = Psi(0) exp(-t/eps) within 1 % at t = 3 eps (explicit Euler, 1e-6 s steps)
    y, h = Q.copy(), 1e-6
    for _ in range(int(3 * eps / h)):
        v, *_ = m.split_velocity(y, sd, FLIGHT, None, eps)
        y = y + h * v
    Psi3 = m.constraints(y, np.zeros(7))[0]
    np.testing.assert_allclose(Psi3, Psi * np.exp(-3), rtol=0.01, atol=1e-7)


def test_plastic_impact_stops_the_foot_and_books_energy_and_momentum():
    """Eq. 18-19: foot velocity zero after (tol 1e-12 m/s); kinetic energy lost = 1/2 dv^T H dv >= 0
    (rel. 1e-9); the body's linear momentum changes by the impulse (the x, y rows of H_r)."""
    m, Q = _state()
    sd = np.array([0.8, -1.2, -21.0])
    sd1, lam, ke0, ke1, vf = impact(m, Q, sd, 1e-3)
    assert np.abs(vf).max() < 1e-12
    v, rho, *_ = m.split_velocity(Q, sd, FLIGHT, None, 1e-3)
    H = m.mass_matrix(Q, v)[0]
    Hr = rho.T @ H @ rho
    d = sd1 - sd
    assert ke1 < ke0
    np.testing.assert_allclose(ke0 - ke1, 0.5 * d @ Hr @ d, rtol=1e-9)
    np.testing.assert_allclose((Hr @ d)[:2], [lam.real, lam.imag], rtol=1e-9, atol=1e-12)
    assert lam.imag > 0                                    # the ground pushes


@pytest.mark.parametrize("args", [["engine=paper", "robot.passive_damping=0.1"],      # a twin-only parameter
                                  ["engine=paper", "robot.bumper_height=null", "+paper.method=Euler"],
                                  ["engine=paper", "robot.bumper_height=null", "sweep.crank_period=[0.3,0]"]])
def test_bad_input_exit_2_nothing_written(tmp_path, args):
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_speed_sweep", *args,
                        f"hydra.run.dir={out}"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_horizontal_momentum_is_constant_in_the_air_and_changes_in_stance():
    """The phase budget's bookkeeping (gaittwin.bolt.paper.studies.bolt_phase_budget): with the foot in the air the only
    external forces (gravity, the bumper) are vertical, so the sampled p_x stays constant (tolerance 1e-6 N s)
    while the leg swings; the stance (impact and friction) changes it by more than 0.5 N s."""
    from gaittwin.bolt.paper.run import simulate
    run = simulate(Bolt(crank_period=0.3), 2)
    assert run.error is None
    S = run.samples
    air = S["stance"] < 0.5
    edges = np.flatnonzero(np.diff(air.astype(int)) != 0) + 1
    segs = [s for s in np.split(np.arange(len(air)), edges) if air[s[0]] and len(s) > 20]
    assert len(segs) >= 2
    for s in segs:
        assert np.ptp(S["x_dot"][s[1:-1]]) > 0.1                  # the body's own speed does vary (the leg swings)
        assert np.ptp(S["p_x"][s[1:-1]]) < 1e-6
    assert np.ptp(S["p_x"][~air]) > 0.5


def test_a_mode_without_its_foot_point_is_a_programming_error_not_a_flagged_point():
    """split_velocity with the foot point F0 missing in stance (or given in flight) raises TypeError, which
    paper_run does not catch as a failed point (it catches ValueError from solve_ivp)."""
    from gaittwin.bolt.paper.model import STANCE
    m, Q = _state()
    with pytest.raises(TypeError, match="F0 is missing"):
        m.split_velocity(Q, np.zeros(1), STANCE, None, 1e-3)
    with pytest.raises(TypeError, match="F0 is given"):
        m.split_velocity(Q, np.zeros(3), FLIGHT, 0j, 1e-3)
