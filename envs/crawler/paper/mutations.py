"""Twin mutations of the crawler (envs/core/report/mutation.py): each breaks the MuJoCo twin only, not the
exact hybrid model, and the fidelity report must notice (tests/test_fidelity_twin_mutation.py)."""
from __future__ import annotations

from ...core.report.mutation import Mutation, controls_edit, default_contact, scale_friction, spec_edit, swap_bodies_mass

# controls columns: [phi1, phi2] positions, then [phi1, phi2] velocities (Crawler.controls)
SWAP_JOINTS = [1, 0, 3, 2]

MUTATIONS = [
    Mutation("friction_half", "crawler", "both feet's friction coefficient x 0.5 (contact pairs' sliding friction)",
             spec_edit(lambda r, s: scale_friction(s, 0.5))),
    Mutation("crawler_phase_reversed", "crawler", "input phase reversed: phi1 and phi2 exchanged, i.e. psi -> -psi "
             "(the inputs share A and phi0)", controls_edit(lambda r, f, t: f(t)[:, SWAP_JOINTS])),
    Mutation("default_contact", "crawler", "MuJoCo's default contact (solref 0.02 s, default solimp, no friction "
             "solref, impratio 1) instead of the contact recipe (models/crawler/README.md)",
             spec_edit(lambda r, s: default_contact(s))),
    Mutation("masses_swapped", "crawler", "link masses swapped: the centre link's mass and inertia exchanged with "
             "link 1's (m0 0.194 kg <-> m1 0.021 kg)", spec_edit(lambda r, s: swap_bodies_mass(s, "center", "link1"))),
]
