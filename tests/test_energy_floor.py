"""The speed floor of the cost of transport (envs/core/model/energy.py) and the energy of every robot's main
experiment.  The floor is a reporting rule: below 1 % of the robot's size per cycle the value is empty and a
note says why; work and power are reported at any speed."""
import csv
import math

import mujoco
import numpy as np
import pytest

import gaittwin
from gaittwin.core.engines import batch
from gaittwin.core.model import energy
from gaittwin.core.runs import config
from gaittwin.core.runs.experiment import run


def test_the_floor_is_one_percent_of_the_size_per_cycle():
    """A 0.2 m box (its bounding sphere: sqrt(3) x 0.1 m radius) has L = 2 sqrt(3) 0.1 m; at T = 0.5 s the floor
    is 0.01 L / T; just above it the hand value mean_power / (m g v) is reported, just below it nothing."""
    m = mujoco.MjModel.from_xml_string("""<mujoco><worldbody><body><freejoint/>
        <geom type="box" size=".1 .1 .1" mass="2"/></body></worldbody></mujoco>""")
    L = 2 * math.sqrt(3) * 0.1
    assert energy.size(m) == pytest.approx(L, rel=1e-9)
    floor = 0.01 * L / 0.5
    assert energy.speed_floor(m, 0.5) == pytest.approx(floor, rel=1e-9)
    cot, note = energy.cost_of_transport(3.0, 1.001 * floor, m, 0.5)
    assert cot == pytest.approx(3.0 / (2 * 9.81 * 1.001 * floor), rel=1e-9) and note == ""
    for v in (0.999 * floor, -0.5 * floor, 0.0, math.nan):
        cot, note = energy.cost_of_transport(3.0, v, m, 0.5)
        assert cot is None and "below the floor" in note, (v, note)


def test_a_crawler_stepping_in_place_reports_work_but_no_cost_of_transport(tmp_path):
    """omega = 5.1 rad/s: the crawler advances 1 mm a cycle (floor 2.07 mm): work and power, no CoT; omega = 4
    (7 mm a cycle) reports it.  The results file's cell is empty and the note names speed and floor."""
    slow = gaittwin.Crawler(omega=5.1)
    s = slow.summarize(batch.run_point(slow, gaittwin.Crawler, cycles=3, nthread=1))
    assert s["work_per_cycle"] > 0 and s["mean_power"] > 0
    assert s["cost_of_transport"] is None and "below the floor" in s["cost_of_transport_note"]
    ok = gaittwin.Crawler(omega=4.0)
    s = ok.summarize(batch.run_point(ok, gaittwin.Crawler, cycles=3, nthread=1))
    assert math.isfinite(s["cost_of_transport"]) and s["cost_of_transport_note"] == ""
    out = tmp_path
    cfg = config.compose(["experiment=crawler_frequency_sweep", "sweep.omega=[4,5.1]", "run.cycles=3",
                          "run.progress=false"])
    run(cfg, out)
    rows = {float(r["omega"]): r for r in csv.DictReader(open(out / "results.csv"))}
    assert rows[5.1]["cost_of_transport"] == "" and "below the floor" in rows[5.1]["cost_of_transport_note"]
    assert float(rows[4.0]["cost_of_transport"]) > 0 and rows[4.0]["cost_of_transport_note"] == ""


@pytest.mark.parametrize("overrides", [["experiment=bolt_running", "run.cycles=3"],
                                       ["experiment=miniaq_trot", "experiment.duration=1.2"]])
def test_main_experiments_carry_the_energy(tmp_path, overrides):
    s = run(config.compose([*overrides, "run.progress=false"]), tmp_path)
    assert s["work_per_cycle"] > 0 and s["mean_power"] > 0, s
    assert s["cost_of_transport"] > 0 and s["cost_of_transport_note"] == ""
    assert np.isfinite([s["work_per_cycle"], s["mean_power"], s["cost_of_transport"]]).all()
