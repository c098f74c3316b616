extension LazyBox {
    /// The service of the wrapper's key, resolved from `container` (nil:
    /// `Resolver.root`), when the wrapper was made with a key; nil otherwise.
    func resolveKey<Service>(as type: Service.Type, from container: Resolver?) -> Service? {
        guard let key = key as? KeyPath<ResolverKeys, ResolverKey<Service>> else {
            return nil
        }
        return container?.resolve(key) ?? Resolver.resolve(key)
    }
}
