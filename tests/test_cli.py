"""The `gaittwin` command (envs/cli.py): list, params, and run/view/render handed to the scripts."""

import pytest

import gaittwin
from gaittwin import cli
from gaittwin.core.model import schema
from tests.util import ROOT, run_script


def test_pyproject_declares_the_entry_point():
    import tomllib
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert cfg["project"]["scripts"]["gaittwin"] == "gaittwin.cli:main"
    assert callable(cli.main)


def test_list_names_every_robot_and_experiment(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for name in gaittwin.ROBOTS:
        assert f"\n  {name} " in out
    times = cli.runtimes()
    for f in (ROOT / "configs" / "experiment").rglob("*.yaml"):
        line = next(ln for ln in out.splitlines() if ln.strip().startswith(f.stem + " "))
        assert ("~" in line or ">" in line) == (f.stem in times), line      # a measured time, or "not measured"
    assert cli.machines(times) in out


def test_every_experiment_has_a_measured_run_time():
    """configs/runtimes.yaml (scripts/measure_runtimes.py): every experiment measured at its defaults,
    finished (exit 0) or stopped at the time limit (a lower bound), with its machine, date and load."""
    times = cli.runtimes()
    assert set(times) == set(cli.experiment_names())
    for name, m in times.items():
        assert m["seconds"] > 0 and m["load"] >= 0 and m["machine"] and m["date"], name
        assert m["exit_code"] == 0 or (m["at_least"] and m["exit_code"] is None), (name, m)


def test_duration_text():
    assert cli._duration(None) == "not measured"
    assert cli._duration(dict(seconds=79.4, load=9.6)) == "~79 s (load 10)"
    assert cli._duration(dict(seconds=200, load=8, at_least=True)) == ">3 min (load 8)"


@pytest.mark.parametrize("robot", sorted(gaittwin.ROBOTS))
def test_params_lists_every_parameter_with_unit_default_range(robot, capsys):
    assert cli.main(["params", robot]) == 0
    out = capsys.readouterr().out
    fields = {k: f for k, f in schema.fields(gaittwin.robot_class(robot).Params).items() if k != "name"}
    rows = {r["name"]: r for r in cli.params_rows(robot)}
    assert set(rows) == set(fields)
    for k, f in fields.items():
        assert out.count(f"\n{k} ") + out.count(f"\n{k} [") >= 1, k
        assert rows[k]["unit"] == (f.spec.unit or "-")
        assert rows[k]["provenance"].startswith(f"models/{robot}/README.md")
    assert out.count("provenance: ") == len(fields)


def test_params_of_the_crawler():
    rows = {r["name"]: r for r in cli.params_rows("crawler")}
    assert rows["omega"] == dict(name="omega", unit="rad/s", default="1", allowed="(0, 200] rad/s",
                                 meaning="inputs, eq. 5 / eq. 8", provenance=rows["omega"]["provenance"])
    assert rows["m0"]["provenance"].startswith("models/crawler/README.md:") and "m0 (Table I)" in rows["m0"]["provenance"]
    assert "geometric limit" in rows["A_deg"]["meaning"] and "geometric" not in rows["A_deg"]["allowed"]


def test_list_lines_are_sentences_without_the_trackers_numbers():
    """Each experiment's line: its header's first sentence (was its first line: 'world 0: the', 'for'), no
    'Issue #17:'; each machine named once with its dates."""
    lines = {e["name"]: e["line"] for e in cli.experiments()}
    assert not any("Issue #" in v for v in lines.values())
    assert lines["bolt_running"] == "Figs. 11-14 of the BOLT paper: running from rest on the boom for 20 strides"
    assert lines["bolt_robustness"].startswith("The nominal gait's figure of merit over experiment.n randomised worlds")
    times = {"a": dict(machine="m1", date="d2"), "b": dict(machine="m1", date="d1"), "c": dict(machine="m2", date="d1")}
    assert cli.machines(times) == "m1, d1, d2; m2, d1"


def test_params_meaning_is_a_whole_sentence_of_the_right_section():
    """A section comment's first sentence, whole (it was its first line, cut mid-word: 'puts every COM at its'),
    and a field is not described by the section of the fields above it (MinIAQ-II's contact law was
    'robustness-only', its masses 'the paper's phase error', the crawler's foot_radius a COM offset)."""
    assert cli._first_sentence("a (Sec. II: b). Then c.  More") == "a (Sec. II: b)"
    assert cli._first_sentence("inputs, eq. 5 / eq. 8") == "inputs, eq. 5 / eq. 8"
    crawler = {r["name"]: r["meaning"] for r in cli.params_rows("crawler")}
    assert "puts every COM at its link's midpoint: 0 is that model)" in crawler["dc0"]
    assert "centre-of-mass" not in crawler["foot_radius"]
    miniaq = {r["name"]: r["meaning"] for r in cli.params_rows("miniaq")}
    assert "robustness" not in miniaq["contact_law"] and "robustness" not in miniaq["timestep"]
    assert "phase error" not in miniaq["m"] and "phase error" not in miniaq["direction_left"]
    assert "robustness" in miniaq["com_offset_x"] and "phase error" in miniaq["phase_wander_deg"]
    snake = {r["name"]: r["meaning"] for r in cli.params_rows("snake")}
    assert "contact" not in snake["com_offset"] and all(snake[k] != "-" for k in ("l", "m", "kp"))


def test_params_of_an_unknown_robot_exits_2(capsys):
    assert cli.main(["params", "hexapod"]) == 2
    assert "error: robot='hexapod'" in capsys.readouterr().err


def test_run_is_the_script_and_its_help_lists_no_internal_groups():
    res = run_script("-m", "gaittwin.cli", "run", "--help")
    assert res.returncode == 0, res.stderr[-2000:]
    assert "gaittwin list" in res.stdout and "_schema" not in res.stdout
    for name in gaittwin.ROBOTS:
        assert name in res.stdout.split("== Config")[0]
    res = run_script("-m", "gaittwin.cli", "run", "robot.mu=0")           # bad input: the script's exit 2
    assert res.returncode == 2 and "error: robot.mu=" in res.stderr


def test_no_command_prints_usage(capsys):
    assert cli.main([]) == 2
    assert "gaittwin" in capsys.readouterr().out


