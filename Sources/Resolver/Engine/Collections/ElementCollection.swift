// A container's elements of a list and how a resolve assembles it, anew each time (DESIGN.md, "Collections").

/// The factory of a collection's list (`Factory.collection`), over the list's type; `ElementCollection` is
/// the one kind, over its element type.
@usableFromInline
class CollectionAssembly<Service> {
    /// The list, resolved from `resolver` (a synchronous resolve).
    func assemble(from resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? { preconditionFailure("abstract") }

    /// The list of `list` (the registration whose factory this is), resolved by `resolveAsync`.
    nonisolated(nonsending)
    func assembleAsync(_ list: ResolverRegistration<Service>, from resolver: Resolver, _ args: Any?) async -> Service? { preconditionFailure("abstract") }

    /// What `verify()` and the graph see of `list` from `container`: the list, then each element a resolve
    /// from there includes. The mutex must be held.
    func describingLocked(_ list: ResolverRegistration<Service>, from container: Resolver) -> [RegistrationDescribing] { preconditionFailure("abstract") }

    /// As `RegistrationDescribing.strictTestPartsLocked`.
    func strictTestPartsLocked(_ key: RegistryKey, from container: Resolver, own: Resolver) -> [RegistrationDescribing] { preconditionFailure("abstract") }
}

/// One container's elements of a list (`[Element]` under `name`), in the order registered. Immutable:
/// adding an element makes a new one.
final class ElementCollection<Element>: CollectionAssembly<[Element]> {
    let elements: [ResolverRegistration<Element>]
    /// The list's name.
    let name: Resolver.Name?

    init(_ elements: [ResolverRegistration<Element>], name: Resolver.Name?) {
        self.elements = elements
        self.name = name
    }

    /// The elements `list` holds, or nil when `list` is a plain registration, `register { [...] }`.
    static func of(_ list: UncheckedReference<ResolverRegistration<[Element]>>) -> UncheckedReference<ElementCollection>? {
        list.read { list in
            guard list.isolation == .collection, case .collection(let assembly) = list.factory else { return nil }
            return UncheckedReference(unsafeDowncast(assembly, to: ElementCollection.self))
        }
    }

    override func assemble(from resolver: Resolver, _ arguments: ArgumentsPointer) -> [Element]? {
        withRegistryKey([Element].self, name) { key in
            ReadSection.run { section in
                let container = UncheckedReference(resolver)
                var list: [Element] = []
                for part in ElementCollection.parts(from: container, key, section) {
                    switch part {
                    case .plain(let registration):
                        let request = ResolveRequest(key, from: container, arguments)
                        let scope = ResolverRegistration<[Element]>.scope(registration, from: container, section)
                        list += ResolverRegistration<[Element]>.keptOrMade(registration, through: scope, request, section) ?? []
                    case .elements(let collection):
                        let count = collection.read { $0.elements.count }
                        for index in 0..<count {
                            // Each element through its scope: an edge from the list while a graph records.
                            let element = collection.read { UncheckedReference($0.elements[index]) }
                            let service = withRegistryKey(Element.self, element.read { $0.name }) { key in
                                if Published.detours.load() != 0 {
                                    GraphRecorder.recordResolve(of: Element.self, key)
                                }
                                let scope = ResolverRegistration<Element>.scope(element, from: container, section)
                                return ResolverRegistration<Element>.keptOrMade(element, through: scope, ResolveRequest(key, from: container, .none), section)
                            }
                            if let service { list.append(service) }
                        }
                    }
                }
                return list
            }
        }
    }

    nonisolated(nonsending)
    override func assembleAsync(_ list: ResolverRegistration<[Element]>, from resolver: Resolver, _ args: Any?) async -> [Element]? {
        let parent = AsyncFrame.current ?? AsyncFrame.topLevel()
        if parent.contains(ObjectIdentifier(list)) {
            let chain = parent.chain.drop { $0 != list.keyDescription } + [list.keyDescription]
            fail("RESOLVER: circular dependency: \(chain.joined(separator: " → ")). Break the cycle with resolveProperties, a lazy property or a weak reference.",
                 kind: .cycle)
        }
        // Held by strong references: the read section ends before the first suspension.
        let parts = withRegistryKey([Element].self, name) { key in
            ReadSection.run { section in
                ElementCollection.parts(from: UncheckedReference(resolver), key, section).map {
                    part -> (plain: ResolverRegistration<[Element]>?, elements: [ResolverRegistration<Element>]) in
                    switch part {
                    case .plain(let registration): (registration.object, [])
                    case .elements(let collection): (nil, collection.object.elements)
                    }
                }
            }
        }
        // Resolves made by the elements' factories are theirs; the list's own are edges from it.
        let frame = AsyncFrame(registration: ObjectIdentifier(list), description: list.keyDescription, node: list.graphNode,
                               parent: parent, graph: parent.graph)
        return await AsyncFrame.$current.withValue(frame) {
            var assembled: [Element] = []
            for part in parts {
                assembled += await part.plain?.resolveAsync(from: resolver, args, recordingEdge: false) ?? []
                for element in part.elements {
                    if let service = await element.resolveAsync(from: resolver, nil, recordingEdge: true) {
                        assembled.append(service)
                    }
                }
            }
            return assembled
        }
    }

    override func describingLocked(_ list: ResolverRegistration<[Element]>, from container: Resolver) -> [RegistrationDescribing] {
        registry.assertLocked()
        let parts = withRegistryKey([Element].self, name) { ElementCollection.walk(from: UncheckedReference(container), $0) }
        var elements: [CollectionElementDescribing<Element>] = []
        for case .elements(let collection) in parts {
            elements += collection.object.elements.map(CollectionElementDescribing.init)
        }
        return [CollectionListDescribing(list, elements: elements)] + elements
    }

    override func strictTestPartsLocked(_ key: RegistryKey, from container: Resolver, own: Resolver) -> [RegistrationDescribing] {
        registry.assertLocked()
        let ownList = own.storage.table.findLocked(key)
        let ownElements = ownList.flatMap { ElementCollection.of($0.unsafeCast(to: ResolverRegistration<[Element]>.self)) }
            .map { Set($0.object.elements.map(ObjectIdentifier.init)) } ?? []
        return ElementCollection.walk(from: UncheckedReference(container), key).flatMap { part -> [RegistrationDescribing] in
            switch part {
            case .plain(let registration):
                return ownList?.object === registration.object ? [] : [registration.object]
            case .elements(let collection):
                return collection.object.elements.filter { !ownElements.contains(ObjectIdentifier($0)) }
            }
        }
    }
}

extension ResolverRegistration {
    /// This collection's list, resolved from `resolver` by `resolveAsync`.
    nonisolated(nonsending)
    func assembleAsync(from resolver: Resolver, _ args: Any?) async -> Service? {
        guard case .collection(let assembly) = factory else { return nil }
        return await assembly.assembleAsync(self, from: resolver, args)
    }

    /// Resolves this registration (a list's element or plain registration, not looked up) in async code, as
    /// `resolveAsync` would once it had found it, without the decorator (the list is what was asked for).
    /// `recordingEdge`: an edge from the list while a graph records.
    nonisolated(nonsending)
    func resolveAsync(from resolver: Resolver, _ args: Any?, recordingEdge: Bool) async -> Service? {
        let step = withArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key -> AsyncStep<Service> in
                if recordingEdge && Published.detours.load() != 0 {
                    GraphRecorder.recordResolve(of: Service.self, key)
                }
                return ReadSection.run { section -> AsyncStep<Service> in
                    let registration = UncheckedReference(self)
                    let request = ResolveRequest(key, from: UncheckedReference(resolver), arguments)
                    let scope = ResolverRegistration.scope(registration, from: request.container, section)
                    if isolation == .none {
                        return .done(ResolverRegistration.keptOrMade(registration, through: scope, request, section))
                    }
                    if let service = ResolverRegistration.kept(registration, in: scope, request, section) { return .done(service) }
                    return .pending(AsyncPending(registration, scope, resolver))
                }
            }
        }
        switch step {
        case .done(let service): return service
        case .pending(let pending): return await pending.resolve(args)
        }
    }
}
