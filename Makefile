# Entry points for people and CI. `make demo` and `make test` start from a fresh
# Debian 12 machine: they install what is missing (scripts/install-deps.sh), then
# configure and build in $(BUILD_DIR).
BUILD_DIR ?= build
JOBS ?= 2
# Upper bound for tests that do not set their own TIMEOUT.
TEST_TIMEOUT ?= 600
CMAKE_ARGS ?=

# The Python tests and bindings use the venv made by install-deps.
export VIRTUAL_ENV := $(CURDIR)/.venv
export PATH := $(VIRTUAL_ENV)/bin:$(PATH)
# Open MPI refuses to run as root, or with more ranks than cores, unless told.
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
export OMPI_MCA_rmaps_base_oversubscribe := 1

.PHONY: deps build test demo clean

deps:
	scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DFERRY_WARNINGS_AS_ERRORS=ON \
	  -DPython_EXECUTABLE=$(CURDIR)/.venv/bin/python $(CMAKE_ARGS)
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout $(TEST_TIMEOUT)

demo: build
	examples/coupled/run_demo.sh --bench $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR)
