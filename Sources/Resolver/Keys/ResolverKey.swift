// Compile-time-checked keys: a service, its default factory and its options declared once, as a
// property of `ResolverKeys`, and resolved through a key path (`ResolvingKeys.swift`), so that a
// missing service or a wrong argument is a build error. A key is a registration of its service
// type under a name of its own; its getter runs at each resolve, and the factory and options
// written there reach the engine at its first use (`KeyDeclaring`; DESIGN.md, K1–K4).

/// The namespace of compile-time-checked keys: declare each key as a
/// computed property in an extension, and resolve it by key path.
///
/// ```swift
/// extension ResolverKeys {
///     var api: ResolverKey<any API> { ResolverKey { LiveAPI() } }
/// }
/// let api = Resolver.resolve(\.api)
/// ```
///
/// See <doc:CompileTimeCheckedKeys>.
public struct ResolverKeys: Sendable {
    /// The value key paths are applied to; keys are declared, not stored.
    @inlinable
    @inline(__always)
    init() {}
}

/// A compile-time-checked key: the service a key path of ``ResolverKeys`` resolves, the
/// arguments a resolve passes, its default factory and its options.
///
/// ```swift
/// extension ResolverKeys {
///     var noteList: ResolverKey<NoteListViewModel, Int, String> {
///         ResolverKey { r, userID, locale in
///             NoteListViewModel(userID: userID, locale: locale, store: r.resolve(\.store))
///         }
///     }
/// }
/// let model = Resolver.resolve(\.noteList, arguments: 42, "en")
/// ```
///
/// The factory must return `Service` and take the arguments in their order (after the resolving
/// container, if it takes it), or the declaration does not compile; a resolve must pass arguments
/// of those types, or it does not compile. Options are a registration's: ``scope(_:)``, the
/// contexts (`onTest`, `onPreview`, `onArg`, `onDebug`) and ``allowedInStrictTests()``.
///
/// A key's identity is its service type and the name of the property that makes it (`#function`,
/// taken by the initializer's default argument), so declare each key as its own property. Leave
/// `fileID`, `line` and `name` out of every initializer. Two modules that declare a key of one
/// service type under one property name declare the same key: its first use stops with a message
/// naming both places.
///
/// The property's getter runs at every resolve, and the key it returns is only where it is
/// declared: the factory and the options are read from the getter when the key's registration is
/// made, at its first use, by running it once more. So a getter must make its key the same way
/// every time, and do nothing else. See <doc:CompileTimeCheckedKeys>.
public struct ResolverKey<Service, each Argument> {
    /// Where the key is declared, and its name: all a key holds.
    @usableFromInline let site: KeySite

    @inlinable
    @inline(__always)
    init(site: KeySite) {
        self.site = site
    }

    // MARK: Declaring
    //
    // One initializer per factory shape; the compiler tries each a closure could be converted to.
    // The shapes that take the container and the async ones are `@_disfavoredOverload`, tried only
    // when no other fits, which never changes the choice: a closure fits the plain shapes or those
    // that take the container (one parameter more), never both, and a synchronous shape never takes
    // an async closure. Each isolation pair stays alike (plain and main-actor neither disfavored,
    // the two that take the container both): the compiler accepts a `@MainActor` closure for a
    // nonisolated shape and reports the lost isolation only afterwards, so a disfavored main-actor
    // shape would lose `{ @MainActor in … }` to the plain one.

    /// A key whose factory takes the arguments: `ResolverKey { LiveAPI() }`,
    /// or `ResolverKey { userID, locale in NoteListViewModel(userID: userID, locale: locale) }`.
    ///
    /// - Parameters:
    ///   - fileID: where the key is declared (`#fileID`); leave it out.
    ///   - line: the declaration's line (`#line`); leave it out.
    ///   - name: the key's name, the declaring property's (`#function`); leave it out.
    ///   - factory: makes the service from the arguments.
    @inlinable
    @inline(__always)
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                _ factory: @escaping (repeat each Argument) -> Service) {
        self.init(site: KeySite(fileID, line, name))
        if KeyDeclaring.isDeclaring {
            KeyDeclaring.offer(site, Service.self, repeat (each Argument).self) { .taking(arguments: factory) }
        }
    }

    /// A key whose factory takes the resolving container, then the arguments:
    /// `ResolverKey { r in NoteStore(api: r.resolve(\.api)) }`.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                _ factory: @escaping (Resolver, repeat each Argument) -> Service) {
        self.init(site: KeySite(fileID, line, name))
        if KeyDeclaring.isDeclaring {
            KeyDeclaring.offer(site, Service.self, repeat (each Argument).self) { .taking(resolver: factory) }
        }
    }

    /// A key whose factory runs on the main actor: `ResolverKey { @MainActor in SettingsViewModel() }`.
    ///
    /// As for a `@MainActor` registration, a synchronous resolve runs it on the main actor only
    /// (elsewhere it returns a cached instance or stops with a message), and `resolveAsync` hops there.
    @inlinable
    @inline(__always)
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                mainActor factory: @escaping @MainActor (repeat each Argument) -> Service) {
        self.init(site: KeySite(fileID, line, name))
        if KeyDeclaring.isDeclaring {
            KeyDeclaring.offer(site, Service.self, repeat (each Argument).self) { .onMainActor(arguments: factory) }
        }
    }

    /// A key whose factory runs on the main actor and takes the resolving container:
    /// `ResolverKey { @MainActor r in ProfileViewModel(store: r.resolve(\.store)) }`.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                mainActor factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) {
        self.init(site: KeySite(fileID, line, name))
        if KeyDeclaring.isDeclaring {
            KeyDeclaring.offer(site, Service.self, repeat (each Argument).self) { .onMainActor(resolver: factory) }
        }
    }

    /// A key whose factory is async: `ResolverKey { await Database.open() }`, resolved with
    /// `await Resolver.resolveAsync(\.database)`.
    ///
    /// As for an async registration, a caching scope builds it once while the other askers suspend,
    /// and a synchronous resolve returns a cached instance or stops with a message.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                _ factory: @escaping (repeat each Argument) async -> Service) {
        self.init(site: KeySite(fileID, line, name))
        if KeyDeclaring.isDeclaring {
            KeyDeclaring.offer(site, Service.self, repeat (each Argument).self) { .awaiting(arguments: factory) }
        }
    }

    /// A key whose factory is async and takes the resolving container:
    /// `ResolverKey { r in await Store.open(api: r.resolve(\.api)) }`.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                _ factory: @escaping (Resolver, repeat each Argument) async -> Service) {
        self.init(site: KeySite(fileID, line, name))
        if KeyDeclaring.isDeclaring {
            KeyDeclaring.offer(site, Service.self, repeat (each Argument).self) { .awaiting(resolver: factory) }
        }
    }

    /// A key that another module registers: `var analytics: ResolverKey<any Analytics> { .promised() }`.
    ///
    /// Until someone registers it (`Resolver.register(\.analytics) { … }`), `resolve` stops with a
    /// message that names the key and where it was declared, `optional` returns nil, and `verify()`
    /// lists it among its failures once the program has mentioned it (resolved it, declared a property
    /// wrapper of it, or registered it).
    @inlinable
    @inline(__always)
    public static func promised(fileID: StaticString = #fileID, line: UInt = #line,
                                name: StaticString = #function) -> ResolverKey {
        let key = ResolverKey(site: KeySite(fileID, line, name))
        if KeyDeclaring.isDeclaring {
            KeyDeclaring.offerPromise(key.site, repeat (each Argument).self)
        }
        return key
    }

    // MARK: Options

    /// The scope of the key's registration: `.scope(.application)`. Without
    /// it, the key gets `Resolver.defaultScope` as it is when the key is
    /// first used. Time-to-live scopes and scopes of your own work as for
    /// registrations.
    ///
    /// - Parameter scope: the scope; evaluated once, when the key's
    ///   registration is made (and for each override, which keeps it).
    @inlinable
    @inline(__always)
    public func scope(_ scope: @autoclosure @escaping () -> ResolverScope) -> ResolverKey {
        if KeyDeclaring.isDeclaring {
            KeyDeclaring.offer(site, scope: scope)
        }
        return self
    }

    // Each context takes the key's factory in its two shapes; the one given the
    // container is `@_disfavoredOverload`, as the initializer's is, so that
    // `.onTest { MockAPI() }` is checked against one modifier, not against
    // both with the key's initializers under each.

    /// Under a test runner, resolves with `factory` instead (as a registration's `onTest` does);
    /// strict tests do not report the key. Each context also takes a factory given the container
    /// first, and one on the main actor (`.onTest { @MainActor in FakePlayer() }`).
    @inlinable
    @inline(__always)
    public func onTest(_ factory: @escaping (repeat each Argument) -> Service) -> ResolverKey {
        adding(.test) { Resolver.anyArgumentsForm(arguments: factory) }
    }

    /// Under a test runner, resolves with `factory`, given the container.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public func onTest(_ factory: @escaping (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(.test) { Resolver.anyArgumentsForm(resolver: factory) }
    }

    /// For Xcode's previews, resolves with `factory` instead (as a registration's `onPreview` does).
    @inlinable
    @inline(__always)
    public func onPreview(_ factory: @escaping (repeat each Argument) -> Service) -> ResolverKey {
        adding(.preview) { Resolver.anyArgumentsForm(arguments: factory) }
    }

    /// For Xcode's previews, resolves with `factory`, given the container.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public func onPreview(_ factory: @escaping (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(.preview) { Resolver.anyArgumentsForm(resolver: factory) }
    }

    /// When the app was launched with `argument` (such as `"-mock-api"`), resolves with `factory`
    /// instead (as a registration's `onArg` does).
    @inlinable
    @inline(__always)
    public func onArg(_ argument: String, _ factory: @escaping (repeat each Argument) -> Service) -> ResolverKey {
        adding(.argument(argument)) { Resolver.anyArgumentsForm(arguments: factory) }
    }

    /// When the app was launched with `argument`, resolves with `factory`, given the container.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public func onArg(_ argument: String, _ factory: @escaping (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(.argument(argument)) { Resolver.anyArgumentsForm(resolver: factory) }
    }

    /// In a debug build of the app, resolves with `factory` instead (as a registration's `onDebug` does).
    @inlinable
    @inline(__always)
    public func onDebug(_ factory: @escaping (repeat each Argument) -> Service) -> ResolverKey {
        adding(.debug) { Resolver.anyArgumentsForm(arguments: factory) }
    }

    /// In a debug build of the app, resolves with `factory`, given the container.
    @_disfavoredOverload
    @inlinable
    @inline(__always)
    public func onDebug(_ factory: @escaping (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(.debug) { Resolver.anyArgumentsForm(resolver: factory) }
    }

    /// Lets strict tests use the key's default factory though the test did not register the key
    /// (as a registration's `allowedInStrictTests()` does).
    @inlinable
    @inline(__always)
    public func allowedInStrictTests() -> ResolverKey {
        if KeyDeclaring.isDeclaring {
            KeyDeclaring.offerAllowedInStrictTests(site)
        }
        return self
    }

    /// Hands a context to the declaration this thread is taking, if any.
    @inlinable
    @inline(__always)
    func adding(_ context: RegistrationContext, _ factory: () -> ResolverFactoryAnyArguments<Service>) -> ResolverKey {
        if KeyDeclaring.isDeclaring {
            KeyDeclaring.offer(site, context: context, factory: factory)
        }
        return self
    }
}
