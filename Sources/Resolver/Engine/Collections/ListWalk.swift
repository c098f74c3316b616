import CRegistry

// How a resolve of a list finds its parts: the containers the lookup
// reaches, walked without a lock and validated by the registry's version
// word.

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

/// A part of a list, in the order the list gives them.
enum ListPart<Element> {
    /// A container's elements.
    case elements(UncheckedReference<ElementCollection<Element>>)
    /// A plain registration of the list (`register { [...] }`), where the
    /// walk ended: its list stands for its container's and those after it.
    case plain(UncheckedReference<ResolverRegistration<[Element]>>)
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
    private var visited: [UncheckedReference<Resolver>] = []
    private var ended = false

    init(key: RegistryKey) {
        self.key = key
    }

    mutating func visit(_ container: UncheckedReference<Resolver>) {
        guard !ended, !visited.contains(container) else {
            return
        }
        visited.append(container)
        var own: UncheckedReference<ElementCollection<Element>>?
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
                visit(children.read { UncheckedReference($0.containers[index]) })
            }
        }
        if let own {
            parts.append(.elements(own))
        }
    }
}
