// What the program says when a resolve cannot be satisfied. The first line is the original's message, word
// for word; what follows says what is registered instead, so the fix is obvious.

extension Resolver {
    /// Stops the program: `Service` (with `name`) could not be resolved in `container` (nil: `root`).
    @usableFromInline
    @inline(never)
    static func notResolved<Service>(_ type: Service.Type, name: Resolver.Name?, in container: Resolver?) -> Never {
        let container = container ?? Resolver.root
        let registered = registry.withLock { container.registeredNamesLocked(of: Service.self) }
        fail(notResolvedMessage(Service.self, name: name, in: container),
             kind: registered.contains(name) ? .returnedNil : .missing)
    }

    static func notResolvedMessage<Service>(_ type: Service.Type, name: Resolver.Name?, in container: Resolver) -> String {
        var lines = ["RESOLVER: '\(Service.self):\(name?.rawValue ?? "NONAME")' not resolved. To disambiguate optionals use resolver.optional()."]
        let registered = registry.withLock { container.registeredNamesLocked(of: Service.self) }

        if registered.contains(name) {
            lines.append("A registration for '\(describe(Service.self, name))' exists, but its factory returned nil.")
        } else if registered.isEmpty {
            lines.append("Nothing is registered for '\(Service.self)' in this container or its children.")
        } else {
            let names = registered.map { $0.map { "'\($0.rawValue)'" } ?? "no name" }.sorted()
            lines.append("'\(Service.self)' is registered under: \(names.joined(separator: ", ")).")
            if name != nil, registered.contains(nil) {
                lines.append("An unnamed '\(Service.self)' is registered, but a named lookup never falls back to it.")
            }
        }

        if registered.isEmpty, let list = Service.self as? any ResolverArrayType.Type {
            let element = list.elementType
            lines.append("A list of '\(element)' is made of the elements added with `register(into: [\(element)].self) { … }`, in this container and the ones it falls back on.")
            let elementNames = registry.withLock { container.registeredNamesLocked(of: element) }
            if !elementNames.isEmpty {
                lines.append("'\(element)' is registered, but registrations of '\(element)' itself are not collected into a list: add each element with register(into:).")
            }
        }
        let optionalNames = registry.withLock { container.registeredNamesLocked(of: Service?.self) }
        if !optionalNames.isEmpty {
            let which = optionalNames.contains(name) ? (name == nil ? "with no name" : "with this name") : "under other names"
            lines.append("'\(Service?.self)' is registered \(which): an optional is a different type; register '\(Service.self)' itself, or resolve '\(Service?.self)'.")
        }
        if let optional = Service.self as? any ResolverOptionalType.Type {
            let wrapped = optional.wrappedType
            let wrappedNames = registry.withLock { container.registeredNamesLocked(of: wrapped) }
            if !wrappedNames.isEmpty {
                lines.append("'\(wrapped)' is registered: to get an optional, call optional() instead of resolving '\(Service.self)'.")
            }
        }
        return lines.joined(separator: "\n") + chainSentence + chainPlaces
    }

    /// The names under which `type` is registered here and in the children (nil standing for "no name").
    /// The mutex must be held.
    func registeredNamesLocked(of type: Any.Type) -> Set<Resolver.Name?> {
        registry.assertLocked()
        let id = typeID(type)
        var found = Set(ownEntriesLocked().filter { $0.typeID == id }.map { $0.name.map(KeyName.registeredName) })
        for child in children {
            found.formUnion(child.registeredNamesLocked(of: type))
        }
        return found
    }
}

/// The registry's identity for a type.
func typeID(_ type: Any.Type) -> UInt64 {
    UInt64(UInt(bitPattern: ObjectIdentifier(type)))
}

/// Lets the diagnostics see through `Optional<Wrapped>`.
protocol ResolverOptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: ResolverOptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
}

/// Lets the diagnostics see through `Array<Element>` (a collection's list).
protocol ResolverArrayType {
    static var elementType: Any.Type { get }
}

extension Array: ResolverArrayType {
    static var elementType: Any.Type { Element.self }
}
