"""Command-line overrides, checked before Hydra composes them: one line for each kind of bad
override (malformed, an interpolation, a number given for a boolean), and the one rewrite Hydra's
typed nodes need (an integral float such as `run.max_steps=1e15`, the bound as printed, given to
an integer parameter becomes that integer).  hydra.* overrides are Hydra's own business."""
from __future__ import annotations

import itertools
import math
import re

from ..model import schema
from ..model.errors import ConfigError

PREFIX = re.compile(r"^(\+\+|\+|~)?")
GRAMMAR = "key=value in Hydra's override grammar (quote lists: \"sweep.omega=[1,2]\")"


def grouped(overrides) -> list[str]:
    """`experiment=NAME` (or a comma list of names) as Hydra's option path `experiment=<robot>/NAME`:
    the experiment YAMLs live in one folder a robot, the command line names them by file name."""
    from ..model.paths import experiment_option

    out = []
    for o in overrides:
        m = re.fullmatch(r"(experiment=)([\w,/]+)", o)
        out.append(m.group(1) + ",".join(experiment_option(n) for n in m.group(2).split(",")) if m else o)
    return out


def expand_multirun(overrides) -> list[list[str]]:
    """Each job's overrides of a Hydra multirun (comma lists, range(), choice()); hydra.* dropped."""
    parsed = parse([o for o in overrides if not o.startswith("hydra")])
    lists = [[f"{o.get_key_element()}={v}" for v in o.sweep_string_iterator()] if o.is_sweep_override()
             else [o.input_line] for o in parsed]
    return [list(job) for job in itertools.product(*lists)]


def parse(overrides) -> list:
    """Hydra's parsed overrides (one ConfigError naming the first malformed one)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser, parsed = OverridesParser.create(), []
    for o in overrides:
        try:
            parsed += parser.parse_overrides([o])
        except HydraException as e:
            raise ConfigError("override", o, GRAMMAR, str(e).splitlines()[0]) from None
    return parsed


def _strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from _strings(x)
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from _strings(x)


def user(parsed) -> list:
    """The overrides of the config's own nodes (not hydra.*, not sweeps over several jobs)."""
    return [o for o in parsed if not o.key_or_group.startswith("hydra") and not o.is_sweep_override()]


def check_literals(parsed) -> None:
    """No interpolation (`${oc.env:HOME}`, `${eval:...}`) in a value: values are literal (Hydra's own
    settings, hydra.*, are checked by envs/core/runs/rundir.py)."""
    for o in parsed:
        if o.key_or_group.startswith("hydra"):
            continue
        val = o.value() if not o.is_sweep_override() else None
        if any("${" in s for s in _strings(val)) or (o.is_sweep_override() and "${" in o.input_line):
            raise ConfigError(o.key_or_group, o.input_line.partition("=")[2],
                              "a literal value (interpolations are not accepted)", "an interpolation")


def field_of(key: str, schemas: dict):
    """The declared Field of a dotted key (`run.cycles`) among {node: [schema classes]}, or None."""
    head, _, name = key.partition(".")
    for sch in schemas.get(head, ()):
        f = schema.fields(sch).get(name)
        if f is not None:
            return f
    return None


def normalize(overrides, schemas: dict) -> list[str]:
    """`overrides` with every integral float given to an integer parameter written as that integer."""
    parsed = {o.input_line: o for o in user(parse(overrides))}
    out = []
    for line in overrides:
        o = parsed.get(line)
        v = o.value() if o is not None else None
        f = field_of(o.key_or_group, schemas) if o is not None else None
        if (f is not None and f.kind is int and isinstance(v, float) and math.isfinite(v) and v == int(v)):
            line = f"{PREFIX.match(line).group(0)}{o.key_or_group}={int(v)}"
        out.append(line)
    return out


def check_booleans(parsed, schemas: dict) -> None:
    """A boolean parameter takes true or false only (Hydra's typed node would turn 2 or `yes` into
    true)."""
    for o in user(parsed):
        f = field_of(o.key_or_group, schemas)
        if f is not None and f.kind is bool:
            schema.value(f, o.value(), o.key_or_group)
