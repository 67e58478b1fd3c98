"""Videos (scripts/render.py, envs/core/view/render.py): default length >= 3 strides, text overlay,
no silent overwrite, --compare (twin beside the crawler's exact hybrid model, MinIAQ-II's paper model)."""
import numpy as np
import pytest

import gaittwin
from gaittwin.core.view import render
from tests.util import run_script


@pytest.mark.parametrize("robot", sorted(gaittwin.ROBOTS))
def test_default_length_is_at_least_three_strides_and_four_seconds(robot):
    r = gaittwin.robot_class(robot)()
    n = render.default_cycles(r)
    assert n >= 3 and n * r.period >= 4.0 - 1e-9
    assert (n - 1) * r.period < 4.0 or n == 3          # no longer than needed


def test_free_path_never_returns_an_existing_file(tmp_path):
    p = tmp_path / "gait.mp4"
    assert render.free_path(p) == p
    p.write_bytes(b"x")
    (tmp_path / "gait_2.mp4").write_bytes(b"x")
    assert render.free_path(p) == tmp_path / "gait_3.mp4"


def test_overlay_draws_text_on_a_band():
    frame = np.full((96, 160, 3), 128, np.uint8)
    out = render.overlay(frame, "crawler  omega=1   t= 0.00 s   v=   0.0 mm/s")
    band = out[: 96 // 24 * 2]
    assert (band == 0).mean() > 0.3 and (band > 200).any()       # dark band, white text
    assert (out[40:] == 128).all()                                # the picture below untouched


def _frames(path):
    import imageio_ffmpeg
    fr = imageio_ffmpeg.read_frames(str(path))
    meta = next(fr)
    w, h = meta["size"]
    return [np.frombuffer(f, np.uint8).reshape(h, w, 3) for f in fr]


def test_compare_video_and_no_overwrite(tmp_path):
    out = tmp_path / "gait.mp4"
    args = ("scripts/render.py", "--compare", "--cycles", "0.3", "--width", "160", "--height", "96",
            "--out", out, "robot.omega=8")
    res = run_script(*args)
    assert res.returncode == 0, res.stderr[-2000:]
    imgs = _frames(out)
    assert imgs[0].shape == (96, 320, 3)                          # twin | reference
    assert imgs[0][:, :160].std() > 5 and imgs[0][:, 160:].std() > 5
    before = out.read_bytes()
    res = run_script(*args[:-1], "--no-text", "robot.omega=8")
    assert res.returncode == 0 and "exists: writing" in res.stdout
    assert out.read_bytes() == before and (tmp_path / "gait_2.mp4").exists()


def test_compare_without_a_reference_engine_exits_2(tmp_path):
    res = run_script("scripts/render.py", "--compare", "--out", tmp_path / "x.mp4", "robot=snake")
    assert res.returncode == 2 and "--compare" in res.stderr and not (tmp_path / "x.mp4").exists()
    assert "crawler" in res.stderr and "miniaq" in res.stderr          # the robots that have one


def test_miniaq_reference_pose_is_the_paper_models_with_closed_legs():
    """The paper model's pose on the twin's joints (envs/miniaq/paper/compare.py) at a sample of its run:
    torso = the paper's centroid and attitude; every leg's loop closed (tolerance 1e-9 m: the
    position analysis is exact); cranks at the paper's prescribed angles."""
    import mujoco
    from gaittwin.miniaq.paper import compare, model as paper
    from gaittwin.miniaq.paper_laws import euler_to_quat
    from gaittwin.miniaq.robot import LEGS, MiniAQ
    r = MiniAQ()
    set_state, label = compare.reference(r, 0.4)
    run = paper.simulate(r, cycles=2)
    m = r.model()
    d = mujoco.MjData(m)
    k = 150                                   # a sample (not t = 0)
    set_state(m, d, run.t[k])
    mujoco.mj_kinematics(m, d)
    mujoco.mj_fwdPosition(m, d)
    mujoco.mj_sensorPos(m, d)
    np.testing.assert_allclose(d.joint("root").qpos[:3], run.X[k, :3], atol=1e-12)
    np.testing.assert_allclose(d.joint("root").qpos[3:], euler_to_quat(run.X[k, 3:6]), atol=1e-12)
    for leg in LEGS:
        gap = np.linalg.norm(d.sensor(f"{leg}_C_coupler").data - d.sensor(f"{leg}_C_rocker").data)
        assert gap < 1e-9, (leg, gap)
        assert d.joint(f"{leg}_crank").qpos[0] == pytest.approx(run.sensor(f"{leg}_crank_pos")[k, 0], abs=1e-12)
    assert "paper" in label


def test_miniaq_compare_video(tmp_path):
    """render.py --compare for MinIAQ-II: the twin beside the paper model, one video."""
    out = tmp_path / "miniaq.mp4"
    res = run_script("scripts/render.py", "--compare", "--cycles", "0.5", "--width", "160", "--height", "96",
                     "--out", out, "robot=miniaq")
    assert res.returncode == 0, res.stderr[-2000:]
    imgs = _frames(out)
    assert len(imgs) == round(0.5 * 0.4 * 30) and imgs[0].shape == (96, 320, 3)   # 0.5 periods of 0.4 s at 30 fps
    assert imgs[-1][:, :160].std() > 5 and imgs[-1][:, 160:].std() > 5
