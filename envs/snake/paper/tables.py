"""The snake paper's printed numbers (Sun, Ma & Wang): Table 1 (kinematic optimum per n) and Table 2
(per (n, alpha): f, d_unit, the measured Delta x, d and loss).  Data only: the experiments print
them beside the twin, the calibration fits Table 2's n = 4 rows, the claims judge against them."""
from __future__ import annotations

TABLE1 = {  # n: (alpha_max_deg, f_max, d_unit)
    4: (74.6, 0.53, 2.40), 5: (58.5, 0.52, 2.87), 6: (48.2, 0.52, 3.35), 7: (41.1, 0.52, 3.79),
    8: (35.8, 0.53, 4.31), 9: (31.7, 0.53, 4.82), 10: (28.5, 0.53, 5.25), 11: (25.9, 0.54, 5.87),
}
TABLE2 = {  # (n, alpha_deg): (f, d_unit, dx_mm or None, d_mm, loss_percent or None)
    (4, 30): (0.218, 0.455, 332.5, 382.2, 13), (4, 45): (0.333, 0.956, 711.7, 803.0, 11),
    (4, 58): (0.430, 1.567, 1197.8, 1316.3, 9),
    (5, 30): (0.283, 0.858, None, 720.7, None), (5, 45): (0.424, 1.824, None, 1532.2, None),
    (5, 58): (0.519, 2.831, None, 2378.0, None),
}
