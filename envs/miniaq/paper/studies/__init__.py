"""MinIAQ-II's measured studies, each `python -m gaittwin.miniaq.paper.studies.<name> --help`.

| study | what it measures | written up in |
|---|---|---|
| `miniaq_twin_vs_paper` | MinIAQ-II's twin beside the paper's own model (trot, turn; tolerance, differences, contact, phase error) | docs/robots/miniaq.md; docs/notes/2026-11-28-miniaq-support-pattern.md |
| `miniaq_foot_study` | MinIAQ-II's foot: which foot lets the twin's feet rest where the paper model's do | docs/notes/2026-11-28-miniaq-foot-study.md |
"""
