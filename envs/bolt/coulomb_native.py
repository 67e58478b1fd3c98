"""The Coulomb foot's step in C (envs/bolt/coulomb_foot.c, the law of coulomb_foot.CoulombFoot with its normal-force
response read from the step's own constraint solution), compiled at first use into a cache folder and called
through ctypes on MuJoCo's own mjModel/mjData.

The library is built once per source, MuJoCo version and platform into $GAITTWIN_CACHE (default
$XDG_CACHE_HOME/gaittwin, else ~/.cache/gaittwin), never next to the installed package (site-packages may be
read-only), against the libmujoco that the `mujoco` package ships (its headers and library).  No C compiler ($CC,
else gcc, else cc), a failed build or GAITTWIN_BOLT_NATIVE=0: `load()` returns None and `reason()` says why; the
caller then runs the Python hook (the same law)."""
from __future__ import annotations

import ctypes
import hashlib
import os
import pathlib
import platform
import shutil
import subprocess
import tempfile

import mujoco
import numpy as np

SOURCE = pathlib.Path(__file__).with_name("coulomb_foot.c")
SYMBOLS = ("gaittwin_bolt_coulomb_step", "gaittwin_bolt_feedback", "gaittwin_bolt_run")
NPRM, NSTATE, NOUT, NAUX = 10, 8, 6, 7
CFLAGS = ("-O2", "-fno-builtin-pow", "-shared", "-fPIC", "-pthread")   # no builtin pow: gap2's pow is Python's `** 2`
_lib: list = []          # [function or None, reason]


def cache_dir() -> pathlib.Path:
    root = os.environ.get("GAITTWIN_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "gaittwin")
    return pathlib.Path(root) / "bolt"


def _mujoco_lib() -> pathlib.Path | None:
    pkg = pathlib.Path(mujoco.__file__).parent
    libs = sorted(pkg.glob("libmujoco.so*")) + sorted(pkg.glob("libmujoco*.dylib"))
    return libs[0] if libs else None


def _build() -> tuple:
    """(path of the compiled library, "") or (None, why not)."""
    if os.environ.get("GAITTWIN_BOLT_NATIVE", "1") == "0":
        return None, "GAITTWIN_BOLT_NATIVE=0"
    cc = shutil.which(os.environ["CC"]) if os.environ.get("CC") else shutil.which("gcc") or shutil.which("cc")
    if not cc:
        return None, f"no C compiler found ({'$CC=' + os.environ['CC'] if os.environ.get('CC') else 'gcc, cc'})"
    lib = _mujoco_lib()
    inc = pathlib.Path(mujoco.__file__).parent / "include"
    if lib is None or not (inc / "mujoco" / "mujoco.h").exists():
        return None, f"the mujoco package at {pathlib.Path(mujoco.__file__).parent} ships no libmujoco or headers"
    key = hashlib.sha256(SOURCE.read_bytes() + f"{mujoco.__version__}|{lib}|{platform.platform()}|{CFLAGS}".encode())
    out = cache_dir() / f"coulomb_foot-{key.hexdigest()[:16]}.so"
    if out.exists():
        return out, ""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=out.parent) as tmp:
            tmp_out = pathlib.Path(tmp) / out.name
            cmd = [cc, *CFLAGS, f"-I{inc}", str(SOURCE), "-o", str(tmp_out), f"-L{lib.parent}",
                   f"-l:{lib.name}", f"-Wl,-rpath,{lib.parent}", "-lm"]
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            if res.returncode:
                return None, f"{cc} failed (exit {res.returncode}): {res.stderr.strip()[-300:]}"
            os.replace(tmp_out, out)   # atomic: a concurrent build leaves one complete file
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"cannot build into {out.parent}: {e}"
    return out, ""


def load():
    """The C functions (step, feedback), or None (reason(): why)."""
    if not _lib:
        path, why = _build()
        fns = None
        if path is not None:
            try:
                lib = ctypes.CDLL(str(path))
                fns = tuple(getattr(lib, s) for s in SYMBOLS)
                for fn, nargs in zip(fns, (5, 7)):
                    fn.restype, fn.argtypes = ctypes.c_int, [ctypes.c_void_p] * nargs
                fns[2].restype = ctypes.c_int
                fns[2].argtypes = [ctypes.c_void_p] * 8 + [ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                                           ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
            except (OSError, AttributeError) as e:
                fns, why = None, f"cannot load {path}: {e}"
        _lib[:] = [fns, why]
    return _lib[0]


def reason() -> str:
    load()
    return _lib[1]


def feedback_params(robot, model) -> np.ndarray:
    """Bolt.feedback's constants for the C feedback (coulomb_foot.c: fprm)."""
    p = robot.p
    return np.array([p.tau_max, p.P_max, float(p.limit_mode == "clamp"), min(p.tau_max, p.P_max / robot.omega),
                     *robot._indices(model)], float)


class NativeLoop:
    """Bolt's closed loop in C for one compiled model (coulomb_foot.c gaittwin_bolt_run: controls, the C feedback,
    mj_step, a chunk a call); here without the Coulomb foot (prm None: the actuator limit alone).  NativeFoot adds
    the foot."""

    prm = None

    def __init__(self, fns, model):
        self.run, self.model = fns[2], model
        self.state, self.out, self.aux, self.fprm = np.zeros(NSTATE), np.zeros(NOUT), np.zeros(NAUX), None
        self._bind()

    def _bind(self) -> None:
        self._m = ctypes.c_void_p(self.model._address)
        self._d = (None, None)

    def _prepare(self, robot, model, data) -> None:
        if self.fprm is None:
            self.fprm = feedback_params(robot, model)
        if self._d[0] is not data:
            self._d = (data, ctypes.c_void_p(data._address))

    def steps(self, robot, model, data, ctrl: np.ndarray, rec: np.ndarray | None = None, step0: int = 0,
              stride: int = 1, acc: np.ndarray | None = None) -> None:
        """len(ctrl) steps of the closed loop in one C call: what the runner's Python loop does (Robot.native_loop),
        the Coulomb foot's frictionless pass skipped where the foot is surely out of contact (the same run to the
        bit).  Arrays float64, C-contiguous."""
        self._prepare(robot, model, data)
        ctrl = np.ascontiguousarray(ctrl, float)
        naux = len(self.aux)
        if acc is None:
            acc = np.full(naux, -np.inf)
        if rec is not None:
            assert rec.flags.c_contiguous and rec.dtype == np.float64 and len(rec) >= len(ctrl)
        nsens = 0 if rec is None else rec.shape[1] - naux
        if self.run(self._m, self._d[1], self.fprm.ctypes.data, None if self.prm is None else self.prm.ctypes.data,
                    self.state.ctypes.data, self.out.ctypes.data, self.aux.ctypes.data, ctrl.ctypes.data, len(ctrl),
                    None if rec is None else rec.ctypes.data, nsens, naux, int(stride), int(step0), acc.ctypes.data):
            raise RuntimeError("the Coulomb foot's C step refused the model (more than 32 dofs)")


class NativeFoot(NativeLoop):
    """CoulombFoot's call in C for one compiled model: call(model, data) before each mj_step sets xfrc_applied and
    returns (F_n, |F_t|, |v_t|).  Counters (state): contact_steps, inconsistent, lost, stops, probe_passes (steps
    whose normal-force response needed a second forward pass: a constraint row neither quadratic nor satisfied),
    sticks (friction "implicit": steps ending with zero slip inside the cone); last: the branch of the last call
    ("none", "slide", "stop", "lag", "stick")."""

    BRANCHES = ("none", "slide", "stop", "lag", "stick")

    def __init__(self, fns, model, mu: float, v_eps: float, impasse: str, den_min: float, probe: float,
                 friction: str = "regularised"):
        (self.fn, self.fb, self.run), self.model = fns, model
        foot, floor = model.geom("foot").id, model.geom("floor").id
        self.prm = np.array([mu, v_eps, den_min, float(impasse == "stop"), probe, foot, floor,
                             model.geom_bodyid[foot], model.geom_bodyid[floor], float(friction == "implicit")], float)
        self.state, self.out = np.zeros(NSTATE), np.zeros(NOUT)
        self.aux, self.fprm = np.zeros(NAUX), None
        self._bind()

    def _bind(self) -> None:
        super()._bind()
        self._args = (self.prm.ctypes.data, self.state.ctypes.data, self.out.ctypes.data)

    KEEP = ("model", "prm", "state", "out", "aux", "fprm")

    def __getstate__(self) -> dict:   # a run's robot travels (Ray): the arrays and the model, not the C handles
        return {k: self.__dict__[k] for k in self.KEEP}

    def __setstate__(self, state: dict) -> None:
        fns = load()
        if fns is None:
            raise RuntimeError(f"the Coulomb foot's C step cannot be built here: {reason()}")
        self.__dict__.update(state)
        self.fn, self.fb, self.run = fns
        self._bind()

    def feedback(self, robot, model, data) -> np.ndarray:
        """Bolt.feedback (the actuator limit and its per-step values, Bolt.AUX) and then this step, in one C call
        (coulomb_foot.c gaittwin_bolt_feedback: the Python method's arithmetic)."""
        self._prepare(robot, model, data)
        if self.fb(self._m, self._d[1], self.fprm.ctypes.data, *self._args, self.aux.ctypes.data):
            raise RuntimeError("the Coulomb foot's C step refused the model (more than 32 dofs)")
        return self.aux.copy()

    def __call__(self, model, data) -> tuple:
        if self._d[0] is not data:
            self._d = (data, ctypes.c_void_p(data._address))
        if self.fn(self._m, self._d[1], *self._args):
            raise RuntimeError("the Coulomb foot's C step refused the model (more than 32 dofs)")
        o = self.out
        return float(o[0]), float(o[1]), float(o[2])

    @property
    def last(self) -> str:
        return self.BRANCHES[int(self.out[3])]

    def __getattr__(self, name):
        keys = ("in_contact", "after_stop", "contact_steps", "inconsistent", "lost", "stops", "probe_passes", "sticks")
        if name in keys:
            return int(self.state[keys.index(name)])
        raise AttributeError(name)
