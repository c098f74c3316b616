import CRegistry
import Foundation
@testable import Resolver
@_exported import ResolverTestSupport
import Synchronization
import Testing

// Every front-end suite nests in `ResolverTests` (process-wide state, one
// test at a time) or `IndependentTests` (in parallel): ProcessWideState.swift.
//
// Synchronization in the tests: `Locked` (Tests/Support) for shared state,
// `startThread`/`runOnThreads` (Tests/Support) for threads, semaphores for
// one thread signalling another, and `Synchronization.Atomic` only for
// counters and flags that must not order threads (below) or whose memory
// orderings are what a test is about (LockFreeTests).

// MARK: - Services used across the tests

/// Hands out increasing numbers, so that instances can be told apart by value.
///
/// A relaxed atomic, not `Locked`: services are made on every thread of the
/// stress tests, and a lock taken in each initializer would order those
/// threads, hiding from ThreadSanitizer a race in the library between them.
enum Serial {
    private static let counter = Atomic<Int>(0)
    static func next() -> Int { counter.add(1, ordering: .relaxed).newValue }
}

protocol XYZFetching: AnyObject { var id: Int { get } }
protocol XYZUpdating { var id: Int { get } }

final class XYZService: XYZFetching, XYZUpdating, @unchecked Sendable {
    let id = Serial.next()
    var name = "XYZService"
}

final class XYZSessionService { let id = Serial.next() }

final class Leaf: @unchecked Sendable { let id = Serial.next() }

final class Middle {
    let id = Serial.next()
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

final class Top {
    let id = Serial.next()
    let middle: Middle
    let leaf: Leaf
    init(middle: Middle, leaf: Leaf) { self.middle = middle; self.leaf = leaf }
}

struct ValueService: Equatable { let id = Serial.next() }

/// Counts how often a factory ran. A relaxed atomic, as `Serial` is: a lock
/// in the factories would order the threads that run them.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func increment() { value.add(1, ordering: .relaxed) }
}

// MARK: - Threads

/// Waits at most `seconds` for `condition`; false on timeout.
func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// Waits at most ten seconds for `condition`, collecting retired objects
/// meanwhile: what a write drops is released once no resolve that started
/// before it is still running (DESIGN.md), and tests in other suites may be
/// resolving at any moment, so a release can be delayed, never skipped.
func released(_ condition: () -> Bool) -> Bool {
    eventually(within: 10) {
        _ = crg_collect()
        return condition()
    }
}

// MARK: - Child processes

/// The result of running one of the test programs.
struct ProgramRun {
    let status: Int32
    let signaled: Bool
    let output: String
}

/// The executable `name` that SwiftPM built beside the tests (an
/// `.executableTarget` of this package, such as `ResolverFailureProbe`).
///
/// Executables and the test product land in one directory (`.build/debug`,
/// or under `--scratch-path`). The test product is an executable on Linux
/// (`<dir>/ResolverPackageTests.xctest`, run directly for XCTest and for
/// Swift Testing) and a bundle on macOS
/// (`<dir>/ResolverPackageTests.xctest/Contents/MacOS/ResolverPackageTests`,
/// loaded by `xctest` or by SwiftPM's testing helper). So: starting from the
/// loaded `.xctest` bundle (macOS) or the running executable (Linux), and
/// `argv[0]`, walk up until a directory holds `name`.
func builtProgram(_ name: String) -> URL? {
    #if canImport(Darwin)
    var starts: [URL] = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map(\.bundleURL)
    starts += [Bundle.main.executableURL].compactMap { $0 }
    #else
    // The running executable, without `Bundle` (whose lookups some Linux
    // builds of Foundation cannot make).
    var starts = [URL(fileURLWithPath: "/proc/self/exe")]
    #endif
    starts += [CommandLine.arguments.first.map { URL(fileURLWithPath: $0) }].compactMap { $0 }
    for start in starts {
        var directory = start.resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.pathComponents.count > 1 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
    }
    return nil
}

/// A program the tests expected to find was not built beside them.
struct ProgramNotBuilt: Error, CustomStringConvertible {
    let name: String
    var description: String {
        "\(name) was not found beside the tests (argv[0]: \(CommandLine.arguments.first ?? "none")); build it with `swift build --build-tests`"
    }
}

/// A program the tests ran did not finish in time (it was killed).
struct ProgramTimedOut: Error, CustomStringConvertible {
    let name: String
    let arguments: [String]
    let seconds: Double
    let output: String
    var description: String {
        "\(name) \(arguments.joined(separator: " ")) did not finish within \(seconds) s; its output: \(output)"
    }
}

/// Runs a program built next to the tests (`ResolverFailureProbe`, ...) with
/// `arguments`, and returns its exit and its combined stdout and stderr.
/// Throws if it has not finished within `timeout` seconds (it is killed), so a
/// program that hangs fails the test instead of hanging it.
func runProgram(_ name: String, _ arguments: [String] = [], environment: [String: String] = [:],
                timeout: Double = 60) throws -> ProgramRun {
    guard let executable = builtProgram(name) else {
        throw ProgramNotBuilt(name: name)
    }
    return try run(executable, arguments, environment: environment, timeout: timeout)
}

/// Runs a tool found on the `PATH` (`readelf`, `otool`, ...), as `runProgram` does.
func runTool(_ name: String, _ arguments: [String], timeout: Double = 60) throws -> ProgramRun {
    try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, timeout: timeout)
}

/// Runs `executable` with `arguments`, and `environment` added to the
/// tests' own; see `runProgram`.
func run(_ executable: URL, _ arguments: [String], environment extra: [String: String] = [:],
         timeout: Double) throws -> ProgramRun {
    let name = executable.lastPathComponent
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    // A probe stops on purpose; the runtime's crash backtracer would only
    // add noise, and it can outlive the child holding the output pipe open.
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    environment.merge(extra) { _, added in added }
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    // Read on another thread, so that a child that never closes its output
    // cannot block the wait below.
    let output = Locked(Data())
    let reader = pipe.fileHandleForReading
    let reading = startThread {
        let data = reader.readDataToEndOfFile()
        output.withLock { $0 = data }
    }
    let finished = eventually(within: timeout) { !process.isRunning }
    if !finished {
        kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    _ = reading.finished(within: 10)
    let text = output.withLock { String(decoding: $0, as: UTF8.self) }
    if !finished {
        throw ProgramTimedOut(name: name, arguments: arguments, seconds: timeout, output: text)
    }
    return ProgramRun(status: process.terminationStatus,
                      signaled: process.terminationReason == .uncaughtSignal,
                      output: text)
}

/// A `Leaf` registered in `scope` whose first build stops until `release()`:
/// the setting of the tests that reset a scope while a build is under way
/// (DESIGN.md, S1).
final class HeldBuild: Sendable {
    let resolver = Resolver()
    /// How many times the factory ran.
    let made = Counter()
    private let building = DispatchSemaphore(value: 0)
    private let proceed = DispatchSemaphore(value: 0)

    init(in scope: ResolverScope) {
        resolver.register { [made, building, proceed] () -> Leaf in
            made.increment()
            if made.count == 1 {
                building.signal()
                proceed.wait()
            }
            return Leaf()
        }.scope(scope)
    }

    /// Starts a thread whose resolve builds the first `Leaf`, and returns once
    /// that build has begun; `id` gets the instance's id when it ends.
    func startBuilding(into id: Locked<Int?>) -> StartedThread {
        let thread = startResolving(into: id)
        building.wait()
        return thread
    }

    /// Starts a thread that resolves `Leaf`; `id` gets the instance's id.
    func startResolving(into id: Locked<Int?>) -> StartedThread {
        startThread { [resolver] in
            let resolved = resolver.resolve(Leaf.self).id
            id.withLock { $0 = resolved }
        }
    }

    /// Lets the held build finish.
    func release() {
        proceed.signal()
    }
}

/// A build under way when `reset` runs, joined by a second thread before it:
/// both threads get the build they asked for, the scope keeps nothing of it,
/// and the next resolve builds again (DESIGN.md, S1).
func expectAResetDuringABuildKeepsNothing(scope: ResolverScopeCache, reset: () -> Void) {
    let held = HeldBuild(in: scope)
    let first = Locked<Int?>(nil), waiter = Locked<Int?>(nil)
    let builder = held.startBuilding(into: first)
    let waiting = held.startResolving(into: waiter)
    #expect(eventually(within: 10) { registry.withLock { scope.building.first?.waiting == 1 } },
            "the second thread joined the build")
    reset()
    held.release()
    #expect(builder.finished(within: 10) && waiting.finished(within: 10))
    let id = first.withLock { $0 }
    #expect(id != nil && id == waiter.withLock { $0 }, "the waiter got the build it joined")
    #expect(held.made.count == 1)
    #expect(held.resolver.resolve(Leaf.self).id != id, "nothing built before the reset is kept")
    #expect(held.made.count == 2)
}
