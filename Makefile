# The README's two commands, thin over CMake presets.
#   make run       installs what is missing, builds, and opens the app (CLI demo without a GUI)
#   make test      installs what is missing, builds, and runs every test through CTest
#   make sanitize  the same suite built with AddressSanitizer and UBSan (build-sanitize/; CI runs it)
#   make web       the app as a static page for any browser (emscripten): build-web/site/
# CUDA_ARCHS=80 (make run, make build, make test) builds the CUDA code for those GPUs' architectures
# (machine code and PTX, the device optimiser on), for a machine other than this one: "80,86" for
# several, "90a" for an H100 or H200, "auto" back to this machine's own GPUs (or, with none, the
# check-only build). It is kept for later builds of build/ until given again.
BUILD_DIR := build
SANITIZE_DIR := build-sanitize
WEB_DIR := build-web
JOBS ?= $(shell nproc)

.PHONY: run test build deps gpu-build clean format sanitize sanitize-build check-noop-build web

deps:
	@scripts/install-deps

$(BUILD_DIR)/build.ninja:
	cmake --preset default

CUDA_ARCHS ?=
comma := ,
cuda_archs_list := $(subst $(comma),;,$(CUDA_ARCHS))
ifeq ($(CUDA_ARCHS),auto)
  cuda_configure := -UCMAKE_CUDA_ARCHITECTURES
else ifneq ($(CUDA_ARCHS),)
  cuda_configure := "-DCMAKE_CUDA_ARCHITECTURES=$(cuda_archs_list)"
endif

build: deps $(BUILD_DIR)/build.ninja
	$(if $(cuda_configure),cmake --preset default $(cuda_configure))
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	@if [ -x $(BUILD_DIR)/app/ui/tilescope ]; then \
	  $(BUILD_DIR)/app/ui/tilescope $(ARGS); \
	else \
	  echo "tilescope: the desktop app is not built here (no GUI libraries); running the CLI demo"; \
	  $(BUILD_DIR)/app/cli/tilescope-cli demo; \
	fi

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

# A second build with nothing changed must have nothing to do (.ci/run checks it after make
# test): a dependency that never exists, or an output a rule never writes, rebuilds every time.
# A real build, not `ninja -n`: a dry run cannot check CMake's globs and always reports work.
check-noop-build:
	@out=$$(cmake --build $(BUILD_DIR) -- -d explain 2>&1); \
	if printf '%s\n' "$$out" | grep -q "no work to do"; then echo "check-noop-build: a second build has nothing to do"; \
	else printf '%s\n' "$$out" | head -40; echo "check-noop-build: a build with nothing changed still had work to do (ninja's reasons above)" >&2; exit 1; fi

$(SANITIZE_DIR)/build.ninja:
	cmake --preset sanitize

# The test preset carries the sanitizers' run-time options (CMakePresets.json says why).
# sanitize-build builds without testing: .ci/run builds the page beside it.
sanitize-build: deps $(SANITIZE_DIR)/build.ninja
	cmake --build $(SANITIZE_DIR) -j $(JOBS)

sanitize: sanitize-build
	ctest --preset sanitize -j $(JOBS)

# The page: the app's same sources built with emscripten (CMake preset web) into
# $(WEB_DIR)/site/ (index.html, .js, .wasm, .data), which any static host serves.
# Dear ImGui and giflib come from Debian's sources, fetched once (scripts/fetch-web-sources).
web:
	@scripts/install-deps --web
	@scripts/fetch-web-sources $(WEB_DIR)/_sources
	@[ -f $(WEB_DIR)/build.ninja ] || NODE_PATH=/usr/share/nodejs cmake --preset web
	NODE_PATH=/usr/share/nodejs cmake --build --preset web -j $(JOBS)
	@echo "web: the page is in $(WEB_DIR)/site/ (any static web server serves it)"

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR) $(WEB_DIR)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh')

# ---- The web page in a browser (issue 27; `make web` builds build-web/site) ----
.PHONY: web-serve test-web bench-web

# Serves build-web/site on 127.0.0.1 and prints the address to open (PORT=N picks the port).
web-serve: web
	@scripts/serve-web $(if $(PORT),--port $(PORT))

# The browser tests (tests/README.md, "The browser tests"): the site, the native CLI the trace
# equality test compares with (in build/, which make test has built already: no work then),
# playwright-core from npm, then every tests/web/*.test.mjs in headless Chromium, one at a time.
test-web: web $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS) --target tilescope-cli
	scripts/install-web-test-deps
	node --test --test-concurrency=1 tests/web/*.test.mjs

# The web benchmark (bench/README.md, "The web page"): figures, not a test.
bench-web: web $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS) --target tilescope-cli
	scripts/install-web-test-deps
	node bench/web/bench.mjs
