// Contexts and overrides of keys that run on the main actor, and contexts
// added to a key from any module (a test target's `registerAllServices`):
//
//     Resolver.onTest(\.repo) { r in FakeRepo(db: r.resolve(\.db)) }
//     ResolverKey { @MainActor in LivePlayer() }.onTest { @MainActor in FakePlayer() }
//     Resolver.register(\.player) { @MainActor in FakePlayer() }
//
// `Resolver.onTest(\.key)` (or `onPreview`, `onArg`, `onDebug`) adds to the
// key's own registration, made from its declaration if need be, as one
// written on the key would. A main-actor factory runs as a `@MainActor`
// registration's does.

extension ResolverKey {
    /// Under a test runner, resolves with `factory`, on the main actor: `.onTest { @MainActor in FakePlayer() }`.
    @inlinable
    @inline(__always)
    public func onTest(_ factory: @escaping @MainActor (repeat each Argument) -> Service) -> ResolverKey {
        adding(.test) { Resolver.mainActorForm(arguments: factory) }
    }

    /// Under a test runner, resolves with `factory`, given the container, on the main actor.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public func onTest(_ factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(.test) { Resolver.mainActorForm(resolver: factory) }
    }

    /// For Xcode's previews, resolves with `factory`, on the main actor.
    @inlinable
    @inline(__always)
    public func onPreview(_ factory: @escaping @MainActor (repeat each Argument) -> Service) -> ResolverKey {
        adding(.preview) { Resolver.mainActorForm(arguments: factory) }
    }

    /// For Xcode's previews, resolves with `factory`, given the container, on the main actor.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public func onPreview(_ factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(.preview) { Resolver.mainActorForm(resolver: factory) }
    }

    /// When the app was launched with `argument`, resolves with `factory`, on the main actor.
    @inlinable
    @inline(__always)
    public func onArg(_ argument: String, _ factory: @escaping @MainActor (repeat each Argument) -> Service) -> ResolverKey {
        adding(.argument(argument)) { Resolver.mainActorForm(arguments: factory) }
    }

    /// When the app was launched with `argument`, resolves with `factory`, given the container, on the main actor.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public func onArg(_ argument: String,
                      _ factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(.argument(argument)) { Resolver.mainActorForm(resolver: factory) }
    }

    /// In a debug build of the app, resolves with `factory`, on the main actor.
    @inlinable
    @inline(__always)
    public func onDebug(_ factory: @escaping @MainActor (repeat each Argument) -> Service) -> ResolverKey {
        adding(.debug) { Resolver.mainActorForm(arguments: factory) }
    }

    /// In a debug build of the app, resolves with `factory`, given the container, on the main actor.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public func onDebug(_ factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(.debug) { Resolver.mainActorForm(resolver: factory) }
    }
}

extension Resolver {
    // MARK: - Contexts from any module

    /// Under a test runner, resolves the key with `factory` instead, as an `onTest` written on the
    /// key would: `Resolver.onTest(\.repo) { FakeRepo() }`, from a test target's `registerAllServices`
    /// or anywhere else. Each of these contexts also takes a factory given the container first, and
    /// one on the main actor.
    ///
    /// - Parameters:
    ///   - key: the key, a property of ``ResolverKeys``.
    ///   - factory: makes the service from the key's arguments.
    public static func onTest<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                     _ factory: @escaping (repeat each Argument) -> Service) {
        addContext(.test, to: key, anyArgumentsForm(arguments: factory))
    }

    /// Under a test runner, resolves the key with `factory`, given the container:
    /// `Resolver.onTest(\.repo) { r in FakeRepo(db: r.resolve(\.db)) }`.
    @_disfavoredOverload
    public static func onTest<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                     _ factory: @escaping (Resolver, repeat each Argument) -> Service) {
        addContext(.test, to: key, anyArgumentsForm(resolver: factory))
    }

    /// Under a test runner, resolves the key with `factory`, on the main actor.
    public static func onTest<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                     _ factory: @escaping @MainActor (repeat each Argument) -> Service) {
        addContext(.test, to: key, mainActorForm(arguments: factory))
    }

    /// Under a test runner, resolves the key with `factory`, given the container, on the main actor.
    @_disfavoredOverload
    public static func onTest<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                     _ factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) {
        addContext(.test, to: key, mainActorForm(resolver: factory))
    }

    /// For Xcode's previews, resolves the key with `factory` instead, as an `onPreview` written on the key would.
    public static func onPreview<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                        _ factory: @escaping (repeat each Argument) -> Service) {
        addContext(.preview, to: key, anyArgumentsForm(arguments: factory))
    }

    /// For Xcode's previews, resolves the key with `factory`, given the container.
    @_disfavoredOverload
    public static func onPreview<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                        _ factory: @escaping (Resolver, repeat each Argument) -> Service) {
        addContext(.preview, to: key, anyArgumentsForm(resolver: factory))
    }

    /// For Xcode's previews, resolves the key with `factory`, on the main actor.
    public static func onPreview<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                        _ factory: @escaping @MainActor (repeat each Argument) -> Service) {
        addContext(.preview, to: key, mainActorForm(arguments: factory))
    }

    /// For Xcode's previews, resolves the key with `factory`, given the container, on the main actor.
    @_disfavoredOverload
    public static func onPreview<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                        _ factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) {
        addContext(.preview, to: key, mainActorForm(resolver: factory))
    }

    /// When the app was launched with `argument` (such as `"-mock-api"`), resolves the key with
    /// `factory` instead, as an `onArg` written on the key would.
    public static func onArg<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                    _ argument: String, _ factory: @escaping (repeat each Argument) -> Service) {
        addContext(.argument(argument), to: key, anyArgumentsForm(arguments: factory))
    }

    /// When the app was launched with `argument`, resolves the key with `factory`, given the container.
    @_disfavoredOverload
    public static func onArg<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                    _ argument: String,
                                                    _ factory: @escaping (Resolver, repeat each Argument) -> Service) {
        addContext(.argument(argument), to: key, anyArgumentsForm(resolver: factory))
    }

    /// When the app was launched with `argument`, resolves the key with `factory`, on the main actor.
    public static func onArg<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                    _ argument: String,
                                                    _ factory: @escaping @MainActor (repeat each Argument) -> Service) {
        addContext(.argument(argument), to: key, mainActorForm(arguments: factory))
    }

    /// When the app was launched with `argument`, resolves the key with `factory`, given the container, on the main actor.
    @_disfavoredOverload
    public static func onArg<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                    _ argument: String,
                                                    _ factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) {
        addContext(.argument(argument), to: key, mainActorForm(resolver: factory))
    }

    /// In a debug build of the app, resolves the key with `factory` instead, as an `onDebug` written on the key would.
    public static func onDebug<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                      _ factory: @escaping (repeat each Argument) -> Service) {
        addContext(.debug, to: key, anyArgumentsForm(arguments: factory))
    }

    /// In a debug build of the app, resolves the key with `factory`, given the container.
    @_disfavoredOverload
    public static func onDebug<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                      _ factory: @escaping (Resolver, repeat each Argument) -> Service) {
        addContext(.debug, to: key, anyArgumentsForm(resolver: factory))
    }

    /// In a debug build of the app, resolves the key with `factory`, on the main actor.
    public static func onDebug<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                      _ factory: @escaping @MainActor (repeat each Argument) -> Service) {
        addContext(.debug, to: key, mainActorForm(arguments: factory))
    }

    /// In a debug build of the app, resolves the key with `factory`, given the container, on the main actor.
    @_disfavoredOverload
    public static func onDebug<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                      _ factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) {
        addContext(.debug, to: key, mainActorForm(resolver: factory))
    }

    /// Adds a context to the key's own registration (made from its declaration if it has none yet).
    static func addContext<Service, each Argument>(_ context: RegistrationContext,
                                                   to key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                   _ factory: @escaping ResolverFactoryAnyArguments<Service>) {
        declareKey(key, declaredAt: ResolverKeys()[keyPath: key].site).addContext(context, factory)
    }

    // MARK: - Overrides on the main actor

    /// Registers another factory for a key, on the main actor, in the task's root (`main` outside a
    /// test): `Resolver.register(\.player) { @MainActor in FakePlayer() }`. As the plain
    /// `register(_:fileID:line:factory:)` otherwise.
    @inlinable
    @discardableResult
    public static func register<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                        fileID: StaticString = #fileID, line: UInt = #line,
                                                        factory: @escaping @MainActor (repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        overrideKey(key, .onMainActor(arguments: factory), in: nil, RegistrationSite(fileID, line))
    }

    /// Registers another factory for a key, given the resolving container, on the main actor, in the
    /// task's root (`main` outside a test).
    @inlinable
    @discardableResult
    public static func register<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                        fileID: StaticString = #fileID, line: UInt = #line,
                                                        factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        overrideKey(key, .onMainActor(resolver: factory), in: nil, RegistrationSite(fileID, line))
    }
}

extension Resolver.Registrar {
    /// Registers another factory for a key in this container, on the main actor:
    /// `container.register(\.player) { @MainActor in FakePlayer() }`.
    @inlinable
    @discardableResult
    public func callAsFunction<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                       fileID: StaticString = #fileID, line: UInt = #line,
                                                       factory: @escaping @MainActor (repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        Resolver.overrideKey(key, .onMainActor(arguments: factory), in: container, RegistrationSite(fileID, line))
    }

    /// Registers another factory for a key in this container, given the resolving container, on the main actor.
    @inlinable
    @discardableResult
    public func callAsFunction<Service, each Argument>(_ key: KeyPath<ResolverKeys, ResolverKey<Service, repeat each Argument>>,
                                                       fileID: StaticString = #fileID, line: UInt = #line,
                                                       factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service)
        -> ResolverOptions<Service> {
        Resolver.overrideKey(key, .onMainActor(resolver: factory), in: container, RegistrationSite(fileID, line))
    }
}
