// Async factories built once while every job of the global executor runs on
// one thread (OneThreadExecutor installs the runtime's hooks): if any step
// blocked a thread while a build awaited, this program would hang. The
// tests run it and read the last line.
//
// `ResolverOneThreadProbe verify N`: N concurrent `verify()` calls, each in a
// task on that one thread (a cooperative pool of one thread that never grows:
// N = 2 is as many as it has threads, and one more), of a container whose
// async factories sleep, await child tasks and each other. Each call blocks
// the one thread while its own thread verifies: nothing the verification
// waits for may need the pool, timers included (DESIGN.md, A4).
import Dispatch
import Foundation
import OneThreadExecutor
import Resolver
import ResolverTestSupport

final class Config: Sendable { init() {} }
final class Database: Sendable {
    let config: Config
    init(config: Config) { self.config = config }
}
final class Pool: Sendable {
    let database: Database
    init(database: Database) { self.database = database }
}

/// Counts runs; touched only on the executor's one thread, and by `main` after.
final class Tally: @unchecked Sendable {
    var factoryRuns = 0
    var offThread = 0
    func note() {
        factoryRuns += 1
        if one_thread_executor_is_current() == 0 { offThread += 1 }
    }
}

let verifyCalls = CommandLine.arguments.count == 3 && CommandLine.arguments[1] == "verify"
    ? Int(CommandLine.arguments[2]) : nil
if verifyCalls != nil {
    // Timers on the one thread too (OneThreadDefaultExecutor.swift).
    installOneThreadDefaultExecutor()
} else {
    guard one_thread_executor_install() == 0 else {
        print("ONE-THREAD could not start the executor")
        exit(2)
    }
}

let tally = Tally()

/// Registrations written in nonisolated code, so no factory belongs to the
/// main actor (which this program blocks while it waits).
func registerServices(in resolver: Resolver) {
    resolver.register { () async -> Config? in
        tally.note()
        try? await Task.sleep(nanoseconds: 5_000_000)
        return Config()
    }.scope(.application)
    resolver.register { (r: Resolver) async -> Database? in
        tally.note()
        await Task.yield()
        async let config: Config = r.resolveAsync()
        return Database(config: await config)
    }.scope(.application)
    resolver.register { (r: Resolver) async -> Pool? in
        tally.note()
        let database: Database = await r.resolveAsync()
        try? await Task.sleep(nanoseconds: 2_000_000)
        return Pool(database: database)
    }.scope(.cached)
}

/// A session an async factory builds after a gate opens.
final class Session: Sendable { init() {} }

/// Opens when told to; tasks waiting on it suspend.
actor Gate {
    private var open = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var arrivals = 0
    func wait() async {
        arrivals += 1
        if open { return }
        await withCheckedContinuation { waiting.append($0) }
    }
    func openUp() {
        open = true
        for waiter in waiting { waiter.resume() }
        waiting = []
    }
}

let sessions = Resolver()
let sessionScope = ResolverScopeCache()
let gate = Gate()

func registerSession() {
    sessions.register { () async -> Session? in
        tally.note()
        await gate.wait()
        return Session()
    }.scope(sessionScope)
}

/// A reset (a logout) during an async build (DESIGN.md, S1): 20 tasks join
/// the build, the scope is reset, 20 more ask. Those never get the instance
/// built before the reset, and share one of their own.
func resetDuringBuild() async -> String {
    let runsBefore = tally.factoryRuns
    let before = (0..<20).map { _ in Task { ObjectIdentifier(await sessions.resolveAsync(Session.self)) } }
    while await gate.arrivals < 1 { await Task.yield() }
    for _ in 0..<100 { await Task.yield() }
    sessionScope.reset()
    let after = (0..<20).map { _ in Task { ObjectIdentifier(await sessions.resolveAsync(Session.self)) } }
    while await gate.arrivals < 2 { await Task.yield() }
    await gate.openUp()
    var beforeIDs = Set<ObjectIdentifier>()
    for task in before { beforeIDs.insert(await task.value) }
    var afterIDs = Set<ObjectIdentifier>()
    for task in after { afterIDs.insert(await task.value) }
    let kept = ObjectIdentifier(await sessions.resolveAsync(Session.self))
    return "ONE-THREAD-RESET before=\(beforeIDs.count) after=\(afterIDs.count) disjoint=\(beforeIDs.isDisjoint(with: afterIDs)) kept=\(afterIDs == [kept]) runs=\(tally.factoryRuns - runsBefore)"
}

/// A client whose connection awaits: sleeps on two clocks and a child task's.
final class SlowClient: Sendable { init() {} }
final class SlowRepository: Sendable {
    let client: SlowClient
    init(client: SlowClient) { self.client = client }
}

/// `calls` concurrent `verify()` calls from tasks of the one thread: how many
/// found the container valid.
func verifyConcurrently(calls: Int) async -> String {
    let container = Resolver()
    container.register { () async -> SlowClient? in
        try? await Task.sleep(nanoseconds: 5_000_000)
        try? await ContinuousClock().sleep(for: .milliseconds(2))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(nanoseconds: 1_000_000) }
        }
        return SlowClient()
    }
    container.register { (r: Resolver) async -> SlowRepository? in
        SlowRepository(client: await r.resolveAsync())
    }.scope(.application)
    container.register { Config() }
    let valid = await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<calls {
            // A timeout far beyond the program's own guard: a verification
            // that waits for the pool hangs (HUNG) rather than times out.
            group.addTask { container.verify(timeout: 600).isValid }
        }
        var valid = 0
        for await isValid in group where isValid {
            valid += 1
        }
        return valid
    }
    return "ONE-THREAD-VERIFY calls=\(calls) valid=\(valid)"
}

let resolver = Resolver()
registerServices(in: resolver)
registerSession()
let done = DispatchSemaphore(value: 0)
let result = Locked("")

func run() async -> String {
    let pools = await withTaskGroup(of: ObjectIdentifier.self) { group in
        for _ in 0..<50 {
            group.addTask { ObjectIdentifier(await resolver.resolveAsync(Pool.self)) }
        }
        var ids = Set<ObjectIdentifier>()
        for await id in group { ids.insert(id) }
        return ids
    }
    let database: Database = await resolver.resolveAsync()
    let config: Config = await resolver.resolveAsync()
    let consistent = database.config === config
    let line = "ONE-THREAD pools=\(pools.count) runs=\(tally.factoryRuns) off-thread=\(tally.offThread) consistent=\(consistent) jobs>0=\(one_thread_executor_jobs_run() > 0)"
    return line + "\n" + (await resetDuringBuild())
}

Task.detached {
    let line = if let verifyCalls { await verifyConcurrently(calls: verifyCalls) } else { await run() }
    result.withLock { $0 = line }
    done.signal()
}
if done.wait(timeout: .now() + 30) == .timedOut {
    print("ONE-THREAD HUNG")
    exit(3)
}
print(result.withLock { $0 })
