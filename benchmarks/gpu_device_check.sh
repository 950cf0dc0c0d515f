#!/usr/bin/env bash
# The GPU checks of issue 32 on a machine with a CUDA GPU, in one go (at most BUDGET seconds,
# default 470: 8 minutes of a lent H100 or H200), from the repository root:
#
#     bash benchmarks/gpu_device_check.sh [WHEELS]
#
# WHEELS (default .whl): a folder of wheels the machine lacks, installed into /tmp/site
# (a lent machine has numpy, numba, numba-cuda, pyarrow, click and rich but no DuckDB and no
# network: `pip download --no-deps --only-binary=:all: --python-version 3.12 --platform
# manylinux_2_28_x86_64 -d .whl duckdb`).  Steps: versions and card; `db build` of a fresh
# database; benchmarks/gpu_whole_space.py (every kernel of layers_cuda.KERNELS, int64 and
# int32 offsets, on the largest group, ns a pair, in one table; the small groups of every
# class packed; the standard classes against the CPU's figures); `db layers --plan --gpu`,
# then `db layers --all --gpu` whole with the kernel that measured fastest (passed as
# HUARONG_GPU_KERNEL), cut off by `timeout` where it would leave the tests no time; the
# real-GPU tests; `analyze-multi-group --gpu` on the class of the largest group, where that
# option exists.  Logs go to $OUT (default ./gpu-check); the table is printed at the end and
# kept there as table.md.  Each step is cut off where it would overrun the budget.
#
# DRY=1: the same steps on this machine without a GPU, under numba's simulator, on tiny
# inputs (a database of class 7-0 only, groups of tens of layouts, the classes 7-0-6 and
# 7-0-7 for the whole run, the class of the smallest group analysed): checks the script,
# not the GPU.  About two minutes on two cores.
set -u
out=${OUT:-$PWD/gpu-check}
wheels=${1:-.whl}
dry=${DRY:-}
budget=${BUDGET:-470}
mkdir -p "$out"
table=$out/table.md
printf '| what | figure |\n| --- | --- |\n' >"$table"
export PYTHONUNBUFFERED=1
started=$(date +%s)
took=0
skipped=
row() { printf '| %s | %s |\n' "$1" "$2" >>"$table"; }
left() { echo $((budget - ($(date +%s) - started))); }
# run NAME LIMIT COMMAND...: COMMAND with its output in $out/NAME.log, cut off after LIMIT
# seconds or when the budget runs out; sets $took (seconds) and $skipped (non-empty when the
# budget was spent before it started) and returns its exit status.
run() {
    local name=$1 limit=$2 begin rc
    shift 2
    skipped=
    if [ "$(left)" -lt "$limit" ]; then limit=$(left); fi
    if [ "$limit" -le 5 ]; then
        took=0; skipped=1; row "$name" "skipped: the budget is spent"; return 124
    fi
    begin=$(date +%s%N)
    timeout "$limit" "$@" >"$out/$name.log" 2>&1
    rc=$?
    took=$(python3 -c "print(f'{($(date +%s%N) - $begin) / 1e9:.1f}')")
    if [ $rc -eq 124 ]; then row "$name" "stopped after $limit s (log: $name.log)"; fi
    return $rc
}

if compgen -G "$wheels/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site "$wheels"/*.whl || { echo "cannot install $wheels"; exit 1; }
    export PYTHONPATH=/tmp/site:$PWD/src:$PWD
else
    export PYTHONPATH=$PWD/src:$PWD
fi
if [ -n "$dry" ]; then
    export NUMBA_ENABLE_CUDASIM=1
    database=$out/dry.duckdb
    build=(python3 -c "import sys; from pathlib import Path
from tests.small_database import class_database
class_database(Path(sys.argv[1]), (7, 0))" "$database")
    kernels=(--group C58763000 --check 82029F400 --sources 38 --no-small)
    classes=(7-0-6 7-0-7)
    analysed=ASC  # the class of the smallest group: the simulator is slow
else
    database=/tmp/huarong-gpu-check.duckdb
    build=(python3 -m huarong db build -q --db "$database")
    kernels=(--db "$database" --classes 5-4)
    classes=(--all)
    analysed=DESC
fi
rm -rf "$database" "$database.layers"

row "card" "$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader \
              2>/dev/null || echo "none: ${dry:+dry run, }numba's simulator")"
row "software" "$(python3 -c 'import sys, numpy, numba, numba_cuda, duckdb
print(f"Python {sys.version.split()[0]}, numpy {numpy.__version__}, numba {numba.__version__}, "
      f"numba-cuda {numba_cuda.__version__}, duckdb {duckdb.__version__}")' 2>&1 | tail -1)"
row "CPU cores" "$(nproc)"

if run db-build 200 "${build[@]}"; then
    row "db build" "$took s"
else
    row "db build" "FAILED (db-build.log)"; cat "$table"; exit 1
fi

kernel=
if run kernels 150 python3 benchmarks/gpu_whole_space.py "${kernels[@]}"; then
    grep '^|' "$out/kernels.log" | grep -v '^| card |' >>"$table"
    kernel=$(sed -n 's/^fastest kernel: //p' "$out/kernels.log")
    row "benchmarks/gpu_whole_space.py" "$took s in all; fastest kernel: $kernel"
else
    row "benchmarks/gpu_whole_space.py" "FAILED: $(tail -1 "$out/kernels.log")"
fi

run plan 60 python3 -m huarong db layers "${classes[@]}" --gpu --plan --db "$database" &&
    row "db layers ${classes[*]} --gpu --plan" "$(grep '^estimated' "$out/plan.log")"
# The whole run gets what is left but 40 s for the tests, at most 300 s.
whole=$(($(left) - 40))
if [ "$whole" -gt 300 ]; then whole=300; fi
if HUARONG_GPU_KERNEL=$kernel run layers "$whole" \
        python3 -m huarong db layers "${classes[@]}" --gpu --db "$database"; then
    row "db layers ${classes[*]} --gpu, whole (kernel ${kernel:-default})" \
        "$took s: $(tail -1 "$out/layers.log")"
elif [ -z "$skipped" ]; then
    row "db layers ${classes[*]} --gpu (kernel ${kernel:-default})" \
        "FAILED or stopped after $took s: $(tail -1 "$out/layers.log")"
fi
row "layouts with all five figures, of all" "$(python3 -c "import duckdb
c = duckdb.connect('$database', read_only=True)
print(c.execute('SELECT count(farthest_steps), count(*) FROM layouts').fetchone())")"

run tests 120 python3 -m pytest -q -p no:cacheprovider tests/test_layers_gpu.py -k real
[ -z "$skipped" ] &&
    row "pytest tests/test_layers_gpu.py -k real" "$(tail -1 "$out/tests.log") ($took s)"
if python3 -m huarong analyze-multi-group --help 2>/dev/null | grep -q -- '--gpu'; then
    python3 -c "import duckdb
c = duckdb.connect('$database', read_only=True)
j, b, s = c.execute('SELECT jiang, bing, style FROM groups ORDER BY size $analysed, seed LIMIT 1'
                    ).fetchone()
seeds = c.execute('SELECT seed FROM groups WHERE jiang = ? AND bing = ? AND style = ?',
                  [j, b, s]).fetchall()
open('$out/class-seeds.txt', 'w').write(''.join(f'{seed:09X}\n' for (seed,) in seeds))
print(f'{j}-{b}-{s}: {len(seeds)} groups')" >"$out/class.txt"
    if run analyze 150 python3 -m huarong analyze-multi-group --gpu -q "$out/class-seeds.txt" \
            /tmp/largest-farthest.csv /tmp/largest-solutions.csv; then
        row "analyze-multi-group --gpu, class $(cat "$out/class.txt")" \
            "$took s, CSV $(du -sh /tmp/largest-farthest.csv /tmp/largest-solutions.csv |
                             awk '{print $1}' | paste -sd+)"
    elif [ -z "$skipped" ]; then
        row "analyze-multi-group --gpu, class $(cat "$out/class.txt")" \
            "FAILED or stopped: $(tail -1 "$out/analyze.log")"
    fi
    rm -f /tmp/largest-farthest.csv /tmp/largest-solutions.csv
else
    row "analyze-multi-group --gpu" "not in this version: skipped"
fi

row "whole check" "$(($(date +%s) - started)) s"
cat "$table"
