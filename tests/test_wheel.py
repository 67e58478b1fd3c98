"""The installed package: a wheel built from the checkout holds `gaittwin` alone (with its models and
configs), and a fresh virtual environment with that wheel (dependencies pinned by constraints.txt)
runs every command from an empty directory, far from the checkout.

One wheel and one venv for the module (about a minute with a warm pip cache); each command a test.
The checkout is never built in place: the build reads a copy in a temporary directory, so no
build/ or *.egg-info is left behind.
"""
from __future__ import annotations

import ctypes.util
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile

import pytest

from tests.util import ROOT

# what the build reads (pyproject.toml, setup.py's package map, the readme pyproject names)
BUILD_INPUTS = ("pyproject.toml", "setup.py", "README.md", "envs", "models", "configs")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
# the chosen GL backend of this test process (gaittwin.core.model.gl): the installed package chooses its own
PARENT_ONLY = ("MUJOCO_GL", "PYOPENGL_PLATFORM", "GAITTWIN_GL_REASON", "PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
TIMINGS: dict[str, float] = {}


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if k not in PARENT_ONLY}


def _run(cmd, what: str, cwd, timeout: float = 600, **kw) -> subprocess.CompletedProcess:
    t0 = time.perf_counter()
    res = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                         env=kw.pop("env", None) or _env(), **kw)
    TIMINGS[what] = round(time.perf_counter() - t0, 1)
    print(f"[test_wheel] {what}: {TIMINGS[what]} s (exit {res.returncode})")
    return res


def _out(res) -> str:
    return f"exit {res.returncode}\n--- stdout\n{res.stdout[-4000:]}\n--- stderr\n{res.stderr[-4000:]}"


def _backend_in_venv() -> bool:
    try:
        import setuptools.command.bdist_wheel  # noqa: F401  (setuptools >= 70.1)
        return True
    except ImportError:
        pass
    try:
        import setuptools  # noqa: F401
        import wheel  # noqa: F401  (bdist_wheel of an older setuptools)
        return True
    except ImportError:
        return False


class Installed:
    def __init__(self, wheel, venv, cwd, tmp):
        self.wheel, self.venv, self.cwd, self.tmp = wheel, venv, cwd, tmp
        self.bin = venv / ("Scripts" if os.name == "nt" else "bin")
        self.python = self.bin / "python"
        self.gaittwin = self.bin / "gaittwin"

    def run(self, what, *args, **kw):
        return _run(args, what, self.cwd, **kw)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    tmp = tmp_path_factory.mktemp("wheel")
    src, dist = tmp / "src", tmp / "dist"
    src.mkdir()
    before = set(os.listdir(ROOT))
    for name in BUILD_INPUTS:
        p = ROOT / name
        (shutil.copytree(p, src / name, ignore=SKIP) if p.is_dir() else shutil.copy2(p, src / name))
    # a build without isolation needs the backend pyproject.toml names, with bdist_wheel (setuptools >= 70.1,
    # which the dev extra installs); without it (an old setuptools and no `wheel`, or none at all) pip fetches
    # the backend into an isolated build environment instead
    isolation = ["--no-build-isolation"] if _backend_in_venv() else []
    res = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-w", dist, src], "build wheel", tmp)
    assert res.returncode == 0, _out(res)
    wheels = sorted(dist.glob("gaittwin-*.whl"))
    assert len(wheels) == 1, wheels
    left = {n for n in set(os.listdir(ROOT)) - before if n in ("build", "dist") or n.endswith(".egg-info")}
    assert not left, f"building the wheel left {sorted(left)} in the checkout"

    venv = tmp / "venv"
    res = _run([sys.executable, "-m", "venv", venv], "create venv", tmp)
    assert res.returncode == 0, _out(res)
    inst = Installed(wheels[0], venv, tmp / "empty", tmp)
    inst.cwd.mkdir()
    # dependencies pinned as setup.sh pins them; a missing network or index is a failure with pip's words
    res = _run([inst.python, "-m", "pip", "install", "-c", ROOT / "constraints.txt", wheels[0]],
               "pip install wheel (fresh venv)", tmp, timeout=1800)
    if res.returncode != 0:
        pytest.fail("installing the wheel into a fresh venv failed (pip needs the index or its cache):\n" + _out(res))
    yield inst
    print(f"[test_wheel] timings (s): {json.dumps(TIMINGS)}")


def test_wheel_holds_the_package_and_its_data_only(installed):
    names = zipfile.ZipFile(installed.wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    dist_info = {t for t in tops if t.endswith(".dist-info")}
    assert tops - dist_info == {"gaittwin"}, sorted(tops)     # no top-level envs/, models/, configs/
    assert len(dist_info) == 1
    for robot in ("crawler", "snake", "bolt", "miniaq"):
        assert f"gaittwin/models/{robot}/scene.xml" in names
    assert "gaittwin/configs/config.yaml" in names
    assert "gaittwin/configs/__init__.py" in names            # pkg://gaittwin.configs (Hydra)


def test_the_checkout_name_is_not_importable(installed):
    res = installed.run("python -c 'import envs'", installed.python, "-c", "import envs")
    assert res.returncode != 0 and "No module named 'envs'" in res.stderr, _out(res)


def test_list_names_the_experiments(installed):
    res = installed.run("gaittwin list", installed.gaittwin, "list")
    assert res.returncode == 0, _out(res)
    assert "experiments" in res.stdout
    for name in ("bolt_running", "bolt_foot_path"):
        assert name in res.stdout, res.stdout[-3000:]


def test_run_writes_results_and_summary(installed):
    out = installed.tmp / "run"
    res = installed.run("gaittwin run experiment=bolt_running run.cycles=3", installed.gaittwin, "run",
                        "experiment=bolt_running", "run.cycles=3", f"hydra.run.dir={out}")  # 3: the fewest with a stride time
    assert res.returncode == 0, _out(res)
    assert (out / "results.csv").is_file() and (out / "summary.json").is_file(), sorted(os.listdir(out))
    summary = json.loads((out / "summary.json").read_text())
    assert summary.get("error") is None, summary
    assert not os.listdir(installed.cwd), "a run wrote into the working directory"


def test_render_writes_a_video(installed):
    if ctypes.util.find_library("EGL") is None and ctypes.util.find_library("OSMesa") is None:
        pytest.skip("no OpenGL at all on this system (neither libEGL nor libOSMesa): nothing can render")
    out = installed.tmp / "b.mp4"
    res = installed.run("gaittwin render robot=bolt --cycles 0.5", installed.gaittwin, "render", "robot=bolt",
                        "--cycles", "0.5", "--out", out)
    assert res.returncode == 0, _out(res)
    assert out.is_file() and out.stat().st_size > 1000


def test_view_under_xvfb(installed):
    env = {k: v for k, v in _env().items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    if shutil.which("xvfb-run"):
        res = installed.run("gaittwin view --duration 3 (xvfb-run)", "xvfb-run", "-a", installed.gaittwin, "view",
                            "--duration", "3", env=env, timeout=300)
    elif shutil.which("Xvfb"):
        r, w = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                                pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        try:
            with os.fdopen(r) as f:
                display = f.readline().strip()
            assert display, "Xvfb did not report a display"
            res = installed.run("gaittwin view --duration 3 (Xvfb)", installed.gaittwin, "view", "--duration", "3",
                                env=dict(env, DISPLAY=f":{display}"), timeout=300)
        finally:
            xvfb.terminate()
            xvfb.wait(30)
    else:
        pytest.skip("neither xvfb-run nor Xvfb is installed (scripts/setup.sh installs the xvfb package)")
    assert res.returncode == 0, _out(res)
    assert "real-time factor" in res.stdout, _out(res)


def test_load_and_reset_an_environment(installed):
    res = installed.run("python -c load('miniaq').reset()", installed.python, "-c",
                        "import gaittwin; gaittwin.load('miniaq').reset()")
    assert res.returncode == 0, _out(res)
