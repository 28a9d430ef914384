#!/usr/bin/env python3
"""Reference magnitudes of the whole-body vibration weightings, independent of the Swift code.

Evaluates the analog transfer functions of ISO 2631-1:1997 Annex A (Wk, Wd) and ISO 2631-4:2001
Annex A / ISO 8041 (Wb; parameters f1 0.4, f2 100, f3 = f4 16 Hz, Q4 0.55, f5 2.5, Q5 0.9,
f6 4, Q6 0.95, K 1.024, as quoted in Larson Davis's HVM200 Reference Manual, Table 3.1) with
scipy.signal.freqs, and prints |W(f)| at the one-third-octave bands 0.5-20 Hz.
Tests/ComfortTests/WeightingFilterTests.swift holds the printed Wb values.

    python3 scripts/reference/weighting_reference.py
"""
import numpy as np
from scipy import signal


def magnitude(f, f1, f2, f3, f4, q4, f5=None, q5=None, f6=None, q6=None, k=1.0):
    w = lambda hz: 2 * np.pi * hz
    sections = [
        ([1, 0, 0], [1, w(f1) * np.sqrt(2), w(f1) ** 2]),  # band-limiting high-pass
        ([w(f2) ** 2], [1, w(f2) * np.sqrt(2), w(f2) ** 2]),  # band-limiting low-pass
        ([w(f4) ** 2 / w(f3), w(f4) ** 2], [1, w(f4) / q4, w(f4) ** 2]),  # a-v transition
    ]
    if f5 is not None:
        sections.append(([1, w(f5) / q5, w(f5) ** 2], [1, w(f6) / q6, w(f6) ** 2]))  # upward step
    result = k
    for b, a in sections:
        _, h = signal.freqs(b, a, worN=[w(f)])
        result *= abs(h[0])
    return result


WEIGHTINGS = {
    "Wk": dict(f1=0.4, f2=100, f3=12.5, f4=12.5, q4=0.63, f5=2.37, q5=0.91, f6=3.35, q6=0.91),
    "Wd": dict(f1=0.4, f2=100, f3=2.0, f4=2.0, q4=0.63),
    "Wb": dict(f1=0.4, f2=100, f3=16, f4=16, q4=0.55, f5=2.5, q5=0.9, f6=4.0, q6=0.95, k=1.024),
}
BANDS = [0.5, 0.63, 0.8, 1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0, 10, 12.5, 16, 20]

if __name__ == "__main__":
    print("Hz      " + "  ".join(f"{name:>7}" for name in WEIGHTINGS))
    for f in BANDS:
        print(f"{f:<6}  " + "  ".join(f"{magnitude(f, **p):7.4f}" for p in WEIGHTINGS.values()))
