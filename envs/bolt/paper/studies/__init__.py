"""BOLT's measured studies, each `python -m gaittwin.bolt.paper.studies.<name> --help`.

| study | what it measures | written up in |
|---|---|---|
| `bolt_loop_study` | BOLT's loop-closure recipe: loop gap and speed per crank period against the settings | docs/notes/2026-11-28-bolt-loop-closure.md |
| `bolt_compliance` | what BOLT's die spring and rubber pad do to its impact forces | docs/notes/2026-11-28-bolt-compliance.md |
| `bolt_paper_convergence` | BOLT's paper model: its metrics against the solver tolerance and the SPF time constant | docs/notes/2026-11-28-bolt-paper-model.md |
| `bolt_paper_diagnosis` | why BOLT's paper model (and the twin without the bumper) hops backwards | docs/notes/2026-11-28-bolt-paper-model.md |
| `bolt_paper_impasse` | BOLT's paper model against its Painleve threshold `paper.den_min` | docs/notes/2026-11-28-bolt-paper-model.md |
| `bolt_paper_reference` | BOLT's paper model over the `bolt_twin_vs_paper` sweep, written as the committed reference `models/bolt/paper_reference.csv` (checked against a fresh run in CI) | docs/robots/bolt.md, "Twin vs paper model" |
| `bolt_contact_study` | BOLT's foot contact candidates x timestep against the paper model at every crank period | docs/notes/2026-11-28-bolt-foot-contact.md |
| `bolt_phase_budget` | BOLT twin vs paper model phase by phase at one crank period | docs/notes/2026-11-28-bolt-phase-budget.md |
| `bolt_foot_restitution` | BOLT's foot impact from the paper model's touch-down state against its plastic impact map | docs/notes/2026-11-28-bolt-foot-impact.md |
| `bolt_plastic_limit` | BOLT's `foot_contact=plastic` as a convergence sequence against the paper model | docs/notes/2026-11-28-bolt-plastic-foot.md |
| `bolt_plastic_chatter` | every step of the plastic foot's stance, why it re-contacts | docs/notes/2026-11-28-bolt-plastic-foot.md |
| `bolt_coulomb_foot` (hook: `bolt_coulomb_hook`) | a frictionless plastic contact with a Coulomb force per step; built as `robot/foot=coulomb` | docs/notes/2026-11-28-bolt-coulomb-foot.md; the option: docs/robots/bolt.md |
| `bolt_printed_rules` | BOLT's paper model under Sec. 5.1's printed rules (`paper.rules=printed`): lift-off angle x crank period, speed against the measured stride time | docs/notes/2026-11-28-bolt-printed-rules.md |
| `warp_bolt_touchdown` | BOLT's tau_max 15 warp disagreement step by step | docs/engines.md, "BOLT's tau_max = 15 failure" |
"""
