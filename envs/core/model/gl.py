"""Choose MuJoCo's OpenGL backend once, before MuJoCo is imported.

MuJoCo reads MUJOCO_GL when it is imported, so the choice happens in this
module (which imports no MuJoCo) and is probed in a subprocess:

* MUJOCO_GL already set: respected.
* A display (DISPLAY/WAYLAND_DISPLAY): left to GLFW (the interactive viewer needs it).
* Headless: EGL first; if an EGL context cannot be made (seen as `EGLError`
  once Debian's xvfb/mesa packages are installed), OSMesa (`libosmesa6`).
  If neither works, rendering is disabled and `require()` says what to install.
  The headless verdict is kept in CACHE (~/.cache/gaittwin/gl.json), keyed by what it depends on
  (the interpreter, MuJoCo's files, the backend libraries found and /etc/ld.so.cache's time, which
  a library install changes): the probe, a fresh interpreter rendering once (0.7 s on a quiet 2-core
  machine), runs again only when one of them changes.  GAITTWIN_GL_CACHE=0 probes every time.
"""
from __future__ import annotations

import ctypes.util
import json
import os
import pathlib
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


CACHE = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache") / "gaittwin" / "gl.json"


def _cache_key() -> str:
    """What a headless probe's verdict depends on (module docstring)."""
    import importlib.util
    spec = importlib.util.find_spec("mujoco")
    files = [spec.origin if spec else "", "/etc/ld.so.cache"]
    stamps = [os.stat(f).st_mtime_ns if f and os.path.exists(f) else 0 for f in files]
    env = [os.environ.get(k, "") for k in ("LD_LIBRARY_PATH", "__EGL_VENDOR_LIBRARY_FILENAMES", "LIBGL_ALWAYS_SOFTWARE")]
    return json.dumps([sys.executable, *files, *stamps, *(ctypes.util.find_library(v) for v in _LIBS.values()), *env])


def _headless() -> tuple[str, str]:
    """(backend, reasons the others failed): the first of EGL, OSMesa that renders, else ("disable", reasons);
    from CACHE when its key matches."""
    use = os.environ.get("GAITTWIN_GL_CACHE", "1") != "0"
    key = _cache_key() if use else ""
    try:
        cached = json.loads(CACHE.read_text()) if use else {}
        if cached.get("key") == key:
            return cached["backend"], cached["reason"]
    except (OSError, ValueError, KeyError, AttributeError):
        pass
    reasons = []
    for backend in ("egl", "osmesa"):
        ok, why = probe(backend)
        if ok:
            break
        reasons.append(f"{backend}: {why}")
    else:
        backend = "disable"
    if use:
        try:
            CACHE.parent.mkdir(parents=True, exist_ok=True)
            tmp = CACHE.with_name(f".{CACHE.name}.{os.getpid()}")
            tmp.write_text(json.dumps(dict(key=key, backend=backend, reason="; ".join(reasons))))
            os.replace(tmp, CACHE)
        except OSError:
            pass                    # a read-only home: probe next time too
    return backend, "; ".join(reasons)


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
    backend, _reason = _headless()
    if backend != "disable":
        os.environ["MUJOCO_GL"] = os.environ["PYOPENGL_PLATFORM"] = backend
        return backend
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
