"""Twin mutations: break a robot's twin on purpose and see which fidelity-report rows notice.

A mutation is a robot-parameter or model change applied to one robot's twin only (its MuJoCo model or
its actuator inputs; the reference models, e.g. the crawler's exact hybrid model, are left alone).  It
patches attributes of the robot's class (`spec`, `controls`, ...) for the duration of a report run
(`applied`) and empties the compiled-model cache on entry and exit, so nothing mutated outlives it.

Each robot's paper package may export `MUTATIONS = [Mutation(...), ...]` (envs/<robot>/paper/__init__.py,
declared in envs/<robot>/paper/mutations.py); `registry()` collects those of the manifest's robots.
`run(name, out, ...)` generates the (reduced) report of the mutated twin, restricted to the affected robot's claim
groups (or the mutation's declared `groups`), into <out>/mutation_<name>/ and compares its validation
verdicts with the unmutated run's records (`baseline`, default the committed docs/ JSON of the same
mode): `mutation_<name>.json` lists the rows that flipped; a mutation that flips none is a blind spot of
the report, and a row turned to `agrees` by a broken twin is flagged (`turned_to_agree`).  Each mutation
declares the flips measured on the reduced grids (`flips`); the report's mutation-coverage table reads them, and
scripts/fidelity_report.py --mutate NAME / tests/test_fidelity_twin_mutation.py (cost "ci" in CI, all as slow)
rerun them.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import pathlib
from typing import Callable

import mujoco

from ..model.paths import CHECKOUT as ROOT  # noqa: E402  (docs/: the committed baselines)

# MuJoCo's own contact defaults (mjs_default*, MuJoCo 3.x): what a model without a contact recipe gets
DEFAULT_SOLREF, DEFAULT_SOLIMP = [0.02, 1.0], [0.9, 0.95, 0.001, 0.5, 2.0]


@dataclasses.dataclass(frozen=True)
class Mutation:
    name: str
    robot: str
    what: str                           # the change, in words (goes into the mutation's JSON)
    patch: Callable[[type], dict]       # robot class -> {attribute: new value} (wrappers of the originals)
    flips: dict | None = None           # measured on the reduced grids: row id -> mutated verdict ({}: flips none,
                                        # a blind spot; None: not measured on the current definitions)
    groups: tuple = ()                  # the claim groups it reruns (function names; () = all of its robot's)
    cost: str = "slow"                  # "ci": cheap enough for the CI suite; "slow": the full matrix only


def registry(robots=None) -> dict:
    """name -> Mutation of every robot's MUTATIONS, robot by robot; robots: name -> gaittwin.core.registry.Entry
    (default: the manifest installed by the package, envs/registry.py)."""
    from ..registry import entries
    out = {}
    for e in entries(robots).values():
        for m in e.mutations:
            if m.name in out:
                raise ValueError(f"mutation {m.name!r} declared twice")
            out[m.name] = m
    return out


def spec_edit(edit: Callable) -> Callable[[type], dict]:
    """A patch that applies edit(robot, spec) to every MjSpec the robot class builds."""
    def patch(cls):
        orig = cls.spec

        def spec(self):
            s = orig(self)
            edit(self, s)
            return s
        return {"spec": spec}
    return patch


def controls_edit(edit: Callable) -> Callable[[type], dict]:
    """A patch that replaces controls(t) by edit(robot, original controls, t)."""
    def patch(cls):
        orig = cls.controls
        return {"controls": lambda self, t: edit(self, lambda tt: orig(self, tt), t)}
    return patch


@contextlib.contextmanager
def applied(m: Mutation):
    """The robot class patched by `m` inside the block; the model cache emptied on entry and exit."""
    from ..model import robot as core_robot
    cls = core_robot.robot_class(m.robot)
    new = m.patch(cls)
    saved = {k: cls.__dict__[k] for k in new if k in cls.__dict__}
    core_robot._MODEL_CACHE.clear()
    try:
        for k, v in new.items():
            setattr(cls, k, v)
        yield cls
    finally:
        for k in new:
            if k in saved:
                setattr(cls, k, saved[k])
            else:
                delattr(cls, k)
        core_robot._MODEL_CACHE.clear()


# ---- generic model edits the robots' mutations use --------------------------------------------------
def scale_friction(spec: mujoco.MjSpec, k: float) -> None:
    """Every geom's and explicit contact pair's sliding friction times k."""
    for g in spec.geoms:
        g.friction[0] *= k
    for p in spec.pairs:
        p.friction[:2] = [k * x for x in p.friction[:2]]


def default_contact(spec: mujoco.MjSpec) -> None:
    """MuJoCo's default contact (solref, solimp, no friction solref, impratio 1) instead of the recipe."""
    for g in spec.geoms:
        g.solref, g.solimp = DEFAULT_SOLREF, DEFAULT_SOLIMP
    for p in spec.pairs:
        p.solref, p.solimp, p.solreffriction = DEFAULT_SOLREF, DEFAULT_SOLIMP, [0.0, 0.0]
    spec.option.impratio = 1.0


def swap_bodies_mass(spec: mujoco.MjSpec, a: str, b: str) -> None:
    """Swap the mass and inertia of bodies a and b (their centres of mass stay)."""
    x, y = spec.body(a), spec.body(b)
    x.mass, y.mass = y.mass, x.mass
    xi, yi = list(x.inertia), list(y.inertia)
    x.inertia, y.inertia = yi, xi


# ---- a report of the mutated twin, compared with the unmutated one --------------------------------
def flips(base: list, mutated: list) -> tuple:
    """(flipped, compared): ids of validation rows whose verdict differs between two record lists, and
    the ids compared (validation rows present in both with a verdict agrees/disagrees)."""
    from .verdict import AGREE, DISAGREE, VALIDATION
    b = {r["id"]: r for r in base if r["kind"] == VALIDATION and r["verdict"] in (AGREE, DISAGREE)}
    compared = [r["id"] for r in mutated if r["id"] in b and r["kind"] == VALIDATION]
    flipped = [dict(id=r["id"], base=b[r["id"]]["verdict"], mutated=r["verdict"])
               for r in mutated if r["id"] in compared and r["verdict"] != b[r["id"]]["verdict"]]
    return flipped, compared


def run_groups(m: Mutation, groups=None) -> dict:
    """generate()'s selection of the claim groups a mutation reruns: `groups` (substrings, a CI-sized run), else
    the mutation's declared groups (exact names), else every group of its robot."""
    if groups:
        return dict(only=list(groups))
    return dict(names=list(m.groups)) if m.groups else dict(only=[f"claims_{m.robot}"])


def run(name: str, out, reduced: bool = True, baseline=None, log=print, groups=None, robots=None) -> pathlib.Path:
    """Generate the mutated twin's report (the affected robot's groups; `groups`: only claim functions whose
    name contains one of these, e.g. for a CI-sized run) into <out>/mutation_<name>/ and write
    <out>/mutation_<name>/mutation_<name>.json (flipped rows, blind spot); returns its path.  robots: the
    registry (registry(); default the installed manifest's)."""
    from . import report
    from .verdict import AGREE
    reg = registry(robots)
    if name not in reg:
        raise KeyError(f"--mutate: {name!r} is not a mutation; one of {sorted(reg)}")
    m = reg[name]
    base_path = pathlib.Path(baseline) if baseline else ROOT / "docs" / (
        "fidelity_report_reduced.json" if reduced else "fidelity_report.json")
    base = json.loads(base_path.read_text())
    d = pathlib.Path(out) / f"mutation_{name}"
    with applied(m):
        path = report.generate(d, reduced=reduced, log=log, registry=robots, **run_groups(m, groups))
    mutated = json.loads(path.with_suffix(".json").read_text())
    flipped, compared = flips(base, mutated)
    to_agree = [f["id"] for f in flipped if f["mutated"] == AGREE]
    res = dict(mutation=name, robot=m.robot, what=m.what, reduced=reduced, baseline=str(base_path),
               report=str(path), validation_rows_compared=compared, flipped=flipped, blind_spot=not flipped,
               turned_to_agree=to_agree)
    f = d / f"mutation_{name}.json"
    f.write_text(json.dumps(res, indent=1) + "\n")
    log(f"{name}: {len(flipped)} of {len(compared)} validation rows flipped" +
        (" -- a blind spot of the report" if not flipped else ": " + ", ".join(x["id"] for x in flipped)) +
        (f"; turned to agree (flagged): {', '.join(to_agree)}" if to_agree else ""))
    return f
