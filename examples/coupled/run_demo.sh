#!/usr/bin/env bash
# The main demo: three components in one mpiexec -- atmosphere (C++, 2 ranks), ocean
# (Fortran, 1 rank), analysis (Python, 1 rank) -- coupled by examples/coupled/coupled.yaml.
# It runs four model days twice: as two chained runs of two days, the second starting
# from the restart files of the first, and as one run of four days. The analysis logs
# of both must be identical. Then it prints ferry's timing report and, with --bench,
# benchmarks the engines; its last line is the verdict on the restart continuity.
#
#   examples/coupled/run_demo.sh [--bench] BUILD_DIR [WORK_DIR]
set -euo pipefail
bench=false
if [[ "${1:-}" == --bench ]]; then
  bench=true
  shift
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "$1" && pwd)
work=${2:-$build/demo-run}
python=${FERRY_PYTHON:-python3}
export PYTHONPATH="$build/python/package${PYTHONPATH:+:$PYTHONPATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

"$build/bin/ferry" validate "$here/coupled.yaml"

# The SST's weights, from the ocean's grid (5 degrees, centres from 2.5E, 87.5S; the
# continent masked as ocean.F90 masks it) to the atmosphere's Gaussian grid n24.
make_weights() {
  mkdir -p "$work"
  printf '%s\n' 'gridtype = lonlat' 'xsize = 72' 'ysize = 36' 'xfirst = 2.5' 'xinc = 5' \
    'yfirst = -87.5' 'yinc = 5' > "$work/ocean_grid.txt"
  cdo -s -f nc -setctomiss,0 -setclonlatbox,0,100,140,-30,30 -const,1,"$work/ocean_grid.txt" \
    "$work/ocean_mask.nc"
  cdo -s gencon,n24 "$work/ocean_mask.nc" "$work/sst_ocean_to_atm.nc"
}

# run NAME START LENGTH: one coupled run in $work/NAME, restart files carried over.
run() {
  local dir=$work/$1 start=$2 length=$3
  mkdir -p "$dir"
  ln -sf "$work/sst_ocean_to_atm.nc" "$dir/sst_ocean_to_atm.nc"
  sed -e "s/^  start: .*/  start: $start/" -e "s/^  length: .*/  length: $length/" \
    "$here/coupled.yaml" > "$dir/coupled.yaml"
  (cd "$dir" && mpiexec -n 2 "$build/bin/demo_atmosphere" coupled.yaml "$start" "$length" \
    : -n 1 "$build/bin/demo_ocean" coupled.yaml "$start" "$length" \
    : -n 1 "$python" -m mpi4py "$here/analysis.py" coupled.yaml "$start" "$length" analysis.log)
}

rm -rf "$work"
make_weights
echo "== chained: days 0-2, then days 2-4 from the restart files"
run chained 0 172800
run chained 172800 172800
echo "== one run: days 0-4"
run single 0 345600
if ! cmp -s "$work/chained/analysis.log" "$work/single/analysis.log"; then
  echo "== continuity BROKEN: the restarted run's analysis differs from the single run's" >&2
  diff "$work/chained/analysis.log" "$work/single/analysis.log" >&2 || true
  exit 1
fi
echo "== where the time went (single run)"
"$build/bin/ferry" report --quiet "$work"/single/ferry_timers_*.json \
  --png "$work/single/report.png" ||
  "$build/bin/ferry" report --quiet "$work"/single/ferry_timers_*.json
if $bench; then
  echo "== the engines on a GAMIL-like exchange, 2 ranks"
  mpiexec -n 2 "$build/bin/ferry" bench exchange --quiet --scenario gamil --engine all --repeat 10
fi
echo
echo "== continuity: the restarted run's analysis is identical to the single run's" \
  "(four days as two runs chained by restart files = one four-day run, bit for bit)"
