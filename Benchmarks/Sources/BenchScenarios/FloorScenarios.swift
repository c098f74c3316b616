// The floors: what the scenarios cost without any container.
// - construction scenarios: building the same objects directly;
// - singleton scenarios: an opaque call that returns a kept instance (a resolver
//   must at least do this: hand back a strong reference, retained);
// - the mutex row: one lock/unlock pair of a recursive pthread mutex, the lock
//   that the original design takes on every resolve.

import BenchFixtures

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

func floorOperation(_ scenario: ResolverScenario) -> any BenchOperation {
    switch scenario {
    case .singleton, .named, .keySingleton: return FloorKeptInstance()
    case .transient, .transient1000, .defaultScope, .keyTransient: return FloorConstruct()
    case .graph: return FloorGraph()
    case .argument, .typedArgument, .keyArgument: return FloorArgument()
    case .mutex: return FloorRecursiveMutex()
    case .lazyRead, .register, .coldContainer: preconditionFailure("no floor for \(scenario)")
    }
}

/// The cold-container scenario by hand: the same objects, each built once
/// from its dependencies.
func floorColdContainer() {
    buildDagByHand { sink($0) }
}

/// One retain and one release of an instance it keeps, as every resolver must
/// do to hand out a shared instance (the caller owns a reference and gives it
/// up). Done explicitly: a call returning a stored property is compiled to
/// return it without any reference counting, which measured nothing. The
/// instance is built at run time, an ordinary heap object: a global `let`
/// initialised with `Plain()` would become a statically initialised, immortal
/// object whose retains and releases are skipped, so two threads would not
/// contend on its reference count the way they do on a resolved singleton.
final class FloorKeptInstance: BenchOperation, @unchecked Sendable {
    private let kept = Unmanaged.passRetained(Plain())

    func run() {
        let reference = kept.retain()
        sink(reference.takeUnretainedValue())
        reference.release()
    }
}

final class FloorConstruct: BenchOperation, @unchecked Sendable {
    func run() { sink(Plain()) }
}

final class FloorGraph: BenchOperation, @unchecked Sendable {
    func run() {
        let c = GraphC()
        sink(GraphA(b: GraphB(c: c), c: c))
    }
}

final class FloorArgument: BenchOperation, @unchecked Sendable {
    func run() { sink(ArgService(benchmarkArgument)) }
}

final class FloorRecursiveMutex: BenchOperation, @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    func run() {
        pthread_mutex_lock(mutex)
        pthread_mutex_unlock(mutex)
    }
}
