# Resolver: build, test, sanitizers, fuzzing and benchmarks, one command each.
#
#   make test     the whole test suite, as named steps, each a target of its own: c-warnings,
#                 engine-boundary, build-warnings, test-swift, test-strict-verdicts, test-probes,
#                 test-contexts, test-example, docs
#                 (installs libxxhash-dev and graphviz if missing)
#   make test-lifetimes  the lifetime model test (issue 42) for LIFETIME_STEPS steps per seed
#                 (170,000 by default: 1,020,000 over its six seeds; make test runs 21,000);
#                 LIFETIME_SEED=n for other programs
#   make bench    benchmarks (see Benchmarks/README.md); bench-scaling-table (the harness's throughput
#                 table at 1..cores threads), bench-scaling-runs (twenty processes, fresh threads per
#                 measurement, and a verdict per run), bench-smoke, bench-instructions (instructions and
#                 allocations per operation, the cold container's too), bench-async-instructions (a cached
#                 resolve, sync and resolveAsync), bench-verify-bursts (concurrent verify() calls, each
#                 burst in a fresh process), bench-typecheck (the compiler's time on 200 registrations),
#                 bench-buildtime (a three-service app's clean release build, the library with it)
#   make asan     tests under AddressSanitizer, plus a leak check
#   make ubsan    tests with UndefinedBehaviorSanitizer on the C code
#   make tsan     tests under ThreadSanitizer
#   make fuzz     libFuzzer on the C table for FUZZ_SECONDS (default 60)
#   make docs     DocC for the Resolver module into .build/docs (warnings are errors)
#   make docs-preview  the same, served on localhost and rebuilt on change
#   make test-first-build  an app's first build without the xxHash header (fails, naming what
#                 to install) and with it (builds, runs, no libxxhash); needs root or a user namespace
#   make example  runs Examples/ResolverExample
#   make example-server  builds and tests Examples/Server (a Hummingbird app; minutes)
#   make load     Examples/Server under wrk, Resolver and Swinject wirings side by side
#   make graph    Examples/Server's dependency graph, drawn into Examples/Server/graph.svg
#   make clean    removes what the builds made: the library's, the test and example packages',
#                 the benchmark package's (Benchmarks/.build*) and its results

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

.PHONY: all deps graphviz graph test c-warnings engine-boundary build-warnings test-swift test-strict-verdicts test-probes test-contexts test-example test-lifetimes docs docs-preview asan ubsan tsan fuzz bench bench-scaling-table bench-scaling-runs bench-smoke bench-verify-bursts bench-deps bench-instructions bench-async-instructions bench-typecheck bench-buildtime example example-server test-first-build load clean

all: test

# What a target needs from the system, installed when it is missing, in one way:
# $(call install-if-missing,CHECK,WHAT,PACKAGE,APT_OPTIONS,OTHERWISE) is a recipe
# line. When the shell command CHECK fails, it installs the Debian package PACKAGE
# with apt-get (through sudo unless root; APT_OPTIONS may be empty); where there
# is no apt-get, it runs OTHERWISE: a message, and `exit 1` when the target cannot
# go on without it. Messages with commas are passed as variables (make splits
# call arguments at commas).
define install-if-missing
@if ! { $(1); } >/dev/null 2>&1; then \
	if command -v apt-get >/dev/null 2>&1; then \
		echo "==> $(2) not found: installing $(3) with apt-get"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $(4) $(3) >/dev/null; \
	else \
		$(5); \
	fi; \
fi
endef

# xxHash is a system header (CRegistry compiles it inline; nothing links the
# library): install it (Debian/Ubuntu) when the compiler cannot find xxhash.h.
HAVE_XXHASH_H = echo '\#include <xxhash.h>' | $(CLANG) -E -x c - >/dev/null 2>&1
NO_XXHASH_H := echo "xxhash.h not found. Install xxHash (Debian/Ubuntu: libxxhash-dev) where the compiler finds its headers." >&2; exit 1
deps:
	$(call install-if-missing,$(HAVE_XXHASH_H),xxhash.h,libxxhash-dev,,$(NO_XXHASH_H))
	@$(HAVE_XXHASH_H) && echo "==> xxhash.h found"

# Graphviz's dot, which the DOT rendering test and `make graph` run: installed with
# apt-get where that is possible (without it, the test checks the DOT text only).
NO_GRAPHVIZ := echo "==> Graphviz not found (Homebrew: graphviz): the DOT test checks the text only"
graphviz:
	$(call install-if-missing,command -v dot,dot,graphviz,,$(NO_GRAPHVIZ))

# The C table must compile without a single warning.
c-warnings: deps
	@echo "==> C warnings (clang and, if present, gcc)"
	@$(CLANG) $(C_WARNINGS) -fsyntax-only $(C_INCLUDE) $(C_SOURCES) Tests/CRegistryFuzz/registry_fuzz.c
	@if command -v gcc >/dev/null 2>&1; then gcc $(C_WARNINGS) -fsyntax-only $(C_INCLUDE) $(C_SOURCES); fi
	@echo '#include "crg_testing.h"' | $(CLANG)++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only $(C_INCLUDE) -x c++ -

# Only the engine (Sources/Resolver/Engine) calls into the C core or handles
# raw pointers (DESIGN.md, "The engine layer"): not the files that define the
# public API (Sources/Resolver and its folders but Engine), not ResolverTesting, and not the packages and tests that use the
# library as apps do. (Tests/ResolverTests and Tests/Programs test the engine
# itself, white-box.) A module of its own with `package` access cannot draw
# this line: the engine extends the public classes (Resolver,
# ResolverRegistration, ResolverScope) with their stored state.
ENGINE_BOUNDARY_PATTERN := crg_|import CRegistry|Unsafe(Mutable)?(Raw)?(Buffer)?Pointer|OpaquePointer|Unmanaged<|unsafeBitCast
API_CLIENTS := Sources/ResolverTesting Tests/ResolverTestingTests Tests/Swift5App Tests/APIProbe \
	Tests/DefaultIsolationApp Tests/FirstBuildApp Examples
engine-boundary:
	@echo "==> engine boundary: no C call, CRegistry import, raw pointer or unsafeBitCast outside Sources/Resolver/Engine"
	@if grep -nE '$(ENGINE_BOUNDARY_PATTERN)' $$(find Sources/Resolver -name '*.swift' -not -path 'Sources/Resolver/Engine/*') \
		$$(find $(API_CLIENTS) -name '*.swift' -not -path '*/.build*'); then \
		echo "error: the lines above belong in Sources/Resolver/Engine" >&2; exit 1; \
	fi
	@echo "==> engine layers: C calls and the CRegistry import only in Engine/Memory, Engine/Registry and Engine/Threads"
	@if grep -nE 'crg_[a-z_]+\(|import CRegistry' $$(find Sources/Resolver/Engine -name '*.swift' \
		-not -path '*/Memory/*' -not -path '*/Registry/*' -not -path '*/Threads/*'); then \
		echo "error: the lines above belong in Engine/Memory, Engine/Registry or Engine/Threads" >&2; exit 1; \
	fi

# Swift 6 language mode with zero warnings: warnings fail the build.
build-warnings: deps
	@echo "==> swift build (warnings are errors)"
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors

# The whole test suite, as steps that each run alone too (make test-probes, ...).
test: c-warnings engine-boundary build-warnings test-swift test-strict-verdicts test-probes test-contexts test-example docs

# The package's tests (Swift Testing), warnings as errors. Graphviz lets the DOT
# test render what it draws.
test-swift: deps graphviz
	@echo "==> swift test"
	$(SWIFT) test -Xswiftc -warnings-as-errors

# A strict test's verdict does not depend on the order tests run in (issue 37):
# Tests/Scripts/strict_verdicts.py runs ResolverTests.StrictVerdicts in full
# (source order), each of its tests alone, and StrictVerdictsReversed (the
# same tests, the other way round), each a process of its own, from the test
# binary build-warnings builds, and fails unless every verdict is the same.
test-strict-verdicts: deps
	@echo "==> strict tests' verdicts: in full, each alone, reversed"
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	python3 Tests/Scripts/strict_verdicts.py --swift $(SWIFT)

# The packages that use the library as apps do: the app written for the original
# (Swift 5 mode, debug and release), the API probe (every public declaration of
# 1.5.1 and every spelling of keys, Swift 5 and Swift 6 modes, debug and release)
# and an app module with default MainActor isolation, whose one warning about a
# main-actor factory it checks.
DEFAULT_ISOLATION_ERR := Tests/DefaultIsolationApp/.build/default-isolation.err
test-probes: deps
	@Benchmarks/Scripts/fresh-plans.sh . Tests/Swift5App/.build Tests/APIProbe/.build Tests/DefaultIsolationApp/.build
	@echo "==> Tests/Swift5App: an app written for the original Resolver, Swift 5 mode, debug and release"
	$(SWIFT) run --package-path Tests/Swift5App -c debug Swift5App
	$(SWIFT) run --package-path Tests/Swift5App -c release Swift5App
	@echo "==> Tests/APIProbe: every public declaration of Resolver 1.5.1, and every spelling of keys, Swift 5 and Swift 6 modes (warnings are errors)"
	$(SWIFT) build --package-path Tests/APIProbe -Xswiftc -warnings-as-errors
	$(SWIFT) run --package-path Tests/APIProbe --skip-build APIProbe5
	$(SWIFT) run --package-path Tests/APIProbe --skip-build APIProbe6
	@echo "==> Tests/APIProbe in a release build: Swift 6.3.1 crashes on some parameter-pack forms in optimized builds only"
	$(SWIFT) build -c release --package-path Tests/APIProbe -Xswiftc -warnings-as-errors
	$(SWIFT) run -c release --package-path Tests/APIProbe --skip-build APIProbe5
	$(SWIFT) run -c release --package-path Tests/APIProbe --skip-build APIProbe6
	@echo "==> Tests/APIProbe release: the app's code names no ResolverRegistration<Service> by its mangled name but the one it writes itself (DESIGN.md: its first use demangles)"
	@names=$$(nm "$$($(SWIFT) build -c release --package-path Tests/APIProbe --show-bin-path)/APIProbe6" \
		| grep -o 's8Resolver0A12RegistrationCy.*GMD$$' | sed 's/^/$$/' | $(SWIFT) demangle --simplified | sort -u); \
	test "$$names" = "demangling cache variable for type metadata for ResolverRegistration<ProbeService>" \
		|| { echo "names the registration class by mangled name: $$names"; exit 1; }
	@echo "==> Tests/DefaultIsolationApp: an app module with default MainActor isolation (warnings are errors)"
	$(SWIFT) build --package-path Tests/DefaultIsolationApp -Xswiftc -warnings-as-errors
	$(SWIFT) run --package-path Tests/DefaultIsolationApp --skip-build DefaultIsolationApp 2> $(DEFAULT_ISOLATION_ERR)
	@grep -q "'SettingsViewModel' was registered from the main actor (MainActor)" $(DEFAULT_ISOLATION_ERR)
	@test "$$(grep -c 'was registered from the main actor' $(DEFAULT_ISOLATION_ERR))" = 1

# Contexts on a registration in a program (Tests/Programs/ResolverContextProbe),
# debug and release builds: `onDebug` applies in a debug build (DEBUG defined
# where the package is compiled, as SwiftPM builds it with the program); the argument and the preview variable win in both; an
# argument set, then removed, for the process is seen by a new thread's first resolve. (The tests
# run the debug build in child processes for every context.)
CONTEXT_OUT := .build/context-probe.out
# $(call context-probe,CONFIGURATION,ENVIRONMENT,ARGUMENTS,EXPECTED LINE)
define context-probe
@env $(2) $(SWIFT) run -c $(1) ResolverContextProbe $(3) > $(CONTEXT_OUT) 2>&1 \
	&& grep -qx "$(4)" $(CONTEXT_OUT) \
	|| { cat $(CONTEXT_OUT); echo "error: ResolverContextProbe $(3) ($(1) build, $(2)) did not print '$(4)'" >&2; exit 1; }
endef
test-contexts: deps
	@echo "==> Tests/Programs/ResolverContextProbe: contexts in a debug and a release build"
	@mkdir -p .build
	$(call context-probe,debug,,all,resolved: debug)
	$(call context-probe,release,,all,resolved: live)
	$(call context-probe,release,,all -mock-api,resolved: argument)
	$(call context-probe,release,XCODE_RUNNING_FOR_PREVIEWS=1,all,resolved: preview)
	$(call context-probe,release,,each,debug: live)
	$(call context-probe,release,,process-arguments,set: argument)
	$(call context-probe,release,,process-arguments -mock-api,removed: live)
	@echo "test-contexts OK"

# The example app, and what it prints.
test-example: deps
	@echo "==> Examples/ResolverExample (checks what it prints)"
	@mkdir -p .build
	@$(SWIFT) run ResolverExample > .build/example.out
	@grep -q "one application-wide instance: true, 1 line(s) logged" .build/example.out
	@grep -q "after a second view model: 2 line(s) logged" .build/example.out
	@grep -q "staging:  sunny in Porto (from https://staging.example.com)" .build/example.out
	@echo "example OK"

example: deps
	$(SWIFT) run ResolverExample

# The lifetime model test (Tests/ResolverTests/Lifetimes) for longer than make
# test runs it: LIFETIME_STEPS steps for each of its six seeds (four on
# containers of their own, two on the app-wide state), from programs
# LIFETIME_SEED picks. A divergence prints its program, shrunk.
LIFETIME_STEPS ?= 170000
LIFETIME_SEED ?= 0
test-lifetimes: deps
	@echo "==> the lifetime model test: $(LIFETIME_STEPS) steps for each of six seeds (offset $(LIFETIME_SEED))"
	RESOLVER_LIFETIME_STEPS=$(LIFETIME_STEPS) RESOLVER_LIFETIME_SEED=$(LIFETIME_SEED) \
		$(SWIFT) test -Xswiftc -warnings-as-errors --filter LifetimeModel

# An app's first build (Tests/FirstBuildApp: a package that depends on the
# library by path and writes the README's lines). Without the xxHash header
# the build must stop with crg_xxhash.h's message, which names what to
# install; with the header it must build and run, and its binary must not ask
# for libxxhash. Hiding the header takes a mount namespace
# (Tests/FirstBuildApp/without-xxhash-header.sh: root, as in CI, or a user
# namespace). The outputs stay in $(FIRST_BUILD_SCRATCH)/*.log.
FIRST_BUILD_PACKAGE := Tests/FirstBuildApp
FIRST_BUILD_SCRATCH := $(FIRST_BUILD_PACKAGE)/.build-first-build
FIRST_BUILD := $(SWIFT) build --package-path $(FIRST_BUILD_PACKAGE) --scratch-path $(FIRST_BUILD_SCRATCH)
XXHASH_MISSING_MESSAGE := Resolver needs the xxHash header, xxhash.h, to build (not the library: nothing links libxxhash). Install it: Debian/Ubuntu: apt-get install libxxhash-dev; Fedora: dnf install xxhash-devel; Alpine: apk add xxhash-dev; macOS: brew install xxhash

test-first-build: deps
	@echo "==> README.md shows $(FIRST_BUILD_PACKAGE)'s lines and the error it gets without the header"
	@sed 1d $(FIRST_BUILD_PACKAGE)/Sources/FirstBuildApp/main.swift | while IFS= read -r line; do \
		[ -z "$$line" ] || grep -qxF -- "$$line" README.md \
			|| { echo "error: README.md's 'Add it to your app' lacks this line of main.swift: $$line" >&2; exit 1; }; \
	done
	@grep -qF '$(XXHASH_MISSING_MESSAGE)' README.md \
		|| { echo "error: README.md does not show crg_xxhash.h's message" >&2; exit 1; }
	@echo "==> $(FIRST_BUILD_PACKAGE) without the xxHash header: the build must stop with what to install"
	rm -rf --one-file-system $(FIRST_BUILD_SCRATCH)
	mkdir -p $(FIRST_BUILD_SCRATCH)
	@if CLANG=$(CLANG) bash $(FIRST_BUILD_PACKAGE)/without-xxhash-header.sh $(FIRST_BUILD) \
		> $(FIRST_BUILD_SCRATCH)/without-header.log 2>&1; then \
		cat $(FIRST_BUILD_SCRATCH)/without-header.log; \
		echo "error: $(FIRST_BUILD_PACKAGE) built without xxhash.h" >&2; exit 1; \
	fi
	@cat $(FIRST_BUILD_SCRATCH)/without-header.log
	@grep -qF '$(XXHASH_MISSING_MESSAGE)' $(FIRST_BUILD_SCRATCH)/without-header.log \
		|| { echo "error: the failed build does not print crg_xxhash.h's message" >&2; exit 1; }
	@echo "==> $(FIRST_BUILD_PACKAGE) with the header: it builds and runs"
	@set -o pipefail; $(FIRST_BUILD) 2>&1 | tee $(FIRST_BUILD_SCRATCH)/with-header.log
	@binary="$$($(FIRST_BUILD) --show-bin-path)/FirstBuildApp"; \
	"$$binary" | tee $(FIRST_BUILD_SCRATCH)/run.log; \
	grep -qx "Hello from Resolver" $(FIRST_BUILD_SCRATCH)/run.log \
		|| { echo "error: FirstBuildApp did not print what the README says" >&2; exit 1; }; \
	echo "==> readelf -d $$binary: the libraries it loads (NEEDED)"; \
	readelf -d "$$binary" > $(FIRST_BUILD_SCRATCH)/readelf.log; \
	grep NEEDED $(FIRST_BUILD_SCRATCH)/readelf.log; \
	grep -q 'NEEDED.*libswiftCore' $(FIRST_BUILD_SCRATCH)/readelf.log \
		|| { echo "error: readelf -d lists no libswiftCore: the check below would prove nothing" >&2; exit 1; }; \
	if grep -qi xxhash $(FIRST_BUILD_SCRATCH)/readelf.log; then \
		echo "error: FirstBuildApp needs libxxhash at run time" >&2; exit 1; \
	fi
	@echo "test-first-build OK: without xxhash.h the build names what to install; with it, the app builds, runs and needs no libxxhash"

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
	@Benchmarks/Scripts/fresh-plans.sh . $(SERVER_PACKAGE)/.build
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
NO_WRK := echo "wrk not found: install it (Debian/Ubuntu: apt-get install wrk, Homebrew: wrk)." >&2; exit 1
load-wrk:
	$(call install-if-missing,command -v wrk,wrk,wrk,,$(NO_WRK))

# The sanitizer runs also build the C core with its internal checks: every
# table write checks the table's layout (Package.swift, RESOLVER_INTERNAL_CHECKS).
INTERNAL_CHECKS := RESOLVER_INTERNAL_CHECKS=1

asan: deps
	@echo "==> swift test under AddressSanitizer, with the C core's internal checks"
	ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 $(INTERNAL_CHECKS) $(SWIFT) test --scratch-path .build-asan --sanitize=address
	@echo "==> LeakSanitizer on ResolverLeakCheck (test runners keep allocations of their own)"
	@set -o pipefail; $(INTERNAL_CHECKS) $(SWIFT) build --scratch-path .build-asan --sanitize=address --product ResolverLeakCheck 2>&1 \
		| { grep -v "ld.gold: warning: Cannot export local symbol" || true; }
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 "$$($(INTERNAL_CHECKS) $(SWIFT) build --scratch-path .build-asan --sanitize=address --show-bin-path)/ResolverLeakCheck"

ubsan: deps
	@echo "==> swift test with UndefinedBehaviorSanitizer on the C code, with the C core's internal checks"
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(INTERNAL_CHECKS) $(SWIFT) test --scratch-path .build-ubsan \
		-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined \
		-Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined

tsan: deps
	@echo "==> swift test under ThreadSanitizer"
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --scratch-path .build-tsan --sanitize=thread

FUZZ_LINK = $(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	$(C_INCLUDE) $(C_SOURCES) Tests/CRegistryFuzz/registry_fuzz.c -o .build-fuzz/registry_fuzz
fuzz: deps
	@echo "==> libFuzzer on CRegistry for $(FUZZ_SECONDS)s (ASan + UBSan)"
	@mkdir -p .build-fuzz/corpus
	@# lld where the toolchain's libFuzzer needs it; the system linker where lld rejects it
	$(FUZZ_LINK) -fuse-ld=lld 2>/dev/null || $(FUZZ_LINK)
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
	Benchmarks/Scripts/fresh-plans.sh . Benchmarks/.build
	BASE=$(BASE) bash Benchmarks/Scripts/bench.sh $(BENCH_ARGS)

# The scenarios that also run on several threads: total throughput at 1, 2, ...
# threads beside the floors (a part of make bench, alone). BASE= works here too.
SCALING_SCENARIOS := (singleton|named|transient|graph|lazy-read)(/threads:[0-9]+)?
bench-scaling-table: deps bench-deps
	@echo "==> make bench-scaling-table: total throughput at 1..cores threads, beside the floors$(if $(BASE), and against $(BASE),)"
	Benchmarks/Scripts/fresh-plans.sh . Benchmarks/.build
	BASE=$(BASE) BENCH_SCENARIOS='$(SCALING_SCENARIOS)' bash Benchmarks/Scripts/bench.sh --target Resolvers $(BENCH_ARGS)

# README's "two threads resolve twice as much as one", checked as a user would:
# Benchmarks/Sources/ScalingRuns (the public API only; fresh threads for every
# measurement) RUNS times, each run a process of its own, and a table of the gains
# at 2 threads with the verdict "every run >= 0.9x the gain of the construct floor
# measured beside each resolve" (and the same against the floor's own place).
# Before each run it waits (up to 10 minutes) for the CPUs to be idle and no
# compiler, linker or valgrind to run. SCALING_ORDER=unique,construct,... chooses
# the scenarios' order (default: the cached singleton first). BASE=<commit> also
# builds the program against the library at that commit (extracted with git
# archive into Benchmarks/.build-scaling-base) and alternates the runs of the two.
RUNS ?= 20
SCALING_ORDER ?=
SCALING_BUILD = $(SWIFT) build -c release --package-path Benchmarks --product ScalingRuns
bench-scaling-runs: deps
	@echo "==> make bench-scaling-runs: $(RUNS) runs of ScalingRuns$(if $(BASE), and as many against the library at $(BASE), alternating,), one process each"
	@echo "==> load average now: $$(cut -d' ' -f1-3 /proc/loadavg) (the 2-thread figures need both cores free)"
	@set -e; binaries=(); \
	if [ -n "$(BASE)" ]; then \
		tree=Benchmarks/.build-scaling-base/library; sha=$$(Benchmarks/Scripts/library-at.sh "$(BASE)" "$$tree"); \
		RESOLVER_LIBRARY="$$PWD/$$tree" $(SCALING_BUILD) --scratch-path Benchmarks/.build-scaling-base >/dev/null; \
		binaries+=("base $$sha=$$(RESOLVER_LIBRARY="$$PWD/$$tree" $(SCALING_BUILD) --scratch-path Benchmarks/.build-scaling-base --show-bin-path)/ScalingRuns"); \
	fi; \
	Benchmarks/Scripts/fresh-plans.sh . Benchmarks/.build-scaling; \
	$(SCALING_BUILD) --scratch-path Benchmarks/.build-scaling >/dev/null; \
	binaries+=("this checkout $$(git rev-parse --short HEAD)=$$($(SCALING_BUILD) --scratch-path Benchmarks/.build-scaling --show-bin-path)/ScalingRuns"); \
	python3 Benchmarks/Scripts/scaling_runs.py --runs $(RUNS) --wait-quiet "$${binaries[@]}" \
		$(if $(SCALING_ORDER),-- --order $(SCALING_ORDER),)

# Concurrent verify() calls beside an async factory that awaits (issue 37):
# Benchmarks/Sources/VerifyBursts starts 1, 2, 3 and 8 calls at once in a task
# group, each burst the first thing of a fresh process (VERIFY_PROCESSES
# processes per count, 5 by default), and Scripts/verify_bursts.py prints the
# median burst and slowest call; before each process it waits (up to 10 minutes)
# for the CPUs to be idle and no compiler to run, since another program's load
# changes whether calls overlap. BASE=<commit> also builds the program against
# the library at that commit (Benchmarks/Scripts/library-at.sh, into Benchmarks/.build-verify-bursts-base)
# and alternates the processes of the two.
VERIFY_PROCESSES ?= 5
VERIFY_BURSTS_BUILD = $(SWIFT) build -c release --package-path Benchmarks --product VerifyBursts
bench-verify-bursts: deps
	@echo "==> make bench-verify-bursts: 1, 2, 3 and 8 concurrent verify() calls, $(VERIFY_PROCESSES) fresh processes each$(if $(BASE), and against the library at $(BASE), alternating,)"
	@set -e; binaries=(); \
	if [ -n "$(BASE)" ]; then \
		tree=Benchmarks/.build-verify-bursts-base/library; sha=$$(Benchmarks/Scripts/library-at.sh "$(BASE)" "$$tree"); \
		RESOLVER_LIBRARY="$$PWD/$$tree" $(VERIFY_BURSTS_BUILD) --scratch-path Benchmarks/.build-verify-bursts-base >/dev/null; \
		binaries+=("base $$sha=$$(RESOLVER_LIBRARY="$$PWD/$$tree" $(VERIFY_BURSTS_BUILD) --scratch-path Benchmarks/.build-verify-bursts-base --show-bin-path)/VerifyBursts"); \
	fi; \
	Benchmarks/Scripts/fresh-plans.sh . Benchmarks/.build-verify-bursts; \
	$(VERIFY_BURSTS_BUILD) --scratch-path Benchmarks/.build-verify-bursts >/dev/null; \
	binaries+=("this checkout $$(git rev-parse --short HEAD)=$$($(VERIFY_BURSTS_BUILD) --scratch-path Benchmarks/.build-verify-bursts --show-bin-path)/VerifyBursts"); \
	python3 Benchmarks/Scripts/verify_bursts.py --processes $(VERIFY_PROCESSES) --wait-quiet "$${binaries[@]}"

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

# An app's clean release build with the library (issue 44): a generated app package
# (Benchmarks/.build-buildtime) of three services wired with Resolver, its .build
# removed before each `swift build -c release`, so the library is compiled too;
# every run's seconds and the median. RUNS builds (3 here unless given: the 20 above
# are bench-scaling-runs' default); BASE=<commit> also builds the app against the
# library at that commit, alternating run by run (Benchmarks/README.md).
bench-buildtime: deps
	@echo "==> make bench-buildtime: a three-service app's clean release build$(if $(BASE), against $(BASE) too,)"
	python3 Benchmarks/Scripts/buildtime.py --wait-quiet --runs $(if $(filter file,$(origin RUNS)),3,$(RUNS)) $(if $(BASE),--base $(BASE),)

# The plots need matplotlib: Debian's python3-matplotlib where apt-get exists.
HAVE_MATPLOTLIB := python3 -c 'import matplotlib' || /usr/bin/python3 -c 'import matplotlib'
NO_MATPLOTLIB := echo "==> matplotlib not found: the tables are complete, the plots are not drawn (pip install matplotlib)"
# Toolchains before Swift 6.3 read the harness's Package@swift-6.2.swift, which
# counts mallocs through jemalloc (pkg-config's jemalloc: Debian's libjemalloc-dev).
HAVE_HARNESS_MALLOC_COUNTS = $(SWIFT) --version 2>&1 | grep -qE 'Swift version (6\.([3-9]|[1-9][0-9])|[7-9]\.)' || pkg-config --exists jemalloc
NO_JEMALLOC := echo "==> jemalloc not found: install it (Homebrew: jemalloc) for the harness's malloc counts" >&2; exit 1
bench-deps:
	$(call install-if-missing,$(HAVE_MATPLOTLIB),matplotlib (for the plots),python3-matplotlib,--no-install-recommends,$(NO_MATPLOTLIB))
	$(call install-if-missing,$(HAVE_HARNESS_MALLOC_COUNTS),jemalloc (the harness's malloc counts before Swift 6.3),libjemalloc-dev pkg-config,--no-install-recommends,$(NO_JEMALLOC))

# Instructions per operation for the resolver scenarios, from valgrind's callgrind on a
# release build with DWARF 4 debug info (Benchmarks/.build-callgrind).
CALLGRIND_BUILD := $(SWIFT) build -c release --package-path Benchmarks --scratch-path Benchmarks/.build-callgrind \
	-Xswiftc -g -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4
# e.g. INSTRUCTIONS_ARGS="--scenario singleton --batches 10". BASE=<commit> also
# counts this library's rows in the same program built against the library at
# that commit (Benchmarks/Scripts/library-at.sh, into Benchmarks/.build-callgrind-base).
INSTRUCTIONS_ARGS ?=
CALLGRIND_BASE_BUILD = RESOLVER_LIBRARY="$$PWD/Benchmarks/.build-callgrind-base/library" \
	$(subst .build-callgrind ,.build-callgrind-base ,$(CALLGRIND_BUILD) )
bench-instructions: deps bench-valgrind
	@echo "==> make bench-instructions: callgrind instruction counts per resolver operation$(if $(BASE), beside the library at $(BASE),)"
	@echo "==> the first run builds the benchmark package (release, DWARF 4): a few minutes"
	Benchmarks/Scripts/fresh-plans.sh . Benchmarks/.build-callgrind
	$(CALLGRIND_BUILD) --product InstructionCounts
	$(CALLGRIND_BUILD) --product AsyncInstructionCounts
	@set -e; base=(); \
	if [ -n "$(BASE)" ]; then \
		sha=$$(Benchmarks/Scripts/library-at.sh "$(BASE)" Benchmarks/.build-callgrind-base/library); \
		$(CALLGRIND_BASE_BUILD) --product InstructionCounts; \
		base=(--base-binary "$$($(CALLGRIND_BASE_BUILD) --show-bin-path)/InstructionCounts" --base-label "at $$sha"); \
	fi; \
	bin="$$($(CALLGRIND_BUILD) --show-bin-path)" && cd Benchmarks && \
		python3 Scripts/instructions.py "$$bin/InstructionCounts" --async-binary "$$bin/AsyncInstructionCounts" \
		"$${base[@]}" $(INSTRUCTIONS_ARGS)

# Instructions per cached resolve, synchronous (unnamed and named) and with
# resolveAsync (an async factory's instance and a plain one): whole-program
# callgrind totals at two loop counts, differenced
# (Benchmarks/Sources/AsyncInstructionCounts); and the heap allocations the
# extra 100,000 resolves made (memcheck's count). Part of bench-instructions.
bench-async-instructions: deps bench-valgrind
	@echo "==> make bench-async-instructions: instructions per cached resolve (callgrind, release, DWARF 4)"
	Benchmarks/Scripts/fresh-plans.sh . Benchmarks/.build-callgrind
	$(CALLGRIND_BUILD) --product AsyncInstructionCounts
	bin="$$($(CALLGRIND_BUILD) --show-bin-path)" && cd Benchmarks && \
		python3 Scripts/instructions.py --async-binary "$$bin/AsyncInstructionCounts"

.PHONY: bench-valgrind
NO_VALGRIND := echo "valgrind not found: install it (Debian/Ubuntu: apt-get install valgrind)." >&2; exit 1
bench-valgrind:
	$(call install-if-missing,command -v valgrind,valgrind,valgrind,,$(NO_VALGRIND))

# Everything the targets build: the library's folders, the test and example
# packages', the first-build app's, and the benchmark package's builds
# (Benchmarks/.build, .build-base, .build-callgrind, ...) and results.
clean:
	rm -rf .build .build-asan .build-ubsan .build-tsan .build-fuzz $(SERVER_PACKAGE)/.build \
		Tests/Swift5App/.build Tests/APIProbe/.build Tests/DefaultIsolationApp/.build \
		$(FIRST_BUILD_PACKAGE)/.build $(FIRST_BUILD_SCRATCH) \
		Benchmarks/.build Benchmarks/.build-* Benchmarks/results
