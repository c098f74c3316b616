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
    /// reports each registration it uses that is live (not the test's, no
    /// `onTest`, not `allowedInStrictTests()`) and not reported yet. A
    /// collection's list is judged by its parts: each element (and a plain
    /// registration of the list met on the way) the resolve includes.
    ///
    /// The app's setup runs first if it has yet to (the resolve would run
    /// it next): what it registers is found here whether or not this task
    /// runs it. Resolves made by the setup itself are the app's, not the
    /// test's, and are not checked.
    @usableFromInline
    @inline(never)
    static func check(_ key: RegistryKey, in container: Resolver?) {
        guard let test = current else {
            return
        }
        if Published.registered.load() == 0 {
            registry.ensureRegistered()
        }
        guard !registry.isRegisteringOnThisThread else {
            return
        }
        let target = container ?? Resolver.root
        let found = ReadSection.run { section -> (registration: AnyObject?, own: Bool) in
            // A key without an override of the app's resolves its own registration.
            let registration = (target.storage.find(key, section) ?? KeyDefaults.shared.container.storage.find(key, section))?.object
            let own = registration != nil && test.container.storage.table.find(key, section)?.object === registration
            return (registration, own)
        }
        guard let registration = found.registration as? RegistrationDescribing else {
            return
        }
        let live = registry.withLock { () -> [RegistrationDescribing] in
            // A list of the test's own container still includes the app's
            // elements: judged part by part, whoever holds the list.
            let list = registration as? CollectionListRegistration
            let subjects = list?.collectionPartsLocked(key, from: target, own: test.container)
                ?? (found.own ? [] : [registration])
            return subjects.filter { !$0.isExemptInStrictTestsLocked }
        }
        for subject in live {
            let id = ObjectIdentifier(subject)
            let first = test.mutex.withLock { () -> Bool in
                guard test.madeInTest[id] == nil, test.reported[id] == nil else {
                    return false
                }
                test.reported[id] = subject
                return true
            }
            if first {
                test.report(subject.liveUse)
            }
        }
    }
}

/// A registration whose factory may be a collection's list.
protocol CollectionListRegistration {
    /// The plain registrations and elements a resolve of this list under
    /// `key` from `container` includes, without those of `own`'s table (the
    /// test's container); nil when it is not a collection's list. The mutex
    /// must be held.
    func collectionPartsLocked(_ key: RegistryKey, from container: Resolver, own: Resolver) -> [RegistrationDescribing]?
}

extension ResolverRegistration: CollectionListRegistration {
    func collectionPartsLocked(_ key: RegistryKey, from container: Resolver, own: Resolver) -> [RegistrationDescribing]? {
        guard case .collection(let assembly) = factory, let list = assembly as? StrictTestListParts else {
            return nil
        }
        return list.partsOfListLocked(key, from: container, own: own)
    }
}

/// A collection's elements, as a strict test judges a resolve of the list.
protocol StrictTestListParts {
    func partsOfListLocked(_ key: RegistryKey, from container: Resolver, own: Resolver) -> [RegistrationDescribing]
}

extension ElementCollection: StrictTestListParts {
    /// A list's parts as a strict test judges them: each plain
    /// registration and each element a resolve of `key` from `container`
    /// includes, without those in `own`'s table. The mutex must be held.
    func partsOfListLocked(_ key: RegistryKey, from container: Resolver, own: Resolver) -> [RegistrationDescribing] {
        registry.assertLocked()
        let ownList = own.storage.table.findLocked(key)
        let ownElements = ownList.flatMap { ElementCollection.of($0.unsafeCast(to: ResolverRegistration<[Element]>.self)) }
            .map { Set($0.object.elements.map(ObjectIdentifier.init)) } ?? []
        var subjects: [RegistrationDescribing] = []
        for part in ElementCollection.partsLocked(from: UncheckedReference(container), key) {
            switch part {
            case .plain(let registration):
                if ownList?.object !== registration.object {
                    subjects.append(registration.object)
                }
            case .elements(let collection):
                subjects += collection.object.elements.filter { !ownElements.contains(ObjectIdentifier($0)) }
                    as [RegistrationDescribing]
            }
        }
        return subjects
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
