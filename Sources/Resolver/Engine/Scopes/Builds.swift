// A caching scope's builds under way (`ResolverScope.building`) and what
// their waiters wait on: the records of S1, which `BuildOnce.swift` drives.

/// A build under way in a caching scope, in its `building` list (under the
/// registry mutex): what it builds, and the flight its waiters wait on, made
/// by the first of them.
struct Build {
    /// Which build this is, among the scope's (`BuildTicket`).
    let ticket: BuildTicket
    let typeID: UInt64
    let name: Resolver.Name?
    /// A typed registration's argument list (its instance is kept per list:
    /// `ArgumentInstances`), or nil.
    let argumentsKey: [AnyHashable]?
    /// Set when a reset drops the key while it is being built (the whole
    /// scope's, or the service's): the build then keeps nothing, and no
    /// asker joins it (S1).
    var dropped = false
    /// The registration it builds (kept alive by its builder), for messages.
    let registration: UncheckedReference<AnyObject>
    /// The thread building it (for cycles across threads; alive while its
    /// build is listed), or nil for an async build, which runs in a task of
    /// its own.
    let owner: UncheckedReference<ResolutionContext>?
    /// Its waiters' flight, once one waits.
    var flight: Flight?

    /// Whether this builds the key (`typeID`, `name`, argument list) and
    /// will keep what it builds: one an asker may join.
    func isBuilding(_ typeID: UInt64, _ name: Resolver.Name?, _ argumentsKey: [AnyHashable]?) -> Bool {
        !dropped && builds(typeID, name) && self.argumentsKey == argumentsKey
    }

    /// Whether this builds the service `typeID`, `name` (any argument list).
    func builds(_ typeID: UInt64, _ name: Resolver.Name?) -> Bool {
        self.typeID == typeID && self.name == name
    }

    /// How many threads and tasks wait for it (the tests read it).
    var waiting: Int {
        flight?.waiting ?? 0
    }
}

/// A build's number in its scope, which its builder ends it by.
@usableFromInline
struct BuildTicket: Equatable, Sendable {
    let number: UInt64
}

/// What waits for a build: its outcome, and the threads and tasks waiting.
/// Its mutable state is guarded by the registry mutex, held for a few
/// instructions at a time.
final class Flight: @unchecked Sendable {
    /// How a flight ended.
    enum Outcome {
        /// Still building.
        case running
        /// Built: the instance as `ValueStorage` keeps it, owned by the
        /// flight (nil: the factory returned nil).
        case built(UncheckedReference<AnyObject>?)
        /// Its builder will never finish: waiters start over.
        case abandoned
    }

    /// The registration it builds, for messages.
    let registration: AnyObject
    /// The thread building it, or nil for an async build.
    let owner: ResolutionContext?

    // Guarded by the registry mutex.
    private(set) var outcome = Outcome.running
    /// The condition waiting threads sleep on, made by the first of them.
    private var ended: Condition?
    /// The tasks suspended until the flight ends.
    private var continuations: [CheckedContinuation<Void, Never>] = []
    /// How many threads and tasks wait for it.
    private(set) var waiting = 0

    init(_ build: Build) {
        registration = build.registration.object
        owner = build.owner?.object
    }

    deinit {
        // The last one holding the flight (a waiter, after the mutex) gives
        // the instance up.
        if case .built(let instance?) = outcome {
            instance.release()
        }
    }

    /// "Type" or "Type:name", for messages.
    var description: String {
        describeRegistration(registration)
    }

    /// The instance it built, as `ValueStorage` keeps it: `.some(nil)` when
    /// the factory returned nil, nil (`.none`) when the flight was abandoned
    /// (the waiter starts over). Valid while the caller holds the flight.
    /// The mutex must be held.
    var builtLocked: UncheckedReference<AnyObject>?? {
        guard case .built(let instance) = outcome else {
            return .none
        }
        return .some(instance)
    }

    /// Waits, on the calling thread, until the flight ends. The registry
    /// mutex must be held, once: false when the wait is impossible (the
    /// caller holds it more than once).
    func waitLocked() -> Bool {
        registry.assertLocked()
        let condition: Condition
        if let ended {
            condition = ended
        } else {
            condition = Condition()
            ended = condition
        }
        waiting += 1
        defer { waiting -= 1 }
        while case .running = outcome {
            guard condition.wait(registry.mutex) else {
                return false
            }
        }
        return true
    }

    /// Suspends the calling task until the flight ends. Call without the mutex.
    func ending() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = registry.withLock { () -> Bool in
                guard case .running = outcome else {
                    return true
                }
                continuations.append(continuation)
                waiting += 1
                return false
            }
            if ended {
                continuation.resume()
            }
        }
    }

    /// Ends the flight with `outcome` and wakes its waiting threads; returns
    /// the tasks to resume once the mutex is released (`resume`). The mutex
    /// must be held.
    func endLocked(_ outcome: Outcome) -> Waiters {
        registry.assertLocked()
        self.outcome = outcome
        ended?.broadcast()
        guard !continuations.isEmpty else {
            return .none
        }
        waiting -= continuations.count
        defer { continuations = [] }
        return Waiters(continuations)
    }

    /// The chain of builds, if `waiter` waiting for this one would close a
    /// circle of threads each waiting for another's build (a dependency
    /// cycle spread over threads, which would deadlock); nil otherwise. The
    /// mutex must be held.
    func cycleLocked(closedBy waiter: ResolutionContext) -> [String]? {
        registry.assertLocked()
        var chain = [self]
        var owner = self.owner
        // A thread's `waitingFor` outlives the flight it waited on until that
        // thread takes the mutex again: a flight that has ended is waited on
        // by nobody.
        while let next = owner?.waitingFor, case .running = next.outcome {
            chain.append(next)
            if next.owner === waiter {
                chain.append(self)
                return chain.map(\.description)
            }
            owner = next.owner
        }
        return nil
    }

    /// The tasks a flight's end resumes, once the registry mutex is released.
    struct Waiters {
        /// nil for none, the common case (a build nobody awaited): no
        /// array of continuations is touched, nor its type's metadata made
        /// (the first would check `Never: Error` against every conformance
        /// in the process).
        private let tasks: Tasks?

        init(_ continuations: [CheckedContinuation<Void, Never>]) {
            tasks = Tasks(continuations)
        }

        private init() {
            tasks = nil
        }

        /// No tasks to resume.
        static var none: Waiters {
            Waiters()
        }

        /// Resumes them. Call with the mutex not held.
        func resume() {
            tasks?.resume()
        }

        /// The continuations, held by reference.
        private final class Tasks {
            let continuations: [CheckedContinuation<Void, Never>]

            init(_ continuations: [CheckedContinuation<Void, Never>]) {
                self.continuations = continuations
            }

            /// Out of line: inlined, the optimizer hoists the array's type
            /// metadata above `tasks?`, and every build would make it.
            @inline(never)
            func resume() {
                for continuation in continuations {
                    continuation.resume()
                }
            }
        }
    }
}
