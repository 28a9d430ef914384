#!/usr/bin/env bash
# Packs the release binary (the Swift runtime linked statically, as scripts/install.sh
# installs it) with the shared libraries it loads (OpenBLAS, LAPACKE, SQLite, libpng, …, not
# the C library itself) and the shipped mode model and time-zone boundaries into
# .build/spark/pipeline-bundle.tar.gz, which the Spark job ships to every executor: a
# cluster needs Spark and Python, nothing of ours pre-installed. Prints the bundle's path.
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=$(scripts/build/static_build.sh)
stage=.build/spark/bundle
bundle=.build/spark/pipeline-bundle.tar.gz
# Packing takes seconds: skip it when the bundle is newer than the binary, the model, the job and this script.
if [ -f "$bundle" ] && [ -f .build/spark/pipeline_spark.zip ] && [ -z "$(find "$binary" models/mode-model.json models/time-zones.bin spark/pipeline_spark scripts/build/spark_bundle.sh \
        -newer "$bundle" -print -quit)" ]; then
    echo "$PWD/$bundle"
    exit 0
fi
rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/lib" "$stage/models"
cp "$binary" "$stage/bin/pipeline.real"
ldd "$binary" | awk '/=> \// {print $3}' \
    | grep -v -E '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' | while read -r lib; do cp -L "$lib" "$stage/lib/"; done
cp models/mode-model.json models/time-zones.bin models/time-zones.NOTICE "$stage/models/"
cat > "$stage/bin/pipeline" <<'SH'
#!/bin/sh
# The pipeline with the libraries packed beside it.
here=$(cd "$(dirname "$0")" && pwd)
LD_LIBRARY_PATH="$here/../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/pipeline.real" "$@"
SH
chmod +x "$stage/bin/pipeline" "$stage/bin/pipeline.real"
tar -czf .build/spark/pipeline-bundle.tar.gz -C "$stage" .
# The job's package for --py-files, each module's byte code beside it (compileall -b): Python
# compiles what it imports from a zip anew in every process otherwise, 0.05 s of each executor
# Python worker's first task. A Python of another version ignores the byte code.
python=python3; [ -x .venv-spark/bin/python ] && python="$PWD/.venv-spark/bin/python"
package=.build/spark/package
rm -rf "$package" && mkdir -p "$package/pipeline_spark" && cp spark/pipeline_spark/*.py "$package/pipeline_spark/"
"$python" -m compileall -q -b "$package/pipeline_spark" >/dev/null
(cd "$package" && rm -f ../pipeline_spark.zip && "$python" -m zipfile -c ../pipeline_spark.zip pipeline_spark)
echo "$PWD/.build/spark/pipeline-bundle.tar.gz"
