# Resolver: build, test, sanitizers, fuzzing and benchmarks, one command each.
#
#   make test     the whole test suite (installs libxxhash-dev and graphviz if missing)
#   make bench    benchmarks (see Benchmarks/README.md); bench-scaling, bench-smoke, bench-instructions,
#                 bench-async-instructions (a cached resolve, sync and resolveAsync),
#                 bench-typecheck (the compiler's time on 200 registrations)
#   make asan     tests under AddressSanitizer, plus a leak check
#   make ubsan    tests with UndefinedBehaviorSanitizer on the C code
#   make tsan     tests under ThreadSanitizer
#   make fuzz     libFuzzer on the C table for FUZZ_SECONDS (default 60)
#   make docs     DocC for the Resolver module into .build/docs (warnings are errors)
#   make docs-preview  the same, served on localhost and rebuilt on change
#   make example  runs Examples/ResolverExample
#   make example-server  builds and tests Examples/Server (a Hummingbird app; minutes)
#   make load     Examples/Server under wrk, Resolver and Swinject wirings side by side
#   make graph    Examples/Server's dependency graph, drawn into Examples/Server/graph.svg

SHELL := /bin/bash
SWIFT ?= swift
# The toolchain's own clang (libFuzzer and the sanitizer runtimes match Swift's).
TOOLCHAIN_BIN := $(dir $(realpath $(shell command -v $(SWIFT))))
CLANG ?= $(TOOLCHAIN_BIN)clang
FUZZ_SECONDS ?= 60
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

C_SOURCES := $(wildcard Sources/CRegistry/*.c)
C_INCLUDE := -ISources/CRegistry/include
C_WARNINGS := -std=c11 -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion -Werror

.PHONY: all deps graphviz graph test c-warnings engine-boundary build-warnings docs docs-preview asan ubsan tsan fuzz bench bench-scaling bench-smoke bench-deps bench-instructions bench-async-instructions bench-typecheck example example-server load clean

all: test

# xxHash is a system header (CRegistry compiles it inline; nothing links the
# library): install it (Debian/Ubuntu) when the compiler cannot find xxhash.h.
HAVE_XXHASH_H = echo '\#include <xxhash.h>' | $(CLANG) -E -x c - >/dev/null 2>&1
deps:
	@if ! $(HAVE_XXHASH_H); then \
		if command -v apt-get >/dev/null 2>&1; then \
			echo "==> xxhash.h not found: installing libxxhash-dev with apt-get"; \
			$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libxxhash-dev >/dev/null; \
		else \
			echo "xxhash.h not found. Install xxHash (Debian/Ubuntu: libxxhash-dev) where the compiler finds its headers." >&2; exit 1; \
		fi; \
	fi
	@$(HAVE_XXHASH_H) && echo "==> xxhash.h found"

# Graphviz's dot, which the DOT rendering test and `make graph` run: installed with
# apt-get where that is possible (without it, the test checks the DOT text only).
graphviz:
	@if ! command -v dot >/dev/null 2>&1; then \
		if command -v apt-get >/dev/null 2>&1; then \
			echo "==> dot not found: installing graphviz with apt-get"; \
			$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq graphviz >/dev/null; \
		else \
			echo "==> Graphviz not found (Homebrew: graphviz): the DOT test checks the text only"; \
		fi; \
	fi

# The C table must compile without a single warning.
c-warnings: deps
	@echo "==> C warnings (clang and, if present, gcc)"
	@$(CLANG) $(C_WARNINGS) -fsyntax-only $(C_INCLUDE) $(C_SOURCES) Fuzz/registry_fuzz.c
	@if command -v gcc >/dev/null 2>&1; then gcc $(C_WARNINGS) -fsyntax-only $(C_INCLUDE) $(C_SOURCES); fi
	@echo '#include "cregistry.h"' | $(CLANG)++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only $(C_INCLUDE) -x c++ -

# Only the engine (Sources/Resolver/Engine) calls into the C core or handles
# raw pointers; the files that define the public API stay typed (DESIGN.md,
# "The engine layer").
engine-boundary:
	@echo "==> engine boundary: no crg_ call, CRegistry import or raw pointer outside Sources/Resolver/Engine"
	@if grep -nE 'crg_|import CRegistry|Unsafe(Mutable)?RawPointer|OpaquePointer|Unmanaged<' Sources/Resolver/*.swift; then \
		echo "error: the lines above belong in Sources/Resolver/Engine" >&2; exit 1; \
	fi

# Swift 6 language mode with zero warnings: warnings fail the build.
build-warnings: deps
	@echo "==> swift build (warnings are errors)"
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors

test: c-warnings engine-boundary build-warnings graphviz
	@echo "==> swift test"
	$(SWIFT) test -Xswiftc -warnings-as-errors
	@echo "==> Tests/Swift5App: an app written for the original Resolver, Swift 5 mode, debug and release"
	$(SWIFT) run --package-path Tests/Swift5App -c debug Swift5App
	$(SWIFT) run --package-path Tests/Swift5App -c release Swift5App
	@echo "==> Tests/APIProbe: every public declaration of Resolver 1.5.1, Swift 5 and Swift 6 modes (warnings are errors)"
	$(SWIFT) build --package-path Tests/APIProbe -Xswiftc -warnings-as-errors
	$(SWIFT) run --package-path Tests/APIProbe --skip-build APIProbe5
	$(SWIFT) run --package-path Tests/APIProbe --skip-build APIProbe6
	@echo "==> Tests/DefaultIsolationApp: an app module with default MainActor isolation (warnings are errors)"
	$(SWIFT) build --package-path Tests/DefaultIsolationApp -Xswiftc -warnings-as-errors
	$(SWIFT) run --package-path Tests/DefaultIsolationApp --skip-build DefaultIsolationApp 2> .build/default-isolation.err
	@grep -q "'SettingsViewModel' was registered from the main actor (MainActor)" .build/default-isolation.err
	@test "$$(grep -c 'was registered from the main actor' .build/default-isolation.err)" = 1
	@echo "==> Examples/ResolverExample (checks what it prints)"
	@$(SWIFT) run ResolverExample > .build/example.out
	@grep -q "one application-wide instance: true, 1 line(s) logged" .build/example.out
	@grep -q "after a second view model: 2 line(s) logged" .build/example.out
	@grep -q "staging:  sunny in Porto (from https://staging.example.com)" .build/example.out
	@echo "example OK"
	@echo "==> the documentation builds without warnings (make docs)"
	@$(MAKE) --no-print-directory docs

example: deps
	$(SWIFT) run ResolverExample

# DocC, through swift-docc-plugin's `generate-documentation`: the reference from the
# doc comments, plus the articles in Sources/Resolver/Resolver.docc. Warnings (a
# symbol link that does not resolve, say) are errors. The first run builds the
# plugin's helper (about 30 s on 2 cores); later runs take about 5 s. The output
# is a static site: `python3 -m http.server -d .build/docs` and open
# http://localhost:8000/documentation/resolver.
DOCS_OUTPUT := .build/docs

docs: deps
	@echo "==> make docs: DocC for the Resolver module into $(DOCS_OUTPUT) (warnings are errors)"
	$(SWIFT) package --allow-writing-to-directory $(DOCS_OUTPUT) \
		generate-documentation --target Resolver --output-path $(DOCS_OUTPUT) --warnings-as-errors
	@echo "docs OK: python3 -m http.server -d $(DOCS_OUTPUT), then http://localhost:8000/documentation/resolver"

# Serves the documentation on http://localhost:8080/documentation/resolver and rebuilds
# it when a source or article changes (Ctrl-C stops it).
docs-preview: deps
	$(SWIFT) package --disable-sandbox preview-documentation --target Resolver

# The server example is a package of its own (Examples/Server): Hummingbird's first
# build takes minutes on 2 cores, so it is not part of `make test`.
SERVER_PACKAGE := Examples/Server
LOAD_DURATION ?= 10s
LOAD_THREADS ?= 2
LOAD_CONNECTIONS ?= 64
# Runs per wiring, alternating; more than 1 steadies the figures on a busy machine.
LOAD_ROUNDS ?= 1

example-server: deps
	@echo "==> Examples/Server: build with warnings as errors (the first build takes a few minutes)"
	$(SWIFT) build --package-path $(SERVER_PACKAGE) --build-tests -Xswiftc -warnings-as-errors
	@echo "==> Examples/Server: swift test"
	$(SWIFT) test --package-path $(SERVER_PACKAGE) -Xswiftc -warnings-as-errors

# The server example's dependency graph, as Resolver.graph(format: .dot) finds it,
# drawn by Graphviz into Examples/Server/graph.svg (the README shows it).
graph: deps graphviz
	$(SWIFT) build --package-path $(SERVER_PACKAGE) --product ItemsServer
	"$$($(SWIFT) build --package-path $(SERVER_PACKAGE) --show-bin-path)/ItemsServer" --graph dot \
		| dot -Tsvg -o $(SERVER_PACKAGE)/graph.svg
	@echo "==> $(SERVER_PACKAGE)/graph.svg"

# make load LOAD_DURATION=30s LOAD_ROUNDS=3: the release server under wrk, per wiring.
load: deps load-wrk
	@echo "==> Examples/Server: release build (the first one takes a few minutes)"
	$(SWIFT) build -c release --package-path $(SERVER_PACKAGE) --product ItemsServer
	python3 $(SERVER_PACKAGE)/Scripts/load.py \
		"$$($(SWIFT) build -c release --package-path $(SERVER_PACKAGE) --show-bin-path)/ItemsServer" \
		--duration $(LOAD_DURATION) --threads $(LOAD_THREADS) --connections $(LOAD_CONNECTIONS) \
		--rounds $(LOAD_ROUNDS)

.PHONY: load-wrk
load-wrk:
	@if ! command -v wrk >/dev/null 2>&1; then \
		if command -v apt-get >/dev/null 2>&1; then \
			echo "==> wrk not found: installing it with apt-get"; \
			$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq wrk >/dev/null; \
		else \
			echo "wrk not found: install it (Debian/Ubuntu: apt-get install wrk, Homebrew: wrk)." >&2; exit 1; \
		fi; \
	fi

asan: deps
	@echo "==> swift test under AddressSanitizer"
	ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 $(SWIFT) test --scratch-path .build-asan --sanitize=address
	@echo "==> LeakSanitizer on ResolverLeakCheck (test runners keep allocations of their own)"
	@set -o pipefail; $(SWIFT) build --scratch-path .build-asan --sanitize=address --product ResolverLeakCheck 2>&1 \
		| { grep -v "ld.gold: warning: Cannot export local symbol" || true; }
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 "$$($(SWIFT) build --scratch-path .build-asan --sanitize=address --show-bin-path)/ResolverLeakCheck"

ubsan: deps
	@echo "==> swift test with UndefinedBehaviorSanitizer on the C code"
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(SWIFT) test --scratch-path .build-ubsan \
		-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined \
		-Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined

tsan: deps
	@echo "==> swift test under ThreadSanitizer"
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --scratch-path .build-tsan --sanitize=thread

fuzz: deps
	@echo "==> libFuzzer on CRegistry for $(FUZZ_SECONDS)s (ASan + UBSan)"
	@mkdir -p .build-fuzz/corpus
	$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fuse-ld=lld \
		$(C_INCLUDE) $(C_SOURCES) Fuzz/registry_fuzz.c -o .build-fuzz/registry_fuzz
	.build-fuzz/registry_fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
		-artifact_prefix=.build-fuzz/ .build-fuzz/corpus

# Benchmarks live in their own package, Benchmarks/ (see Benchmarks/README.md), so the
# library has no benchmark dependencies. BENCH_ARGS go to `swift package benchmark`,
# e.g. make bench BENCH_ARGS="--target Resolvers"; BENCH_SCENARIOS='singleton|named'
# selects scenarios by name. BASE=<commit> also measures that commit's library
# (its "Resolver" rows), stored as the harness baseline "base".
BENCH_ARGS ?=
BASE ?=

bench: deps bench-deps
	@echo "==> make bench: hash tables and resolvers, this library against the alternatives, on this machine$(if $(BASE),; the resolvers also against the library at $(BASE),)"
	@echo "==> results in Benchmarks/results/ (Benchmarks/README.md says what each table means)"
	BASE=$(BASE) bash Benchmarks/Scripts/bench.sh $(BENCH_ARGS)

# The scenarios that also run on several threads: total throughput at 1, 2, ...
# threads beside the floors (a part of make bench, alone). BASE= works here too.
SCALING_SCENARIOS := (singleton|named|transient|graph|lazy-read)(/threads:[0-9]+)?
bench-scaling: deps bench-deps
	@echo "==> make bench-scaling: total throughput at 1..cores threads, beside the floors$(if $(BASE), and against $(BASE),)"
	BASE=$(BASE) BENCH_SCENARIOS='$(SCALING_SCENARIOS)' bash Benchmarks/Scripts/bench.sh --target Resolvers $(BENCH_ARGS)

# CI's check that the benchmark package builds against the library and the whole
# pipeline runs (every benchmark once, ~5 ms each; the figures mean nothing):
# the harness's run and exports, the report's three tables and both plots. It replaces
# the last make bench results.
bench-smoke: deps bench-deps
	@echo "==> make bench-smoke: every benchmark once, briefly, through the whole make bench pipeline"
	mkdir -p Benchmarks/results && BENCH_ROUNDS=1 BENCH_MAX_MS=5 bash Benchmarks/Scripts/bench.sh > Benchmarks/results/smoke.log 2>&1 \
		|| { tail -40 Benchmarks/results/smoke.log; exit 1; }
	@for section in "## Hash tables" "## Resolvers" "## Scaling" "## Targets"; do \
		grep -q "^$$section" Benchmarks/results/summary.md || { echo "bench-smoke: no '$$section' in summary.md" >&2; exit 1; }; \
	done
	@test -s Benchmarks/results/lookup.png && test -s Benchmarks/results/scaling.png && test -s Benchmarks/results/harness.md
	@echo "bench-smoke OK: $$(grep -c '^| ' Benchmarks/results/summary.md) table rows, both plots, the harness's Markdown"

# How long the compiler type-checks an app's registrations (issue 28): a generated
# client package (Benchmarks/.build-typecheck) with two files of 200 registrations,
# each in one function, built three times with -debug-time-function-bodies; the
# function's milliseconds, each run and the median. BASE=<commit> also builds them
# against the library at that commit, alternating run by run (Benchmarks/README.md).
bench-typecheck: deps
	@echo "==> make bench-typecheck: type-checking 200 registrations$(if $(BASE), against $(BASE) too,)"
	python3 Benchmarks/Scripts/typecheck.py $(if $(BASE),--base $(BASE),)

# The plots need matplotlib: Debian's python3-matplotlib where apt-get exists.
bench-deps:
	@if ! python3 -c 'import matplotlib' 2>/dev/null && ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then \
		if command -v apt-get >/dev/null 2>&1; then \
			echo "==> matplotlib not found (for the plots): installing python3-matplotlib with apt-get"; \
			$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq --no-install-recommends python3-matplotlib >/dev/null; \
		else \
			echo "==> matplotlib not found: the tables are complete, the plots are not drawn (pip install matplotlib)"; \
		fi; \
	fi

# Instructions per operation for the resolver scenarios, from valgrind's callgrind on a
# release build with DWARF 4 debug info (Benchmarks/.build-callgrind).
CALLGRIND_BUILD := $(SWIFT) build -c release --package-path Benchmarks --scratch-path Benchmarks/.build-callgrind \
	-Xswiftc -g -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4
# e.g. INSTRUCTIONS_ARGS="--scenario singleton --batches 10"
INSTRUCTIONS_ARGS ?=
bench-instructions: deps bench-valgrind
	@echo "==> make bench-instructions: callgrind instruction counts per resolver operation"
	@echo "==> the first run builds the benchmark package (release, DWARF 4): a few minutes"
	$(CALLGRIND_BUILD) --product InstructionCounts
	binary="$$($(CALLGRIND_BUILD) --show-bin-path)/InstructionCounts" && cd Benchmarks && \
		python3 Scripts/instructions.py "$$binary" $(INSTRUCTIONS_ARGS)

# Instructions per cached resolve, synchronous and with resolveAsync (an async
# factory's instance and a plain one): whole-program callgrind totals at two
# loop counts, differenced (Benchmarks/Sources/AsyncInstructionCounts); and
# the heap allocations the extra 100,000 resolves made (memcheck's count).
bench-async-instructions: deps bench-valgrind
	@echo "==> make bench-async-instructions: instructions per cached resolve (callgrind, release, DWARF 4)"
	$(CALLGRIND_BUILD) --product AsyncInstructionCounts
	@binary="$$($(CALLGRIND_BUILD) --show-bin-path)/AsyncInstructionCounts"; \
	for mode in sync async async-factory; do \
		total() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$$binary" $$mode $$1 2>&1 \
			| sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }; \
		allocs() { valgrind --tool=memcheck --leak-check=no "$$binary" $$mode $$1 2>&1 \
			| sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,; }; \
		low=$$(total 10000); high=$$(total 110000); \
		lowAllocs=$$(allocs 10000); highAllocs=$$(allocs 110000); \
		printf '%-14s %5d instructions per resolve, %d allocations per 100,000 resolves\n' "$$mode" \
			$$(( (high - low) / 100000 )) $$(( highAllocs - lowAllocs )); \
	done

.PHONY: bench-valgrind
bench-valgrind:
	@if ! command -v valgrind >/dev/null 2>&1; then \
		if command -v apt-get >/dev/null 2>&1; then \
			echo "==> valgrind not found: installing it with apt-get"; \
			$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq valgrind >/dev/null; \
		else \
			echo "valgrind not found: install it (Debian/Ubuntu: apt-get install valgrind)." >&2; exit 1; \
		fi; \
	fi

clean:
	rm -rf .build .build-asan .build-ubsan .build-tsan .build-fuzz $(SERVER_PACKAGE)/.build Tests/Swift5App/.build Tests/APIProbe/.build Tests/DefaultIsolationApp/.build
