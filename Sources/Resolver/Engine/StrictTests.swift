// Strict tests: while one runs, each resolve made in its task (and the tasks
// it starts) that uses a registration the test did not make is reported
// once (DESIGN.md, "Contexts and strict tests"). Resolves take the detour
// while a strict test runs (it counts in `Published.detours`), and the
// detour asks `StrictTest.isActiveAnywhere` before it reads the task-local:
// a process with no strict test running pays nothing here.

/// One strict test: its container, where it reports, and what it has seen.
@usableFromInline
final class StrictTest: @unchecked Sendable {
    /// Strict tests running in the process (any task): a word of its own,
    /// written only by `withStrictTesting` (atomically).
    @usableFromInline nonisolated(unsafe) static let running = AtomicWord.allocate()

    /// The strict test of this task, if any.
    @TaskLocal static var current: StrictTest?

    /// The test's container: registrations in its own table are the test's.
    let container: Resolver
    let report: @Sendable (Resolver.LiveRegistrationUse) -> Void
    /// Guards the two lists below (its own mutex: a resolve may come here
    /// while the registry's is held, from a deinit the registry runs).
    private let mutex = Mutex.make()
    /// Registrations made by `register` calls in the test's tasks (held, so
    /// that no other object takes an address in the list).
    private var madeInTest: [ObjectIdentifier: AnyObject] = [:]
    /// Registrations already reported (held likewise).
    private var reported: [ObjectIdentifier: AnyObject] = [:]

    init(container: Resolver, report: @escaping @Sendable (Resolver.LiveRegistrationUse) -> Void) {
        self.container = container
        self.report = report
    }

    deinit {
        mutex.release()
    }

    /// Whether a strict test runs anywhere in the process: one load.
    @inlinable
    static var isActiveAnywhere: Bool {
        running.load() != 0
    }

    /// Notes that `registration` was made in this task's strict test, if
    /// one runs (the `register` funnel calls this); not one made by
    /// `registerAllServices`, which the test's first resolve may run: those
    /// are the app's.
    @usableFromInline
    static func noteRegistered(_ registration: AnyObject) {
        guard isActiveAnywhere, let test = current, !registry.isRegisteringOnThisThread else {
            return
        }
        test.mutex.withLock {
            test.madeInTest[ObjectIdentifier(registration)] = registration
        }
    }

    /// The resolve of `key` from `container` (nil: the root) in this task:
    /// reports the registration it uses if it is live (not the test's, no
    /// `onTest`, not `allowedInStrictTests()`) and not reported yet.
    @usableFromInline
    @inline(never)
    static func check(_ key: RegistryKey, in container: Resolver?) {
        guard let test = current else {
            return
        }
        let target = container ?? Resolver.root
        let found = ReadSection.run { section -> (registration: AnyObject?, own: Bool) in
            // A key without an override of the app's resolves its own registration.
            let registration = (target.storage.find(key, section) ?? KeyDefaults.find(key, section))?.object
            let own = registration != nil && test.container.storage.table.find(key, section)?.object === registration
            return (registration, own)
        }
        guard let registration = found.registration as? RegistrationDescribing, !found.own else {
            return
        }
        let exempt = registry.withLock { registration.isExemptInStrictTestsLocked }
        guard !exempt else {
            return
        }
        let id = ObjectIdentifier(registration)
        let first = test.mutex.withLock { () -> Bool in
            guard test.madeInTest[id] == nil, test.reported[id] == nil else {
                return false
            }
            test.reported[id] = registration
            return true
        }
        if first {
            test.report(registration.liveUse)
        }
    }
}

extension RegistrationDescribing {
    /// What a strict test reports of it.
    var liveUse: Resolver.LiveRegistrationUse {
        let node = graphNode
        return Resolver.LiveRegistrationUse(service: keyDescription, type: node.type, name: node.name,
                                            registeredAt: site?.description)
    }
}

extension ResolverRegistration {
    /// Whether strict tests let it be used: it has an `onTest`, was marked
    /// `allowedInStrictTests()`, or (an `implements` registration) resolves
    /// through one that does. The mutex must be held.
    var isExemptInStrictTestsLocked: Bool {
        registry.assertLocked()
        if hasTestContext || isAllowedInStrictTests {
            return true
        }
        return forwardsTo?.isExemptInStrictTestsLocked ?? false
    }
}
