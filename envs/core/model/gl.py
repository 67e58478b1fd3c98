"""Choose MuJoCo's OpenGL backend once, before MuJoCo is imported.

MuJoCo reads MUJOCO_GL when it is imported, so the choice happens in this
module (which imports no MuJoCo) and is probed in a subprocess:

* MUJOCO_GL already set: respected.
* A display (DISPLAY/WAYLAND_DISPLAY): left to GLFW (the interactive viewer needs it).
* Headless: EGL first; if an EGL context cannot be made (seen as `EGLError`
  once Debian's xvfb/mesa packages are installed), OSMesa (`libosmesa6`).
  If neither works, rendering is disabled and `require()` says what to install.
"""
from __future__ import annotations

import ctypes.util
import os
import subprocess
import sys

_PROBE = r"""
import mujoco
m = mujoco.MjModel.from_xml_string('<mujoco><worldbody><geom size="1"/></worldbody></mujoco>')
r = mujoco.Renderer(m, 16, 16)
d = mujoco.MjData(m)
r.update_scene(d)
r.render()
r.close()
"""

_LIBS = {"egl": "EGL", "osmesa": "OSMesa"}
HELP = ("no headless OpenGL backend works: install OSMesa (Debian/Ubuntu: "
        "`apt-get install libosmesa6`) or a working EGL driver (`apt-get install libegl1 libgl1`), "
        "or set MUJOCO_GL to a backend that works")
_reason = ""


def probe(backend: str, timeout: float = 60.0) -> tuple[bool, str]:
    """Can MuJoCo render with `backend` here?  Tried in a fresh interpreter."""
    if ctypes.util.find_library(_LIBS[backend]) is None:
        return False, f"lib{_LIBS[backend]} not found"
    env = dict(os.environ, MUJOCO_GL=backend, PYOPENGL_PLATFORM=backend)
    try:
        res = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                             text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "timed out"
    err = (res.stderr.strip().splitlines() or [""])[-1]
    return res.returncode == 0, err


# values both MuJoCo and dm_control accept (anything else makes importing them raise)
VALID = ("egl", "osmesa", "glfw", "on", "enable", "enabled", "true", "1")
DISABLED = ("disable", "disabled", "off", "false", "0")


def configure() -> str:
    """Set MUJOCO_GL (and PYOPENGL_PLATFORM) for this process and its children; return it.

    An unknown MUJOCO_GL (e.g. a typo) would make importing MuJoCo raise, even for runs that
    never render: it is replaced by "disable", and rendering says why (require())."""
    global _reason
    chosen = os.environ.get("MUJOCO_GL", "")
    if chosen:
        if chosen in VALID + DISABLED:
            return chosen
        _reason = f"MUJOCO_GL={chosen!r} is not a backend: use one of egl, osmesa, glfw"
        os.environ["MUJOCO_GL"] = "disable"
        os.environ["GAITTWIN_GL_REASON"] = _reason
        return "disable"
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return ""
    reasons = []
    for backend in ("egl", "osmesa"):
        ok, why = probe(backend)
        if ok:
            os.environ["MUJOCO_GL"] = os.environ["PYOPENGL_PLATFORM"] = backend
            return backend
        reasons.append(f"{backend}: {why}")
    _reason = "; ".join(reasons)
    os.environ["MUJOCO_GL"] = "disable"   # simulation still works; rendering raises require()'s error
    os.environ["GAITTWIN_GL_REASON"] = _reason
    return "disable"


def require() -> str:
    """The backend for offscreen rendering, or a RuntimeError saying what to install."""
    backend = os.environ.get("MUJOCO_GL", "") or configure()
    if backend in DISABLED:
        why = os.environ.get("GAITTWIN_GL_REASON", _reason)
        if why.startswith("MUJOCO_GL="):
            raise RuntimeError(f"cannot render: {why}")
        raise RuntimeError(f"cannot render: {HELP}" + (f" (tried {why})" if why else ""))
    return backend
