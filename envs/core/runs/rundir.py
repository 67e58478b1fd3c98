"""A run directory (scripts/run.py's Hydra output directory): where it is, who may write into it.

- `prepare(argv)`, before Hydra starts: resolves `hydra.run.dir` (an unset environment variable or
  a broken interpolation is a one-line error), and checks the file system -- the path must be a
  writable directory (or creatable), and results.csv / results.sqlite / summary.json in it must
  not be directories.  Default directories (`outputs/<experiment>/<timestamp>`, multirun
  `multirun/<experiment>/<timestamp>`) are claimed atomically (mkdir); a run starting in the same
  second as another gets the next free suffix (`<timestamp>_1`, ...), so two runs never share one.
- `claim(out, cfg)`, once Hydra has made it: a run directory holds one robot's results (a second
  robot's run is refused) and belongs to one run at a time -- a lock (`.gaittwin.lock`, fcntl)
  held until the process ends; a second writer with the same settings (another grid of the same
  experiment, the store keeps both) may share it, one with different settings is refused.
- `aside(path)`: a free name beside `path` to move a file the store cannot verify to
  (`results.csv.bak`, `results.csv.bak1`, ...): a user's file is never overwritten.
- `new_run(out)` ... `finish_run(out)` (experiment.compute): a run's own points (`asked`), the
  engine of each (`ran_on`), and its results files written at its end where a sweep call left them.

Refusals are RunDirError: one line, exit code 2 from scripts/run.py, nothing written.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import pathlib
import threading
import time

LOCK = ".gaittwin.lock"
RESULT_FILES = ("results.csv", "results.sqlite", "summary.json")


class RunDirError(RuntimeError):
    """The run directory cannot be used (file system, another run, another robot)."""


# ---- before Hydra ------------------------------------------------------------------------------
def _given(argv, key: str):
    for a in argv:
        k, eq, v = a.lstrip("+").partition("=")
        if eq and k == key:
            return v
    return None


def _resolved(argv, key: str) -> str:
    """The value of hydra.<...> that Hydra would use for this command line."""
    from hydra import compose, initialize_config_module
    from omegaconf import OmegaConf

    from ..model.paths import CONFIG_MODULE

    given = _given(argv, key)
    if given is not None and "$" not in given:      # a literal directory: what Hydra uses, nothing to compose
        from .overrides import parse
        with contextlib.suppress(Exception):
            value = parse([f"{key}={given}"])[0].value()
            if isinstance(value, str):
                return value
    overrides = [a for a in argv if not a.startswith("-")]
    try:
        if key == "hydra.sweep.dir":               # a multirun: its first job (comma lists are not values)
            from .overrides import expand_multirun
            overrides = [o for o in overrides if o.startswith("hydra")] + expand_multirun(overrides)[0]
        with initialize_config_module(config_module=CONFIG_MODULE, version_base="1.3"):
            cfg = compose(config_name="config", overrides=overrides, return_hydra_config=True)
        return str(OmegaConf.select(cfg, key, throw_on_missing=True))
    except Exception as e:  # noqa: BLE001  (interpolation, resolver, missing env: all one line)
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise RunDirError(f"{key}={_given(argv, key)!r} cannot be resolved: {msg}") from None


def _claim_unique(base: pathlib.Path) -> pathlib.Path:
    """mkdir base, or base_1, base_2, ... (the first that did not exist): atomic per name."""
    base.parent.mkdir(parents=True, exist_ok=True)
    for k in range(10_000):
        p = base if k == 0 else base.with_name(f"{base.name}_{k}")
        try:
            p.mkdir()
            return p
        except FileExistsError:
            continue
    raise RunDirError(f"{base}: no free run directory name")


def check_dir(path: pathlib.Path, key: str = "hydra.run.dir") -> None:
    """path is (or can be made) a writable directory whose results files are not directories;
    RunDirError otherwise, with whatever this check created removed again."""
    created = []
    try:
        if path.exists() and not path.is_dir():
            raise RunDirError(f"{key}={str(path)!r} is an existing file, not a directory: choose another path")
        missing = [p for p in [path, *path.parents] if not p.exists()]
        for p in reversed(missing):
            p.mkdir()
            created.append(p)
        probe = path / f".gaittwin_probe.{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        for f in RESULT_FILES:
            if (path / f).is_dir():
                raise RunDirError(f"{path / f} is a directory; the run writes a file there: move it aside "
                                  f"or choose another {key}")
    except OSError as e:
        for p in reversed(created):
            with contextlib.suppress(OSError):
                p.rmdir()
        raise RunDirError(f"{key}={str(path)!r} cannot be written: {e.strerror or e}") from None
    except RunDirError:
        for p in reversed(created):
            with contextlib.suppress(OSError):
                p.rmdir()
        raise


def prepare(argv) -> list[str]:
    """The command line to hand to Hydra: a default run (or multirun) directory pinned to a fresh,
    unique one; a given hydra.run.dir resolved and checked.  RunDirError on a bad directory."""
    multirun = any(a in ("-m", "--multirun") for a in argv)
    if any(a.startswith("-") and a not in ("-m", "--multirun") for a in argv):
        return list(argv)                          # --help, --cfg, ...: Hydra's own business
    key = "hydra.sweep.dir" if multirun else "hydra.run.dir"
    path = pathlib.Path(_resolved(argv, key))
    if _given(argv, key) is None:                  # the default: claim a fresh one
        try:
            path = _claim_unique(path)
        except OSError as e:
            raise RunDirError(f"{key}={str(path)!r} cannot be created: {e.strerror or e}") from None
        argv = [*argv, f"{key}={path}"]
    elif "${" in _given(argv, key):                # pinned as checked (a ${now:...} would move on)
        argv = [f"{key}={path}" if a.lstrip("+").partition("=")[0] == key else a for a in argv]
    if not multirun:
        check_dir(path, key)
    return list(argv)


# ---- once Hydra has made it --------------------------------------------------------------------
class Claim:
    """The held lock of a run directory (released when the process ends).  first: no other run
    was writing into it when this one claimed it."""

    def __init__(self, fh, first: bool):
        self.fh, self.first = fh, first

    def alone(self) -> bool:
        """No other run holds the directory now (so a failed run may remove what it made).  Takes
        the lock exclusively when so; called on the way out."""
        try:
            fcntl.flock(self.fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False


def _settings(cfg) -> str:
    """What two writers of one directory must agree on: the whole config but the sweep lists."""
    from omegaconf import OmegaConf
    c = OmegaConf.to_container(cfg, resolve=False)
    c.pop("sweep", None)
    return hashlib.sha256(json.dumps(c, sort_keys=True, default=str).encode()).hexdigest()


def _robot_of(out: pathlib.Path):
    """The robot whose run wrote `out` before (its .hydra/config.yaml), or None."""
    f = out / ".hydra" / "config.yaml"
    if not f.is_file():
        return None
    try:
        from omegaconf import OmegaConf
        return OmegaConf.select(OmegaConf.load(f), "robot.name")
    except Exception:  # noqa: BLE001  (an unreadable provenance says nothing about the robot)
        return None


def claim(out, cfg) -> Claim:
    """Lock run directory `out` for this run of `cfg` (see the module docstring); RunDirError if a
    run of another robot wrote it, or another run with different settings is writing it now."""
    out = pathlib.Path(out)
    robot = cfg.robot.name if "robot" in cfg else None
    old = _robot_of(out)
    if old is not None and robot is not None and old != robot:
        raise RunDirError(f"hydra.run.dir={str(out)!r} holds a {old} run: a run directory holds one robot's "
                          f"results, so robot {robot} cannot write there; choose another directory")
    mine = {"settings": _settings(cfg), "pid": os.getpid(), "since": time.time()}
    try:
        guard = os.open(out, os.O_RDONLY)
        fh = open(out / LOCK, "a+")
    except OSError as e:
        raise RunDirError(f"hydra.run.dir={str(out)!r} cannot be locked: {e.strerror or e}") from None
    try:
        fcntl.flock(guard, fcntl.LOCK_EX)            # held only while deciding
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:                      # other runs hold it: join them if the settings agree
            fh.seek(0)
            try:
                theirs = json.loads(fh.read() or "{}")
            except ValueError:
                theirs = {}
            if theirs.get("settings") != mine["settings"]:
                fh.close()
                raise RunDirError(f"hydra.run.dir={str(out)!r} is in use by another run (pid {theirs.get('pid')}) "
                                  f"with different settings: wait for it to finish or choose another directory")
            fcntl.flock(fh, fcntl.LOCK_SH)
            return Claim(fh, first=False)
        try:
            fh.seek(0)
            fh.truncate()
            fh.write(json.dumps(mine))
            fh.flush()
        except OSError as e:                         # a full file system, a quota
            fh.close()
            raise RunDirError(f"hydra.run.dir={str(out)!r} cannot be claimed: {e.strerror or e}") from None
        fcntl.flock(fh, fcntl.LOCK_SH)               # others with the same settings may join
        return Claim(fh, first=True)
    finally:
        os.close(guard)


def aside(path) -> pathlib.Path:
    """A name beside `path` that no file has: path.bak, path.bak1, ... (never a user's file)."""
    path = pathlib.Path(path)
    for k in range(10_000):
        p = path.with_name(f"{path.name}.bak{k or ''}")
        if not p.exists():
            return p
    raise RunDirError(f"{path}: no free name to move it aside")


# ---- the run's own points ---------------------------------------------------------------------
_ASKED: dict = {}          # (run dir, results file) -> the key values of every point this run asked for
_RAN_ON: dict = {}         # (run dir, results file) -> {engine name: [key values]}: which engine's row each is
_RUNS: set = set()         # run dirs of the runs started (new_run) and not yet finished (finish_run)
_PROBLEMS: dict = {}       # run dir -> [{"file", key values..., "error"}]: points run outside the store that failed
#                            or are over the robot's health limits (sweep.run_points)


def new_run(out) -> None:
    """Start a run into `out` (experiment.compute): its results files export only the points it asks for
    from here on, in the order asked (a runner calling sweep.run_rows several times keeps every call's
    points); the store keeps the rows of earlier runs (`gaittwin export RUNDIR`)."""
    out = str(pathlib.Path(out).resolve())
    for reg in (_ASKED, _RAN_ON):
        for k in [k for k in reg if k[0] == out]:
            del reg[k]
    _PROBLEMS.pop(out, None)
    _RUNS.add(out)


def finish_run(out) -> None:
    """End the run into `out` (experiment.compute, also when its runner failed): write the results files
    whose last points sweep.run_rows left to the run's end (Asked.due): those of calls that finished (a
    call that failed leaves its file as it was)."""
    from .store import Store
    out = str(pathlib.Path(out).resolve())
    _RUNS.discard(out)
    mine = [(f, a) for (o, f), a in _ASKED.items() if o == out and a.in_run]
    for _, a in mine:
        a.in_run = False           # later calls (after the run) write the file themselves
    behind = [(f, a) for f, a in mine if a.behind]
    if behind:
        with Store(out, check=False) as db:
            for f, a in behind:
                db.export(f, a.keys(db.key_columns(f)))
                a.behind = False


class Asked:
    """The points a run has asked for in one results file: key-value dicts, each once, in the order
    first asked (sweep.run_rows extends it on every call: an identification calls it many times).
    keys(columns) addresses them by key columns, each point's key computed once per column set."""

    def __init__(self, in_run: bool = False):
        self.rows: list = []
        self._seen: set = set()
        self._keys: dict = {}          # key columns -> keys of self.rows[:len] under them
        self.in_run = in_run           # a run (new_run) whose end (finish_run) writes the file
        self.began = time.monotonic()
        self.written = None            # time.monotonic() when the file was last written (the one clock)
        self.behind = False            # the file lacks points computed since: finish_run writes it
        self._lock = threading.Lock()  # due: the call's thread and store.Committer's (mid_call) both ask

    def due(self, every: float, mid_call: bool = False) -> bool:
        """Whether the results file is written now, one clock for both of sweep.run_rows' writers.  At a call's
        end: outside a run always (nothing else writes it); in a run at most every `every` seconds and at its
        end (finish_run), so that a run of many calls (an identification) does not rewrite all its rows on every
        call: the same file.  `mid_call` (store.Committer, as points finish): at most every `every` seconds
        since the file was last written (or this Asked began); a mid-call write leaves `behind` as it is (points
        may finish after it: only a call's end or finish_run clears it)."""
        with self._lock:
            now = time.monotonic()
            last = self.written if self.written is not None or not mid_call else self.began
            if (self.in_run or mid_call) and last is not None and now - last < every:
                self.behind = self.behind or not mid_call
                return False
            self.written = now
            if not mid_call:
                self.behind = False
            return True

    def extend(self, keyrows) -> None:
        from .store import dumps
        for kr in keyrows:
            c = dumps(kr)              # equal here: equal key under any key columns
            if c not in self._seen:
                self._seen.add(c)
                self.rows.append(kr)

    def keys(self, columns) -> list:
        """The keys (store.key_of) of every point asked for, in order (a new list)."""
        from .store import key_of
        done = self._keys.setdefault(tuple(columns), [])
        done.extend(key_of(kr, columns) for kr in self.rows[len(done):])
        return list(done)


def asked(out, file: str) -> Asked:
    """The points this run has asked for in out/file (key-value dicts, in order): an Asked to extend."""
    out = str(pathlib.Path(out).resolve())
    return _ASKED.setdefault((out, file), Asked(in_run=out in _RUNS))


def in_store(out, file: str) -> bool:
    """Whether this run's sweep store writes out/file (it asked for points in it): a single run's
    Result then leaves the file alone (experiment.Result.write)."""
    return (str(pathlib.Path(out).resolve()), file) in _ASKED


def ran_on(out, file: str) -> dict:
    """{engine name: [key-value dicts]} of this run's points in out/file: the engine whose row each
    point has (computed now or reused from the store); sweep.run_rows fills it."""
    return _RAN_ON.setdefault((str(pathlib.Path(out).resolve()), file), {})


def ran(out, file: str, engine: str, key: dict, problem: str | None = None) -> None:
    """Record that `engine` computed the point `key` of out/file outside sweep.run_rows (a single run:
    a time series, a trajectory): summary.json's engine_split names it (experiment.compute); `problem`:
    why it is not a valid result (failed or unhealthy), summary.json's `error` (problems)."""
    ran_on(out, file).setdefault(engine, []).append(dict(key))
    if problem:
        _PROBLEMS.setdefault(str(pathlib.Path(out).resolve()), []).append({"file": file, **key, "error": problem})


def problems(out) -> list:
    """The points this run computed outside the store that failed or are unhealthy (ran's `problem`)."""
    return list(_PROBLEMS.get(str(pathlib.Path(out).resolve()), []))


def engine_split(out) -> dict:
    """engine=auto's summary entry: per results file of this run, per engine, its point count and
    the points (their key values)."""
    from .store import dumps
    out = str(pathlib.Path(out).resolve())
    once = lambda v: list({dumps(d): d for d in v}.values())      # a point asked by several calls counts once  # noqa: E731
    return {f: {e: dict(points=len(once(v)), keys=once(v)) for e, v in sorted(by.items())}
            for (o, f), by in sorted(_RAN_ON.items()) if o == out and by}
