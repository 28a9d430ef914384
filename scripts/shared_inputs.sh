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
