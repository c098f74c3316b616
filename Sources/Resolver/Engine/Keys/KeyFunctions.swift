// A key's factories, stored with their types erased (DESIGN.md,
// "Compile-time-checked keys").
//
// A key's getter runs at every resolve, and the resolve needs only the key's
// place; the factory and its contexts are taken once, at the key's first
// use (`KeyDeclaration`). A function of a variadic type
// (`(repeat each Argument) -> Service`) kept in a generic value defeats the
// optimizer: its copies and its destruction go through its type's value
// witnesses. So the declaration keeps each function as `KeyFunction`: the
// shape it was written with and the function value itself, retyped as a
// struct holding a `() -> Void` (`ErasedFunction`). A function value is a
// function pointer and a reference-counted context, whatever its type (the
// main actor's and async functions' too), so the retyped value is copied
// and released as the original would be. It is retyped back only to the
// wrapper it came from (`KeyPlainFunction` …, one struct of one stored
// function per shape): the struct's field fixes the function's abstraction,
// as Swift asks of variadic function values, so both ends agree on its
// calling convention.

/// The shape a key's factory (or one of its contexts) was written with.
@usableFromInline
enum KeyFunctionShape: UInt8, Sendable {
    /// `{ LiveAPI() }`, `{ userID, locale in … }`: the arguments.
    case plain
    /// `{ r in … }`, `{ r, userID, locale in … }`: the resolving container, then the arguments.
    case withResolver
    /// `{ @MainActor in … }`.
    case mainActorPlain
    /// `{ @MainActor r in … }`.
    case mainActorWithResolver
    /// `{ await … }`.
    case asyncPlain
    /// `{ r in await … }`.
    case asyncWithResolver
}

/// A key's function with its type erased: its shape and the function value.
@frozen
@usableFromInline
struct KeyFunction {
    @usableFromInline let shape: KeyFunctionShape
    /// The function, retyped (see above): never called as this type.
    @usableFromInline let erased: ErasedFunction

    @inlinable
    @inline(__always)
    init<Function>(_ shape: KeyFunctionShape, _ function: Function) {
        self.shape = shape
        erased = unsafeBitCast(function, to: ErasedFunction.self)
    }

    /// The function, as the wrapper `Function` it was stored from.
    @inlinable
    @inline(__always)
    func restored<Function>(as type: Function.Type) -> Function {
        unsafeBitCast(erased, to: Function.self)
    }

    // MARK: Storing

    @inlinable
    @inline(__always)
    static func plain<Service, each Argument>(_ function: @escaping (repeat each Argument) -> Service) -> KeyFunction {
        KeyFunction(.plain, KeyPlainFunction(function))
    }

    @inlinable
    @inline(__always)
    static func withResolver<Service, each Argument>(_ function: @escaping (Resolver, repeat each Argument) -> Service)
        -> KeyFunction {
        KeyFunction(.withResolver, KeyResolverFunction(function))
    }

    @inlinable
    @inline(__always)
    static func mainActorPlain<Service, each Argument>(_ function: @escaping @MainActor (repeat each Argument) -> Service)
        -> KeyFunction {
        KeyFunction(.mainActorPlain, KeyMainActorFunction(function))
    }

    @inlinable
    @inline(__always)
    static func mainActorWithResolver<Service, each Argument>(
        _ function: @escaping @MainActor (Resolver, repeat each Argument) -> Service) -> KeyFunction {
        KeyFunction(.mainActorWithResolver, KeyMainActorResolverFunction(function))
    }

    @inlinable
    @inline(__always)
    static func asyncPlain<Service, each Argument>(_ function: @escaping (repeat each Argument) async -> Service)
        -> KeyFunction {
        KeyFunction(.asyncPlain, KeyAsyncFunction(function))
    }

    @inlinable
    @inline(__always)
    static func asyncWithResolver<Service, each Argument>(
        _ function: @escaping (Resolver, repeat each Argument) async -> Service) -> KeyFunction {
        KeyFunction(.asyncWithResolver, KeyAsyncResolverFunction(function))
    }
}

/// A function value retyped: a struct, so that the casts pass it as it is
/// (a function type given to a generic cast would be wrapped in a thunk of
/// another calling convention).
@frozen
@usableFromInline
struct ErasedFunction {
    @usableFromInline let function: () -> Void
}

// One wrapper per shape: a struct of one stored function, the form in which
// a variadic function value keeps one calling convention.

@frozen
@usableFromInline
struct KeyPlainFunction<Service, each Argument> {
    @usableFromInline let call: (repeat each Argument) -> Service

    @inlinable
    @inline(__always)
    init(_ call: @escaping (repeat each Argument) -> Service) {
        self.call = call
    }
}

@frozen
@usableFromInline
struct KeyResolverFunction<Service, each Argument> {
    @usableFromInline let call: (Resolver, repeat each Argument) -> Service

    @inlinable
    @inline(__always)
    init(_ call: @escaping (Resolver, repeat each Argument) -> Service) {
        self.call = call
    }
}

@frozen
@usableFromInline
struct KeyMainActorFunction<Service, each Argument> {
    @usableFromInline let call: @MainActor (repeat each Argument) -> Service

    @inlinable
    @inline(__always)
    init(_ call: @escaping @MainActor (repeat each Argument) -> Service) {
        self.call = call
    }
}

@frozen
@usableFromInline
struct KeyMainActorResolverFunction<Service, each Argument> {
    @usableFromInline let call: @MainActor (Resolver, repeat each Argument) -> Service

    @inlinable
    @inline(__always)
    init(_ call: @escaping @MainActor (Resolver, repeat each Argument) -> Service) {
        self.call = call
    }
}

@frozen
@usableFromInline
struct KeyAsyncFunction<Service, each Argument> {
    @usableFromInline let call: (repeat each Argument) async -> Service

    @inlinable
    @inline(__always)
    init(_ call: @escaping (repeat each Argument) async -> Service) {
        self.call = call
    }
}

@frozen
@usableFromInline
struct KeyAsyncResolverFunction<Service, each Argument> {
    @usableFromInline let call: (Resolver, repeat each Argument) async -> Service

    @inlinable
    @inline(__always)
    init(_ call: @escaping (Resolver, repeat each Argument) async -> Service) {
        self.call = call
    }
}

/// One context of a key (`onTest`, `onArg`, …): where it applies, and its
/// factory.
@frozen
@usableFromInline
struct KeyContext {
    @usableFromInline let context: RegistrationContext
    @usableFromInline let function: KeyFunction

    @inlinable
    @inline(__always)
    init(_ context: RegistrationContext, _ function: KeyFunction) {
        self.context = context
        self.function = function
    }
}
