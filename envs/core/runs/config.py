"""The app's config: its structured schema, composition with Hydra, and one validation.

The top level (`App`) holds `robot` (a robot's `Params`), `experiment` (an experiment's
options), `sweep` (lists of robot parameters), `run` (how each point is simulated) and
`engine`.  `configs/config.yaml` and the YAML files under `configs/` only override
these declarations.  `validate(cfg)` is the one check of a composed config; `compose()`
turns Hydra's own errors (unknown keys, wrong types, unknown experiments) into the same
one-line `ConfigError` as every other bad input.
"""
from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, ClassVar, Dict, Mapping, Optional

from omegaconf import MISSING, OmegaConf

from ..model import schema
from ..model.errors import ConfigError
from ..model.robot import REGISTRY, robot_class
from ..model.schema import param

from ..model.paths import CONFIG_MODULE, CONFIGS as CONFIG_DIR, experiment_files  # noqa: E402


@dataclasses.dataclass
class RunParams:
    """How each point is simulated (shared batch runner, envs/core/engines/batch.py)."""

    cycles: int = param(10, "periods", ge=1, le=1_000_000)
    min_cycles: int = param(3, "periods", ge=1, le=1e6)
    stop_when_steady: bool = param(True)
    nthread: Optional[int] = param(None, ge=1, le=4096, note="null: the cores really available")
    chunk: int = param(2000, "steps", ge=1, le=1_000_000)
    max_steps: int = param(100_000_000, "steps", ge=1, le=1e15,
                           note="integration steps allowed per point (default: about an hour of one core); "
                                "longer points are rejected before anything is simulated")
    retry_failed: bool = param(False, note="recompute stored points that failed (a stored failure is final)")
    progress: bool = param(True)
    launcher: str = param("local", choices=("local", "ray"),
                          note="ray: sweep points fan out to Ray tasks (extra .[ray], envs/core/engines/ray_runner.py)")
    ray_address: Optional[str] = param(None, note="null: a local Ray on this machine; auto: the cluster joined "
                                       "with `ray start`; or ray://host:port")
    ray_points: Optional[int] = param(None, "points", ge=1, le=1_000_000,
                                      note="points per Ray task; null: about 4 tasks a worker")
    device: Optional[str] = param(None, note="engine=warp/auto: the Warp device (cpu, cuda, cuda:1); null: cuda if "
                                  "usable, else cpu")
    nworld: Optional[int] = param(None, "worlds", ge=1, le=10_000_000,
                                  note="engine=warp/auto: worlds per batch; null: 8 on cpu, 4096 on cuda")


@dataclasses.dataclass
class Experiment:
    """What every experiment declares: its name (the output folder; its runner is the function registered
    under the declared name, `gaittwin.core.runs.experiment.runner`); `warp`: why it cannot run on MuJoCo Warp
    ("": it can), so that engine=warp falls back to the C engine."""

    name: str = param("", note="letters, digits, '_' and '-'")
    warp: ClassVar[str] = ""


@dataclasses.dataclass
class App:
    robot: Any = MISSING
    experiment: Any = MISSING
    sweep: Dict[str, Any] = dataclasses.field(default_factory=dict)
    run: RunParams = dataclasses.field(default_factory=RunParams)
    engine: str = param("mujoco", note="mujoco: the twin; warp: the twin on MuJoCo Warp (extra .[gpu], batch "
                                       "runner; envs/core/engines/warp_engine.py); auto: the longest points on the C "
                                       "runner, the rest on MuJoCo Warp, at once (envs/core/engines/auto_split.py); a "
                                       "robot may offer reference engines")
    hybrid: Dict[str, Any] = dataclasses.field(default_factory=dict)   # crawler engine=hybrid options (typed by
    paper: Dict[str, Any] = dataclasses.field(default_factory=dict)    # miniaq's, BOLT's engine=paper: `option_group`)


schema.store(None, "app_schema", App)
OPTION_GROUPS = ("hybrid", "paper")          # App's option groups (each also a field of Job)
GROUPS: dict[tuple[str, str], type] = {}    # (option group, robot name) -> its options dataclass


def option_group(group: str, robot: str):
    """Declare the options of a robot's top-level group (`hybrid.*`, `paper.*`) as a schema
    dataclass: `@option_group("hybrid", "crawler")`.  Only keys given in the config are passed on
    (the engine's own defaults apply otherwise); each is checked against the declaration."""
    if group not in OPTION_GROUPS:
        raise TypeError(f"{group}: not one of {OPTION_GROUPS} (add it to App and Job as a mapping field)")

    def register(cls):
        GROUPS[(group, robot)] = cls
        return cls
    return register


class Frozen(Mapping):
    """A read-only mapping whose keys also read as attributes (`job.run.cycles`)."""

    __slots__ = ("_d",)

    def __init__(self, d=()):
        object.__setattr__(self, "_d", dict(d))

    def __getitem__(self, k):
        return self._d[k]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __getattr__(self, k):
        try:
            return self._d[k]
        except KeyError:
            raise AttributeError(k) from None

    def __setattr__(self, k, v):
        raise TypeError("a Job is read-only")

    def __repr__(self):
        return f"Frozen({self._d!r})"


@dataclasses.dataclass(frozen=True)
class Job:
    """A composed config checked once: what every runner reads (read-only mappings).

    robot: every robot.* value, checked against the robot's Params (also those a sweep overrides);
    sweep: name -> tuple of checked values (any number of keys); run: RunParams' values; experiment:
    the experiment's declared options; hybrid/paper: the given keys of the robot's option groups."""

    robot_cls: type
    robot: Mapping[str, Any]
    sweep: Mapping[str, tuple]
    run: Mapping[str, Any]
    experiment: Mapping[str, Any]
    engine: str
    engine_fallback: str = ""           # why engine=warp/auto runs on the C engine instead ("": it does not)
    engine_requested: str = ""          # the engine asked for where engine_fallback replaced it
    hybrid: Mapping[str, Any] = dataclasses.field(default_factory=Frozen)
    paper: Mapping[str, Any] = dataclasses.field(default_factory=Frozen)
    options_cls: type = Experiment      # the class declaring the experiment's options (its runner's key)

    def __getitem__(self, key: str):          # job["run"]: the older dict-style reading
        return getattr(self, key)


def experiment(name, *runner_path):
    """Register an experiment's options as `experiment_schema/<name>`: `@experiment("<name>")` on a
    class deriving from Experiment (made a dataclass here, with that name as its default), or bare
    `@experiment` on a dataclass that sets `name` itself.  Its runner is listed in the robot's paper package
    (envs/<robot>/paper/__init__.py EXPERIMENTS, the function marked
    `@gaittwin.core.runs.experiment.runner("<name>")`), never named by a path."""
    if runner_path:
        raise TypeError(_OLD_STYLE.format(name=name, path=runner_path[0]))
    if isinstance(name, type):
        declared = schema.fields(name)
        if "runner" in declared:
            raise TypeError(_OLD_STYLE.format(name=declared["name"].default, path=declared["runner"].default))
        schema.store("experiment_schema", declared["name"].default, name)
        return name

    def register(cls):
        cls.__annotations__ = {"name": "str", **cls.__dict__.get("__annotations__", {})}
        cls.name = name
        return experiment(dataclasses.dataclass(cls))
    return register


def plain_experiment(name: str, *runner_path, warp: str = ""):
    """Register an experiment that has no options of its own (its grid is in its YAML); `warp`: why it
    cannot run on MuJoCo Warp (Experiment.warp)."""
    if runner_path:
        raise TypeError(_OLD_STYLE.format(name=name, path=runner_path[0]))
    return experiment(dataclasses.make_dataclass(
        "".join(w.title() for w in name.split("_")), [("name", str, dataclasses.field(default=name))],
        bases=(Experiment,), namespace={"warp": warp} if warp else None))


RUNNERS: dict = {}     # experiment name, or options class (a family) -> runner(job, out): gaittwin.core.registry.install


def runner_of(options: type):
    """The runner of an experiment's options class: the function installed under its declared name, else
    under the class or its nearest installed base class (a paper package's EXPERIMENTS, core's families in
    envs/registry.py: gaittwin.core.registry.install); else ConfigError."""
    name = schema.fields(options)["name"].default
    for key in (name, *options.__mro__):
        if key in RUNNERS:
            return RUNNERS[key]
    raise ConfigError("experiment", name, f"an experiment whose runner is listed in its paper package's "
                      f"EXPERIMENTS ({name!r}: runner, marked @gaittwin.core.runs.experiment.runner({name!r}))",
                      "no runner registered for it")


_OLD_STYLE = ("experiment {name}: a runner is no longer named by a path ({path!r}): declare the options with "
              "@experiment({name!r}), put @gaittwin.core.runs.experiment.runner({name!r}) on the function and list "
              "it in the robot's paper package's EXPERIMENTS (docs/adding_a_robot.md)")


# ---- composition -----------------------------------------------------------------------------
def compose(overrides=()):
    """The config `scripts/run.py` would run, composed with Hydra; errors as ConfigError."""
    from hydra import compose as _compose, initialize_config_module
    from hydra.errors import ConfigCompositionException, MissingConfigException

    from . import overrides as ov

    parsed = ov.parse(overrides)
    ov.check_literals(parsed)
    check_groups(parsed)
    overrides = ov.normalize(ov.grouped(overrides), schemas())
    from hydra.core.global_hydra import GlobalHydra

    try:
        if GlobalHydra.instance().is_initialized():    # inside scripts/run.py's Hydra app (the fidelity
            cfg = _compose(config_name="config", overrides=list(overrides))   # report): same configs/ dir
        else:
            with initialize_config_module(config_module=CONFIG_MODULE, version_base="1.3"):
                cfg = _compose(config_name="config", overrides=list(overrides))
    except MissingConfigException as e:
        m = re.search(r"Could not find '([^']+)/([^']+)'", str(e))
        group, option = (m.group(1), m.group(2)) if m else ("config", str(e))
        raise ConfigError(group, option, f"one of {options(group)}", f"unknown {group}") from None
    except ConfigCompositionException as e:
        raise _from_omegaconf(e, overrides) from None
    except ConfigError:
        raise
    except Exception as e:  # noqa: BLE001  (any other refusal of Hydra's or OmegaConf's: one line, not a traceback)
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ConfigError("override", " ".join(overrides), ov.GRAMMAR, msg) from None
    ov.check_booleans(ov.parse(overrides), schemas(cfg))
    return cfg


def check_groups(parsed) -> None:
    """An override names a key (`=2` does not), and a config group (robot, experiment) takes one of its
    options by name (`robot=null` does not)."""
    from . import overrides as ov
    for o in parsed:
        key = o.key_or_group
        if not key:
            raise ConfigError("override", o.input_line, ov.GRAMMAR, "no key before '='")
        if key in GROUP_NAMES and not o.is_delete() and not o.is_sweep_override() and not isinstance(o.value(), str):
            raise ConfigError(key, o.value(), f"one of {[n.rpartition('/')[2] for n in options(key)]}",
                              f"the {key} is chosen by name")


GROUP_NAMES = ("robot", "experiment")      # the config groups of configs/ a command line chooses


def schemas(cfg=None) -> dict:
    """node -> the schema classes of its keys: every robot's Params, or the composed config's."""
    if cfg is None:
        return {"run": [RunParams], "robot": [c.Params for c in REGISTRY.values()]}
    return {"run": [RunParams], "robot": [robot_class(cfg.robot.get("name")).Params],
            "experiment": [schema_of_experiment(cfg)]}


def options(group: str) -> list[str]:
    return sorted(p.stem for p in (CONFIG_DIR / group).rglob("*.yaml"))


def _from_omegaconf(e, overrides) -> ConfigError:
    cause = e.__cause__
    key = getattr(cause, "full_key", None) or ""
    key = re.sub(r"\[\d+\]$", "", key)          # a list element's error names its list
    value = None
    for o in overrides:
        k, _, v = o.lstrip("+~").partition("=")
        if k == key:
            value = v
    if cause is not None and type(cause).__name__ == "ConfigAttributeError":
        parent = key.rpartition(".")[0]
        rest = [o for o in overrides if o.lstrip("+~").partition("=")[0] != key]
        add = f", or a new key added with '+': +{key}={value}" if parent == "sweep" else ""
        return ConfigError(key, value, f"one of {known_keys(parent, rest)}{add}", f"unknown key in {parent or 'the config'}")
    if cause is not None and type(cause).__name__ == "ValidationError":
        rest = [o for o in overrides if o.lstrip("+~").partition("=")[0] != key]
        return ConfigError(key, value if value is not None else getattr(cause, "value", None), allowed(key, rest),
                           "wrong type")
    return ConfigError("override", " ".join(overrides), "valid Hydra overrides", str(e).splitlines()[0])


def known_keys(node: str, overrides=()) -> list[str]:
    """The keys of `node` in the config composed from `overrides` (e.g. the chosen robot's)."""
    try:
        cfg = compose(overrides)
    except ConfigError:
        return []
    sub = OmegaConf.select(cfg, node) if node else cfg
    return [k for k in sub.keys() if k != "name"] if OmegaConf.is_dict(sub) else []


def allowed(key: str, overrides=()) -> str:
    """The allowed range of a dotted key, from its schema (robot: the one `overrides` choose)."""
    head, _, name = key.partition(".")
    sch = {"run": RunParams}.get(head)
    if head == "robot":
        sch = robot_class(compose(overrides).robot.name).Params
    if sch is not None and name in schema.fields(sch):
        return schema.fields(sch)[name].allowed
    return "a value of the declared type"


# ---- validation ------------------------------------------------------------------------------
NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


def robot_point(cfg):
    """The robot point of a config or Job: its class and robot.* parameters (sweep lists ignored)."""
    if isinstance(cfg, Job):
        return cfg.robot_cls(**{k: list(v) if isinstance(v, tuple) else v for k, v in cfg.robot.items()})
    c = OmegaConf.to_container(cfg.robot, resolve=True)
    return robot_class(c.pop("name", None))(**c)


def validate(cfg) -> Job:
    """Check every node of a composed config against its schema, before anything is written: the
    frozen `Job`.  Checked once per content: a later call with a config of the same resolved content
    (the same config, or Hydra's own composition of the command line already checked) returns the
    same Job."""
    from omegaconf.errors import OmegaConfBaseException

    if isinstance(cfg, Job):
        return cfg
    try:
        c = OmegaConf.to_container(cfg, resolve=True) if OmegaConf.is_config(cfg) else cfg
    except OmegaConfBaseException as e:
        raise _interpolation_error(e) from None
    key = json.dumps(c, sort_keys=True, default=repr)       # the resolved content: one check per content
    job = _JOBS.get(key)
    if job is None:
        job = _check(cfg, c)
        if len(_JOBS) >= 256:
            _JOBS.clear()
        _JOBS[key] = job
    return job


_JOBS: dict = {}       # resolved config content (JSON) -> its Job


def _interpolation_error(e) -> ConfigError:
    key = getattr(e, "full_key", None) or "config"
    return ConfigError(key, getattr(e, "value", None) or "${...}", "a literal value (interpolations are not "
                       "accepted)", str(e).splitlines()[0])


def _frozen(d: dict) -> Frozen:
    return Frozen({k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})


def _check(cfg, c: dict) -> Job:
    cls = robot_class(c["robot"].get("name"))
    robot = schema.check(cls.Params, {k: v for k, v in c["robot"].items() if k != "name"}, prefix="robot.",
                         what=f"{cls.name} parameter")       # every value, also those a sweep overrides
    point = cls(**robot)    # robot.* as one point, its cross-parameter checks (alpha_deg < alpha_max(n)): now, not after
    #                 a sweep (the main experiments' timeseries.csv runs robot.* at the end)
    run = schema.check(RunParams, c.get("run", {}), prefix="run.", what="run setting")
    if run["device"] is not None and not DEVICE.fullmatch(str(run["device"])):     # also where no engine reads it
        raise ConfigError("run.device", run["device"], "null, cpu, cuda or cuda:N (a Warp device)")
    if run["launcher"] == "ray":
        import importlib.util
        if importlib.util.find_spec("ray") is None:
            raise ConfigError("run.launcher", "ray", "local, or install the extra: pip install -e \".[ray]\"",
                              "ray is not installed")
    exp_cls = schema_of_experiment(cfg)
    exp = schema.check(exp_cls, c.get("experiment", {}), prefix="experiment.", what="experiment option")
    own = experiment_robot(ename := schema.fields(exp_cls)["name"].default)
    if own not in (None, cls.name):     # experiment=bolt_running robot=crawler ran the crawler, then crashed
        raise ConfigError("robot", cls.name, f"{own}, the robot of experiment={ename}", "another robot's experiment")
    if not NAME.match(exp["name"]) or ".." in exp["name"]:
        raise ConfigError("experiment.name", exp["name"], "a folder name of letters, digits, '_', '-', '.'")
    sweep = {}
    fields = schema.fields(cls.Params)
    for k, v in (c.get("sweep") or {}).items():
        vals = v if isinstance(v, list) else [v]
        if k not in fields or k == "name":
            raise ConfigError(f"sweep.{k}", v, f"a parameter of {cls.name}: {sorted(cls.defaults)}")
        if not vals:
            raise ConfigError(f"sweep.{k}", v, "a non-empty list")
        sweep[k] = tuple(_once(schema.value(fields[k], x, f"sweep.{k}") for x in vals))
    groups = {}
    for group in OPTION_GROUPS:
        given = c.get(group) or {}
        opts = GROUPS.get((group, cls.name))
        if opts is None:
            if given:
                k = next(iter(given))
                owners = sorted(r for g, r in GROUPS if g == group)
                raise ConfigError(f"{group}.{k}", given[k], f"no {group}.* options for {cls.name}"
                                  + (f" ({group}.* are {', '.join(owners)}'s)" if owners else ""), "unknown key")
            continue
        groups[group] = _frozen(schema.check(opts, given, prefix=f"{group}.", what=f"{group} option"))
    engine = c.get("engine", "mujoco")
    if engine not in cls.engines + ("warp", "auto"):
        raise ConfigError("engine", engine, f"one of {list(cls.engines) + ['warp', 'auto']} for {cls.name}")
    fallback, requested = "", ""
    if engine in ("warp", "auto"):   # a robot or experiment MuJoCo Warp cannot run: the C engine (noted)
        from ..engines import warp_engine
        fallback = warp_engine.unsupported(cls) or exp_cls.warp or warp_engine.point_refusal(cls, robot, sweep, engine)
        if fallback:
            engine, requested = "mujoco", engine
        else:
            warp_engine.check_installed()
    runner_of(exp_cls)          # an experiment declared without a registered runner: exit 2, nothing run
    point.check_steps(run["cycles"], run["max_steps"])     # the configured point's run, before any sweep runs
    return Job(robot_cls=cls, robot=_frozen(robot), sweep=Frozen(sweep), run=_frozen(run),
               experiment=_frozen(exp), engine=engine, engine_fallback=fallback, engine_requested=requested,
               options_cls=exp_cls, **groups)


DEVICE = re.compile(r"cpu|cuda(:\d+)?")


def _once(values):
    """The values in order, each once (2 and 2.0 are one value: the canonical encoding of a stored point)."""
    from .identity import dumps
    seen, out = set(), []
    for v in values:
        if dumps(v) not in seen:
            seen.add(dumps(v))
            out.append(v)
    return out


def experiment_robot(name: str) -> str | None:
    """The robot an experiment's YAML chooses (`override /robot: bolt`); None: any robot (fidelity_report)."""
    f = experiment_files().get(name.rpartition("/")[2]) if name else None
    m = re.search(r"override /robot:\s*(\w+)", f.read_text()) if f else None
    return m.group(1) if m else None


def schema_of_experiment(cfg):
    """The experiment's declared options class (the structured node's type)."""
    t = OmegaConf.get_type(cfg, "experiment") if OmegaConf.is_config(cfg) else None
    return t if dataclasses.is_dataclass(t) else Experiment

