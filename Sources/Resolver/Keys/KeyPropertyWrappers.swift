// The property wrappers with a key: `@Injected(\.api) var api`,
// `@LazyInjected(\.store) var store`, `@WeakLazyInjected(\.store) var store`,
// `@OptionalInjected(\.analytics) var analytics`, `@DynamicInjected(\.api) var api`,
// each with `container:` as the wrappers of a service type take it. A wrapper
// resolves a key without arguments (a key with arguments needs them at each resolve).

extension Injected {
    /// Resolves the key's service from `container`, or `Resolver.root`:
    /// `@Injected(\.api) var api: any API`.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - container: the container to resolve from; nil means `Resolver.root`.
    public init(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>, container: Resolver? = nil) {
        service = container?.resolve(key) ?? Resolver.resolve(key)
    }
}

extension OptionalInjected {
    /// Resolves the key's service from `container`, then `Resolver.root`,
    /// or nil: `@OptionalInjected(\.analytics) var analytics: (any Analytics)?`
    /// (nil while a promised key is not registered).
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - container: the container to resolve from first; nil means `Resolver.root` only.
    public init(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>, container: Resolver? = nil) {
        service = container?.optional(key) ?? Resolver.optional(key)
    }
}

extension LazyInjected {
    /// Resolves the key's service from `container` (or `Resolver.root`) on
    /// first read: `@LazyInjected(\.store) var store: NoteStore`. Its
    /// `name` and `args` are not used.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - container: the container to resolve from; nil means `Resolver.root`.
    public init(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>, container: Resolver? = nil) {
        box = LazyBox(name: nil, container: container, key: key)
        Resolver.mentionKey(key)
    }
}

extension WeakLazyInjected {
    /// Resolves the key's service from `container` (or `Resolver.root`) on
    /// first read, and holds it weakly: `@WeakLazyInjected(\.store) var store: NoteStore?`.
    /// Its `name` and `args` are not used.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - container: the container to resolve from; nil means `Resolver.root`.
    public init(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>, container: Resolver? = nil) {
        box = LazyBox(name: nil, container: container, key: key)
        Resolver.mentionKey(key)
    }
}

extension DynamicInjected {
    /// Resolves the key's service from `container`, or `Resolver.root`, at
    /// every read: `@DynamicInjected(\.api) var api: any API`.
    ///
    /// Makes the key's registration now if it has none, so that `verify()`
    /// lists a promised key that nothing registered before the first read.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - container: the container to resolve from; nil means `Resolver.root`,
    ///     read at each read.
    public init(_ key: KeyPath<ResolverKeys, ResolverKey<Service>>, container: Resolver? = nil) {
        name = nil
        self.container = container
        self.key = key
        Resolver.mentionKey(key)
    }
}
