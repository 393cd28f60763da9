#!/bin/sh
# Conservative weights at 0.25 degrees, ferry against CDO and YAC in the same run
# (docs/benchmarks/regrid.md): interleaved rounds of ferry, CDO gencon and YAC at 1,
# 2 and 4 processes, each under /usr/bin/time -v (wall time, processor time, largest
# resident set of one process).
#
#   regrid_quarter_degree.sh FERRY DIR YAC_PYTHON [ROUNDS]
#
# FERRY is build/bin/ferry, DIR a scratch directory, YAC_PYTHON the python of a venv
# holding yac, mpi4py and netCDF4. The grids are written once by ferry itself
# (`ferry bench regrid --grid rotated --dir DIR`), so the three tools see the same
# cells. CDO runs with -P N OpenMP threads for N "processes"; YAC as two components
# of N/2 processes each (both components in one process for N = 1).
set -eu
ferry=$1 dir=$2 python=$3 rounds=${4:-2}
here=$(cd "$(dirname "$0")" && pwd)
yac="$python $here/yac_scrip_conservative.py"
mkdir -p "$dir"
[ -f "$dir/ocean.nc" ] || mpiexec -n 2 "$ferry" bench regrid --grid rotated --repeat 1 --dir "$dir"

timed() {  # label, command...
  label=$1
  shift
  echo "== $label, load $(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -v "$@" >"$dir/out.txt" 2>"$dir/time.txt" || echo "failed: $*"
  grep -E "^(links|peak|yac)" "$dir/out.txt" || true
  grep -E "Elapsed|User time|System time|Maximum resident" "$dir/time.txt"
}

round=1
while [ "$round" -le "$rounds" ]; do
  for n in 1 2 4; do
    timed "round $round ferry $n" mpiexec -n "$n" "$ferry" bench regrid --grid rotated --repeat 1
    timed "round $round cdo $n" cdo -s -P "$n" gencon,"$dir/atmosphere.txt" -const,1,"$dir/ocean.nc" \
      "$dir/cdo_weights.nc"
    if [ "$n" -eq 1 ]; then
      timed "round $round yac $n" mpiexec -n 1 $yac both "$dir"
    else
      half=$((n / 2))
      timed "round $round yac $n" mpiexec -n "$half" $yac ocean "$dir" : -n "$half" $yac atmos "$dir"
    fi
  done
  round=$((round + 1))
done
