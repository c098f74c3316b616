/// A list, as `verify()` and the graph see it from one container: its node, labelled `collection`, with an
/// edge to each element a resolve includes, whatever resolves.
final class CollectionListDescribing<Element>: RegistrationDescribing {
    let list: ResolverRegistration<[Element]>
    let elements: [CollectionElementDescribing<Element>]

    init(_ list: ResolverRegistration<[Element]>, elements: [CollectionElementDescribing<Element>]) {
        self.list = list
        self.elements = elements
    }

    var keyDescription: String { list.keyDescription }
    var serviceType: Any.Type { [Element].self }
    var graphNode: Resolver.Graph.Node { list.graphNode }
    var takesArgumentsLocked: Bool { false }
    /// A list with a `@MainActor` element, which `verify()`'s threads cannot assemble (its other elements
    /// are verified one by one).
    var isMainActorFactory: Bool { elements.contains { $0.isMainActorFactory } }
    var scope: ResolverScope { list.scope }
    var scopeLabel: String { "collection" }
    var structuralEdges: [Resolver.Graph.Edge] {
        elements.map { Resolver.Graph.Edge(from: list.graphNode, to: $0.graphNode) }
    }

    func checkOnce(from container: Resolver) -> Bool {
        let name = list.name
        guard elements.contains(where: { $0.element.isolation == .async }) else { return container.optional([Element].self, name: name) != nil }
        return verifyingAsync(from: container) { await container.optionalAsync([Element].self, name: name) != nil }
    }
}

/// An element, as `verify()` and the graph see it: resolved through its registration, not looked up (no
/// table holds it). Its factory returning nil leaves it out of the list, which is not a failure.
final class CollectionElementDescribing<Element>: RegistrationDescribing, @unchecked Sendable {
    let element: ResolverRegistration<Element>
    /// Guards `instanceType`, which the verification's thread writes and the caller reads (maybe before a
    /// thread that timed out writes it).
    private let mutex = Mutex.make()
    private var instanceType: String?

    init(_ element: ResolverRegistration<Element>) {
        self.element = element
    }

    deinit { mutex.release() }

    var keyDescription: String { element.keyDescription }
    var serviceType: Any.Type { Element.self }
    /// Its list's type and its own name, with where it was registered and the type of the instance it built
    /// (once `checkOnce` has run): type and name alone do not tell two elements apart.
    var graphNode: Resolver.Graph.Node {
        element.graphNode.with(scope: nil, element: (element.site?.description, mutex.withLock { instanceType }))
    }
    var takesArgumentsLocked: Bool { element.takesArgumentsLocked }
    var isMainActorFactory: Bool { element.isMainActorFactory }
    var scope: ResolverScope { element.scope }

    func checkOnce(from container: Resolver) -> Bool {
        let element = self.element
        guard element.isolation == .async else {
            note(element.resolve(resolver: container, args: nil))
            return true
        }
        return verifyingAsync(from: container) {
            self.note(await element.resolveAsync(from: container, nil, recordingEdge: true))
            return true
        }
    }

    private func note(_ instance: Element?) {
        guard let instance else { return }
        let type = describeType(of: instance)
        mutex.withLock { instanceType = type }
    }
}
