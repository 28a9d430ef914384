#!/usr/bin/env python3
"""The peer of `pipeline features FILE.csv --out OUT`: the same window statistics written the
way a careful notebook would, vectorised with numpy over all windows at once (no Python loop
per window). Whole process: read the CSV with pandas, resample to 50 Hz, derive the five
channels (|a|, vertical, horizontal, |w|, |a - g| with gravity as the window's mean
acceleration), cut 5 s windows with 50 % overlap, and per window and channel compute mean,
std, 10/25/50/75/90th percentiles from the mean, range, rms, skewness, excess kurtosis,
mean-crossing rate, the share of power in the 7 bands, dominant frequency, normalised spectral
entropy and the autocorrelation's step peak and lag; write one CSV row per window.

It does less than the pipeline (no anti-aliasing, no gap handling, no labels, no GPS), so the
ratio flatters the peer. Usage: numpy_features.py FILE.csv OUT.csv"""
import sys

import numpy as np
import pandas as pd

RATE_HZ = 50.0
WINDOW = 250
HOP = 125
BANDS_HZ = [(0, 1), (1, 2), (2, 3), (3, 5), (5, 8), (8, 12), (12, 25)]


def load_channels(path):
    """The five channels on a 50 Hz grid, cut into windows: dict name -> (windows, WINDOW)."""
    frame = pd.read_csv(path, usecols=["x_acc", "y_acc", "z_acc", "x_gyro", "y_gyro", "z_gyro", "timestamp"])
    time_s = frame["timestamp"].to_numpy(dtype=float) / 1000
    order = np.argsort(time_s, kind="stable")
    time_s = time_s[order]
    grid = np.arange(time_s[0], time_s[-1], 1 / RATE_HZ)
    axes = {name: np.interp(grid, time_s, frame[name].to_numpy(dtype=float)[order])
            for name in ["x_acc", "y_acc", "z_acc", "x_gyro", "y_gyro", "z_gyro"]}
    count = (len(grid) - WINDOW) // HOP + 1
    view = lambda values: np.lib.stride_tricks.sliding_window_view(values, WINDOW)[::HOP][:count]
    acc = np.stack([view(axes[a]) for a in ["x_acc", "y_acc", "z_acc"]], axis=-1)   # (w, n, 3)
    gyro = np.stack([view(axes[a]) for a in ["x_gyro", "y_gyro", "z_gyro"]], axis=-1)
    gravity = acc.mean(axis=1, keepdims=True)
    unit = gravity / np.linalg.norm(gravity, axis=-1, keepdims=True)
    vertical = (acc * unit).sum(axis=-1)
    channels = {
        "acc_mag": np.linalg.norm(acc, axis=-1),
        "acc_vert": vertical,
        "acc_horiz": np.linalg.norm(acc - vertical[..., None] * unit, axis=-1),
        "gyro_mag": np.linalg.norm(gyro, axis=-1),
        "acc_dyn": np.linalg.norm(acc - gravity, axis=-1),
    }
    starts = grid[0] + np.arange(count) * HOP / RATE_HZ
    return starts, channels


def features(x):
    """(windows, WINDOW) -> dict of feature columns."""
    mean = x.mean(axis=1)
    d = x - mean[:, None]
    m2 = (d ** 2).mean(axis=1)
    std = np.sqrt(m2)
    safe = np.where(m2 > 1e-18, m2, np.nan)
    q = np.percentile(x, [10, 25, 50, 75, 90], axis=1)
    signs = d > 0
    crossings = (signs[:, 1:] != signs[:, :-1]).sum(axis=1)
    out = {"mean": mean, "std": std}
    for p, values in zip([10, 25, 50, 75, 90], q):
        out[f"p{p}_from_mean"] = values - mean
    out.update({"range": x.max(axis=1) - x.min(axis=1), "rms": np.sqrt(mean ** 2 + m2),
                "skewness": np.nan_to_num((d ** 3).mean(axis=1) / safe ** 1.5),
                "kurtosis": np.nan_to_num((d ** 4).mean(axis=1) / safe ** 2 - 3),
                "mean_crossing_rate_hz": crossings * RATE_HZ / WINDOW})
    power = np.abs(np.fft.rfft(d, axis=1)) ** 2
    frequencies = np.fft.rfftfreq(WINDOW, 1 / RATE_HZ)
    total = power[:, 1:].sum(axis=1)
    total = np.where(total > 0, total, np.nan)
    for low, high in BANDS_HZ:
        inside = (frequencies >= low) & ((frequencies < high) if high < 25 else (frequencies <= high))
        out[f"band_{low}_{high}hz_fraction"] = np.nan_to_num(power[:, inside].sum(axis=1) / total)
    out["dominant_frequency_hz"] = frequencies[1 + power[:, 1:].argmax(axis=1)]
    p = power[:, 1:] / total[:, None]
    entropy = -(np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0)).sum(axis=1)
    out["spectral_entropy"] = np.nan_to_num(entropy / np.log(p.shape[1]))
    autocorrelation = np.fft.irfft(power, axis=1)
    lags = np.arange(int(0.3 * RATE_HZ), int(1.5 * RATE_HZ) + 1)
    r = autocorrelation[:, lags] / np.where(autocorrelation[:, :1] > 0, autocorrelation[:, :1], np.nan)
    peak = (r[:, 1:-1] >= r[:, :-2]) & (r[:, 1:-1] >= r[:, 2:])
    candidates = np.where(peak, r[:, 1:-1], 0)
    best = candidates.argmax(axis=1)
    out["autocorr_peak"] = np.nan_to_num(candidates[np.arange(len(best)), best])
    out["autocorr_peak_lag_s"] = np.where(out["autocorr_peak"] > 0, lags[1 + best] / RATE_HZ, 0)
    return out


def main():
    path, out = sys.argv[1], sys.argv[2]
    starts, channels = load_channels(path)
    columns = {"start_unix_s": starts, "end_unix_s": starts + WINDOW / RATE_HZ}
    for name, values in channels.items():
        for feature, column in features(values).items():
            columns[f"{name}_{feature}"] = column
    pd.DataFrame(columns).to_csv(out, index=False)
    print(f"numpy {np.__version__}: {len(starts)} windows, {len(columns) - 2} features")


if __name__ == "__main__":
    main()
