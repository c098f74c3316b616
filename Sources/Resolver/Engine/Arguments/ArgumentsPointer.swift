// The arguments of a resolve call on their way to a factory: one word down
// the resolve path, nil for a call without arguments (the common case, which
// then carries nothing that needs destroying).
//
// - `args:` (1.5.1's `Args`): a pointer to the caller's `Any?`, read only by
//   factories that take arguments.
// - typed arguments (`resolve(_:arguments:)`): a pointer, tagged in its low
//   bit, to a `TypedArgumentsHeader` on the caller's stack: the identity of
//   the argument list's type `(A, repeat each B)` and pointers to the values.
//   A typed factory compares the identity with its own before it reads them
//   (`TypedFactory`), so a wrong list stops with a message, never a
//   misread.

/// A resolve call's arguments: none, an `args:` value, or typed arguments.
@frozen
@usableFromInline
struct ArgumentsPointer {
    /// nil: none; else an `Any?` (`args:`), or a `TypedArgumentsHeader` with
    /// the low bit set.
    @usableFromInline let raw: UnsafeRawPointer?

    @inlinable
    @inline(__always)
    init(raw: UnsafeRawPointer?) {
        self.raw = raw
    }

    /// No arguments.
    @inlinable
    static var none: ArgumentsPointer {
        ArgumentsPointer(raw: nil)
    }

    /// Whether the call passed no arguments (or `args: nil`).
    @inlinable
    @inline(__always)
    var isNone: Bool {
        raw == nil
    }

    /// The identity of the typed arguments' list, or nil when the call
    /// passed none or `args:`.
    @inlinable
    @inline(__always)
    var typedIdentity: ObjectIdentifier? {
        guard UInt(bitPattern: raw) & 1 == 1 else { return nil }
        return ObjectIdentifier(typed.unsafelyUnwrapped.pointee.types)
    }

    /// The typed arguments' header, if the call passed typed arguments.
    @inlinable
    @inline(__always)
    var typed: UnsafePointer<TypedArgumentsHeader>? {
        guard let raw, UInt(bitPattern: raw) & 1 == 1 else { return nil }
        return UnsafeRawPointer(bitPattern: UInt(bitPattern: raw) & ~1).unsafelyUnwrapped
            .assumingMemoryBound(to: TypedArgumentsHeader.self)
    }

    /// The `args:` value, if the call passed one (not typed arguments).
    @inlinable
    @inline(__always)
    var untyped: UnsafePointer<Any?>? {
        guard let raw, UInt(bitPattern: raw) & 1 == 0 else { return nil }
        return raw.assumingMemoryBound(to: Any?.self)
    }

    /// The arguments as an `Any?`: the `args:` value; typed arguments boxed
    /// (`TypedArgumentsBox`), for the factory forms that take `Any?`
    /// (`update(factory:)`, custom scopes, the async path); nil for none.
    @inlinable
    var value: Any? {
        guard let raw else { return nil }
        if let typed {
            return typed.pointee.box()
        }
        return raw.assumingMemoryBound(to: Any?.self).pointee
    }
}

/// Calls `body` with `args` (a call's `args:`) as an `ArgumentsPointer`.
@inlinable
func withArguments<Result>(_ args: Any?, _ body: (ArgumentsPointer) -> Result) -> Result {
    withUnsafePointer(to: args) { pointer in
        body(ArgumentsPointer(raw: args == nil ? nil : UnsafeRawPointer(pointer)))
    }
}

/// As `withArguments`, for arguments the engine carried as `Any?` (the
/// async path, `registration.resolve(resolver:args:)`): typed arguments
/// boxed on the way (`TypedArgumentsBox`) are passed typed again.
func withCarriedArguments<Result>(_ args: Any?, _ body: (ArgumentsPointer) -> Result) -> Result {
    if let box = args as? TypedArgumentsBoxing {
        return box.withArguments(body)
    }
    return withArguments(args, body)
}

/// What a call's typed arguments are: their list's type `(A, repeat each B)`,
/// the values (pointers into the caller's frame), and the operations that
/// know their types (no closure: nothing is allocated per call).
@frozen
@usableFromInline
struct TypedArgumentsHeader {
    @usableFromInline let types: Any.Type
    @usableFromInline let first: UnsafeRawPointer
    @usableFromInline let rest: UnsafeRawPointer
    @usableFromInline let operations: any TypedArgumentsOperations.Type

    @inlinable
    init(types: Any.Type, first: UnsafeRawPointer, rest: UnsafeRawPointer, operations: any TypedArgumentsOperations.Type) {
        self.types = types
        self.first = first
        self.rest = rest
        self.operations = operations
    }

    /// The values, boxed.
    @usableFromInline
    func box() -> Any {
        operations.box(self)
    }

    /// The values as a hashable key, or nil when one is not `Hashable`.
    func key() -> [AnyHashable]? {
        operations.key(self)
    }
}

/// What only code that knows an argument list's types can do with it.
@usableFromInline
protocol TypedArgumentsOperations {
    /// The values `header` points at, boxed (`TypedArgumentsBox`).
    static func box(_ header: TypedArgumentsHeader) -> Any
    /// The values as a hashable key (each as `AnyHashable`), or nil when one
    /// is not `Hashable`.
    static func key(_ header: TypedArgumentsHeader) -> [AnyHashable]?
}

/// The operations of the argument list `(A, repeat each B)`.
@frozen
@usableFromInline
struct TypedArgumentsOf<A, each B>: TypedArgumentsOperations {
    @inlinable
    static func first(_ header: TypedArgumentsHeader) -> A {
        header.first.assumingMemoryBound(to: A.self).pointee
    }

    @inlinable
    static func rest(_ header: TypedArgumentsHeader) -> (repeat each B) {
        header.rest.assumingMemoryBound(to: (repeat each B).self).pointee
    }

    @usableFromInline
    static func box(_ header: TypedArgumentsHeader) -> Any {
        TypedArgumentsBox<A, repeat each B>(first(header), repeat each rest(header))
    }

    @usableFromInline
    static func key(_ header: TypedArgumentsHeader) -> [AnyHashable]? {
        argumentsKey(first(header), repeat each rest(header))
    }
}

/// `(A, repeat each B)` as text, for messages.
func describeArgumentTypes(_ types: Any.Type) -> String {
    let text = String(describing: types)
    return text.hasPrefix("(") ? text : "(" + text + ")"
}

/// Calls `body` with typed arguments, kept on the caller's stack.
@inlinable
@inline(__always)
func withTypedArguments<A, each B, Result>(_ first: A, _ rest: repeat each B,
                                          body: (ArgumentsPointer) -> Result) -> Result {
    let restValues = (repeat each rest)
    return withUnsafePointer(to: first) { firstPointer in
        withUnsafePointer(to: restValues) { restPointer in
            let header = TypedArgumentsHeader(types: (A, repeat each B).self, first: UnsafeRawPointer(firstPointer),
                                              rest: UnsafeRawPointer(restPointer),
                                              operations: TypedArgumentsOf<A, repeat each B>.self)
            return withUnsafePointer(to: header) { headerPointer in
                body(ArgumentsPointer(raw: UnsafeRawPointer(bitPattern: UInt(bitPattern: headerPointer) | 1)))
            }
        }
    }
}

/// Typed arguments boxed, to cross a suspension or reach a factory form
/// that takes `Any?`.
@usableFromInline
protocol TypedArgumentsBoxing {
    /// Calls `body` with the arguments as a typed `ArgumentsPointer`.
    func withArguments<Result>(_ body: (ArgumentsPointer) -> Result) -> Result
    /// The values as a hashable key, or nil when one is not `Hashable`.
    var hashableKey: [AnyHashable]? { get }
    /// Their list's type.
    var types: Any.Type { get }
}

/// The values of typed arguments, kept by reference.
@usableFromInline
final class TypedArgumentsBox<A, each B>: TypedArgumentsBoxing, @unchecked Sendable {
    @usableFromInline let first: A
    @usableFromInline let rest: (repeat each B)

    @usableFromInline
    init(_ first: A, _ rest: repeat each B) {
        self.first = first
        self.rest = (repeat each rest)
    }

    @usableFromInline
    func withArguments<Result>(_ body: (ArgumentsPointer) -> Result) -> Result {
        withTypedArguments(first, repeat each rest, body: body)
    }

    @usableFromInline
    var hashableKey: [AnyHashable]? {
        argumentsKey(first, repeat each rest)
    }

    @usableFromInline
    var types: Any.Type {
        (A, repeat each B).self
    }
}

/// Each value as `AnyHashable`, or nil when one of them is not `Hashable`:
/// the key of a typed call's instance in a caching scope.
func argumentsKey<A, each B>(_ first: A, _ rest: repeat each B) -> [AnyHashable]? {
    guard let head = first as? any Hashable else { return nil }
    var key = [AnyHashable(head)]
    for value in repeat each rest {
        guard let hashable = value as? any Hashable else { return nil }
        key.append(AnyHashable(hashable))
    }
    return key
}

/// Whether every type of the list is `Hashable`.
@usableFromInline
func argumentTypesAreHashable<A, each B>(_ first: A.Type, _ rest: repeat (each B).Type) -> Bool {
    guard A.self is any Hashable.Type else { return false }
    for type in repeat each rest {
        guard type is any Hashable.Type else { return false }
    }
    return true
}
