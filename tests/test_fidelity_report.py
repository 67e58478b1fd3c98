"""The fidelity report (docs/fidelity_report*.md) is complete and reproducible.

The reduced report is regenerated into a temporary directory and compared with the committed
docs/fidelity_report_reduced.md: the same claim rows, the same text, and every number equal within
a relative gaittwin.core.report.report.REL_TOL (numbers are printed with gaittwin.core.report.report.SIG significant digits;
the simulations are deterministic on the same library build).
"""
from __future__ import annotations

import pathlib

import pytest

from gaittwin.core.report import report as fidelity

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"
REPORTS = [p for p in (DOCS / "fidelity_report.md", DOCS / "fidelity_report_reduced.md")]
PAPER_ROW_IDS = set(fidelity.paper_values())


def _rows(path):
    return fidelity.parse_report(path.read_text())


def _current_format(text: str) -> bool:
    return "| " + " | ".join(fidelity.COLUMNS) + " |" in text


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_every_row_is_complete(path):
    """Each claim row has a kind, a paper value (or 'withheld'), a twin value, a verdict that fits its kind,
    a tolerance where it is judged, a source; a disagreement has its reason."""
    assert path.exists(), f"{path} missing: run scripts/fidelity_report.py{' --reduced' if 'reduced' in path.name else ''} --out docs"
    if not _current_format(path.read_text()) and "reduced" not in path.name:
        pytest.skip(f"{path.name} predates the kind/tolerance columns: regenerate it (scripts/fidelity_report.py --out docs)")
    rows = _rows(path)
    assert len(rows) >= 80
    for rid, r in rows.items():
        assert r["kind"] in fidelity.KINDS, (rid, r["kind"])
        assert r["paper"] not in ("", "–"), rid
        assert r["twin"] not in ("", "–", "nan"), rid
        assert r["verdict"] in fidelity.VERDICTS, (rid, r["verdict"])
        assert r["source"] not in ("", "–"), rid
        if r["verdict"] == fidelity.SUPERSEDED:        # an old definition: its last verdict in the history column
            assert "last verdict" in r["history"] and "superseded by" in r["history"], rid
        elif r["kind"] in fidelity.JUDGED:
            assert r["tolerance"] not in ("", "–"), f"{rid}: a judged row states its tolerance"
            assert r["verdict"] in (fidelity.AGREE, fidelity.DISAGREE, fidelity.NO_DATA), rid
        elif r["verdict"] != fidelity.NO_DATA:
            assert r["verdict"] == {fidelity.GRAPH_ONLY: fidelity.NO_VERDICT,
                                    fidelity.WITHHELD_KIND: fidelity.WITHHELD}[r["kind"]], rid
        if r["paper"] == "withheld":
            assert r["kind"] == fidelity.WITHHELD_KIND, rid
        if r["verdict"] in (fidelity.DISAGREE, fidelity.NO_DATA):
            assert r["reason"] not in ("", "–"), f"{rid}: a differing claim needs its reason"
    # every claim with paper data appears (the snake tables are generated per row)
    missing = PAPER_ROW_IDS - set(rows)
    assert not missing, missing
    assert any(k.startswith("S1.") for k in rows) and any(k.startswith("S2.") for k in rows)


def test_paper_data_cover_all_groups():
    robots = {r for r, _, _ in fidelity.claim_groups()}
    assert robots == {"crawler", "snake", "bolt", "miniaq"}
    withheld = [k for k, (_, v) in fidelity.paper_values().items() if v == "withheld"]
    assert set(withheld) == {"C20", "C21", "B8"}


def test_cells_match_tolerance():
    assert fidelity.cells_match("194.751 mm", "194.751 mm")
    assert fidelity.cells_match("194.751", "194.752")              # 5e-6 relative
    assert not fidelity.cells_match("194.751", "194.761")          # 5e-5 relative
    assert not fidelity.cells_match("agrees", "disagrees")
    assert fidelity.cells_match("hybrid 1.5; twin -2e-05", "hybrid 1.5; twin -2e-05")


def test_reduced_report_is_reproducible(tmp_path):
    """Regenerate the reduced report (about a minute on 2 cores) and compare with the committed one."""
    committed = DOCS / "fidelity_report_reduced.md"
    assert committed.exists(), "run scripts/fidelity_report.py --reduced --out docs"
    path = fidelity.generate(tmp_path, reduced=True, log=lambda *a: None)
    new, old = _rows(path), _rows(committed)
    assert list(new) == list(old), f"claim rows differ: +{set(new) - set(old)} -{set(old) - set(new)}"
    bad = [(rid, c, old[rid][c], new[rid][c]) for rid in old for c in fidelity.COLUMNS
           if not fidelity.cells_match(old[rid][c], new[rid][c])]
    assert not bad, "values differ from docs/fidelity_report_reduced.md:\n" + "\n".join(map(str, bad[:20]))
    assert (tmp_path / "fidelity_report_reduced.json").exists()
    assert (tmp_path / "fidelity_reduced").is_dir() and any((tmp_path / "fidelity_reduced").glob("*.png"))


def test_claims_read_the_typed_results_an_experiment_returns(tmp_path):
    """The report's Context.run hands claims the experiment's Result: its tables are the typed rows as
    computed (no CSV read back, no keys made of formatted floats), and equal the files it wrote."""
    import ast

    from gaittwin.core.runs.csvio import read_csv
    ctx = fidelity.Context(reduced=True, work=tmp_path, plots=tmp_path / "plots", log=lambda *a: None)
    res, out = ctx.run("crawler_frequency_sweep", "fig4", {"run.cycles": 2, "run.min_cycles": 2},
                       {"omega": [8.0, 16.0]})
    rows = res.table("results.csv")                       # the sweep store's rows, as returned
    assert [r["omega"] for r in rows] == [8.0, 16.0]
    assert all(isinstance(r["S"], float) for r in rows)
    written = read_csv(out / "results.csv")                # the same values the file holds ('' = None)
    assert [{k: ("" if v is None else v) for k, v in r.items()} for r in rows] == written
    assert fidelity.keyed(rows, "omega", "S", 1e3) == {r["omega"]: r["S"] * 1e3 for r in rows}
    with pytest.raises(KeyError, match="not a table"):
        res.table("nothing.csv")
    # no claims module opens a file or reads a CSV/JSON: they read Result.summary / Result.table
    for path in pathlib.Path(fidelity.__file__).resolve().parents[1].glob("*/claims*.py"):
        names = {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(ast.parse(path.read_text()))
                 if isinstance(n, (ast.Name, ast.Attribute))}
        assert not names & {"open", "read_csv", "read_text", "DictReader", "loads", "load_json"}, path
