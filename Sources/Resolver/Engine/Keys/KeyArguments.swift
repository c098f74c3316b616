// A key's arguments on their way to its factory (DESIGN.md, "Typed
// arguments and per-argument instances", "Compile-time-checked keys").
//
// A key without arguments passes none (`ArgumentsPointer.none`): its
// registration takes none, and its instances live where an ordinary
// registration's do (the thread's cache, the memo). A key with arguments
// passes them as typed arguments whose list is the key's whole pack: the
// header's `first` points at the tuple of every value, and its operations are
// `KeyArgumentsOf`, which read that tuple. Its registrations were made for
// that pack (`KeyRegistration`), so the one check the resolve path makes,
// the list's identity, is the one that matters; only key calls reach them.

/// How many types are in a pack (a constant once specialized).
@inlinable
@inline(__always)
func keyArgumentCount<each Argument>(_ types: repeat (each Argument).Type) -> Int {
    var count = 0
    for _ in repeat each types {
        count += 1
    }
    return count
}

/// Calls `body` with a key call's arguments: none for an empty pack, else
/// typed arguments kept on the caller's stack.
@inlinable
@inline(__always)
func withKeyArguments<each Argument, Result>(_ arguments: repeat each Argument,
                                            body: (ArgumentsPointer) -> Result) -> Result {
    if keyArgumentCount(repeat (each Argument).self) == 0 {
        return body(.none)
    }
    let values = (repeat each arguments)
    return withUnsafePointer(to: values) { valuesPointer in
        let start = UnsafeRawPointer(valuesPointer)
        let header = TypedArgumentsHeader(types: (repeat each Argument).self, first: start, rest: start,
                                          operations: KeyArgumentsOf<repeat each Argument>.self)
        return withUnsafePointer(to: header) { headerPointer in
            body(ArgumentsPointer(raw: UnsafeRawPointer(bitPattern: UInt(bitPattern: headerPointer) | 1)))
        }
    }
}

/// `withKeyArguments` for a call's arguments as the public entry points
/// take them, a first one and the rest. Its closures see `A` and `B` apart:
/// Swift 6.3.1's IRGen crashes ("visitPackExplosion") on a closure whose
/// generic arguments include the pack `A, repeat each B`, which is what
/// `withKeyArguments`'s closures are once inlined into a public entry point.
@inlinable
@inline(__always)
func withKeyCallArguments<A, each B, Result>(_ first: A, _ rest: repeat each B,
                                             body: (ArgumentsPointer) -> Result) -> Result {
    let values = (first, repeat each rest)
    return withUnsafePointer(to: values) { valuesPointer in
        let start = UnsafeRawPointer(valuesPointer)
        let header = TypedArgumentsHeader(types: (A, repeat each B).self, first: start, rest: start,
                                          operations: KeyArgumentsOf<A, repeat each B>.self)
        return withUnsafePointer(to: header) { headerPointer in
            body(ArgumentsPointer(raw: UnsafeRawPointer(bitPattern: UInt(bitPattern: headerPointer) | 1)))
        }
    }
}

/// The operations of a key call's arguments: the header's `first` points at
/// the tuple of every value.
@frozen
@usableFromInline
struct KeyArgumentsOf<each Argument>: TypedArgumentsOperations {
    @inlinable
    @inline(__always)
    static func values(_ header: TypedArgumentsHeader) -> (repeat each Argument) {
        header.first.assumingMemoryBound(to: (repeat each Argument).self).pointee
    }

    @usableFromInline
    static func box(_ header: TypedArgumentsHeader) -> Any {
        KeyArgumentsBox<repeat each Argument>(repeat each values(header))
    }

    @usableFromInline
    static func key(_ header: TypedArgumentsHeader) -> [AnyHashable]? {
        keyArgumentsKey(repeat each values(header))
    }
}

/// A key call's arguments, boxed: to cross a suspension or an actor hop, or
/// to reach a factory form that takes `Any?` (contexts, `update(factory:)`).
@usableFromInline
final class KeyArgumentsBox<each Argument>: TypedArgumentsBoxing, @unchecked Sendable {
    @usableFromInline let values: (repeat each Argument)

    @usableFromInline
    init(_ values: repeat each Argument) {
        self.values = (repeat each values)
    }

    @usableFromInline
    func withArguments<Result>(_ body: (ArgumentsPointer) -> Result) -> Result {
        withKeyArguments(repeat each values, body: body)
    }

    @usableFromInline
    var hashableKey: [AnyHashable]? {
        keyArgumentsKey(repeat each values)
    }

    @usableFromInline
    var types: Any.Type {
        (repeat each Argument).self
    }

    /// `args` (what a context's or a main-actor or async factory is given)
    /// as the values of this pack. The resolve path has checked the list.
    @usableFromInline
    static func values(of args: Any?) -> (repeat each Argument) {
        guard let box = args as? KeyArgumentsBox<repeat each Argument> else {
            resolverFailure("RESOLVER: a key's factory was given arguments of another list than its own "
                            + "(\(describeArgumentTypes((repeat each Argument).self))).")
        }
        return box.values
    }
}

/// Each value as `AnyHashable`, or nil when one is not `Hashable`: the key
/// of a key call's instance in a caching scope.
@usableFromInline
func keyArgumentsKey<each Argument>(_ values: repeat each Argument) -> [AnyHashable]? {
    var key: [AnyHashable] = []
    for value in repeat each values {
        guard let hashable = value as? any Hashable else { return nil }
        key.append(AnyHashable(hashable))
    }
    return key
}

extension ArgumentList {
    /// The list of a key's arguments, the whole pack.
    @usableFromInline
    init<each Argument>(keyArguments: repeat (each Argument).Type) {
        types = (repeat each Argument).self
        var hashable = true
        for type in repeat each keyArguments {
            if !(type is any Hashable.Type) {
                hashable = false
            }
        }
        self.hashable = hashable
    }
}
