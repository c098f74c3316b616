import CRegistry
import Foundation
@testable import Resolver
@_exported import ResolverTestSupport
import Synchronization
import Testing

/// Every front-end suite nests in this one, which runs its tests one at a
/// time: they share `Resolver.main`, `root`, the global scopes and
/// `registerAllServices`.
@Suite(.serialized) struct ResolverTests {}

// MARK: - Services used across the tests

/// Hands out increasing numbers, so that instances can be told apart by value.
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

/// Counts how often a factory ran.
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

/// Runs a program built next to the test bundle (`ResolverFailureProbe`,
/// `Swift5App`, ...) with `arguments`, and returns its exit and its combined
/// stdout and stderr.
func runProgram(_ name: String, _ arguments: [String] = [], timeout: Double = 60) throws -> ProgramRun {
    let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let process = Process()
    process.executableURL = directory.appendingPathComponent(name)
    process.arguments = arguments
    // A probe stops on purpose; the runtime's crash backtracer would only
    // add noise, and it can outlive the child holding the output pipe open.
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    let finished = eventually(within: timeout) { !process.isRunning }
    if !finished {
        process.terminate()
    }
    process.waitUntilExit()
    return ProgramRun(status: process.terminationStatus,
                      signaled: process.terminationReason == .uncaughtSignal,
                      output: String(decoding: data, as: UTF8.self))
}
