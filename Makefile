# creative-tool: build, test, demo, benchmarks. Every target installs what is missing first.
#
# LIBVIPS=wheel (default; `minimal` is the same): the libvips maintainers' prebuilt libvips from
#   the pinned pyvips-binary wheel (scripts/libvips-wheel.txt), fetched with pip into .build/libvips
#   by scripts/fetch-libvips.sh; when that cannot be done, one warning and the system libvips.
#   LIBVIPS_UPDATE=1 make deps moves the pin to the newest wheel and rewrites its hashes.
# LIBVIPS=system: Debian's libvips42 on purpose, built in .build/system beside the other.
LIBVIPS ?= wheel
export LIBVIPS
SWIFT_BUILD_FLAGS ?= -c release --static-swift-stdlib
SCRATCH = $(if $(filter system,$(LIBVIPS)),.build/system,.build)
BIN = $(SCRATCH)/release/creative-tool
OUT ?= out
# Every recipe line that compiles or runs Swift starts with this.
ENV = . scripts/libvips-env.sh &&

.PHONY: deps build test docs demo bench bench-memory fuzz clean apitest loadtest

# apt packages (libvips-dev only for LIBVIPS=system), then (LIBVIPS=wheel) the wheel's libvips the
# binaries load first.
deps:
	@$(ENV) scripts/install-deps.sh "$$CREATIVE_LIBVIPS"
	@$(ENV) if [ "$$CREATIVE_LIBVIPS" = wheel ]; then scripts/fetch-libvips.sh > /dev/null; fi

# The tool alone (not creative-fuzz, which `make fuzz` builds with its sanitizers).
build: deps
	$(ENV) swift build --scratch-path "$$SWIFT_SCRATCH" --product creative-tool $(SWIFT_BUILD_FLAGS)

# The whole test suite: unit tests of every library, end-to-end tests of the built binary and
# of the HTTP service, then the specs (openapi.yaml, deploy/kubernetes.yaml) and the Dockerfile lint.
test: deps
	scripts/test.sh

# The guidance page (out/docs/guidance.html) and screenshots of it and of the try-it page at 375
# and 1280 px, taken by the browser tests in headless Chromium (docs/*.png, shown by README.md).
docs: build
	scripts/docs.sh $(BIN) $(OUT)/docs

# The main job on built-in data: the test artwork rendered into common device slots.
demo: build
	scripts/demo.sh $(BIN) $(OUT)

# The tool beside the same tool built on the system libvips (BENCH_SYSTEM=0: without that build),
# the C floor (bench/floor.c) and the peers, by the harness bench/bench.py (bench/run.sh runs it in
# the project's venv). SECTIONS=startup,peers runs some sections (SECTIONS=weight: what --format auto
# writes against lossless, the tables of docs/performance.md's "What auto writes"); BENCH_QUICK=1
# lowers every count; PEERS=thumbor adds Thumbor to the serve section. Writes
# $(OUT)/bench/results.json (or BENCH_RESULTS); bench/tables.py rewrites docs/performance.md's
# tables from it.
BENCH_SYSTEM ?= 1
SYSTEM_BIN = $(if $(filter 1,$(BENCH_SYSTEM)),$(if $(filter system,$(LIBVIPS)),,.build/system/release/creative-tool))
SECTIONS ?=

bench: build
	@scripts/install-deps.sh bench
	@if [ -n "$(SYSTEM_BIN)" ]; then $(MAKE) --no-print-directory build LIBVIPS=system; fi
	BENCH_SYSTEM_BINARY="$(SYSTEM_BIN)" PEERS="$(PEERS)" SECTIONS="$(SECTIONS)" BENCH_RESULTS="$${BENCH_RESULTS:-$(OUT)/bench/results.json}" \
		bench/run.sh $(BIN)

# serve's RSS over 10 minutes of renders per allocator (glibc with one arena, jemalloc): the
# harness's memory section, into $(OUT)/bench/memory.json.
bench-memory: build
	@scripts/install-deps.sh bench
	BENCH_RESULTS="$${BENCH_RESULTS:-$(OUT)/bench/memory.json}" bench/run.sh $(BIN) memory

# schemathesis against `serve` on a free loopback port, driven by openapi.yaml (scripts/apitest.sh).
apitest: build
	scripts/apitest.sh $(BIN)

# wrk on POST /v1/render for 30 s at 16 connections, with hostile traffic beside it (scripts/loadtest.sh).
loadtest: build
	scripts/loadtest.sh $(BIN)

# libFuzzer over the upload validator for SECONDS (scripts/fuzz.sh): its own build in .build/fuzz*,
# seeds in fuzz-out/corpus, crashes, leaks and hangs in fuzz-out/artifacts/.
SECONDS ?= 60

fuzz: deps
	$(ENV) scripts/fuzz.sh $(SECONDS)

clean:
	rm -rf .build $(OUT)
