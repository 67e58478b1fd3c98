"""The interactive viewer (scripts/view.py, envs/core/view/viewer.py): no display -> the Xvfb hint and exit
2; pacing, keys, the smoothed real-time factor, texts and figures of a session (a fake clock, no window);
the layout (texts clear of the figures, figures wide enough) and the camera framing the robot; each
robot's viewer timestep against its reference step; under Xvfb, the real-time factor it reports and
the screenshots script."""
import math
import re
import shutil

import mujoco
import numpy as np
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


def _step_costs(s, clk, wall_per_sim: float) -> None:
    """Make Session s's physics cost wall_per_sim s of the fake clock clk per simulated s."""
    real = s.step

    def costly(n=1):
        clk.t += wall_per_sim * n * s.model.opt.timestep
        real(n)
    s.step = costly


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


def test_bad_durations_are_refused(capsys):
    from gaittwin.app import view
    for flag in ("--duration", "--sim-duration", "--fps"):
        assert view.main([flag, "0"]) == 2
        assert f"error: {flag}=0 is not allowed: allowed range is (0, inf)" in capsys.readouterr().err


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
    _step_costs(s, clk, 2.0)
    for _ in range(120):
        clk.t += 0.001
        s.advance()
    assert s.rtf < 0.6 and s.behind and s.min_rtf < 0.6
    assert "BEHIND REAL TIME" in s.texts()[0][3]


def test_rtf_is_averaged_over_a_window_that_keeps_a_stall():
    """After a 1.5 s stall the physics catches up at 4x real time over several frames: the figure on
    screen is the mean over the window, stall included (within 5 % of 1 at most), never the burst."""
    tol, dip = 0.05, 0.8                     # at most 1 + tol after the stall; it shows as a dip below `dip`
    clk = Clock()
    s = live.Session(gaittwin.Crawler(omega=4.0), fps=50, clock=clk)
    _step_costs(s, clk, 0.25)                # stepping costs a quarter of the simulated time
    for _ in range(150):                     # 3 s at real time
        clk.t += 0.02
        s.advance()
    assert s.rtf == pytest.approx(1.0, rel=0.05)
    clk.t += 1.5                             # the stall: no frame for 1.5 s
    shown = []
    for _ in range(100):
        clk.t += 0.005
        s.advance()
        shown.append(s.rtf)
    assert max(shown) <= 1 + tol, max(shown)  # a single frame's ratio during the catch-up reads 4x
    assert min(shown) < dip


def test_after_lagging_the_catch_up_is_bounded():
    """3 s at half speed (the physics too slow), then fast again: the pacing catches up at most
    MAX_LAG, so the RTF on screen stays within 1 + MAX_LAG / RTF_WINDOW (+2 % for the frame steps)."""
    bound = 1 + live.MAX_LAG / live.RTF_WINDOW + 0.02
    clk = Clock()
    s = live.Session(gaittwin.Crawler(omega=4.0), fps=50, clock=clk)
    real = s.step
    cost = [2.0]                             # wall s per simulated s of stepping

    def paced(n=1):
        clk.t += cost[0] * n * s.model.opt.timestep
        real(n)
    s.step = paced
    for _ in range(150):
        clk.t += 0.001
        s.advance()
    assert s.rtf < 0.6
    cost[0] = 0.25
    shown = []
    for _ in range(300):
        clk.t += 0.005
        s.advance()
        shown.append(s.rtf)
    assert max(shown) <= bound, max(shown)
    assert shown[-1] == pytest.approx(1.0, abs=0.05)


def test_rtf_waits_for_a_second_of_measurement():
    clk = Clock()
    s = live.Session(gaittwin.Crawler(omega=4.0), fps=50, clock=clk)
    for _ in range(10):                      # 0.2 s
        clk.t += 0.02
        s.advance()
    assert math.isnan(s.rtf) and "measuring" in s.texts()[0][3]


@pytest.mark.parametrize("robot", sorted(gaittwin.ROBOTS))
def test_texts_and_figures_show_the_key_signals(robot):
    cls = gaittwin.robot_class(robot)
    clk = Clock()
    s = live.Session(cls(), fps=50, clock=clk)
    for _ in range(60):
        clk.t += 0.02
        s.advance()
    (_, pos, left, right), (_, kpos, keys, actions) = s.texts()
    assert pos == mujoco.mjtGridPos.mjGRID_TOPLEFT and kpos == mujoco.mjtGridPos.mjGRID_BOTTOMLEFT
    assert "real-time factor" in left and cls.name in right and "mm/s" in right and "x (2-s mean)" in right
    name, step = cls.gait_parameter     # the gait parameter with its unit ('omega = 1 rad/s', was 'omega = 1')
    unit = schema.fields(cls.Params)[name].spec.unit
    assert f"{name} = {cls.defaults[name]:g} {unit}" in right
    assert "space" in keys and "tab / shift+tab" in keys and f"{name} +/- {step:g} {unit}" in actions
    assert caption(cls(), 1.0, 0.01).startswith(f"{cls.name}  {name}={cls.defaults[name]:g} {unit}   t=")
    figs = s.figures(None)
    titles = [f.title for _, f in figs]
    assert titles[:4] == ["progress [m]", "inputs: servo targets [rad]", "contact normal force [N]",
                          "motor power [W]"]
    assert ("loop gap [mm]" in titles) == bool(cls.loops)
    for _, f in figs:
        assert f.gridsize[0] >= 5 and f.gridsize[1] >= 3          # axes with tick values, not 0 and 1 only
        assert f.range[0][1] - f.range[0][0] == live.HISTORY_S   # seconds of history on a fixed time axis
        assert f.range[1][0] >= f.range[1][1]                     # the y axis follows the data
        if f.title != "contact normal force [N]" or s.signals.touch:
            assert f.linepnt[0] >= 30
            t = f.linedata[0, :2 * f.linepnt[0]:2]
            assert t.min() >= f.range[0][0] and t.max() <= s.data.time + 1e-9


SIZES = [(1280, 800), (853, 533)]         # the screenshots' size; the 2/3-of-1280x800 window of MuJoCo's default


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("robot", sorted(gaittwin.ROBOTS))
def test_layout_keeps_the_texts_off_the_figures(robot, size):
    s = live.Session(gaittwin.robot_class(robot)(), fps=50, clock=Clock())
    s.hist["power"].append((0.0, -1.23456e-3))              # the widest values the texts show
    s.rtf, s.behind = 0.123, True
    view = mujoco.MjrRect(0, 0, *size)
    lay = s.layout(view)
    assert len(lay.figures) == len(s.panels()) and len(lay.texts) == 2
    for fig in lay.figures:
        assert fig.width >= live.FIG_MIN_WIDTH and fig.right <= size[0] and fig.bottom >= 0
        assert not any(fig.intersects(t) for t in lay.texts), (fig, lay.texts)
    assert not lay.texts[0].intersects(lay.texts[1])
    for a, b in zip(lay.figures, lay.figures[1:]):
        assert not a.intersects(b)
    assert [rect.left for rect, _ in s.figures(view)] == [f.left for f in lay.figures]


def test_layout_follows_mujocos_panels_and_font_scale():
    texts = [(mujoco.mjtGridPos.mjGRID_TOPLEFT, "a\nb", "x"), (mujoco.mjtGridPos.mjGRID_BOTTOMLEFT, "k", "v")]
    lay = live.layout(live.Rect(300, 0, 900, 800), 4, texts)      # the left panel shown: the view starts at 300
    assert lay.figures[0].right == 1200 and lay.texts[0].left == 300 + live.PAD and lay.free.left == 300
    big = live.layout(live.Rect(0, 0, 1280, 800), 4, texts, scale=200)
    assert big.figures[0].width >= 2 * live.FIG_MIN_WIDTH and big.texts[0].height > lay.texts[0].height


def test_font_scale_follows_mujocos_rule():
    assert live.font_scale(1280, 338) == 100          # 96 ppi (Xvfb)
    assert live.font_scale(3840, 597) == 150          # 27" 4K, 163 ppi
    assert live.font_scale(2560, 286, b2w=2.0) == 200 # Retina
    assert live.font_scale(1280, 0) == 150            # no physical size: MuJoCo's default


def test_font_metrics_bound_mujocos():
    """The layout's character widths are upper bounds of MuJoCo's, and its heights are MuJoCo's."""
    from gaittwin.core.model import gl
    try:
        gl.require()
    except RuntimeError as e:
        pytest.skip(str(e))
    m = mujoco.MjModel.from_xml_string("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
    with mujoco.Renderer(m, 16, 16):
        for scale, height in live.CHAR_HEIGHT.items():
            con = mujoco.MjrContext(m, scale)
            assert con.charHeight == height
            for c in range(32, 127):
                assert live.char_width(chr(c), scale) >= con.charWidth[c], (scale, chr(c))
            con.free()


@pytest.mark.parametrize("robot", sorted(gaittwin.ROBOTS))
def test_camera_frames_the_robot_in_the_free_view(robot):
    """Project the robot's bounding-box corners with MuJoCo's own camera (mjv_updateCamera) at the
    distance the viewer picks: all inside the part of the view the figures leave free."""
    s = live.Session(gaittwin.robot_class(robot)(), fps=50, clock=Clock())
    m, d = s.model, s.data
    mujoco.mj_forward(m, d)
    W, H = 1280, 800
    view = live.Rect(0, 0, W, H)
    lay = s.layout(mujoco.MjrRect(0, 0, W, H))
    body = s.robot.camera_body
    pts = live.robot_points(m, d)
    cam = mujoco.MjvCamera()
    cam.type, cam.trackbodyid = mujoco.mjtCamera.mjCAMERA_TRACKING, body
    cam.azimuth, cam.elevation = live.AZIMUTH, live.ELEVATION
    cam.distance = live.frame_distance(pts, d.subtree_com[body], view, lay.free, m.vis.global_.fovy)
    scn = mujoco.MjvScene(m, 100)
    mujoco.mjv_updateCamera(m, d, cam, scn)
    c = scn.camera[0]
    fwd, up = np.array(c.forward), np.array(c.up)
    rel = pts - (np.array(c.pos) + np.array(scn.camera[1].pos)) / 2     # between the two eyes (ipd)
    depth = rel @ fwd
    px = (H / 2) / (c.frustum_top / c.frustum_near)       # px per unit at unit depth
    x = W / 2 + (rel @ np.cross(fwd, up)) / depth * px
    y = H / 2 + (rel @ up) / depth * px
    assert depth.min() > c.frustum_near
    assert x.min() >= lay.free.left and x.max() <= lay.free.right, (x.min(), x.max(), lay.free)
    assert y.min() >= 0 and y.max() <= H
    assert x.max() - x.min() > 0.4 * (lay.free.width) or y.max() - y.min() > 0.4 * H   # and not a speck


@pytest.mark.parametrize("robot", sorted(gaittwin.ROBOTS))
def test_declared_viewer_step_and_gait_parameter(robot):
    cls = gaittwin.robot_class(robot)
    name, step = cls.gait_parameter
    assert name in schema.fields(cls.Params) and step > 0
    r = cls()
    if r.viewer_timestep is not None:
        assert r.viewer_timestep > cls.defaults["timestep"]
        assert live.viewer_robot(r).timestep > r.timestep


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


@pytest.mark.slow
def test_screenshots_script_shows_the_viewer_filling_the_screen(tmp_path):
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb not installed")
    from PIL import Image
    res = run_script("scripts/viewer_screenshots.py", "--size", "800x500", "--seconds", "2", "--out", tmp_path,
                     "crawler", timeout=300)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "window 800x500" in res.stdout                    # no window manager: sized to the screen by fill_screen
    img = np.asarray(Image.open(tmp_path / "viewer_crawler.png"))
    assert img.shape == (500, 800, 3) and img.std() > 10


def test_a_session_behind_steps_longer_before_the_next_frame():
    """Stepping costs 0.8 s of wall time per simulated s and every frame 10 ms more (drawing, syncing): stepping at
    most one frame (20 ms) per frame would run at 25 / 30 = 0.83 of real time; more than a frame behind the session
    steps up to CATCHUP_FRAMES frames, so it keeps real time (tolerance stated first: RTF >= 0.95 over the window)."""
    clk = Clock()
    s = live.Session(gaittwin.Crawler(omega=4.0), fps=50, clock=clk)
    _step_costs(s, clk, 0.8)
    for _ in range(300):
        s.advance()
        clk.t += 0.010
    assert live.CATCHUP_FRAMES * 0.02 / 0.8 > 0.02 / 0.8 + 0.010   # the setting can carry this load at all
    assert s.rtf >= 0.95, s.rtf
