"""The crawler's measured studies, each `python -m gaittwin.crawler.paper.studies.<name> --help`.

| study | what it measures | written up in |
|---|---|---|
| `crawler_contact_recipe` | the crawler's foot-floor contact recipe against the exact hybrid model | docs/notes/2026-11-28-crawler-contact-recipe.md |
| `crawler_twin_vs_exact` | every crawler experiment on the MuJoCo twin and the exact hybrid model, side by side (writes `docs/crawler_twin_vs_exact.md`; its 2026-11-28 output is the note) | docs/notes/2026-11-28-crawler-twin-vs-exact.md |
"""
