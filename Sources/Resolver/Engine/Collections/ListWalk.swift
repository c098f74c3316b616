/// A part of a list: a container's elements, or a plain registration of the list (`register { [...] }`)
/// where the walk ended, whose list stands for its container's and those after it.
enum ListPart<Element> {
    case elements(UncheckedReference<ElementCollection<Element>>)
    case plain(UncheckedReference<ResolverRegistration<[Element]>>)
}

extension ElementCollection {
    /// The parts of the list resolved from `container`, as they were at one moment: the walk is repeated
    /// while it overlapped a write (the version word, `ThreadCache.version()`, was odd or moved; DESIGN.md, T1), and
    /// after 16 tries made holding the mutex, as R1's probes do.
    static func parts(from container: UncheckedReference<Resolver>, _ key: RegistryKey, _ section: borrowing ReadSection) -> [ListPart<Element>] {
        for _ in 0..<16 {
            let version = ThreadCache.version()
            guard version & 1 == 0 else { continue }
            let parts = walk(from: container, key)
            if ThreadCache.isUnchanged(since: version) { return parts }
        }
        return registry.withLock { walk(from: container, key) }
    }

    /// The walk that finds a list's parts (DESIGN.md, "Collections"): the containers a lookup from `first`
    /// searches, each once, up to and including the first whose own registration of the list is a plain one
    /// (a lookup stops there too), each container's part after its children's. Call in a read section, or
    /// holding the mutex.
    static func walk(from first: UncheckedReference<Resolver>, _ key: RegistryKey) -> [ListPart<Element>] {
        var parts: [ListPart<Element>] = []
        var visited: [UncheckedReference<Resolver>] = []
        var ended = false
        func visit(_ container: UncheckedReference<Resolver>) {
            guard !ended, !visited.contains(container) else { return }
            visited.append(container)
            var own: UncheckedReference<ElementCollection>?
            if let found = container.read({ $0.storage.table }).findValue(key) {
                let registration = found.unsafeCast(to: ResolverRegistration<[Element]>.self)
                guard let collection = ElementCollection.of(registration) else {
                    parts.append(.plain(registration))
                    ended = true
                    return
                }
                own = collection
            }
            if let children = container.read({ $0.fields.children }).load() {
                let count = children.read { $0.containers.count }
                for index in 0..<count {
                    visit(children.read { UncheckedReference($0.containers[index]) })
                }
            }
            if let own { parts.append(.elements(own)) }
        }
        visit(first)
        return parts
    }
}
