"""Issue #24: BOLT's `robot/foot=coulomb` (envs/bolt/coulomb_foot.py; models/bolt/README.md "A Coulomb foot outside
MuJoCo's cone"): the study's law (gaittwin.bolt.paper.studies.bolt_coulomb_foot) as an option, its refusals, the hook running in
every C-engine path, and the issue's target against the paper model (CI: 0.2 s, ~25 s; the three-period sweep slow)."""
import json
import pathlib
import subprocess
import sys

import pytest

from gaittwin.bolt import coulomb_foot
from gaittwin.bolt.robot import Bolt
from gaittwin.core.engines import batch, warp_engine
from gaittwin.core.runs import config
from gaittwin.core.model.errors import ConfigError

ROOT = pathlib.Path(__file__).resolve().parents[2]
COULOMB = dict(foot_contact="coulomb", loop_timeconst=5e-5, timestep=6.25e-6, bumper_height=0.40)


def test_foot_group_sets_the_coulomb_numerics_together():
    """robot/foot=coulomb sets the foot, the loops and the converged step in one choice; the model's foot is
    frictionless in MuJoCo's cone (condim 1) with the plastic foot's solref."""
    r = config.compose(["experiment=bolt_running", "robot/foot=coulomb"]).robot
    assert (r.foot_contact, r.loop_timeconst, r.timestep) == ("coulomb", 5e-5, 6.25e-6)
    m, p = Bolt(**COULOMB).model(), Bolt(**dict(COULOMB, foot_contact="plastic")).model()
    foot = m.geom("foot").id
    assert m.geom_condim[foot] == 1 and p.geom_condim[foot] == 3
    assert (m.geom_solref[foot] == p.geom_solref[foot]).all()


@pytest.mark.parametrize("bad, name", [(dict(timestep=1.25e-5), "timestep"), (dict(loop_timeconst=2.5e-5), "loop_timeconst"),
                                       (dict(loop_timeconst=1e-4), "loop_timeconst"), (dict(pad_stiffness=2.3e5), "pad_stiffness")])
def test_inconsistent_settings_are_refused(bad, name):
    """A step coarser than the converged 6.25e-6 s, loops other than 5e-5 s, a pad: each refused naming it."""
    with pytest.raises(ConfigError) as e:
        Bolt(**dict(COULOMB, **bad))
    assert e.value.param == name
    Bolt(**dict(COULOMB, timestep=3.125e-6))   # a finer step is accepted


def _runs(hook_on: bool, monkeypatch) -> tuple:
    """One revolution at 0.2 s in the batch runner and 2000 steps (12.5 ms, the foot on the floor from the start) in
    the stepper, the hook counted (or off)."""
    calls, real, real_native = [], coulomb_foot.hook, coulomb_foot.native_feedback
    monkeypatch.setenv("GAITTWIN_NATIVE_LOOP", "0")   # the Python loop, whose calls are countable; the C loop is
    #                                                 # that loop to the bit (tests/bolt/test_bolt_native_loop.py)

    def native(r, m, d):   # the C path (feedback and the step in one call); off: the Python path, its hook off
        out = real_native(r, m, d) if hook_on else None
        if out is not None:
            calls.append(1)
        return out
    monkeypatch.setattr(coulomb_foot, "native_feedback", native)
    monkeypatch.setattr(coulomb_foot, "hook", lambda r, m, d: (calls.append(1), real(r, m, d) if hook_on else None))
    r = Bolt(**COULOMB, crank_period=0.2)
    (run,) = batch.run_points([r], Bolt, cycles=1, nthread=1)
    n_batch = len(calls)
    from gaittwin.core.model.stepper import Stepper
    s = Stepper(Bolt(**dict(COULOMB, bumper_height=None), crank_period=0.2))   # no bumper: the foot starts on the floor
    s(2000)
    return r.summarize(run), n_batch, len(calls) - n_batch, s.data.qpos.copy()


def test_hook_runs_every_step_in_the_c_paths_and_a_run_without_it_differs(monkeypatch):
    """The batch runner (engine=mujoco, local or Ray tasks) and the stepper (viewer, video) call the hook before
    every step (0.2 s at 6.25e-6 s: 32000 steps a revolution, the batch runner steps whole chunks of 2000 until it
    has the sample at its end: 17 chunks, 34000 steps); without it (the foot frictionless) the run differs:
    tolerance stated first, speed apart by more than 10 % (measured 1.062 m/s with it)."""
    on, n_on, n_step, q_on = _runs(True, monkeypatch)
    steps = -(-(32000 + 1) // 2000) * 2000
    assert n_on == steps and n_step == 2000
    off, n_off, _, q_off = _runs(False, monkeypatch)
    assert n_off == steps
    assert abs(on["speed"] - off["speed"]) > 0.10 * abs(on["speed"]), (on["speed"], off["speed"])
    assert abs(q_on - q_off).max() > 1e-6


def test_warp_refused_and_auto_runs_on_the_c_engine():
    """engine=warp with foot=coulomb: refused before anything runs (a per-step hook Warp cannot run); engine=auto: the C
    engine, with the reason (summary.json then says engine mujoco, engine_requested auto)."""
    with pytest.raises(ConfigError) as e:
        config.validate(config.compose(["experiment=bolt_running", "robot/foot=coulomb", "engine=warp"]))
    assert e.value.param == "engine" and "coulomb" in str(e.value)
    with pytest.raises(ConfigError):   # also where only a swept point has it
        config.validate(config.compose(["experiment=bolt_running", "engine=warp", "robot.loop_timeconst=5e-5",
                                        "robot.timestep=6.25e-6", "sweep.foot_contact=[plastic,coulomb]"]))
    job = config.validate(config.compose(["experiment=bolt_running", "robot/foot=coulomb", "engine=auto"]))
    assert job.engine == "mujoco" and job.engine_requested == "auto" and "coulomb" in job.engine_fallback
    with pytest.raises(ConfigError) as e:   # the batch runner's own check, for callers that skip the config
        warp_engine.check([Bolt(**COULOMB)])
    assert e.value.param == "engine" and "coulomb" in str(e.value)


def test_warp_and_coarse_step_exit_2_nothing_written(tmp_path):
    """One line naming the parameter, exit 2, no run directory."""
    for args, name in ((["engine=warp"], "engine"), (["robot.timestep=1.25e-5"], "timestep")):
        out = tmp_path / name
        p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_twin_vs_paper", "robot/foot=coulomb",
                            *args, f"hydra.run.dir={out}"], cwd=ROOT, capture_output=True, text=True)
        assert p.returncode == 2, p.stderr
        assert len(p.stderr.strip().splitlines()) == 1 and name in p.stderr, p.stderr
        assert not out.exists()


def test_coulomb_twin_within_target_of_paper_model_short(tmp_path):
    """Issue #24 target, CI version, tolerances stated first: speed within 10 %, duty within 0.05, one touch-down per
    revolution in both; and the measured numbers within 0.001 / 0.001: the study's (gaittwin.bolt.paper.studies.bolt_coulomb_foot,
    candidate 2, dt 6.25e-6, 0.2 s: 1.3236 / 0.0782, the Python hook) where the foot runs in Python, the C step's
    1.3255 / 0.0782 where it runs in C (the same law; docs/notes/2026-11-28-bolt-fast-coulomb.md).  0.2 s, 6
    revolutions (the cheapest period a revolution; the paper model's 1.2962 / 0.0750)."""
    from gaittwin.core.runs import experiment
    res = experiment.compute(config.compose(["experiment=bolt_twin_vs_paper", "robot/foot=coulomb",
                                             "sweep.crank_period=[0.2]", "run.progress=false"]), tmp_path)
    (row,) = res.table("results.csv")
    assert res.summary["speed_tolerance"] == 0.1 and res.summary["duty_tolerance"] == 0.05
    assert res.summary["engine"] == "mujoco+paper" and res.summary["cycles"] == 6
    speed = 1.3255 if coulomb_foot.backend() == "native C" else 1.3236
    assert abs(row["speed_twin"] - speed) <= 0.001 and abs(row["duty_factor_twin"] - 0.0782) <= 0.001, row
    assert row["touchdowns_per_revolution_twin"] == row["touchdowns_per_revolution_paper"] == 1.0
    assert abs(row["speed_twin"] - row["speed_paper"]) <= 0.10 * abs(row["speed_paper"]), row
    assert abs(row["duty_factor_twin"] - row["duty_factor_paper"]) <= 0.05, row
    assert row["within_target"] and res.summary["target_met"]


@pytest.mark.slow
def test_coulomb_twin_within_target_of_paper_model_sweep(tmp_path):
    """Issue #24: the twin within the target of the paper model at three crank periods, tolerances stated first:
    speed within 10 %, duty within 0.05, one touch-down per revolution, at 0.6, 0.3 and 0.2 s (6 revolutions,
    ~95 s at load ~1; measured +5.3 %, -1.3 %, +2.1 % / +0.001, -0.001, +0.003, as the study)."""
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "scripts/run.py", "experiment=bolt_twin_vs_paper", "robot/foot=coulomb",
                        "sweep.crank_period=[0.6,0.3,0.2]", f"hydra.run.dir={out}"], cwd=ROOT,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    s = json.loads((out / "summary.json").read_text())
    assert s["speed_tolerance"] == 0.1 and s["duty_tolerance"] == 0.05
    assert s["compared_crank_periods"] == [0.6, 0.3, 0.2] and s["target_met"] and s["all_healthy"]
