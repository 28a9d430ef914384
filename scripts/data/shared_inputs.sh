# Sourced by the training and evaluation scripts: lays the labelled data sets of
# ../shared/data out as a user would give them, as links and a manifest.csv in a folder of
# the caller's (nothing is written into ../shared/data, nothing is copied).
#
#   geotec_inputs DIR SHARED  GeoTecINIT's phone recordings (*_sp.csv; the smartwatch's are
#                             left out), one device and person per subject s01..s06.
#   qrowd_inputs DIR SHARED   QROWD's six tables at their stated 15 Hz (synthetic times, so
#                             read by rate from a fixed start), one device for the whole set:
#                             its bus and train "users" are not people (its README).
#   metro_inputs DIR SHARED   the two Paris metro rides (Sensor Logger), one phone, all train.
#   wisdm_inputs DIR SHARED   WISDM 2019's phone accelerometer files (21 people, trouser pocket,
#                             20 Hz; the gyroscope files are recorded apart, on their own clock,
#                             and left out), read through a mapping: headerless, `;` ending each
#                             row, read at its stated 20 Hz from a fixed start (its ns times are
#                             the phone's clock, restarting with each activity), and the
#                             activity letters mapped: A walking, B jogging and C stairs to walk
#                             (on foot), D sitting and E standing to still; the other 13 (typing,
#                             eating, ball games …) are no transport mode and are left out, counted.
#   helsinki_inputs DIR SHARED  the Aalto TrafficSense day in Helsinki: its table of 8 phones'
#                             fixes split into one file per phone (as the reader's message
#                             asks), times in local time (+03:00, EEST), each phone's own
#                             activity labels beside them, and the hand-logged legs as a
#                             device,start,end,mode labels file (vehicle departure to arrival).
#                             Persons are not named: 7 people carried the 8 phones, and which
#                             two were one person's is not in the data.
#   cbs_inputs DIR SHARED     gps/cbs-ssi's day files (3 persons: Utrecht1, 2 and 12 are one,
#                             its README) with the diary's modes as a device,start,end,mode
#                             labels file: each run of rows the diary marks moving (`stop`
#                             FALSE) in one mode is one leg, from its first fix to its last.
#                             EUPL-1.2: it chooses and scores, never trains the shipped weights.
#   panel_inputs DIR SHARED   a panel of 12 real persons in three cities, for the published
#                             tables (OD, modal split, shares, CO2e) as an analyst gets them:
#                             the Helsinki phones as 8 persons (which two phones share a person
#                             is not in the data), gps/cbs-ssi as 3 persons (Utrecht1, 2 and 12
#                             are one person, its README), MobilityNet's raw iPhone runs as 1.
#                             No labels, no geofences, no time zones: what a new user gives
#                             (the Helsinki files' UTC offset, which their README states, given).

geotec_inputs() {
    local dir=$1 shared=$2 file subject
    mkdir -p "$dir"
    for file in "$shared"/imu/GeoTecINIT_sp-sw-har/DATA/s*/*_sp.csv; do ln -sf "$(realpath "$file")" "$dir/"; done
    printf 'path,device,person\n' > "$dir/manifest.csv"
    for subject in $(ls "$dir" | sed -n 's/^\(s[0-9]*\)_.*_sp\.csv$/\1/p' | sort -u); do
        echo "${subject}_*_sp.csv,geotec-${subject}-phone,geotec-${subject}" >> "$dir/manifest.csv"
    done
}

qrowd_inputs() {
    local dir=$1 shared=$2 file
    mkdir -p "$dir"
    for file in "$shared"/imu/qrowd/datasets/*.csv; do ln -sf "$(realpath "$file")" "$dir/"; done
    printf 'path,device,person,columns\n*.csv,qrowd-phones,qrowd-people,"rate=15; start=2000-01-01T12:00:00Z; acc=x,y,z; label=class"\n' > "$dir/manifest.csv"
}

metro_inputs() {
    local dir=$1 shared=$2 ride
    mkdir -p "$dir"
    for ride in "$shared"/imu/metro/L4*; do ln -sfn "$(realpath "$ride")" "$dir/"; done
    printf 'path,device,person,mode\nL4_*,pixel-4-xl,metro-rider,train\n' > "$dir/manifest.csv"
}

wisdm_inputs() {
    local dir=$1 shared=$2 file subject
    mkdir -p "$dir"
    printf 'path,device,person,columns\n' > "$dir/manifest.csv"
    for file in "$shared"/imu/wisdm/phone/accel/data_*_accel_phone.txt; do
        ln -sf "$(realpath "$file")" "$dir/"
        subject=$(basename "$file" | sed 's/^data_\([0-9]*\)_.*/\1/')
        echo "$(basename "$file"),wisdm-$subject-phone,wisdm-$subject,\"header=0; rate=20; start=2019-01-01T00:00:00Z; acc=4,5,6; label=2; labels=A:walk,B:walk,C:walk,D:still,E:still\"" >> "$dir/manifest.csv"
    done
}

helsinki_inputs() {
    local dir=$1 shared=$2
    mkdir -p "$dir"
    python3 - "$shared/gps/aalto-helsinki/csv" "$dir" <<'PY'
import csv, os, sys
source, out = sys.argv[1], sys.argv[2]
phones = {}
with open(os.path.join(source, "device_data.csv"), newline="") as f:
    rows = csv.DictReader(f)
    for row in rows:
        phones.setdefault(row["device_id"], []).append(row)
with open(os.path.join(out, "manifest.csv"), "w") as manifest:
    manifest.write("path,device,utc_offset\n")
    for phone, rows in sorted(phones.items()):
        os.makedirs(os.path.join(out, f"phone-{phone}"), exist_ok=True)
        with open(os.path.join(out, f"phone-{phone}", "positions.csv"), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            writer.writeheader()
            writer.writerows(rows)
        manifest.write(f"phone-{phone}/positions.csv,helsinki-phone-{phone},+03:00\n")
with open(os.path.join(source, "manual_log.csv"), newline="") as f, open(os.path.join(out, "labels.csv"), "w") as labels:
    labels.write("device,start,end,mode\n")
    for row in csv.DictReader(f):
        row = {key.strip(): value for key, value in row.items()}
        start, end = (row[key].replace(" ", "T") + "+03:00" for key in ("vehicle_dep_time", "vehicle_arr_time"))
        labels.write(f"helsinki-phone-{row['device_id']},{start},{end},{row['line_type']}\n")
PY
}

cbs_inputs() {
    local dir=$1 shared=$2 file user person
    mkdir -p "$dir"
    for file in "$shared"/gps/cbs-ssi/open_geo_data/split-by-day/*.csv; do ln -sf "$(realpath "$file")" "$dir/"; done
    printf 'path,device,person\n' > "$dir/manifest.csv"
    for user in $(ls "$dir" | sed -n 's/^ssi_open_geodata-\(Utrecht[0-9]*\)-.*\.csv$/\1/p' | sort -u); do
        case $user in Utrecht1|Utrecht2|Utrecht12) person=cbs-utrechtX ;; *) person=cbs-$(echo "$user" | tr A-Z a-z) ;; esac
        echo "ssi_open_geodata-$user-*.csv,cbs-$(echo "$user" | tr A-Z a-z)-phone,$person" >> "$dir/manifest.csv"
    done
    python3 - "$dir" <<'PY'
import csv, glob, os, sys
out = sys.argv[1]
with open(os.path.join(out, "labels.csv"), "w") as labels:
    labels.write("device,start,end,mode\n")
    for path in sorted(glob.glob(os.path.join(out, "ssi_open_geodata-*.csv"))):
        run = None
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        for row in rows + [None]:
            mode = row["mode"] if row and row["stop"] == "FALSE" and row["mode"] else None
            if run and (mode != run[0] or row["user_id"] != run[3]):
                if run[1] < run[2]:
                    labels.write(f"cbs-{run[3].lower()}-phone,{run[1]},{run[2]},{run[0].lower()}\n")
                run = None
            if mode:
                run = [mode, row["timestamp"], row["timestamp"], row["user_id"]] if run is None else run[:2] + [row["timestamp"], run[3]]
PY
}

panel_inputs() {
    local dir=$1 shared=$2 file user person work
    mkdir -p "$dir/cbs"
    helsinki_inputs "$dir/helsinki" "$shared"
    rm -f "$dir/helsinki/manifest.csv" "$dir/helsinki/labels.csv"
    work=$(mktemp -d)
    python3 scripts/data/mobilitynet_inputs.py "$work/mobilitynet" "$shared/gps/mobilitynet" 2> /dev/null
    mv "$work/mobilitynet/ios-3" "$dir/mobilitynet"
    rm -rf "$work"
    for file in "$shared"/gps/cbs-ssi/open_geo_data/split-by-day/*.csv; do ln -sf "$(realpath "$file")" "$dir/cbs/"; done
    # The Helsinki files write local times (EEST) without an offset, as their README says: the
    # manifest gives it, as the run's warning asks a new user to.
    printf 'path,device,person,utc_offset\n' > "$dir/manifest.csv"
    for file in "$dir"/helsinki/phone-*; do
        echo "helsinki/$(basename "$file")/*.csv,helsinki-$(basename "$file"),helsinki-$(basename "$file"),+03:00" >> "$dir/manifest.csv"
    done
    for user in $(ls "$dir/cbs" | sed -n 's/^ssi_open_geodata-\(Utrecht[0-9]*\)-.*\.csv$/\1/p' | sort -u); do
        case $user in Utrecht1|Utrecht2|Utrecht12) person=cbs-utrechtX ;; *) person=cbs-$(echo "$user" | tr A-Z a-z) ;; esac
        echo "cbs/ssi_open_geodata-$user-*.csv,cbs-$(echo "$user" | tr A-Z a-z)-phone,$person," >> "$dir/manifest.csv"
    done
    echo "mobilitynet/*/*.csv,ucb-sdb-ios-3,mobilitynet," >> "$dir/manifest.csv"
}
