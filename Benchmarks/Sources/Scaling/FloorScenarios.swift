// The floors: what the scenarios cost with no container, measured in the same
// run. A shared singleton resolve is bounded by the reference count of the
// instance it returns (retain + release of one shared object); a transient
// resolve should scale like allocation (constructing an object); a container
// that takes one lock around a dictionary lookup behaves like the last floor.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

let floorScenarios: [Scenario] = [
    Scenario(name: "retain+release", implementation: "floor") { FloorKeptInstance() },
    Scenario(name: "construct", implementation: "floor") { FloorConstruct() },
    Scenario(name: "mutex+Dictionary", implementation: "floor") { FloorMutexDictionary() },
]

/// One retain and one release of an instance every thread shares, the least
/// a resolver that hands out a shared instance must do (the caller owns a
/// reference, and gives it up). Done explicitly: a call returning a stored
/// property is compiled to return it without any reference counting.
final class FloorKeptInstance: Operation, @unchecked Sendable {
    private let kept = Unmanaged.passRetained(Plain())

    func run() {
        let reference = kept.retain()
        sink(reference.takeUnretainedValue())
        reference.release()
    }
}

final class FloorConstruct: Operation {
    func run() { sink(Plain()) }
}

/// One pthread mutex around a `[ObjectIdentifier: AnyObject]` lookup.
final class FloorMutexDictionary: Operation, @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var table: [ObjectIdentifier: AnyObject] = [:]

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        table[ObjectIdentifier(Plain.self)] = Plain()
        table[ObjectIdentifier(Named.self)] = Named()
    }

    func run() {
        pthread_mutex_lock(mutex)
        let found = table[ObjectIdentifier(Plain.self)]
        pthread_mutex_unlock(mutex)
        sink(found!)
    }
}
