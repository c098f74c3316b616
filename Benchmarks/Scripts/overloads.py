#!/usr/bin/env python3
"""Which `register` overload every call shape picks, in every isolation context
(issue 28): the check that a faster spelling of the overloads keeps each call
of 1.5.1's and the concurrency issue's resolving as before.

It writes probe sources into Benchmarks/.build-overloads (git-ignored): some
thirty closure shapes (plain, `r in`, `_, args in`, `@MainActor in`, `await`,
typed, named, non-trailing, function values, instance, optional-chained),
each called as `Resolver.register`, on an instance, unqualified from a static
and an instance method, in a nonisolated function, a @MainActor function and
top-level code, compiled in Swift 6 and Swift 5 modes and with default
MainActor isolation. The compiler's typed AST (`-dump-ast`) says, for every
call, whether it reached a static or a container's overload, whether that
overload takes `isolation:` and the factory type it was given
(`@MainActor () -> VM?`, `(Resolver) async -> S?`, ...), which names the shape.

    python3 Benchmarks/Scripts/overloads.py                # this checkout: the counts, and any diagnostics
    python3 Benchmarks/Scripts/overloads.py --base 4557b10 # and every call that resolves differently there
    python3 Benchmarks/Scripts/overloads.py --show         # every call's overload

With --base it exits 1 when a call resolves differently or a context compiles
with different diagnostics.
"""
import argparse, os, re, shutil, subprocess, sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORK = os.path.join(ROOT, "Benchmarks", ".build-overloads")
# The one way to get the library at a base commit (make bench and the Makefile use it too).
LIBRARY_AT = os.path.join(ROOT, "Benchmarks", "Scripts", "library-at.sh")

CLOSURES = [
    "{ S() }", "{ S() as P }", "{ nil as S? }", "{ () -> S in S() }", "{ () -> S? in S() }",
    "{ let s = S(); return s }", "{ r in D(a: r.resolve()) }", "{ r -> D in D(a: r.resolve()) }",
    "{ (r: Resolver) in D(a: r.resolve()) }", "{ _ in S() }", "{ r in let d = D(a: r.resolve()); return d }",
    "{ _, args in D(a: args()) }", "{ r, args in D(a: r.resolve(args: args())) }", '{ r, a in D(a: a("k")) }',
    "{ @MainActor in VM() }", "{ @MainActor () -> VM in VM() }", "{ @MainActor r in VD(a: r.resolve()) }",
    "{ @MainActor _, args in VD(a: args()) }", "{ @MainActor in let v = VM(); return v }",
    "{ await SA() }", "{ () async -> SA in await SA() }", "{ r in await SA(a: r.resolve()) }",
    "{ _, args in await SA(a: args()) }", "{ @MainActor in await SA() }", "{ r async in S() }",
]

TYPES = """import Resolver
protocol P {}
final class S: P, @unchecked Sendable { init() {} }
final class D { init(a: S) {} }
final class VM { init() {} }
final class VD { init(a: S) {} }
final class SA: @unchecked Sendable { init() async {}; init(a: S) async {} }
"""


def calls(unqualified, indent="    "):
    """One call per line, each marked `// #<id>`; the ids say shape and form."""
    base = "register" if unqualified else "Resolver.register"
    lines = []
    for i, closure in enumerate(CLOSURES):
        lines.append(f"{base} {closure} // #A{i}")
        if not unqualified:
            lines.append(f"r.register {closure} // #I{i}")
        lines.append(f'{base}(name: "n") {closure} // #N{i}')
        lines.append(f"{base}(factory: {closure}) // #F{i}")
    lines += [f"{base}(S.self) {{ S() }} // #T0", f"{base}(P.self) {{ S() }} // #T1",
              f"{base}(S?.self) {{ S() }} // #T2", "let plain: ResolverFactory<S> = { S() }; _ = plain",
              f"{base}(S.self, name: nil, factory: plain) // #V1", f"{base}(factory: plain) // #V2"]
    return "\n".join(indent + line for line in lines)


def write_sources(directory):
    os.makedirs(directory, exist_ok=True)
    functions = (TYPES + "\nfunc nonisolatedCalls(_ r: Resolver) {\n" + calls(False) + "\n}\n\n"
                 "@MainActor func mainActorCalls(_ r: Resolver) {\n" + calls(False).replace("#", "#M") + "\n}\n\n"
                 "extension Resolver {\n    static func staticCalls() {\n" + calls(True, " " * 8).replace("#", "#S") +
                 "\n    }\n    @MainActor static func staticMainActorCalls() {\n" +
                 calls(True, " " * 8).replace("#", "#SM") + "\n    }\n"
                 "    func instanceContextCalls() {\n" +
                 "\n".join(f"        register {c} // #X{i}" for i, c in enumerate(CLOSURES)) + "\n    }\n}\n\n"
                 "func optionalChained(_ r: Resolver?) {\n"
                 "    r?.register { S() } // #O0\n    r?.register { @MainActor in VM() } // #O1\n"
                 "    Resolver.main.register { S() } // #O2\n    Resolver.root.register { await SA() } // #O3\n}\n")
    top = TYPES + "\nlet r = Resolver()\n" + calls(False, "").replace("#", "#TOP") + "\n"
    for name, text in (("functions.swift", functions), ("main.swift", top)):
        path = os.path.join(directory, name)
        if not os.path.exists(path) or open(path).read() != text:
            open(path, "w").write(text)


CONTEXTS = [  # name, sources, flags
    ("functions, Swift 6", "functions.swift", ["-swift-version", "6", "-parse-as-library"]),
    ("functions, Swift 5", "functions.swift", ["-swift-version", "5", "-parse-as-library"]),
    ("functions, default MainActor", "functions.swift",
     ["-swift-version", "6", "-parse-as-library", "-default-isolation", "MainActor"]),
    ("top level, Swift 6", "main.swift", ["-swift-version", "6"]),
    ("top level, Swift 5", "main.swift", ["-swift-version", "5"]),
    ("top level, default MainActor", "main.swift", ["-swift-version", "6", "-default-isolation", "MainActor"]),
]


def library_module(label, library):
    """Builds the library's module (debug) in a package of its own; returns the swiftc flags to import it."""
    package = os.path.join(WORK, label)
    os.makedirs(os.path.join(package, "Sources", "Probe"), exist_ok=True)
    manifest = ("// swift-tools-version:6.0\n// Generated by Benchmarks/Scripts/overloads.py.\nimport PackageDescription\n"
                f'let package = Package(name: "OverloadProbe", dependencies: [.package(name: "Resolver", path: "{library}")],\n'
                '    targets: [.target(name: "Probe", dependencies: [.product(name: "Resolver", package: "Resolver")])])\n')
    for path, text in ((os.path.join(package, "Package.swift"), manifest),
                       (os.path.join(package, "Sources", "Probe", "Probe.swift"), "import Resolver\n")):
        if not os.path.exists(path) or open(path).read() != text:
            open(path, "w").write(text)
    build = ["swift", "build", "--package-path", package, "--target", "Probe"]
    result = subprocess.run(build, capture_output=True, text=True)
    if result.returncode != 0 and "missing inputs" in result.stdout + result.stderr:
        # SwiftPM kept the build plan of the library's earlier file list: start afresh.
        shutil.rmtree(os.path.join(package, ".build"), ignore_errors=True)
        result = subprocess.run(build, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"error: building the library at {library} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    debug = os.path.join(package, ".build", "debug")
    flags = ["-I", os.path.join(debug, "Modules")]
    # The C modules the library's module was built against (which there are depends on the commit):
    # the C core's own module map where it has one, else the one SwiftPM generated for it.
    own = os.path.join(library, "Sources", "CRegistry", "include", "module.modulemap")
    for modulemap in (own if os.path.exists(own) else os.path.join(debug, "CRegistry.build", "module.modulemap"),
                      os.path.join(library, "Sources", "CXXHash", "module.modulemap")):
        if os.path.exists(modulemap):
            flags += ["-Xcc", f"-fmodule-map-file={modulemap}"]
    include = os.path.join(library, "Sources", "CRegistry", "include")
    if os.path.isdir(include):
        flags += ["-Xcc", f"-I{include}"]
    return flags


DECL = re.compile(r'declref_expr (?:implicit )?type="(.*?)" location=(\S+?):(\d+):\d+ .*'
                  r'decl="[^"]*\.(register|callAsFunction)\(([A-Za-z_:]*)\)')


def selections(sources, module_flags, context_flags, source):
    """{call id: overload} and the diagnostics, for one context."""
    path = os.path.join(sources, source)
    result = subprocess.run(["swiftc", "-dump-ast", *module_flags, *context_flags, path],
                            capture_output=True, text=True, cwd=sources)
    marks = {}
    for number, line in enumerate(open(path), 1):
        found = re.search(r"// (#\S+)", line)
        if found:
            marks[number] = found.group(1)
    chosen = {}
    for line in result.stdout.splitlines():
        found = DECL.search(line)
        if not found or not found.group(2).endswith(source) or int(found.group(3)) not in marks:
            continue
        type_, labels = found.group(1), found.group(5)
        kind = "static" if type_.startswith("(Resolver.Type)") else "container"
        factory = re.search(r"@escaping (.*)\) -> ResolverOptions<", type_)
        factory = (factory.group(1) if factory else type_).replace("@Sendable ", "")
        # Whether a plain factory is told the caller's isolation (`isolation: #isolation`) is behaviour;
        # the @MainActor and async overloads never read it.
        told = "isolation: " if "isolation:" in labels and "@MainActor" not in factory and "async" not in factory else ""
        chosen[marks[int(found.group(3))]] = f"{kind} {told}{factory}"
    diagnostics = sorted(set(re.sub(r"^\S+:\d+:\d+: ", "", l) for l in result.stderr.splitlines()
                             if " error: " in l or " warning: " in l))
    return chosen, diagnostics, len(marks)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", help="also this commit's library, and compare")
    parser.add_argument("--show", action="store_true", help="print every call's overload")
    args = parser.parse_args()
    sources = os.path.join(WORK, "probe")
    write_sources(sources)
    libraries = [("current", "this checkout", ROOT)]
    tree = None
    if args.base:
        tree = os.path.join(WORK, "base-library")
        sha = subprocess.run([LIBRARY_AT, args.base, tree], capture_output=True, text=True, check=True).stdout.strip()
        libraries.append(("base", f"base {sha}", tree))
    try:
        results = {}
        for key, label, library in libraries:
            print(f"==> {label}: building the library module", flush=True)
            flags = library_module(key, library)
            for name, source, context_flags in CONTEXTS:
                results[key, name] = selections(sources, flags, context_flags, source)
    finally:
        if tree:
            shutil.rmtree(tree, ignore_errors=True)
    differences = 0
    for name, _, _ in CONTEXTS:
        chosen, diagnostics, marked = results["current", name]
        print(f"{name}: {len(chosen)} of {marked} calls resolved, {len(diagnostics)} distinct diagnostics")
        for d in diagnostics:
            print(f"    {d}")
        if args.show:
            for call in sorted(chosen):
                print(f"    {call:10} {chosen[call]}")
        if args.base:
            base_chosen, base_diagnostics, _ = results["base", name]
            changed = [c for c in sorted(set(chosen) | set(base_chosen)) if chosen.get(c) != base_chosen.get(c)]
            for call in changed:
                print(f"    DIFFERENT {call:10} base: {base_chosen.get(call, 'does not compile')}\n"
                      f"              {'':10} now:  {chosen.get(call, 'does not compile')}")
            if diagnostics != base_diagnostics:
                print(f"    DIFFERENT diagnostics; the base's: {base_diagnostics}")
            differences += len(changed) + (diagnostics != base_diagnostics)
    if args.base:
        print(f"\n{'every call resolves as at ' + libraries[1][1] if not differences else str(differences) + ' differences'}")
        sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
