import CRegistry

// Collections: `register(into: [Element].self) { … }` adds an element, and a
// resolve of `[Element]` gives the elements of every container the lookup
// reaches, parents first (`Collections.swift` states the order).
//
// Each element is a `ResolverRegistration<Element>` of its own, under a name
// no other registration has (`[Element] #n`): the caching scopes key their
// instances by type and name, so two `.application` elements are two
// instances. A container's elements for (`[Element]`, name) are held by one
// immutable `ElementCollection`, the factory of the container's registration
// under that key. Adding an element puts a new registration there, with the
// container's earlier elements and the new one; the table publishes it and
// retires the old one, as for any registration (DESIGN.md, R2, R3). So a
// resolve reads a container's elements with one table probe, and no lock.
//
// The list's registration has the unique scope: the list is assembled on
// every resolve, each element through its own scope.

/// The identity of a list: the type identity of `[Element]` and its name.
struct CollectionKey: Hashable {
    let typeID: UInt64
    let name: String?
}

/// The process-wide version word (`crg_tcache.h`): even while no write is in
/// progress, and stepped by every critical section of the registry mutex. A
/// reader that reads several tables validates its reads with it, as the
/// threads' caches validate a lookup (DESIGN.md, T1).
enum RegistryWriteVersion {
    /// The version now (acquire).
    @inline(__always)
    static func load() -> UInt64 {
        crg_tcache_version_load()
    }

    /// Whether the version is still `version` after the loads made before.
    @inline(__always)
    static func isUnchanged(since version: UInt64) -> Bool {
        crg_tcache_version_unchanged(version)
    }
}

/// The factory of a collection's list (`ResolverRegistration.Factory.collection`),
/// over the list's type; `ElementCollection` is the one kind, over its
/// element type.
@usableFromInline
class CollectionAssembly<Service> {
    /// The list, resolved from `resolver` (a synchronous resolve).
    func assemble(from resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
        preconditionFailure("CollectionAssembly is abstract")
    }

    /// The list of `list` (the registration whose factory this is), resolved
    /// from `resolver` by `resolveAsync`.
    nonisolated(nonsending)
    func assembleAsync(_ list: ResolverRegistration<Service>, from resolver: Resolver, _ args: Any?) async -> Service? {
        preconditionFailure("CollectionAssembly is abstract")
    }

    /// What `verify()` and the graph see of `list` from `container`: the
    /// list, then each element a resolve from there includes. The mutex must
    /// be held.
    func describingLocked(_ list: ResolverRegistration<Service>, from container: Resolver) -> [RegistrationDescribing] {
        preconditionFailure("CollectionAssembly is abstract")
    }
}

/// One container's elements of a list (`[Element]` under `name`), in the
/// order they were registered. Immutable: adding an element makes a new one.
final class ElementCollection<Element>: CollectionAssembly<[Element]> {
    let elements: [ResolverRegistration<Element>]
    /// The list's name.
    let name: Resolver.Name?

    init(_ elements: [ResolverRegistration<Element>], name: Resolver.Name?) {
        self.elements = elements
        self.name = name
    }

    /// The elements `list` holds, or nil when `list` (a registration under
    /// the key of `[Element]`) is a plain one, `register { [...] }`.
    static func of(_ list: UnownedReference<ResolverRegistration<[Element]>>) -> UnownedReference<ElementCollection>? {
        list.read { list in
            guard list.isolation == .collection, case .collection(let assembly) = list.factory else {
                return nil
            }
            return UnownedReference(unsafeDowncast(assembly, to: ElementCollection.self))
        }
    }

    // MARK: - The containers a list is made of

    /// The parts of the list resolved from `container`, read as they were at
    /// one moment: the walk is repeated while it overlapped a write (the
    /// version word moved), and after 16 tries made holding the mutex, as a
    /// table probe that keeps failing takes it (DESIGN.md, R1).
    static func parts(from container: UnownedReference<Resolver>, _ key: RegistryKey,
                      _ section: borrowing ReadSection) -> [ListPart<Element>] {
        for _ in 0..<16 {
            let version = RegistryWriteVersion.load()
            if version & 1 == 0 {
                var walk = ListWalk<Element>(key: key)
                walk.visit(container)
                if RegistryWriteVersion.isUnchanged(since: version) {
                    return walk.parts
                }
            }
        }
        return registry.withLock { partsLocked(from: container, key) }
    }

    /// `parts(from:_:_:)`, holding the mutex.
    static func partsLocked(from container: UnownedReference<Resolver>, _ key: RegistryKey) -> [ListPart<Element>] {
        registry.assertLocked()
        var walk = ListWalk<Element>(key: key)
        walk.visit(container)
        return walk.parts
    }

    // MARK: - Resolving

    override func assemble(from resolver: Resolver, _ arguments: ArgumentsPointer) -> [Element]? {
        withRegistryKey([Element].self, name) { key in
            ReadSection.run { section in
                let container = UnownedReference(resolver)
                var list: [Element] = []
                for part in ElementCollection.parts(from: container, key, section) {
                    switch part {
                    case .plain(let registration):
                        let request = ResolveRequest(key, from: container, arguments)
                        if let base = ResolverRegistration<[Element]>.resolve(registration, request, section) {
                            list.append(contentsOf: base)
                        }
                    case .elements(let collection):
                        let count = collection.read { $0.elements.count }
                        for index in 0..<count {
                            let element = collection.read { UnownedReference($0.elements[index]) }
                            if let service = ElementCollection.resolve(element, from: container, section) {
                                list.append(service)
                            }
                        }
                    }
                }
                return list
            }
        }
    }

    /// One element, through its scope, from `container` (a synchronous
    /// resolve): recorded as an edge from the list while a graph records.
    static func resolve(_ element: UnownedReference<ResolverRegistration<Element>>, from container: UnownedReference<Resolver>, _ section: borrowing ReadSection) -> Element? {
        let name = element.read { $0.name }
        return withRegistryKey(Element.self, name) { key in
            if Published.detours.load() != 0 {
                GraphRecorder.recordResolve(of: Element.self, key)
            }
            return ResolverRegistration<Element>.resolve(element, ResolveRequest(key, from: container, .none), section)
        }
    }

    nonisolated(nonsending)
    override func assembleAsync(_ list: ResolverRegistration<[Element]>, from resolver: Resolver,
                                _ args: Any?) async -> [Element]? {
        let parent = AsyncFrame.current ?? AsyncFrame.topLevel()
        if parent.contains(ObjectIdentifier(list)) {
            let chain = parent.chain.drop { $0 != list.keyDescription } + [list.keyDescription]
            resolverFailure("RESOLVER: circular dependency: \(chain.joined(separator: " → ")). Break the cycle with resolveProperties, a lazy property or a weak reference.",
                            kind: .cycle)
        }
        // Held by strong references: the read section ends before the first
        // suspension.
        let parts = withRegistryKey([Element].self, name) { key in
            ReadSection.run { section in
                ElementCollection.parts(from: UnownedReference(resolver), key, section).map(OwnedListPart.init)
            }
        }
        // Resolves made by the elements' factories are theirs; the list's
        // own (of each element) are edges from the list.
        let frame = AsyncFrame(registration: ObjectIdentifier(list), description: list.keyDescription, node: list.graphNode,
                               parent: parent, graph: parent.graph)
        return await AsyncFrame.$current.withValue(frame) {
            var assembled: [Element] = []
            for part in parts {
                switch part {
                case .plain(let registration):
                    if let base = await registration.resolveAsync(from: resolver, args, recordingEdge: false) {
                        assembled.append(contentsOf: base)
                    }
                case .elements(let elements):
                    for element in elements {
                        if let service = await element.resolveAsync(from: resolver, nil, recordingEdge: true) {
                            assembled.append(service)
                        }
                    }
                }
            }
            return assembled
        }
    }

    // MARK: - verify() and the graph

    override func describingLocked(_ list: ResolverRegistration<[Element]>, from container: Resolver) -> [RegistrationDescribing] {
        registry.assertLocked()
        let parts = withRegistryKey([Element].self, name) { key in
            ElementCollection.partsLocked(from: UnownedReference(container), key)
        }
        var elements: [CollectionElementDescribing<Element>] = []
        for case .elements(let collection) in parts {
            elements += collection.object.elements.map(CollectionElementDescribing.init)
        }
        return [CollectionListDescribing(list, elements: elements)] + elements
    }
}

/// A part of a list, in the order the list gives them.
enum ListPart<Element> {
    /// A container's elements.
    case elements(UnownedReference<ElementCollection<Element>>)
    /// A plain registration of the list (`register { [...] }`), where the
    /// walk ended: its list stands for its container's and those after it.
    case plain(UnownedReference<ResolverRegistration<[Element]>>)
}

/// A `ListPart` held by strong references, across suspensions.
enum OwnedListPart<Element> {
    case elements([ResolverRegistration<Element>])
    case plain(ResolverRegistration<[Element]>)

    init(_ part: ListPart<Element>) {
        switch part {
        case .elements(let collection): self = .elements(collection.object.elements)
        case .plain(let registration): self = .plain(registration.object)
        }
    }
}

/// The walk that finds a list's parts: the containers a lookup from the
/// first one searches (itself, then its children in the order added, depth
/// first, each once), up to and including the first whose own registration
/// of the list is a plain one. A lookup would stop there too, and find
/// nothing after it. Each container's part comes after those of its
/// children (post-order): parents first, the children's in the order added.
///
/// Call in a read section, or holding the mutex (where the walk runs no
/// code of the app's and retires nothing).
struct ListWalk<Element> {
    let key: RegistryKey
    private(set) var parts: [ListPart<Element>] = []
    private var visited: [UnownedReference<Resolver>] = []
    private var ended = false

    init(key: RegistryKey) {
        self.key = key
    }

    mutating func visit(_ container: UnownedReference<Resolver>) {
        guard !ended, !visited.contains(container) else {
            return
        }
        visited.append(container)
        var own: UnownedReference<ElementCollection<Element>>?
        if let found = container.read({ $0.storage.table }).findValue(key) {
            let registration = found.unsafeCast(to: ResolverRegistration<[Element]>.self)
            guard let collection = ElementCollection<Element>.of(registration) else {
                parts.append(.plain(registration))
                ended = true
                return
            }
            own = collection
        }
        if let children = container.read({ $0.fields.children }).load() {
            let count = children.read { $0.containers.count }
            for index in 0..<count {
                visit(children.read { UnownedReference($0.containers[index]) })
            }
        }
        if let own {
            parts.append(.elements(own))
        }
    }
}

extension ResolverRegistration {
    /// This collection's list, resolved from `resolver` by `resolveAsync`.
    nonisolated(nonsending)
    func assembleAsync(from resolver: Resolver, _ args: Any?) async -> Service? {
        guard case .collection(let assembly) = factory else {
            return nil
        }
        return await assembly.assembleAsync(self, from: resolver, args)
    }

    /// Resolves this registration (not looked up: a list's element or plain
    /// registration) from `resolver` in async code, as `resolveAsync` would
    /// once it had found it, without the decorator (the list is what was
    /// asked for). `recordingEdge`: an edge from the list while a graph
    /// records.
    nonisolated(nonsending)
    func resolveAsync(from resolver: Resolver, _ args: Any?, recordingEdge: Bool) async -> Service? {
        let step = withArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key -> AsyncStep<Service> in
                if recordingEdge && Published.detours.load() != 0 {
                    GraphRecorder.recordResolve(of: Service.self, key)
                }
                return ReadSection.run { section -> AsyncStep<Service> in
                    let registration = UnownedReference(self)
                    let request = ResolveRequest(key, from: UnownedReference(resolver), arguments)
                    let scope = ResolverRegistration.effectiveScope(registration, request.container, section)
                    let kind = scope.read { $0.kind }
                    if kind.keepsInstances,
                       let entry = ResolverRegistration.cachedEntry(registration, scope, kind, key, section),
                       let service = ResolverScope.service(inEntry: entry, of: kind, in: scope, as: Service.self) {
                        return .done(service)
                    }
                    if isolation == .none {
                        return .done(ResolverRegistration.resolveUncached(registration, through: scope, request, section))
                    }
                    return .pending(AsyncPending(registration, scope, resolver))
                }
            }
        }
        switch step {
        case .done(let service):
            return service
        case .pending(let pending):
            return await pending.resolve(args)
        }
    }

    /// What `verify()` and the graph see of this registration from
    /// `container`: itself, or for a collection's list, the list and its
    /// elements. The mutex must be held.
    func describingLocked(from container: Resolver) -> [RegistrationDescribing] {
        guard case .collection(let assembly) = factory else {
            return [self]
        }
        return assembly.describingLocked(self, from: container)
    }
}

// MARK: - Adding an element

extension Resolver {
    /// Adds `element` to this container's list of `[Element]` under `name`:
    /// a new list registration with the container's earlier elements (none
    /// when the key held a plain registration, or nothing) and `element`
    /// after them, which replaces the old one (retired). Adding an element
    /// replaces no registration of the app's: `verify()` lists a replacement
    /// only where the list replaces a plain registration. 0, or an error code (out of memory:
    /// the table is unchanged). The mutex must be held.
    func addElementLocked<Element>(_ element: ResolverRegistration<Element>, toList name: Resolver.Name?) -> Int32 {
        registry.assertLocked()
        let (earlier, replacesPlain) = withRegistryKey([Element].self, name) { key -> ([ResolverRegistration<Element>], Bool) in
            guard let found = storage.table.findLocked(key) else {
                return ([], false)
            }
            guard let collection = ElementCollection<Element>.of(found.unsafeCast(to: ResolverRegistration<[Element]>.self)) else {
                return ([], true)
            }
            return (collection.object.elements, false)
        }
        let list = ResolverRegistration<[Element]>(name: name, scope: .unique,
                                                   factory: .collection(ElementCollection(earlier + [element], name: name)))
        return putLocked(list, typeID: list.typeID, name: name, recordingReplacement: replacesPlain)
    }
}

extension Registry {
    /// A name for the next element of the list of `[Element]` under `name`,
    /// which no other registration has: "[Element] #n", or
    /// "[Element]:name #n", numbered from 1 per list in the order elements
    /// are added anywhere. The mutex must be held.
    func elementNameLocked<Element>(_: Element.Type, list name: Resolver.Name?) -> Resolver.Name {
        assertLocked()
        let key = CollectionKey(typeID: typeID([Element].self), name: name?.rawValue)
        let number = (elementsAdded[key] ?? 0) + 1
        elementsAdded[key] = number
        return Resolver.Name("[\(Element.self)]" + (name.map { ":" + $0.rawValue } ?? "") + " #\(number)")
    }
}

// MARK: - What verify() and the graph see

/// A list, as `verify()` and the graph see it from one container: its node,
/// labelled `collection`, with an edge to each element, whatever resolves.
final class CollectionListDescribing<Element>: RegistrationDescribing {
    let list: ResolverRegistration<[Element]>
    let elements: [CollectionElementDescribing<Element>]

    init(_ list: ResolverRegistration<[Element]>, elements: [CollectionElementDescribing<Element>]) {
        self.list = list
        self.elements = elements
    }

    var keyDescription: String { list.keyDescription }
    var graphNode: Resolver.Graph.Node { list.graphNode }
    var takesArgumentsLocked: Bool { false }
    /// A list with a `@MainActor` element: `verify()`'s threads cannot
    /// assemble it (each other element is verified on its own).
    var isMainActorFactory: Bool { elements.contains { $0.isMainActorFactory } }
    var scope: ResolverScope { list.scope }
    var scopeLabel: String { "collection" }

    var structuralEdges: [Resolver.Graph.Edge] {
        elements.map { Resolver.Graph.Edge(from: list.graphNode, to: $0.graphNode) }
    }

    func resolveOnce(from container: Resolver) -> Bool {
        let name = list.name
        guard elements.contains(where: { $0.element.isolation == .async }) else {
            return container.optional([Element].self, name: name) != nil
        }
        return verifyingAsync(from: container) {
            await container.optionalAsync([Element].self, name: name) != nil
        }
    }
}

/// An element, as `verify()` and the graph see it: resolved through its
/// registration, not looked up (no table holds it). Its factory returning
/// nil leaves it out of the list, which is not a failure.
final class CollectionElementDescribing<Element>: RegistrationDescribing {
    let element: ResolverRegistration<Element>
    /// The type of the instance `resolveOnce` built.
    private let built = InstanceTypeNote()

    init(_ element: ResolverRegistration<Element>) {
        self.element = element
    }

    var keyDescription: String { element.keyDescription }
    /// Its list's type and its own name, with where it was registered and
    /// the type of the instance it built (once `resolveOnce` has run): the
    /// type and name alone do not tell two elements of a list apart.
    var graphNode: Resolver.Graph.Node {
        let node = element.graphNode
        return Resolver.Graph.Node(typeID: node.typeID, type: node.type, name: node.name, scope: node.scope,
                                   isolation: node.isolation,
                                   element: (element.site?.description, built.instanceType))
    }
    var takesArgumentsLocked: Bool { element.takesArgumentsLocked }
    var isMainActorFactory: Bool { element.isMainActorFactory }
    var scope: ResolverScope { element.scope }

    func resolveOnce(from container: Resolver) -> Bool {
        let element = self.element
        let built = self.built
        guard element.isolation == .async else {
            built.note(element.resolve(resolver: container, args: nil))
            return true
        }
        return verifyingAsync(from: container) {
            built.note(await element.resolveAsync(from: container, nil, recordingEdge: true))
            return true
        }
    }
}
