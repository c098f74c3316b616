/// One strict test (DESIGN.md, ST1-ST4): its container, where it reports, and what it has seen.
@usableFromInline
final class StrictTest: @unchecked Sendable {
    /// Strict tests running in the process (any task), written only by `withStrictTesting`.
    @usableFromInline nonisolated(unsafe) static let running = AtomicWord.allocate()

    @TaskLocal static var current: StrictTest?

    /// The test's container: registrations in its own table are the test's.
    let container: Resolver
    let report: @Sendable (Resolver.LiveRegistrationUse) -> Void
    /// Guards `seen` (its own mutex: a resolve may come here while the registry's is held, from a deinit
    /// the registry runs).
    private let mutex = Mutex.make()
    /// Registrations made by `register` calls in the test's tasks, and those already reported: not reported
    /// again. Held, so that no other object takes their address.
    private var seen: [ObjectIdentifier: AnyObject] = [:]

    init(container: Resolver, report: @escaping @Sendable (Resolver.LiveRegistrationUse) -> Void) {
        self.container = container
        self.report = report
    }

    deinit { mutex.release() }

    /// Whether a strict test runs anywhere in the process: one load.
    @inlinable
    static var isActiveAnywhere: Bool {
        running.load() != 0
    }

    /// Notes that `registration` was made in this task's strict test, if one runs (the `register` funnel
    /// calls this); not by `registerAllServices`, whose registrations are the app's.
    @usableFromInline
    static func noteRegistered(_ registration: AnyObject) {
        guard isActiveAnywhere, let test = current, !registry.isRegisteringOnThisThread else { return }
        test.mutex.withLock { test.seen[ObjectIdentifier(registration)] = registration }
    }

    /// The resolve of `key` from `container` (nil: the root) in this task: reports each registration it
    /// uses that is live and not reported yet (ST2), after the app's setup (ST4).
    @usableFromInline
    @inline(never)
    static func check(_ key: RegistryKey, in container: Resolver?) {
        guard let test = current else { return }
        if Published.registered.load() == 0 {
            registry.ensureRegistered()
        }
        guard !registry.isRegisteringOnThisThread else { return }
        let target = container ?? Resolver.root
        let found = ReadSection.run { section -> (registration: AnyObject?, own: Bool) in
            // A key without an override of the app's resolves its own registration.
            let registration = (target.storage.find(key, section) ?? KeyDefaults.shared.container.storage.find(key, section))?.object
            let own = registration != nil && test.container.storage.table.find(key, section)?.object === registration
            return (registration, own)
        }
        guard let registration = found.registration as? RegistrationDescribing else { return }
        let live = registry.withLock { () -> [RegistrationDescribing] in
            // A list of the test's own container still includes the app's elements: judged part by part,
            // whoever holds the list.
            let subjects = registration.strictTestPartsLocked(key, from: target, own: test.container)
                ?? (found.own ? [] : [registration])
            return subjects.filter { !$0.isExemptInStrictTestsLocked }
        }
        for subject in live where test.mutex.withLock({ test.seen.updateValue(subject, forKey: ObjectIdentifier(subject)) == nil }) {
            let node = subject.graphNode
            test.report(Resolver.LiveRegistrationUse(service: subject.keyDescription, type: node.type, name: node.name,
                                                     registeredAt: subject.site?.description))
        }
    }
}

extension ResolverRegistration {
    /// Whether strict tests let it be used: it has an `onTest`, was marked `allowedInStrictTests()`, or (an
    /// `implements` registration) resolves through one that does.
    var isExemptInStrictTestsLocked: Bool {
        registry.assertLocked()
        return hasTestContext || isAllowedInStrictTests || forwardsTo?.isExemptInStrictTestsLocked == true
    }
}
