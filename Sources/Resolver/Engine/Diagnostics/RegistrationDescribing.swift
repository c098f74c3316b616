/// What the diagnostics, verification and the dependency graph need of a
/// registration of any service type.
protocol RegistrationDescribing: AnyObject {
    /// "Type" or "Type:name".
    var keyDescription: String { get }
    /// The service type (what `keyDescription` describes, with the name).
    var serviceType: Any.Type { get }
    /// Where its `register` call is, if known.
    var site: RegistrationSite? { get }
    /// Whether strict tests let it be used though the test did not make it.
    /// The mutex must be held.
    var isExemptInStrictTestsLocked: Bool { get }
    /// The graph node of its key (without a scope).
    var graphNode: Resolver.Graph.Node { get }
    /// Whether its factory takes arguments (`verify()` skips it). The mutex
    /// must be held.
    var takesArgumentsLocked: Bool { get }
    /// Whether its factory is `@MainActor` (`verify()`, which resolves on
    /// threads of its own, cannot run it there, and skips it).
    var isMainActorFactory: Bool { get }
    /// Resolves it once from `container` (a verification's sandbox), as
    /// `optional()` does: whether an instance came back.
    func resolveOnce(from container: Resolver) -> Bool
    /// The scope (under the registry mutex).
    var scope: ResolverScope { get }
    /// How the graph labels its scope (takes the registry mutex).
    var scopeLabel: String { get }
    /// The edges the graph draws from it whatever its factory resolves: a
    /// collection's list's, to each element.
    var structuralEdges: [Resolver.Graph.Edge] { get }
    /// What `verify()` and the graph list for it, reached from `container`:
    /// itself; a collection's list, and each element it has there. The
    /// mutex must be held.
    func describingLocked(from container: Resolver) -> [RegistrationDescribing]
}

/// "Type" or "Type:name" of `registration` (a `ResolverRegistration`), for
/// messages.
func describeRegistration(_ registration: AnyObject) -> String {
    (registration as? RegistrationDescribing)?.keyDescription ?? "?"
}

extension RegistrationDescribing {
    var isExemptInStrictTestsLocked: Bool {
        false
    }

    /// The graph node of its key, with its scope (takes the registry mutex).
    var scopedGraphNode: Resolver.Graph.Node {
        graphNode.with(scope: scopeLabel)
    }

    var scopeLabel: String {
        scopeName(scope)
    }

    var structuralEdges: [Resolver.Graph.Edge] {
        []
    }

    func describingLocked(from container: Resolver) -> [RegistrationDescribing] {
        [self]
    }
}

/// Runs the async `operation` on this verification thread, with
/// `container` (the verification's sandbox) as the task's root: how
/// `verify()` resolves an async registration (`resolveOnce`). Whether it
/// resolved.
func verifyingAsync(from container: Resolver, _ operation: @escaping @Sendable () async -> Bool) -> Bool {
    guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else {
        return true
    }
    // The sandbox as the task's root, for static resolves in the
    // factories and in build tasks (which inherit it). Not `withRoot`: a
    // failure ends this thread inside the operation, and `withRoot`
    // would never give back its count of the detour word; the
    // verification's own count keeps resolves on the detour meanwhile.
    // The verification, for the parts of the factories that run on
    // other threads (a `@MainActor` factory an async one hops to): their
    // resolves are edges of its graph.
    let verification = ResolutionContext.existing?.verification
    return VerificationExecutor.run {
        await VerificationRun.$current.withValue(verification) {
            await Resolver.$rootOverride.withValue(container) {
                await operation()
            }
        }
    }
}

extension ResolverRegistration: RegistrationDescribing {
    var graphNode: Resolver.Graph.Node {
        Resolver.Graph.Node(typeID: typeID, type: String(describing: Service.self), name: name?.rawValue, scope: nil,
                            isolation: isolationDescription)
    }

    /// How the graph marks the factory's isolation.
    var isolationDescription: String? {
        switch isolation {
        case .none: return nil
        case .mainActor: return "@MainActor"
        case .async: return "async"
        case .collection: return nil
        }
    }

    var takesArgumentsLocked: Bool {
        registry.assertLocked()
        return factory.takesArguments(forwardingTo: forwardsTo.map { target in { target.takesArgumentsLocked } })
    }

    var isMainActorFactory: Bool {
        isolation == .mainActor
    }

    /// Its scope's name; for an `implements` registration that keeps no
    /// instance of its own (`.graph`, `.unique`), the scope of the
    /// registration it resolves through, whose instance it answers with.
    var scopeLabel: String {
        let (scope, target) = registry.withLock { (scopeStorage, forwardsTo) }
        if let target, scope.kind == .graph || scope.kind == .unique {
            return target.scopeLabel
        }
        return scopeName(scope)
    }

    func resolveOnce(from container: Resolver) -> Bool {
        guard isolation == .async else {
            return container.optional(Service.self, name: name) != nil
        }
        let name = self.name
        return verifyingAsync(from: container) {
            await container.optionalAsync(Service.self, name: name) != nil
        }
    }
}
