#!/usr/bin/env bash
# Brings a Debian 12 machine to the point where `make demo` and `make test` run:
# the Debian packages ferry builds and tests against, and a Python venv (.venv)
# for the Python bindings, their tests and `ferry report --png`. Idempotent and
# non-interactive: it only installs what is missing, so a second run takes a second.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export DEBIAN_FRONTEND=noninteractive

packages=(
  build-essential cmake ninja-build pkg-config gfortran
  libopenmpi-dev openmpi-bin
  libnetcdf-dev libnetcdff-dev netcdf-bin cdo libpnetcdf-dev
  libyaml-cpp-dev libgtest-dev googletest libmetis-dev libsimgrid-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev graphviz
  python3-venv python3-dev
)
python_packages=(numpy mpi4py pytest nanobind scikit-build-core matplotlib jsonschema pyyaml netCDF4)
# Import names of python_packages, to check what the venv already has.
python_modules=numpy,mpi4py,pytest,nanobind,scikit_build_core,matplotlib,jsonschema,yaml,netCDF4

# Output of the tools goes here and is shown only if a step fails.
log=$(mktemp "${TMPDIR:-/tmp}/ferry-install-deps.XXXXXX")
trap 'rm -f "$log"' EXIT

step() {
  local what=$1
  shift
  echo "install-deps: ${what}"
  if ! "$@" >"$log" 2>&1 </dev/null; then
    tail -n 30 "$log" >&2
    echo "install-deps: failed to ${what} (last lines of its output above)" >&2
    exit 1
  fi
}

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: Debian packages present"
else
  sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || {
      echo "install-deps: missing Debian packages: ${missing[*]}; run this script as root" >&2
      exit 1
    }
    sudo=(sudo -n)
  fi
  step "update the package lists" "${sudo[@]}" apt-get update -q
  step "install ${missing[*]}" "${sudo[@]}" apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
fi

# The venv uses Debian's interpreter, the one python3-dev provides headers for.
if [[ ! -x .venv/bin/python ]]; then
  step "create the Python venv .venv" /usr/bin/python3 -m venv .venv
fi
if .venv/bin/python -c "import ${python_modules}" >/dev/null 2>&1; then
  echo "install-deps: Python packages present in .venv"
else
  step "install ${python_packages[*]} into .venv" \
    .venv/bin/python -m pip install -q "${python_packages[@]}"
fi
echo "install-deps: ready"
