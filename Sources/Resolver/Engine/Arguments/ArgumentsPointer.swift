/// A resolve call's arguments, one word down the path (DESIGN.md, "Typed
/// arguments and per-argument instances"): nil for none (nothing to
/// destroy, and `args: nil`), an `Any?` that is not nil (`args:`), or a
/// `TypedArgumentsHeader` on the caller's stack, tagged in the low bit.
@frozen
@usableFromInline
struct ArgumentsPointer {
    @usableFromInline let raw: UnsafeRawPointer?

    @inlinable
    @inline(__always)
    init(raw: UnsafeRawPointer?) {
        self.raw = raw
    }

    @inlinable static var none: ArgumentsPointer { ArgumentsPointer(raw: nil) }
    /// Whether the call passed no arguments (or `args: nil`).
    @inlinable @inline(__always) var isNone: Bool { raw == nil }

    /// The identity of the typed arguments' list; nil for none or `args:`.
    @inlinable
    @inline(__always)
    var typedIdentity: ObjectIdentifier? {
        guard UInt(bitPattern: raw) & 1 == 1 else { return nil }
        return ObjectIdentifier(typed.unsafelyUnwrapped.pointee.types)
    }

    @inlinable
    @inline(__always)
    var typed: UnsafePointer<TypedArgumentsHeader>? {
        guard let raw, UInt(bitPattern: raw) & 1 == 1 else { return nil }
        return UnsafeRawPointer(bitPattern: UInt(bitPattern: raw) & ~1).unsafelyUnwrapped
            .assumingMemoryBound(to: TypedArgumentsHeader.self)
    }

    /// Where the `args:` value is, to `load(as: Any.self)` (one copy), or nil
    /// for none or typed arguments. The `Any?`, which is not nil, holds its
    /// `Any` at its own address: a single-payload enum keeps its payload at
    /// offset 0 (Swift's type layout). Unwrapping it instead copies the
    /// optional first.
    @inlinable
    @inline(__always)
    var untypedPayload: UnsafeRawPointer? {
        guard let raw, UInt(bitPattern: raw) & 1 == 0 else { return nil }
        return raw
    }

    /// The arguments as the factory forms that take `Any?` get them
    /// (`update(factory:)`, custom scopes, the async path): typed ones boxed.
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

/// As `withArguments`, for arguments the engine carried as `Any?`: typed
/// arguments boxed on the way (`TypedArgumentsBox`) are passed typed again.
/// Without arguments it is `withArguments`, inlined: no cast is tried.
@inlinable
func withCarriedArguments<Result>(_ args: Any?, _ body: (ArgumentsPointer) -> Result) -> Result {
    if args != nil, let box = args as? TypedArgumentsBoxing {
        return box.withArguments(body)
    }
    return withArguments(args, body)
}

/// A call's typed arguments: their list's type `(A, repeat each B)` (a key's
/// pack), their tuple in the caller's frame, and the operations that know
/// their types (a type, not a closure: nothing is allocated per call).
@frozen
@usableFromInline
struct TypedArgumentsHeader {
    @usableFromInline let types: Any.Type
    @usableFromInline let values: UnsafeRawPointer
    @usableFromInline let operations: any TypedArgumentsOperations.Type

    @inlinable
    init(types: Any.Type, values: UnsafeRawPointer, operations: any TypedArgumentsOperations.Type) {
        self.types = types
        self.values = values
        self.operations = operations
    }

    /// The values boxed (`TypedArgumentsBox`), and as a key (nil when one is not `Hashable`).
    @usableFromInline func box() -> Any { operations.box(self) }
    func key() -> [AnyHashable]? { operations.key(self) }
}

@usableFromInline
protocol TypedArgumentsOperations {
    static func box(_ header: TypedArgumentsHeader) -> Any
    static func key(_ header: TypedArgumentsHeader) -> [AnyHashable]?
}

@frozen
@usableFromInline
struct TypedArgumentsOf<each Argument>: TypedArgumentsOperations {
    @inlinable
    @inline(__always)
    static func values(_ header: TypedArgumentsHeader) -> (repeat each Argument) {
        header.values.assumingMemoryBound(to: (repeat each Argument).self).pointee
    }

    /// The values of `arguments`, a call's typed list that was checked to be
    /// this one (`ResolverRegistration.checkArguments`).
    @inlinable
    @inline(__always)
    static func values(checked arguments: ArgumentsPointer) -> (repeat each Argument) {
        values(arguments.typed.unsafelyUnwrapped.pointee)
    }

    @usableFromInline static func box(_ header: TypedArgumentsHeader) -> Any {
        TypedArgumentsBox<repeat each Argument>(repeat each values(header))
    }
    @usableFromInline static func key(_ header: TypedArgumentsHeader) -> [AnyHashable]? { argumentsKey(repeat each values(header)) }
}

/// `(A, repeat each B)` as text, for messages.
func describeArgumentTypes(_ types: Any.Type) -> String {
    let text = String(describing: types)
    return text.hasPrefix("(") ? text : "(" + text + ")"
}

/// Calls `body` with typed arguments on the caller's stack. The closures see
/// `A` and `B` apart and make the header's types inside (DESIGN.md, W1).
@inlinable
@inline(__always)
func withTypedArguments<A, each B, Result>(_ first: A, _ rest: repeat each B,
                                          body: (ArgumentsPointer) -> Result) -> Result {
    let values = (first, repeat each rest)
    return withUnsafePointer(to: values) { valuesPointer in
        let header = TypedArgumentsHeader(types: (A, repeat each B).self, values: UnsafeRawPointer(valuesPointer),
                                          operations: TypedArgumentsOf<A, repeat each B>.self)
        return withUnsafePointer(to: header) { headerPointer in
            body(ArgumentsPointer(raw: UnsafeRawPointer(bitPattern: UInt(bitPattern: headerPointer) | 1)))
        }
    }
}

/// Typed arguments boxed, to cross a suspension or reach a factory form that takes `Any?`.
@usableFromInline
protocol TypedArgumentsBoxing {
    func withArguments<Result>(_ body: (ArgumentsPointer) -> Result) -> Result
    var types: Any.Type { get }
}

@usableFromInline
final class TypedArgumentsBox<each Argument>: TypedArgumentsBoxing, @unchecked Sendable {
    @usableFromInline let values: (repeat each Argument)
    @usableFromInline init(_ values: repeat each Argument) { self.values = (repeat each values) }

    @usableFromInline
    func withArguments<Result>(_ body: (ArgumentsPointer) -> Result) -> Result {
        withUnsafePointer(to: values) { valuesPointer in
            let header = TypedArgumentsHeader(types: (repeat each Argument).self, values: UnsafeRawPointer(valuesPointer),
                                              operations: TypedArgumentsOf<repeat each Argument>.self)
            return withUnsafePointer(to: header) { headerPointer in
                body(ArgumentsPointer(raw: UnsafeRawPointer(bitPattern: UInt(bitPattern: headerPointer) | 1)))
            }
        }
    }

    @usableFromInline var types: Any.Type { (repeat each Argument).self }
}

/// The key of a typed call's instance in a caching scope, or nil when a value is not `Hashable`.
@usableFromInline
func argumentsKey<each Argument>(_ values: repeat each Argument) -> [AnyHashable]? {
    var key: [AnyHashable] = []
    for value in repeat each values {
        guard let hashable = value as? any Hashable else { return nil }
        key.append(AnyHashable(hashable))
    }
    return key
}

/// How many types are in a pack (a constant once specialized).
@inlinable
@inline(__always)
func argumentCount<each Argument>(_ types: repeat (each Argument).Type) -> Int {
    var count = 0
    for _ in repeat each types { count += 1 }
    return count
}
