#!/usr/bin/env bash
# A Spark standalone cluster on this machine for the tests and the benchmark: one master
# and two workers, each its own JVM (org.apache.spark.deploy.master.Master and
# .worker.Worker from the pinned pyspark), on 127.0.0.1 and free ports.
#   scripts/build/spark_cluster.sh start DIR [CORES-PER-WORKER]   prints spark://127.0.0.1:PORT; DIR gets
#                                                           master.url, master.pid, worker-1.pid, worker-2.pid, logs
#   scripts/build/spark_cluster.sh stop DIR                       stops what DIR's pid files name
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
action=${1:?start or stop}
dir=${2:?a folder for the pids and logs of the cluster}
stop() {
    for f in "$dir"/worker-*.pid "$dir"/master.pid; do
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        # the executors of a worker are its children: stop them with it
        pkill -TERM -P "$pid" 2>/dev/null || true
        kill "$pid" 2>/dev/null || true
        rm -f "$f"
    done
}
if [ "$action" = stop ]; then stop; exit 0; fi
"$root/scripts/build/spark_setup.sh"
mkdir -p "$dir"
spark_home=$("$root/.venv-spark/bin/python" -c "import os, pyspark; print(os.path.dirname(pyspark.__file__))")
free_port() { "$root/.venv-spark/bin/python" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"; }
port=$(free_port)
export SPARK_HOME="$spark_home" SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON="$root/.venv-spark/bin/python"
cores=${3:-1}
"$spark_home/bin/spark-class" org.apache.spark.deploy.master.Master --host 127.0.0.1 --port "$port" --webui-port "$(free_port)" \
    >"$dir/master.log" 2>&1 &
echo $! >"$dir/master.pid"
for w in 1 2; do
    "$spark_home/bin/spark-class" org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --cores "$cores" --memory 3g \
        --webui-port "$(free_port)" --work-dir "$dir/worker-$w" "spark://127.0.0.1:$port" >"$dir/worker-$w.log" 2>&1 &
    echo $! >"$dir/worker-$w.pid"
done
# ready when both workers have registered with the master
for _ in $(seq 1 120); do
    registered=$(grep -c 'Registering worker' "$dir/master.log" 2>/dev/null || true)
    if [ "${registered:-0}" -ge 2 ]; then
        echo "spark://127.0.0.1:$port" | tee "$dir/master.url"
        exit 0
    fi
    sleep 0.5
done
echo "spark_cluster: the workers did not register with the master in 60 s; see $dir/*.log" >&2
stop
exit 1
