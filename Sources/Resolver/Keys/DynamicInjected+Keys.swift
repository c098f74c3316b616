// `@DynamicInjected(\.api) var api`: the key variant of `DynamicInjected`
// (`DynamicInjected.swift`), beside the other wrappers' key variants
// (`KeyPropertyWrappers.swift`). It resolves a key without arguments (a key
// with arguments needs them at each resolve).

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
