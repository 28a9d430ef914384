#!/usr/bin/env bash
# Reading a table of positions, side by side with the peer: `pipeline ingest` of a trackintel
# positionfixes CSV (one person, 1 Hz, ROWS rows; into a new store, cleaned) and trackintel's
# own `read_positionfixes_csv` of the same file (parsed into a GeoDataFrame, no store).
# Usage: scripts/bench/bench_position_table.sh [ROWS]   (default 1000000). Needs .venv-peers
# (scripts/peers/peer_setup.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
rows=${1:-1000000}
scripts/peers/peer_setup.sh
swift build -c release --product pipeline >&2
mkdir -p .bench/positions
table=.bench/positions/positionfixes-$rows.csv
if [ ! -f "$table" ]; then
    .venv-peers/bin/python - "$table" "$rows" <<'PY'
import sys, numpy as np, pandas as pd
path, n = sys.argv[1], int(sys.argv[2])
t = pd.date_range("2024-05-01T06:00:00Z", periods=n, freq="1s")
step = np.random.default_rng(7).normal(0, 1e-5, size=(n, 2)).cumsum(axis=0)
pd.DataFrame({"user_id": 7, "tracked_at": t.strftime("%Y-%m-%d %H:%M:%S.000+00:00"), "accuracy": 5.0,
              "longitude": 4.9 + step[:, 0], "latitude": 52.37 + step[:, 1]}).to_csv(path, index_label="id")
PY
fi
rm -rf .bench/positions/out
/usr/bin/time -f "%e %M" -o .bench/positions/ours.txt .build/release/pipeline ingest "$table" --store .bench/positions/out/restricted/pipeline.sqlite >/dev/null 2>&1
/usr/bin/time -f "%e %M" -o .bench/positions/peer.txt .venv-peers/bin/python -c "
import sys, trackintel as ti
pfs = ti.read_positionfixes_csv(sys.argv[1], index_col='id')
assert len(pfs) == int(sys.argv[2])" "$table" "$rows"
read ours_s ours_kb < .bench/positions/ours.txt
read peer_s peer_kb < .bench/positions/peer.txt
printf "%s rows: pipeline ingest %.2f s (%d MB peak, into SQLite, cleaned); trackintel read_positionfixes_csv %.2f s (%d MB peak, in memory); ratio %.1fx\n" \
    "$rows" "$ours_s" $((ours_kb / 1024)) "$peer_s" $((peer_kb / 1024)) "$(echo "$peer_s / $ours_s" | bc -l)"
