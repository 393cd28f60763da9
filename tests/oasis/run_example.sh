#!/usr/bin/env bash
# Builds and runs OASIS3-MCT's own example programs against ferry's OASIS API, as a
# model would be relinked: the sources are copied unchanged from the OASIS material
# to a scratch directory at test time and built there.
#
#   run_example.sh build EXAMPLE MATERIAL WORK FERRY_DIR
#     copies the sources of EXAMPLE (tutorial, spoc, test_interpolation) from
#     MATERIAL/examples to WORK/src (model1.F90_TP -> model1.F90, ocean.F90_oa ->
#     ocean.F90, as OASIS's run scripts do) and builds them in WORK/build with
#     example/CMakeLists.txt against the ferry package in FERRY_DIR.
#   run_example.sh run WORK CASE DATA NAMCOUPLE "LAUNCH" [CHECK...]
#     runs the programs built in WORK in a fresh WORK/CASE holding the input files
#     DATA (comma-separated files, and directories whose *.nc files are copied) and
#     the namcouple NAMCOUPLE: LAUNCH is the mpiexec command
#     line with program names relative to WORK/build (as "mpiexec -n 1 model1 : -n 1
#     model2"). Then every CHECK must hold:
#       exact:FILE:VARIABLE:REFERENCE     the variable equals REFERENCE's bit for bit
#       close:FILE:VARIABLE:REFERENCE:TOL:FILLED  within TOL (see compare_fields)
#       log:FILE:REFERENCE[:PATTERN]      the lines of the program log FILE that match
#                                         PATTERN (default "tcx", the tutorial's lines of
#                                         values sent and received) equal REFERENCE's
#       stat:FILE:REFERENCE:LABEL:TOL     the number after LABEL in the program log FILE
#                                         is within TOL (relative) of REFERENCE's
#       atmost:FILE:REFERENCE:LABEL:TOL   that number is no larger than REFERENCE's
#                                         times 1 + TOL (an error no larger than OASIS's)
#       output:REGEX                      the run's output matches REGEX
#       fails:REGEX                       the run fails, and its output matches REGEX
#       lines:N:REGEX                     the run fails, and N lines of its output (one
#                                         per rank) match REGEX
#       count:N:REGEX                     exactly N lines of the output match REGEX
#       absent:FILE                       the run wrote no file FILE
#     COMPARE (environment) is the compare_fields program.
# Exits 77 (skipped) when MATERIAL does not hold the OASIS examples.
set -euo pipefail
mode=$1
shift

copy_sources() {
  local example=$1 from=$2 to=$3
  rm -rf "$to"
  mkdir -p "$to"
  case "$example" in
    tutorial)
      cp "$from"/{routine_hdlerr,read_dimgrid,read_grid,decomp_def,function_sent}.F90 "$to"
      cp "$from/model1.F90_TP" "$to/model1.F90"
      cp "$from/model2.F90_TP" "$to/model2.F90" ;;
    spoc)
      cp "$from"/{read_grid,def_parallel_decomposition}.F90 "$to"
      cp "$from/ocean.F90_oa" "$to/ocean.F90"
      cp "$from/atmos.F90_oa" "$to/atmos.F90" ;;
    test_interpolation)
      cp "$from"/*.F90 "$from"/*.f90 "$to" ;;
    *) echo "run_example.sh: unknown example $example" >&2; exit 2 ;;
  esac
  chmod -R u+w "$to"
}

case "$mode" in
  build)
    example=$1 material=$2 work=$3 ferry_dir=$4
    if [[ ! -d "$material/examples/$example" ]]; then
      echo "SKIPPED: no OASIS3-MCT example $example in $material (set FERRY_OASIS_MATERIAL)"
      exit 77
    fi
    copy_sources "$example" "$material/examples/$example" "$work/src"
    rm -rf "$work/build"
    cmake -S "$(dirname "$0")/example" -B "$work/build" -DEXAMPLE="$example" \
      -DSOURCE_DIR="$work/src" -Dferry_DIR="$ferry_dir" >"$work/configure.log" 2>&1 ||
      { cat "$work/configure.log"; exit 1; }
    cmake --build "$work/build" ;;
  run)
    work=$1 case_name=$2 data=$3 namcouple=$4 launch=$5
    shift 5
    if [[ ! -d "$work/build" ]]; then
      echo "SKIPPED: the example was not built (no OASIS3-MCT material)"
      exit 77
    fi
    run="$work/$case_name"
    rm -rf "$run"
    mkdir -p "$run"
    IFS=, read -ra inputs <<<"$data"
    for input in "${inputs[@]}"; do
      if [[ -d "$input" ]]; then cp "$input"/*.nc "$run"; else cp "$input" "$run"; fi
    done
    cp "$namcouple" "$run/namcouple"
    chmod -R u+w "$run"
    cd "$run"
    # Program names in LAUNCH are the built executables.
    command=()
    for word in $launch; do
      if [[ -x "$work/build/$word" ]]; then command+=("$work/build/$word"); else command+=("$word"); fi
    done
    status=0
    "${command[@]}" >run.log 2>&1 || status=$?
    failed=0
    for check in "$@"; do
      IFS=: read -r kind a b c d e <<<"$check"
      case "$kind" in
        exact) "$COMPARE" "$a" "$c" "$b" || failed=1 ;;
        close) "$COMPARE" "$a" "$c" "$b" "$d" "$e" || failed=1 ;;
        log)
          pattern=${c:-tcx}
          if diff <(grep -- "$pattern" "$a") <(grep -- "$pattern" "$b") >/dev/null; then
            echo "$a: the lines with \"$pattern\" are those of $b"
          else
            echo "$a: the lines with \"$pattern\" differ from $b:"
            diff <(grep -- "$pattern" "$a") <(grep -- "$pattern" "$b") | head -n 10
            failed=1
          fi ;;
        stat|atmost)
          # The number after LABEL and the colon that ends it (the check's fields are
          # colon-separated, so LABEL cannot hold it).
          number() { grep -- "$2" "$1" | head -n 1 | sed "s/.*$2 *:*//" | awk '{print $1}'; }
          mine=$(number "$a" "$c") theirs=$(number "$b" "$c")
          if [[ $kind == stat ]]; then
            rule='d = m - t; if (d < 0) d = -d; ok = d <= tol * (t < 0 ? -t : t)'
            said="within $d"
          else
            rule='ok = m <= t * (1 + tol)'
            said="no larger, within $d"
          fi
          if awk -v m="$mine" -v t="$theirs" -v tol="$d" \
               "BEGIN { $rule; exit !(m ~ /^[-+0-9.eE]+\$/ && t ~ /^[-+0-9.eE]+\$/ && ok) }"; then
            echo "$a: \"$c\" $mine, OASIS's $theirs ($said)"
          else
            echo "$a: \"$c\" $mine, OASIS's $theirs: not $said"
            failed=1
          fi ;;
        output)
          regex=${check#output:}
          if grep -Eq "$regex" run.log; then echo "the output says: $(grep -E "$regex" run.log | head -n 1)"
          else echo "the output does not match \"$regex\""; failed=1; fi ;;
        lines)
          regex=${check#lines:*:}
          found=$(grep -cE "$regex" run.log || true)
          if [[ $status -eq 0 ]]; then echo "the run succeeded; expected it to fail"; failed=1; fi
          if [[ $found -ge $a ]]; then
            echo "$found lines say: $(grep -E "$regex" run.log | head -n 1)"
          else
            echo "$found lines match \"$regex\", expected $a:"
            tail -n 20 run.log
            failed=1
          fi
          status=0 ;;
        absent)
          if [[ -e $a ]]; then echo "$a exists; expected none"; failed=1; else echo "no $a, as expected"; fi ;;
        count)
          regex=${check#count:*:}
          found=$(grep -cE "$regex" run.log || true)
          if [[ $found -eq $a ]]; then echo "$found lines match \"$regex\", as expected"
          else echo "$found lines match \"$regex\", expected $a"; failed=1; fi ;;
        fails)
          regex=${check#fails:}
          if [[ $status -eq 0 ]]; then echo "the run succeeded; expected it to fail"; failed=1; fi
          if grep -Eq "$regex" run.log; then
            echo "the output says: $(grep -E "$regex" run.log | head -n 1)"
          else
            echo "the output does not match \"$regex\""
            failed=1
          fi
          status=0 ;;
        *) echo "run_example.sh: unknown check $check" >&2; exit 2 ;;
      esac
    done
    if [[ $status -ne 0 ]]; then
      echo "the run failed with status $status:"
      tail -n 30 run.log
      exit 1
    fi
    exit $failed ;;
  *)
    echo "usage: run_example.sh build|run ..." >&2
    exit 2 ;;
esac
