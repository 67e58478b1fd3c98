"""The one declaration of every parameter: dataclasses with units, bounds and whether a value
changes the compiled model.

A robot's parameters are a dataclass (`<Robot>.Params`, registered in Hydra's ConfigStore as
`robot/<name>_schema`); an experiment's options are a dataclass registered as
`experiment_schema/<name>`.  Every field is declared with `param(...)`:

    omega: float = param(1.0, "rad/s", gt=0, le=200)          # (0, 200] rad/s
    mu1: Optional[float] = param(None, gt=0, le=5, model=True) # None: unset

`gt`/`ge` and `lt`/`le` make each end of a range explicitly open or closed (a list-valued field's
range holds for each element).  Defaults, allowed ranges, the range text of error messages, the
model keys and type checks all derive from these declarations; YAML files only override them.
"""
from __future__ import annotations

import dataclasses
import math
import typing

from .errors import ConfigError

NUMBER = (int, float)


@dataclasses.dataclass(frozen=True)
class Spec:
    """What a field declares beyond its type and default."""

    unit: str = ""
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False
    choices: tuple = ()
    model: bool = False          # changes the compiled MjModel (a new compile per value)
    note: str = ""               # extra words for the allowed range (e.g. a geometric limit)

    def text(self, optional: bool = False) -> str:
        if self.choices:
            s = f"one of {list(self.choices)}"
        elif self.lo is None and self.hi is None:
            s = "any finite number"
        else:
            lo = "-inf" if self.lo is None else f"{self.lo:g}"
            hi = "inf" if self.hi is None else f"{self.hi:g}"
            s = f"{'(' if self.lo_open or self.lo is None else '['}{lo}, {hi}{')' if self.hi_open or self.hi is None else ']'}"
            s += f" {self.unit}" if self.unit else ""
        if self.note:
            s += f" ({self.note})"
        return s + (", or null" if optional else "")

    def contains(self, x: float) -> bool:
        if self.lo is not None and (x < self.lo or (self.lo_open and x == self.lo)):
            return False
        return not (self.hi is not None and (x > self.hi or (self.hi_open and x == self.hi)))


def param(default, unit: str = "", *, gt=None, ge=None, lt=None, le=None, choices=(), model: bool = False,
          note: str = ""):
    """A declared parameter: default, unit, bounds (gt/ge: open/closed lower; lt/le: upper)."""
    if gt is not None and ge is not None or lt is not None and le is not None:
        raise TypeError("give one of gt/ge and one of lt/le")
    spec = Spec(unit, gt if gt is not None else ge, lt if lt is not None else le, gt is not None,
                lt is not None, tuple(choices), model, note)
    if isinstance(default, (list, tuple)):
        return dataclasses.field(default_factory=lambda: list(default), metadata={"spec": spec})
    return dataclasses.field(default=default, metadata={"spec": spec})


@dataclasses.dataclass(frozen=True)
class Field:
    name: str
    kind: type                   # float, int, bool, str or list (of floats)
    optional: bool
    default: object
    spec: Spec

    @property
    def allowed(self) -> str:
        if self.kind is list:
            return "a list of numbers, each " + self.spec.text(self.optional)
        if self.kind is bool:
            return "true or false" + (", or null" if self.optional else "")
        if self.kind is str and not self.spec.choices:
            return "a string" + (f" ({self.spec.note})" if self.spec.note else "") + (
                ", or null" if self.optional else "")
        return self.spec.text(self.optional)


def fields(schema) -> dict[str, Field]:
    """name -> Field of a schema dataclass (in declaration order), cached."""
    cached = _FIELDS.get(schema)
    if cached is None:
        hints = typing.get_type_hints(schema)
        cached = {}
        for f in dataclasses.fields(schema):
            kind, optional = _kind(hints[f.name])
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
            cached[f.name] = Field(f.name, kind, optional, default, f.metadata.get("spec", Spec()))
        _FIELDS[schema] = cached
    return cached


_FIELDS: dict = {}


def _kind(tp):
    optional = False
    if typing.get_origin(tp) is typing.Union:
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        optional, tp = True, args[0]
    if typing.get_origin(tp) in (list, typing.List) or tp is list:
        return list, optional
    if tp in (float, int, bool, str):
        return tp, optional
    return object, optional


def defaults(schema, skip=("name",)) -> dict:
    return {k: f.default for k, f in fields(schema).items() if k not in skip}


def check(schema, params: dict, *, prefix: str = "", what: str = "parameter") -> dict:
    """Validate `params` against `schema`: unknown keys, types, bounds.  Returns canonical values
    (ints for float fields become floats); raises ConfigError naming the first bad key."""
    fs = fields(schema)
    out = {}
    for k, v in params.items():
        f = fs.get(k)
        if f is None:
            known = [n for n in fs if n != "name"]
            raise ConfigError(prefix + k, v, f"one of {known}", f"unknown {what}")
        out[k] = value(f, v, prefix + k)
    return out


def value(f: Field, v, key: str):
    """One value checked against its field; the canonical value (or ConfigError)."""
    if v is None:
        if f.optional:
            return None
        raise ConfigError(key, v, f.allowed, "a value is required")
    if f.kind is list:
        if not isinstance(v, (list, tuple)):
            raise ConfigError(key, v, f.allowed, "a list of finite numbers")
        for i, x in enumerate(v):
            if not (_is_number(x) and math.isfinite(x)):
                raise ConfigError(key, v, f.allowed, f"element {i}, {x!r}, is not a finite number")
        bad = [x for x in v if not f.spec.contains(x)]
        if bad:                                  # a list's bounds hold for each element
            raise ConfigError(key, v, f.allowed, f"element {bad[0]!r} is out of range")
        return [float(x) for x in v]
    if f.kind is bool:
        if not isinstance(v, bool):
            raise ConfigError(key, v, f.allowed, "not a boolean")
        return v
    if f.kind is str:
        if not isinstance(v, str):
            raise ConfigError(key, v, f.allowed, "not a string")
        if f.spec.choices and v not in f.spec.choices:
            raise ConfigError(key, v, f.allowed)
        return v
    if f.kind in (int, float):
        if not _is_number(v):
            raise ConfigError(key, v, f.allowed, "not a number")
        if not math.isfinite(float(v)):
            raise ConfigError(key, v, f.allowed)
        if f.kind is int and float(v) != int(v):
            raise ConfigError(key, v, f.allowed, "not an integer")
        x = int(v) if f.kind is int else float(v)
        if not math.isfinite(x) or not f.spec.contains(x) or (f.spec.choices and x not in f.spec.choices):
            raise ConfigError(key, v, f.allowed)
        return x
    return v


def _is_number(v) -> bool:
    return isinstance(v, NUMBER) and not isinstance(v, bool) and (
        not isinstance(v, float) or not math.isnan(v))


def model_keys(schema) -> tuple:
    return tuple(k for k, f in fields(schema).items() if f.spec.model)


def si_name(name: str) -> str:
    """A config name's SI name: an angle `psi_deg` (degrees) is `psi` (radians); other names are unchanged."""
    return name[:-4] if name.endswith("_deg") else name


def si_class(schema, owner: type) -> type:
    """The frozen dataclass of one point's values in SI, derived from a schema: a field per declared field,
    of the same type, under its SI name (`si_name`); built from a config dict by `Robot.__init__` (to_si).
    It is defined as `owner.SI` (module and qualified name too, so that a point pickles)."""
    hints = typing.get_type_hints(schema)
    made = [(si_name(f.name), hints[f.name], dataclasses.field(default=f.default) if f.name == "name" else
             dataclasses.field()) for f in dataclasses.fields(schema)]
    cls = dataclasses.make_dataclass("SI", made, frozen=True, kw_only=True)
    cls.__module__, cls.__qualname__ = owner.__module__, f"{owner.__qualname__}.SI"
    cls.__doc__ = f"One {owner.__name__} point's parameters in SI, as attributes (from {schema.__qualname__})."
    return cls


def store(group: str, name: str, node) -> None:
    """Register a schema in Hydra's ConfigStore (YAML files then only override it).  Stored as Hydra's
    `ConfigStore.store` stores it, except that the dataclass becomes an OmegaConf node when Hydra first reads
    it (a composition reads the few it uses; converting them all costs about a third of a start-up)."""
    from hydra.core.config_store import ConfigNode, ConfigStore

    class Deferred(ConfigNode):
        def __init__(self):
            self.__dict__.update(name=f"{name}.yaml", group=group, package=None, provider=None, _node=None)

        @property
        def node(self):
            if self._node is None:
                from omegaconf import OmegaConf
                self._node = OmegaConf.structured(node)
            return self._node

        @node.setter
        def node(self, value):          # ConfigStore.load sets a copy's node
            self._node = value

    repo = ConfigStore.instance().repo
    for part in group.split("/") if group else ():
        repo = repo.setdefault(part, {})
    repo[f"{name}.yaml"] = Deferred()
