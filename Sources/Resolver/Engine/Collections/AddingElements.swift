/// A list's type identity (of `[Element]`) and name.
struct CollectionKey: Hashable {
    let typeID: UInt64
    let name: String?
}

extension Resolver {
    /// Adds `element` to this container's list of `[Element]` under `name`: a new list registration with
    /// the container's earlier elements (none when the key held a plain registration, or nothing) and
    /// `element` after them, which replaces the old one (retired). `verify()` lists a replacement only
    /// where it replaces a plain registration. 0, or an error code (out of memory: the table is unchanged).
    /// The mutex must be held.
    func addElementLocked<Element>(_ element: ResolverRegistration<Element>, toList name: Resolver.Name?) -> RegistryError? {
        registry.assertLocked()
        let (earlier, replacesPlain) = withRegistryKey([Element].self, name) { key -> ([ResolverRegistration<Element>], Bool) in
            guard let found = storage.table.findLocked(key) else { return ([], false) }
            let collection = ElementCollection<Element>.of(found.unsafeCast(to: ResolverRegistration<[Element]>.self))
            return (collection?.object.elements ?? [], collection == nil)
        }
        let list = ResolverRegistration<[Element]>(name: name, scope: .unique,
                                                   factory: .collection(ElementCollection(earlier + [element], name: name)))
        return putLocked(list, typeID: list.typeID, name: name, recordingReplacement: replacesPlain)
    }
}

extension Registry {
    /// A name no other registration has for the next element of the list of `[Element]` under `name`:
    /// "[Element] #n" or "[Element]:name #n", numbered from 1 per list in the order elements are added
    /// anywhere. The mutex must be held.
    func elementNameLocked<Element>(_: Element.Type, list name: Resolver.Name?) -> Resolver.Name {
        assertLocked()
        let key = CollectionKey(typeID: typeID([Element].self), name: name?.rawValue)
        let number = (elementsAdded[key] ?? 0) + 1
        elementsAdded[key] = number
        return Resolver.Name("[\(Element.self)]" + (name.map { ":" + $0.rawValue } ?? "") + " #\(number)")
    }
}
