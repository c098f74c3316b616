/// A build under way in a caching scope's `building` list (under the
/// registry mutex): what it builds, and the flight its waiters wait on,
/// made by the first of them (DESIGN.md, S1).
struct Build {
    let ticket: BuildTicket
    let typeID: UInt64
    let name: Resolver.Name?
    /// A typed registration's argument list, or nil.
    let argumentsKey: [AnyHashable]?
    /// Set when a reset drops it: it keeps nothing, and no asker joins it.
    var dropped = false
    /// The registration it builds (its builder keeps it alive), for messages.
    let registration: UncheckedReference<AnyObject>
    /// The thread building it (alive while the build is listed), or nil for
    /// an async build, which runs in a task of its own.
    let owner: UncheckedReference<ResolutionContext>?
    var flight: Flight?

    /// Whether this builds the key and will keep it: one an asker may join.
    func isBuilding(_ typeID: UInt64, _ name: Resolver.Name?, _ argumentsKey: [AnyHashable]?) -> Bool {
        !dropped && builds(typeID, name) && self.argumentsKey == argumentsKey
    }
    /// Whether this builds the service `typeID`, `name` (any argument list).
    func builds(_ typeID: UInt64, _ name: Resolver.Name?) -> Bool { self.typeID == typeID && self.name == name }
    /// How many threads and tasks wait for it (the tests read it).
    var waiting: Int { flight?.waiting ?? 0 }
}

/// A build's number in its scope, which its builder ends it by.
@usableFromInline
struct BuildTicket: Equatable, Sendable {
    let number: UInt64
}

/// What waits for a build: its outcome, and the threads and tasks waiting,
/// guarded by the registry mutex.
final class Flight: @unchecked Sendable {
    enum Outcome {
        case running
        /// The instance as `ValueStorage` keeps it, owned (nil: the factory returned nil).
        case built(UncheckedReference<AnyObject>?)
        /// Its builder will never finish: waiters start over.
        case abandoned
    }

    /// The registration it builds, for messages, and the thread building it (nil: an async build).
    let registration: AnyObject
    let owner: ResolutionContext?
    private(set) var outcome = Outcome.running
    /// The condition waiting threads sleep on, made by the first of them.
    private var ended: Condition?
    private var continuations: [CheckedContinuation<Void, Never>] = []
    private(set) var waiting = 0

    init(_ build: Build) {
        registration = build.registration.object
        owner = build.owner?.object
    }
    deinit {
        // The last one holding the flight (a waiter, after the mutex) gives the instance up.
        if case .built(let instance?) = outcome { instance.release() }
    }

    /// The instance it built, valid while the caller holds the flight:
    /// `.some(nil)` when the factory returned nil, `.none` when abandoned.
    var builtLocked: UncheckedReference<AnyObject>?? {
        guard case .built(let instance) = outcome else { return .none }
        return .some(instance)
    }

    /// Waits on the calling thread until the flight ends: false when the
    /// caller holds the mutex more than once, which makes a wait impossible.
    func waitLocked() -> Bool {
        registry.assertLocked()
        let condition = ended ?? Condition()
        ended = condition
        waiting += 1
        defer { waiting -= 1 }
        while case .running = outcome {
            guard condition.wait(registry.mutex) else { return false }
        }
        return true
    }

    /// Suspends the calling task until the flight ends. Call without the mutex.
    func ending() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = registry.withLock { () -> Bool in
                guard case .running = outcome else { return true }
                continuations.append(continuation)
                waiting += 1
                return false
            }
            if ended {
                continuation.resume()
            }
        }
    }

    /// Ends the flight and wakes its threads; returns the tasks to resume
    /// once the mutex is released.
    func endLocked(_ outcome: Outcome) -> Waiters {
        registry.assertLocked()
        self.outcome = outcome
        ended?.broadcast()
        guard !continuations.isEmpty else { return .none }
        waiting -= continuations.count
        defer { continuations = [] }
        return Waiters(tasks: Waiters.Tasks(continuations))
    }

    /// The chain of builds, if `waiter` waiting for this one would close a
    /// circle of threads each waiting for another's build (a deadlock).
    func cycleLocked(closedBy waiter: ResolutionContext) -> [String]? {
        registry.assertLocked()
        var chain = [self]
        var owner = self.owner
        // A `waitingFor` outlives the flight it names until its thread takes
        // the mutex again: an ended flight is waited on by nobody.
        while let next = owner?.waitingFor, case .running = next.outcome {
            chain.append(next)
            if next.owner === waiter {
                chain.append(self)
                return chain.map { describeRegistration($0.registration) }
            }
            owner = next.owner
        }
        return nil
    }

    /// The tasks a flight's end resumes, once the registry mutex is released.
    struct Waiters {
        /// nil for none, the common case: no array of continuations is
        /// touched, nor its type's metadata made (the first would check
        /// `Never: Error` against every conformance in the process).
        fileprivate let tasks: Tasks?
        static var none: Waiters { Waiters(tasks: nil) }

        /// Resumes them. Call without the mutex.
        func resume() { tasks?.resume() }

        fileprivate final class Tasks {
            let continuations: [CheckedContinuation<Void, Never>]
            init(_ continuations: [CheckedContinuation<Void, Never>]) { self.continuations = continuations }

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
