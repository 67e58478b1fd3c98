import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run_script(*args, timeout=600, env=None, cwd=None):
    """Run a project script with this interpreter; returns CompletedProcess."""
    return subprocess.run([sys.executable, *map(str, args)], cwd=cwd or ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def render_frames(tmp_path, width: int, height: int, *args):
    """Run scripts/render.py (args: --cycles ... and Hydra overrides); return the decoded frames."""
    import imageio_ffmpeg
    import numpy as np

    path = tmp_path / "gait.mp4"
    res = run_script("scripts/render.py", "--width", width, "--height", height, "--out", path, *args)
    assert res.returncode == 0, res.stderr[-2000:]
    frames = imageio_ffmpeg.read_frames(str(path))
    meta = next(frames)
    assert meta["size"] == (width, height)
    return [np.frombuffer(f, np.uint8).reshape(height, width, 3) for f in frames]


def assert_fails_early(tmp_path, param: str, *overrides, text: str = "allowed"):
    """scripts/run.py with `overrides` exits 2 naming `param` (and `text`) and leaves no run dir."""
    out = tmp_path / "bad"
    res = run_script("scripts/run.py", *overrides, f"hydra.run.dir={out}")
    assert res.returncode == 2, res.stderr[-2000:]
    assert f"error: {param}=" in res.stderr and text in res.stderr, res.stderr[-2000:]
    assert not out.exists()
