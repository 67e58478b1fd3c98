"""The interactive viewer (scripts/view.py, envs/core/view/viewer.py): no display -> the Xvfb hint and exit
2; pacing, keys, texts and figures of a session (a fake clock, no window); each robot's viewer
timestep against its reference step; under Xvfb, the real-time factor it reports."""
import re
import shutil

import pytest

import gaittwin
from gaittwin.core.model import schema
from gaittwin.core.view import viewer as live
from gaittwin.core.view.render import caption
from tests.util import ROOT, run_script



class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_without_a_display_it_prints_the_xvfb_hint_and_exits_2(tmp_path):
    log = ROOT / "MUJOCO_LOG.TXT"
    existed = log.exists()
    res = run_script(ROOT / "scripts/view.py", "--duration", "1", env={"DISPLAY": "", "WAYLAND_DISPLAY": ""},
                     cwd=tmp_path)
    assert res.returncode == 2, res.stderr[-2000:]
    assert "xvfb-run" in res.stderr and "no display" in res.stderr
    assert not (tmp_path / "MUJOCO_LOG.TXT").exists() and log.exists() == existed


def test_bad_input_still_names_the_parameter():
    res = run_script("scripts/view.py", "robot.omega=-1", env={"DISPLAY": ""})
    assert res.returncode == 2 and "error: omega=" in res.stderr


def test_session_paces_the_clock_and_applies_keys():
    clk = Clock()
    s = live.Session(gaittwin.Crawler(omega=4.0), fps=50, clock=clk)
    for _ in range(5):                       # 0.1 s of wall time, 20 ms a frame
        clk.t += 0.02
        s.advance()
    dt = s.model.opt.timestep
    tol = 0.02 / 4 + dt                      # steps go in blocks of a quarter frame: the overshoot
    assert s.data.time == pytest.approx(0.1, abs=tol)      # real time (the fake clock does not move while stepping)
    s.key(32)                                # space: pause
    clk.t += 0.5
    s.advance()
    t_paused = s.data.time
    clk.t += 0.5
    s.advance()
    assert s.paused and s.data.time == t_paused
    s.key(262)                               # right arrow: one frame of steps
    s.advance()
    assert s.data.time == pytest.approx(t_paused + 0.02, abs=dt)
    s.key(32)
    s.key(45)                                # '-': half rate
    s.advance()
    t0 = s.data.time
    clk.t += 0.2
    s.advance()
    assert s.rate == 0.5 and s.data.time - t0 == pytest.approx(0.1, abs=2 * tol)
    s.key(266)                               # page up: omega + 0.5, the gait restarts at t = 0
    s.advance()
    assert s.robot.cfg["omega"] == 4.5 and s.data.time < 0.05 and s.model.opt.timestep == s.robot.timestep
    s.key(259)                               # backspace: reset
    clk.t += 0.1
    s.advance()
    s.key(259)
    s.advance()
    assert s.data.time == 0.0 and s.robot.cfg["omega"] == 4.5
    s.key(61), s.key(61), s.key(61)          # '=': faster, at most real time
    s.advance()
    assert s.rate == 1.0


def test_rtf_is_measured_and_a_lagging_session_is_flagged():
    clk = Clock()
    s = live.Session(gaittwin.Crawler(omega=4.0), fps=50, clock=clk)
    for _ in range(60):
        clk.t += 0.02
        s.advance()
    assert s.rtf == pytest.approx(1.0, rel=0.05) and not s.behind
    real = s.step

    def slow(n=1):
        clk.t += 2 * n * s.model.opt.timestep
        real(n)
    s.step = slow
    for _ in range(120):
        clk.t += 0.001
        s.advance()
    assert s.rtf < 0.6 and s.behind and s.min_rtf < 0.6
    assert "BEHIND REAL TIME" in s.texts()[0][3]


@pytest.mark.parametrize("robot", sorted(gaittwin.ROBOTS))
def test_texts_and_figures_show_the_key_signals(robot):
    cls = gaittwin.robot_class(robot)
    clk = Clock()
    s = live.Session(cls(), fps=50, clock=clk)
    for _ in range(3):
        clk.t += 0.02
        s.advance()
    left, right = s.texts()[0][2:]
    assert "real-time factor" in left and cls.name in right and "mm/s" in right
    name, _ = cls.gait_parameter        # the gait parameter with its unit ('omega = 1 rad/s', was 'omega = 1')
    assert f"{name} = {cls.defaults[name]:g} {schema.fields(cls.Params)[name].spec.unit}" in right
    assert caption(cls(), 1.0, 0.01).startswith(f"{cls.name}  {name}={cls.defaults[name]:g} "
                                               f"{schema.fields(cls.Params)[name].spec.unit}   t=")
    figs = s.figures(None)
    titles = [f.title for _, f in figs]
    assert titles[:4] == ["progress [m]", "inputs (ctrl)", "contact normal force [N]", "motor power [W]"]
    assert ("loop gap [mm]" in titles) == bool(cls.loops)
    assert all(f.linepnt[0] >= 3 for _, f in figs if f.title != "contact normal force [N]" or s.signals.touch)


@pytest.mark.parametrize("robot", sorted(gaittwin.ROBOTS))
def test_declared_viewer_step_and_gait_parameter(robot):
    cls = gaittwin.robot_class(robot)
    name, step = cls.gait_parameter
    assert name in schema.fields(cls.Params) and step > 0
    if cls.viewer_timestep is not None:
        assert cls.viewer_timestep > cls.defaults["timestep"]
        assert live.viewer_robot(cls()).timestep > cls().timestep


def _speed(r, cycles, window):
    from gaittwin.core.engines import batch
    run = batch.run_point(r, type(r), cycles=cycles, nthread=1)
    assert run.problem is None, run.problem
    return run.cycle_values[-window:].mean() / r.period


@pytest.mark.parametrize("robot, cycles, window", [
    pytest.param("miniaq", 6, 2, id="miniaq"),
    pytest.param("snake", 2, 1, id="snake", marks=pytest.mark.slow)])
def test_viewer_timestep_keeps_the_gait_speed_within_5_percent(robot, cycles, window):
    cls = gaittwin.robot_class(robot)
    tol = 0.05                               # issue #26: the gait's speed within 5 % of the reference step
    ref = _speed(cls(), cycles, window)
    fast = _speed(live.viewer_robot(cls()), cycles, window)
    assert abs(fast / ref - 1) <= tol, (fast, ref)


def _view(robot, seconds):
    if shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run not installed")
    res = run_script("-c", "import subprocess,sys; sys.exit(subprocess.call(['xvfb-run', '-a', sys.executable, "
                     f"'scripts/view.py', '--duration', '{seconds}', 'robot={robot}']))", timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    m = re.search(r"real-time factor ([0-9.]+)", res.stdout)
    assert m, res.stdout[-2000:]
    return float(m.group(1))


@pytest.mark.slow
@pytest.mark.parametrize("robot", sorted(gaittwin.ROBOTS))
def test_viewer_keeps_real_time_under_xvfb(robot):
    # issue #26: >= 0.95x over 10 s on the 2-core machine (measured: models/<robot>/README.md)
    assert _view(robot, 10) >= 0.95
