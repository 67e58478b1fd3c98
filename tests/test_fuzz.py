"""Config fuzzing: random configs across and beyond the documented ranges either run
cleanly (or finish flagged as unhealthy, over the robot's declared limits) or stop before
simulating with the documented error naming the key; never a crash inside MuJoCo, and
never a half-written output directory."""
import csv
import math
import pathlib
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gaittwin
from gaittwin.core.runs import sweep as sw
from gaittwin.core.model import schema
from gaittwin.core.model.errors import ConfigError

ROBOTS = sorted(gaittwin.ROBOTS)
EXAMPLES = 12          # per robot in CI; the slow variant runs more
FUZZED = {"count": 0}  # reported by the slow test


def _input_keys(cls):
    """The gait inputs a user sweeps: the results columns and the randomised inputs."""
    keys = [k for k in dict.fromkeys(list(cls.columns) + list(cls.random_inputs))
            if isinstance(cls.defaults.get(k), (int, float)) and not isinstance(cls.defaults.get(k), bool)]
    return keys


def _value(cls, key):
    spec = schema.fields(cls.Params)[key].spec
    lo, hi = spec.lo, spec.hi
    base = cls.defaults[key]
    lo_in, hi_in = cls.random_inputs.get(key, (lo if lo is not None else base - 1, hi if hi is not None else base + 1))
    span = (hi_in - lo_in) or 1.0
    choices = [st.floats(lo_in, hi_in),                                  # inside the usable range
               st.floats(lo_in - 2 * span, hi_in + 2 * span),          # across and beyond it
               st.sampled_from([0.0, -1.0, 1e9, -1e9, math.nan, math.inf])]
    if isinstance(base, int):
        choices.append(st.integers(-3, 30))
    return st.one_of(*choices)


@st.composite
def configs(draw, cls):
    keys = _input_keys(cls)
    chosen = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=min(3, len(keys)), unique=True))
    return {k: draw(_value(cls, k)) for k in chosen}


MAX_PERIOD = 30.0       # s: valid configs with longer cycles are only validated, not run


def check_one(cls, point):
    try:
        if cls(**point).period > MAX_PERIOD:
            return "valid-long"
    except ConfigError:
        pass      # run_sweep must reject it the same way, below
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "run"
        try:
            rows, stats = sw.run_sweep(cls, point, {}, out, run_kw=dict(cycles=1, min_cycles=1, nthread=1),
                                       extra_columns=(), progress=False)
        except ConfigError as e:
            assert e.param in point or e.param.removesuffix("_deg") in {k.removesuffix("_deg") for k in point} \
                or e.param in cls.defaults, (point, str(e))
            assert "allowed" in str(e)
            assert not out.exists(), "a rejected config must leave no output directory"
            return "rejected"
        FUZZED["count"] += 1
        with open(out / "results.csv") as f:
            written = list(csv.DictReader(f))
        assert len(written) == 1 == stats["points"]
        # no simulation failure; an in-range but extreme point may finish over the robot's health
        # limits: then it is flagged (error "unhealthy: ...") with its metrics kept; one cycle may be too
        # few for a robot's metrics (MinIAQ-II: "no result"; BOLT's stride time: "no value for ..."), never an
        # empty silent row nor a NaN in a healthy one
        err = written[0]["error"]
        assert err in ("", sw.EMPTY) or err.startswith(("unhealthy:", "no value for ")), (point, err)
        assert list(written[0]) == sw.columns_of(cls, list(cls.columns))
        return "ran" if not err else "flagged"


@pytest.mark.parametrize("name", ROBOTS)
def test_fuzz_configs(name):
    cls = gaittwin.robot_class(name)
    if not _input_keys(cls):
        pytest.skip(f"{name} has no numeric inputs to fuzz")

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(configs(cls))
    def run(point):
        check_one(cls, point)

    run()


def test_fuzzer_sees_both_outcomes():
    cls = gaittwin.robot_class("crawler")
    assert check_one(cls, {"omega": 4.0, "psi_deg": 30.0}) == "ran"
    assert check_one(cls, {"omega": -4.0}) == "rejected"
    assert check_one(cls, {"A_deg": math.nan}) == "rejected"


@pytest.mark.slow
@pytest.mark.parametrize("name", ROBOTS)
def test_fuzz_configs_many(name):
    cls = gaittwin.robot_class(name)

    @settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(configs(cls))
    def run(point):
        check_one(cls, point)

    run()
