"""The documentation: a short README, and a MkDocs site (mkdocs.yml, docs/) that builds with --strict.
(Never with -q: mkdocs then drops warnings before its strict counter sees them, and a broken site builds.)

The build goes into a temporary folder (never site/ in the checkout); --strict turns every warning into an
error: a nav entry without its page, a link to a missing page or anchor, a page left out of the nav.
"""
import pathlib
import subprocess
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = ROOT / "mkdocs.yml"


def _load_config() -> dict:
    class Loader(yaml.SafeLoader):      # mkdocs.yml may carry !ENV / !relative tags: read them as plain text
        pass
    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    return yaml.load(CONFIG.read_text(), Loader=Loader)


def _nav_pages(nav) -> list[str]:
    """Every page path of a MkDocs nav (nested sections, 'Title: page.md' or a bare 'page.md')."""
    out = []
    for item in nav:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            for value in item.values():
                out += _nav_pages(value) if isinstance(value, list) else [value]
    return [p for p in out if not p.startswith(("http://", "https://"))]


def _build(config: pathlib.Path, site: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config),
                           "-d", str(site)], capture_output=True, text=True, timeout=120)


def test_readme_is_short():
    n = len((ROOT / "README.md").read_text().splitlines())
    assert n <= 150, f"README.md has {n} lines; the details belong in docs/"


def test_readme_keeps_the_test_command():
    assert '.venv/bin/python -m pytest -m "not slow" -q -n auto --dist loadfile' in (ROOT / "README.md").read_text()


def test_every_nav_page_exists():
    cfg = _load_config()
    docs = ROOT / cfg.get("docs_dir", "docs")
    pages = _nav_pages(cfg["nav"])
    assert "index.md" in pages and "adding_a_robot.md" in pages
    missing = [p for p in pages if not (docs / p).is_file()]
    assert not missing, f"nav entries without a page: {missing}"
    assert len(pages) == len(set(pages)), "a page is in the nav twice"


def test_site_builds_strict(tmp_path):
    res = _build(CONFIG, tmp_path / "site")
    assert res.returncode == 0, (res.stdout + res.stderr)[-4000:]
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "fidelity_report" / "index.html").is_file()


def test_a_broken_nav_entry_fails_the_build(tmp_path):
    """The strict build is a real check: the same config with one nav entry pointing nowhere fails."""
    cfg = CONFIG.read_text().replace("docs_dir: docs", f"docs_dir: {ROOT / 'docs'}")
    assert "  - Home: index.md\n" in cfg
    broken = tmp_path / "mkdocs.yml"
    broken.write_text(cfg.replace("  - Home: index.md\n", "  - Home: index.md\n  - Gone: no_such_page.md\n"))
    res = _build(broken, tmp_path / "site")
    assert res.returncode != 0
    assert "no_such_page.md" in res.stdout + res.stderr
