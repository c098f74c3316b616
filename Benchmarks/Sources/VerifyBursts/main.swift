// Times one burst of concurrent `Resolver.verify()` calls beside an async
// factory that suspends (a database client that awaits for 20 ms), in a
// fresh process: `VerifyBursts 3` starts three calls at once in a task
// group, as parallel tests that each check the graph do, and prints one
// line: the burst's wall time and each call's, in milliseconds.
// Scripts/verify_bursts.py runs it for 1, 2, 3 and 8 calls, five
// processes each, and prints the medians (`make bench-verify-bursts`). A
// timing, measured here and never asserted: the tests check the structure
// (AsyncFactoryTests: as many calls as the pool has threads, and one more).
import Dispatch
import Resolver

/// A client whose connection takes 20 ms of awaiting: a suspension, no
/// thread blocked.
final class DatabaseClient: Sendable {
    static func connect() async -> DatabaseClient {
        try? await Task.sleep(nanoseconds: 20_000_000)
        return DatabaseClient()
    }
}

final class Repository: Sendable {
    let database: DatabaseClient
    init(database: DatabaseClient) { self.database = database }
}

final class Formatter: Sendable {}

func milliseconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
}

let calls = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1
guard calls > 0 else {
    fatalError("usage: VerifyBursts CALLS (a positive number of concurrent verify() calls)")
}

/// The app's registrations, from nonisolated code (as an app's
/// `registerAllServices` makes them).
nonisolated func registerServices() {
    Resolver.register { await DatabaseClient.connect() }
    Resolver.register { r in await Repository(database: r.resolveAsync()) }
    Resolver.register { Formatter() }
}

registerServices()

let start = DispatchTime.now()
let durations = await withTaskGroup(of: (Double, Bool).self) { group in
    for _ in 0..<calls {
        group.addTask {
            let began = DispatchTime.now()
            let verification = Resolver.verify()
            return (milliseconds(since: began), verification.isValid)
        }
    }
    var durations: [Double] = []
    for await (duration, valid) in group {
        guard valid else {
            fatalError("verify() failed: the program measures nothing")
        }
        durations.append(duration)
    }
    return durations
}
let burst = milliseconds(since: start)
/// Milliseconds to one decimal.
func tenths(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return "\(rounded)"
}

print("calls \(calls) burst_ms \(tenths(burst)) each_ms \(durations.sorted().map(tenths).joined(separator: " "))")
