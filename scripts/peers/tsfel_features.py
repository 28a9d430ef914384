#!/usr/bin/env python3
"""The peer of `pipeline features FILE.csv --out OUT` a researcher would reach for: TSFEL's
statistical and spectral domains over the same five channels, 5 s windows with 50 % overlap
at 50 Hz. Reading, resampling and the channels are numpy_features.py's; TSFEL cuts the
windows itself. Whole process. Usage: tsfel_features.py FILE.csv OUT.csv"""
import os
import sys
import warnings

import numpy as np
import pandas as pd
import tsfel

sys.path.insert(0, os.path.dirname(__file__))
from numpy_features import HOP, RATE_HZ, WINDOW, load_channels  # noqa: E402


def main():
    path, out = sys.argv[1], sys.argv[2]
    warnings.simplefilter("ignore")
    _, channels = load_channels(path)
    # Back to one continuous signal per channel: the windows' first halves, then the last window.
    signal = {name: np.concatenate([w[:, :HOP].ravel(), w[-1, HOP:]]) for name, w in channels.items()}
    configuration = tsfel.get_features_by_domain("statistical")
    configuration.update(tsfel.get_features_by_domain("spectral"))
    table = tsfel.time_series_features_extractor(configuration, pd.DataFrame(signal), fs=RATE_HZ,
                                                 window_size=WINDOW, overlap=0.5, verbose=0, n_jobs=1)
    table.to_csv(out, index=False)
    print(f"tsfel: {len(table)} windows, {table.shape[1]} features")


if __name__ == "__main__":
    main()
