// ScalingRuns: does a second thread double the resolves, every time?
//
// A client of the library's public API only, written as a new user would
// check README's first claim: one shared container (the static API: `main`,
// resolved through `root`), and for each scenario the total throughput at 1
// and at 2 threads. Every measurement starts fresh threads (as a server's
// worker pool that comes and goes would), each resolving in a loop and
// handing the result to a function the optimizer cannot see into. Three
// rounds of 0.3 s per thread count, alternating 1 and 2 threads; a gain is the
// median total at 2 threads over the median at 1.
//
// The construct floor runs once in the order, and again beside each checked
// resolve scenario, measurement by measurement (floor at 1 thread, resolve at
// 1, floor at 2, resolve at 2, each round): a machine that slows one core
// for some seconds with nothing of ours running (this project's VM does)
// slows that floor alike, while a cache line two threads' resolves share
// slows the resolve alone. `--floor-beside no` leaves the floor in its one
// place.
//
//   ScalingRuns [--order singleton,unique,...] [--rounds 3] [--seconds 0.3] [--threads 2] [--floor-beside yes|no]
//
// The scenarios run in the order given (the default starts with the cached
// singleton: two threads resolving it first is what made the later transient
// resolves contend). The last line, `RESULT name=gain ...`, is what
// `Scripts/scaling_runs.py` (`make bench-scaling-runs`) reads.

import Resolver
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

// MARK: - Services

final class Singleton {}
final class Unique {}
final class DefaultB {}
final class DefaultA {
    let b: DefaultB
    init(b: DefaultB) { self.b = b }
}
final class GraphC {}
final class GraphB {
    let c: GraphC
    init(c: GraphC) { self.c = c }
}
final class GraphA {
    let b: GraphB
    let c: GraphC
    init(b: GraphB, c: GraphC) {
        self.b = b
        self.c = c
    }
}
final class LazyService {}
final class Constructed {}

/// An object holding a `@LazyInjected` property: one per thread, made by that
/// thread, as each request handler or view model has its own.
final class LazyOwner {
    @LazyInjected var service: LazyService
}

// MARK: - The sink

// A call through a mutable global closure: the compiler cannot see its target,
// so it must assume the object escapes (an empty `@inline(never)` function is
// not enough: its "does not escape" effect is exported, and constructed
// objects were then put on the stack). Every scenario, floors included, pays
// this same call.
@exclusivity(unchecked) nonisolated(unsafe) var sinkObjectTarget: (AnyObject) -> Void = { _ in }
@exclusivity(unchecked) nonisolated(unsafe) var sinkWordTarget: (UInt) -> Void = { _ in }

@inline(never)
func sink(_ object: AnyObject) { sinkObjectTarget(object) }

@inline(never)
func sink(_ word: UInt) { sinkWordTarget(word) }

// MARK: - Scenarios

/// A word every thread reads and none writes (the lock-free read floor).
final class SharedWord: Sendable {
    let word = Atomic<UInt>(42)
}

/// What the loop of one scenario does, made on each measuring thread before
/// the clock starts (so per-thread setup, a `LazyOwner`, is that thread's).
struct Scenario {
    let name: String
    let summary: String
    /// A resolve scenario the verdict holds to the construct floor's gain.
    let checked: Bool
    let makeOperation: @Sendable () -> () -> Void
}

let sharedWord = SharedWord()
nonisolated(unsafe) let keptInstance = Unmanaged.passRetained(Constructed())

let scenarios: [Scenario] = [
    Scenario(name: "construct", summary: "floor: Constructed() by hand", checked: false) {
        { sink(Constructed()) }
    },
    Scenario(name: "read", summary: "floor: an atomic load of a shared word", checked: false) {
        { sink(sharedWord.word.load(ordering: .acquiring)) }
    },
    Scenario(name: "retain", summary: "floor: retain+release of one shared instance (does not scale)", checked: false) {
        {
            let reference = keptInstance.retain()
            sink(reference.takeUnretainedValue())
            reference.release()
        }
    },
    Scenario(name: "unique", summary: "Resolver.resolve(), .unique", checked: true) {
        { sink(Resolver.resolve(Unique.self)) }
    },
    Scenario(name: "default", summary: "Resolver.resolve() of A(B), default scope", checked: true) {
        { sink(Resolver.resolve(DefaultA.self)) }
    },
    Scenario(name: "graph", summary: "Resolver.resolve() of A(B(C), C), default scope", checked: true) {
        { sink(Resolver.resolve(GraphA.self)) }
    },
    Scenario(name: "lazy", summary: "read of a @LazyInjected that holds its .unique instance", checked: true) {
        let owner = LazyOwner()
        _ = owner.service
        return { sink(owner.service) }
    },
    Scenario(name: "singleton", summary: "Resolver.resolve(), .application (one shared count)", checked: false) {
        { sink(Resolver.resolve(Singleton.self)) }
    },
]

func registerServices() {
    Resolver.register { Singleton() }.scope(.application)
    Resolver.register { Unique() }.scope(.unique)
    Resolver.register { DefaultB() }
    Resolver.register { DefaultA(b: $0.resolve()) }
    Resolver.register { GraphC() }
    Resolver.register { GraphB(c: $0.resolve()) }
    Resolver.register { GraphA(b: $0.resolve(), c: $0.resolve()) }
    Resolver.register { LazyService() }.scope(.unique)
    let a = Resolver.resolve(GraphA.self)
    precondition(a.b.c === a.c, "the default scope shares C within one resolution")
}

// MARK: - Measuring

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// One measurement: `threads` fresh threads, started together, each running
/// its operation until told to stop.
final class Measurement: @unchecked Sendable {
    let makeOperation: @Sendable () -> () -> Void
    let ready = Atomic<Int>(0)
    let go = Atomic<Bool>(false)
    let stop = Atomic<Bool>(false)
    /// Each thread's operations per second, written once by that thread when it stops.
    let results: UnsafeMutablePointer<Double>

    init(threads: Int, _ makeOperation: @escaping @Sendable () -> () -> Void) {
        self.makeOperation = makeOperation
        results = .allocate(capacity: threads)
        results.initialize(repeating: 0, count: threads)
    }

    deinit {
        results.deallocate()
    }

    func run(thread: Int) {
        let operation = makeOperation()
        ready.add(1, ordering: .releasing)
        while !go.load(ordering: .acquiring) {}
        var count = 0
        let start = now()
        repeat {
            for _ in 0..<64 {
                operation()
            }
            count += 64
        } while !stop.load(ordering: .relaxed)
        results[thread] = Double(count) / (now() - start)
    }
}

final class ThreadStart {
    let measurement: Measurement
    let thread: Int

    init(_ measurement: Measurement, _ thread: Int) {
        self.measurement = measurement
        self.thread = thread
    }
}

/// Total operations per second of `threads` fresh threads over `seconds`.
func measure(_ scenario: Scenario, threads: Int, seconds: Double) -> Double {
    let measurement = Measurement(threads: threads, scenario.makeOperation)
    var handles: [pthread_t] = []
    for thread in 0..<threads {
        let context = Unmanaged.passRetained(ThreadStart(measurement, thread)).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { raw in
            #if canImport(Darwin)
            let start = Unmanaged<ThreadStart>.fromOpaque(raw).takeRetainedValue()
            #else
            let start = Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue()
            #endif
            start.measurement.run(thread: start.thread)
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        handles.append(handle)
    }
    while measurement.ready.load(ordering: .acquiring) < threads {
        sched_yield()
    }
    measurement.go.store(true, ordering: .releasing)
    usleep(useconds_t(seconds * 1e6))
    measurement.stop.store(true, ordering: .relaxed)
    for handle in handles {
        pthread_join(handle, nil)
    }
    return (0..<threads).reduce(0) { $0 + measurement.results[$1] }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

// MARK: - Options

struct Options {
    var order = ["singleton", "unique", "default", "graph", "lazy", "construct", "read", "retain"]
    var rounds = 3
    var seconds = 0.3
    var threads = 2
    var besideFloor = true
}

func usage() -> Never {
    let names = scenarios.map(\.name).joined(separator: ",")
    print("""
        usage: ScalingRuns [--order NAMES] [--rounds N] [--seconds S] [--threads N]
          --order    scenarios in the order to run, comma-separated (each at most once) from:
                     \(names)
                     default: \(Options().order.joined(separator: ","))
          --rounds   rounds per thread count (default 3), alternating 1 and N threads
          --seconds  length of one measurement (default 0.3)
          --threads  the second thread count (default 2)
          --floor-beside  yes (default): also measure the construct floor beside each
                     checked resolve, alternating with it (RESULT's <name>_floor); no: not
        """)
    exit(2)
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        guard let value = arguments.popFirst() else { usage() }
        switch argument {
        case "--order":
            options.order = value.split(separator: ",").map(String.init)
            let known = Set(scenarios.map(\.name))
            guard !options.order.isEmpty, options.order.allSatisfy(known.contains),
                  Set(options.order).count == options.order.count else { usage() }
        case "--rounds": options.rounds = Int(value) ?? 0
        case "--seconds": options.seconds = Double(value) ?? 0
        case "--threads": options.threads = Int(value) ?? 0
        case "--floor-beside":
            guard value == "yes" || value == "no" else { usage() }
            options.besideFloor = value == "yes"
        default: usage()
        }
    }
    guard options.rounds > 0, options.seconds > 0, options.threads > 1 else { usage() }
    return options
}

// MARK: - Main

let options = parseOptions()
registerServices()
let byName = Dictionary(uniqueKeysWithValues: scenarios.map { ($0.name, $0) })
var gains: [(String, Double)] = []
print("scenario    1 thread (M/s)  \(options.threads) threads (M/s)  gain   what")
/// The construct floor's gain measured beside each checked scenario,
/// alternating with it measurement by measurement: `RESULT` reports it as
/// `<name>_floor`.
var besideFloors: [(String, Double)] = []
let floorScenario = byName["construct"]!
for name in options.order {
    let scenario = byName[name]!
    var one: [Double] = []
    var many: [Double] = []
    var floorOne: [Double] = []
    var floorMany: [Double] = []
    let beside = scenario.checked && options.besideFloor
    for _ in 0..<options.rounds {
        if beside { floorOne.append(measure(floorScenario, threads: 1, seconds: options.seconds)) }
        one.append(measure(scenario, threads: 1, seconds: options.seconds))
        if beside { floorMany.append(measure(floorScenario, threads: options.threads, seconds: options.seconds)) }
        many.append(measure(scenario, threads: options.threads, seconds: options.seconds))
    }
    let gain = median(many) / median(one)
    gains.append((name, gain))
    let padded = name + String(repeating: " ", count: max(0, 10 - name.count))
    var line = "\(padded)  \(format(median(one) / 1e6, 14))  \(format(median(many) / 1e6, 15))  \(format(gain, 5))  \(scenario.summary)"
    if beside {
        let floorGain = median(floorMany) / median(floorOne)
        besideFloors.append((name, floorGain))
        line += "; the floor beside it: \(format(floorGain, 4))"
    }
    print(line)
}
/// Prints the checked resolve of `gains` with the lowest gain ÷ the floor's
/// gain that `floorGain` gives for it (nil: none measured).
func printLowest(_ gains: [(String, Double)], checked: Set<String>, against what: String,
                 _ floorGain: (String) -> Double?) {
    let ratios = gains.filter { checked.contains($0.0) }.compactMap { entry in floorGain(entry.0).map { (entry.0, entry.1 / $0) } }
    if let worst = ratios.min(by: { $0.1 < $1.1 }) {
        print("lowest resolve gain ÷ \(what): \(format(worst.1, 4)) (\(worst.0)); target ≥ 0.90")
    }
}
let constructGain = gains.first { $0.0 == "construct" }?.1
let besideFloor = Dictionary(uniqueKeysWithValues: besideFloors)
let checkedNames = Set(scenarios.filter(\.checked).map(\.name))
printLowest(gains, checked: checkedNames, against: "construct floor's gain") { _ in constructGain }
printLowest(gains, checked: checkedNames, against: "the gain of the floor measured beside it") { besideFloor[$0] }
print("RESULT " + (gains + besideFloors.map { ("\($0.0)_floor", $0.1) }).map { "\($0.0)=\(format($0.1, 3))" }.joined(separator: " "))

func format(_ value: Double, _ width: Int) -> String {
    var text = String(Int((value * 100).rounded()))
    while text.count < 3 { text = "0" + text }
    text.insert(".", at: text.index(text.endIndex, offsetBy: -2))
    return String(repeating: " ", count: max(0, width - text.count)) + text
}
