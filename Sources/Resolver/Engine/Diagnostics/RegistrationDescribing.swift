/// What the diagnostics, verification, strict tests and the dependency graph need of a registration of any
/// service type. `…Locked` members need the registry mutex held.
protocol RegistrationDescribing: AnyObject {
    /// "Type" or "Type:name".
    var keyDescription: String { get }
    var serviceType: Any.Type { get }
    var site: RegistrationSite? { get }
    /// Whether strict tests let it be used though the test did not make it.
    var isExemptInStrictTestsLocked: Bool { get }
    /// The graph node of its key, without a scope.
    var graphNode: Resolver.Graph.Node { get }
    /// `verify()` skips a factory that takes arguments (it cannot make them up) or is `@MainActor` (its
    /// threads cannot run it).
    var takesArgumentsLocked: Bool { get }
    var isMainActorFactory: Bool { get }
    /// Resolves it once from a verification's sandbox, as `optional()` does: whether an instance came back.
    func checkOnce(from container: Resolver) -> Bool
    var scope: ResolverScope { get }
    /// How the graph labels its scope (takes the registry mutex).
    var scopeLabel: String { get }
    /// The edges the graph draws from it whatever its factory resolves: a list's, to each element.
    var structuralEdges: [Resolver.Graph.Edge] { get }
    /// What `verify()` and the graph list for it, reached from `container`: itself; a collection's list,
    /// and each element it has there.
    func describingLocked(from container: Resolver) -> [RegistrationDescribing]
    /// For a collection's list resolved under `key` from `container`, the registrations a strict test
    /// judges (ST2), without those of `own`'s table; nil for anything else.
    func strictTestPartsLocked(_ key: RegistryKey, from container: Resolver, own: Resolver) -> [RegistrationDescribing]?
}

extension RegistrationDescribing {
    var site: RegistrationSite? { nil }
    var isExemptInStrictTestsLocked: Bool { false }
    var scopeLabel: String { scopeName(scope) }
    var structuralEdges: [Resolver.Graph.Edge] { [] }
    func describingLocked(from container: Resolver) -> [RegistrationDescribing] { [self] }
    func strictTestPartsLocked(_ key: RegistryKey, from container: Resolver, own: Resolver) -> [RegistrationDescribing]? { nil }

    /// The graph node of its key, with its scope (takes the registry mutex).
    var scopedGraphNode: Resolver.Graph.Node { graphNode.with(scope: scopeLabel) }
}

/// "Type" or "Type:name" of `registration` (a `ResolverRegistration`), for messages.
func describeRegistration(_ registration: AnyObject) -> String {
    (registration as? RegistrationDescribing)?.keyDescription ?? "?"
}

extension ResolverRegistration: RegistrationDescribing {
    var graphNode: Resolver.Graph.Node {
        let isolation: String? = switch self.isolation {
        case .none, .collection: nil
        case .mainActor: "@MainActor"
        case .async: "async"
        }
        return Resolver.Graph.Node(typeID: typeID, type: String(describing: Service.self), name: name?.rawValue,
                                   scope: nil, isolation: isolation)
    }

    var takesArgumentsLocked: Bool {
        registry.assertLocked()
        return factory.takesArguments(forwardingTo: forwardsTo.map { target in { target.takesArgumentsLocked } })
    }

    var isMainActorFactory: Bool { isolation == .mainActor }

    /// Its scope's name; for an `implements` registration that keeps no instance of its own (`.graph`,
    /// `.unique`), the scope of the one it resolves through, whose instance it answers with.
    var scopeLabel: String {
        let (scope, target) = registry.withLock { (scopeStorage, forwardsTo) }
        if let target, scope.kind == .graph || scope.kind == .unique { return target.scopeLabel }
        return scopeName(scope)
    }

    func checkOnce(from container: Resolver) -> Bool {
        guard isolation == .async else { return container.optional(Service.self, name: name) != nil }
        let name = self.name
        return verifyingAsync(from: container) { await container.optionalAsync(Service.self, name: name) != nil }
    }

    func describingLocked(from container: Resolver) -> [RegistrationDescribing] {
        guard case .collection(let assembly) = factory else { return [self] }
        return assembly.describingLocked(self, from: container)
    }

    func strictTestPartsLocked(_ key: RegistryKey, from container: Resolver, own: Resolver) -> [RegistrationDescribing]? {
        guard case .collection(let assembly) = factory else { return nil }
        return assembly.strictTestPartsLocked(key, from: container, own: own)
    }
}
