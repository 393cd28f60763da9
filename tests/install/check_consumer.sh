#!/usr/bin/env bash
# Builds the consumer project (consumer/, a separate CMake project using
# find_package(ferry)) against an installed ferry and runs it on several ranks.
#
#   check_consumer.sh install BUILD_DIR WORK_DIR CXX MPIEXEC [FC]
#     installs the ferry build in BUILD_DIR into BUILD_DIR/install-test-prefix,
#     builds the consumer with CXX and runs it with `MPIEXEC -n 2`; with FC, also
#     builds the Fortran consumer (fortran_consumer/, find_package(ferry COMPONENTS
#     Fortran)) with FC and runs it the same way. Then builds makefile_consumer/ (C,
#     and Fortran with FC) with flags from pkg-config and from ferry-config and runs
#     it, and checks that a C-only (Fortran-only) CMake project gets ferry's message
#     to enable CXX from find_package(ferry).
#   check_consumer.sh smpi SOURCE_DIR WORK_DIR [PYTHON [COMPILER_LAUNCHER]]
#     builds ferry from SOURCE_DIR with SimGrid's smpicxx (static library, as SMPI
#     wants) and installs it into WORK_DIR/prefix, builds the consumer with smpicxx
#     and runs it with `smpirun -np 4` on a generated 4-host cluster; then runs the
#     at-scale benchmark driver on a few small points (benchmarks/scale/run_scale.py
#     --quick, every engine and adaptive, 12 to 24 simulated ranks), failing if any
#     run fails (PYTHON runs it, default python3). A COMPILER_LAUNCHER (ccache) is
#     handed to the ferry build, so later runs only recompile what changed. Exits 77
#     (skipped) if SimGrid is not installed.
# Builds use the generator named by $CMAKE_GENERATOR (CMake's default otherwise).
set -euo pipefail
install_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
consumer_dir="$install_dir/consumer"
mode=$1
work_dir=$3

case "$mode" in
  install)
    build_dir=$2
    cxx=$4
    mpiexec=$5
    fc=${6:-}
    prefix="$build_dir/install-test-prefix"
    rm -rf "$prefix"
    cmake --install "$build_dir" --prefix "$prefix"
    launch=("$mpiexec" -n 2)
    ;;
  smpi)
    source_dir=$2
    python=${4:-python3}
    launcher=${5:-}
    for tool in smpicc smpicxx smpirun; do
      if ! command -v "$tool" >/dev/null; then
        echo "SKIPPED: $tool not found; install SimGrid (Debian: libsimgrid-dev) to run this test"
        exit 77
      fi
    done
    cxx=smpicxx
    fc=""
    prefix="$work_dir/prefix"
    # Unoptimised (-O0, no debug information): this build is about 2x faster to
    # compile than a release build, and what it checks (that ferry compiles and links
    # with smpicxx without warnings, and runs correctly under SMPI) does not depend on
    # the optimiser; the assertions -DNDEBUG would remove stay in.
    cmake -S "$source_dir" -B "$work_dir/ferry-build" \
      -DCMAKE_C_COMPILER=smpicc -DCMAKE_CXX_COMPILER=smpicxx -DBUILD_SHARED_LIBS=OFF \
      -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG=-O0 -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
      -DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" \
      -DFERRY_BUILD_TESTS=OFF -DFERRY_BUILD_BENCHMARKS=ON -DFERRY_BUILD_CLI=ON \
      -DFERRY_BUILD_EXAMPLES=OFF -DFERRY_ENABLE_FORTRAN=OFF -DFERRY_ENABLE_PYTHON=OFF \
      -DFERRY_WARNINGS_AS_ERRORS=ON
    cmake --build "$work_dir/ferry-build" -j 2
    rm -rf "$prefix"
    cmake --install "$work_dir/ferry-build" --prefix "$prefix"
    # A cluster of 4 single-core hosts behind one switch.
    cat >"$work_dir/cluster.xml" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="cluster" prefix="node-" suffix="" radical="0-3" speed="1Gf"
           bw="10GBps" lat="1us" bb_bw="40GBps" bb_lat="1us"/>
</platform>
EOF
    printf 'node-%d\n' 0 1 2 3 >"$work_dir/hosts"
    launch=(smpirun -np 4 -platform "$work_dir/cluster.xml" -hostfile "$work_dir/hosts"
            --cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:ompi
            --cfg=smpi/alltoallv:pair --log=root.thresh:warning)
    ;;
  *)
    echo "usage: check_consumer.sh install BUILD_DIR WORK_DIR CXX MPIEXEC [FC]" >&2
    echo "       check_consumer.sh smpi SOURCE_DIR WORK_DIR [PYTHON [COMPILER_LAUNCHER]]" >&2
    exit 2
    ;;
esac

rm -rf "$work_dir/consumer-build"
cmake -S "$consumer_dir" -B "$work_dir/consumer-build" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix"
cmake --build "$work_dir/consumer-build"
# With no arguments the consumer runs every engine the installed build offers.
"${launch[@]}" "$work_dir/consumer-build/consumer"

if [[ -n "$fc" ]]; then
  fortran_dir="$install_dir/fortran_consumer"
  rm -rf "$work_dir/fortran-consumer-build"
  cmake -S "$fortran_dir" -B "$work_dir/fortran-consumer-build" \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_Fortran_COMPILER="$fc" -DCMAKE_PREFIX_PATH="$prefix"
  cmake --build "$work_dir/fortran-consumer-build"
  "${launch[@]}" "$work_dir/fortran-consumer-build/fortran_consumer"
  # The OASIS API: with CMake (find_package(ferry COMPONENTS oasis)), run on 1 + 1 ranks
  # from the namcouple the program expects (the OASIS tests'); and with pkg-config
  # (ferry-oasis.pc).
  oasis_dir="$(dirname "$consumer_dir")/oasis_consumer"
  rm -rf "$work_dir/oasis-consumer-build"
  cmake -S "$oasis_dir" -B "$work_dir/oasis-consumer-build" \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_Fortran_COMPILER="$fc" -DCMAKE_PREFIX_PATH="$prefix"
  cmake --build "$work_dir/oasis-consumer-build"
  (cd "$work_dir/oasis-consumer-build" &&
     cp "$oasis_dir/../../oasis/namcouple_zoo" namcouple &&
     "$mpiexec" -n 2 ./partition_zoo 1 apple points)
  PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --exists ferry-oasis
  # shellcheck disable=SC2046
  mpif90 -fallow-argument-mismatch -o "$work_dir/oasis-consumer-build/zoo_pkgconfig" \
    $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags ferry-oasis) \
    "$oasis_dir/../../oasis/partition_zoo.F90" \
    $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --libs --static ferry-oasis)
fi

if [[ "$mode" == install ]]; then
  # Makefile builds: the C consumer (and the Fortran one) with flags from pkg-config,
  # then from ferry-config.
  make_dir="$work_dir/makefile-consumer"
  rm -rf "$make_dir"
  mkdir -p "$make_dir"
  cp "$install_dir/makefile_consumer/Makefile" "$install_dir/makefile_consumer/consumer.c" "$make_dir"
  export PKG_CONFIG_PATH="$prefix/$(cd "$prefix" && ls -d lib*/pkgconfig | head -n 1)"
  libdir=$(pkg-config --variable=libdir ferry)
  targets=(c_consumer)
  [[ -n "$fc" ]] && targets+=(fortran_consumer)
  for flags in pkg-config ferry-config; do
    PATH="$prefix/bin:$PATH" make -C "$make_dir" -B FLAGS="$flags" \
      FORTRAN_SOURCE="$install_dir/fortran_consumer/consumer.F90" "${targets[@]}"
    for program in "${targets[@]}"; do
      LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "${launch[@]}" "$make_dir/$program"
    done
  done
  [[ "$("$prefix/bin/ferry-config" --version)" == "$(pkg-config --modversion ferry)" ]]

  # CMake projects that enable C only, or Fortran only, get ferry's message.
  checks=("C;")
  [[ -n "$fc" ]] && checks+=("Fortran;Fortran")
  for check in "${checks[@]}"; do
    languages=${check%%;*}
    components=${check#*;}
    log="$work_dir/language-check-$languages.log"
    rm -rf "$work_dir/language-check"
    if cmake -S "$install_dir/language_check" -B "$work_dir/language-check" \
         -DLANGUAGES="$languages" -DCOMPONENTS="$components" -DCMAKE_PREFIX_PATH="$prefix" \
         -DCMAKE_Fortran_COMPILER="${fc:-gfortran}" >"$log" 2>&1; then
      echo "a $languages-only project found ferry; expected ferry's message to enable CXX" >&2
      exit 1
    fi
    if ! tr -s ' \n' ' ' <"$log" | grep -q "ferry needs the CXX language enabled"; then
      echo "a $languages-only project failed without ferry's message:" >&2
      cat "$log" >&2
      exit 1
    fi
    echo "$languages-only CMake project: ferry says to enable CXX"
  done
fi

if [[ "$mode" == smpi ]]; then
  scale_dir="$work_dir/scale"
  rm -rf "$scale_dir"
  mkdir -p "$scale_dir"
  "$python" "$source_dir/benchmarks/scale/run_scale.py" --quick --no-real --strict --timeout 300 \
    --smpi-ferry "$work_dir/ferry-build/bin/ferry" --results "$scale_dir/results.jsonl" \
    --doc "$scale_dir/scale.md"
fi
