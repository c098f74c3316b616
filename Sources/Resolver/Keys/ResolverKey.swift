// Compile-time-checked keys: a service, its default factory and its options
// declared once, as a property of `ResolverKeys`, and resolved through a key
// path, so that a missing service or a wrong argument is a build error:
//
//     extension ResolverKeys {
//         var api: ResolverKey<any API> { ResolverKey { LiveAPI() } }
//         var store: ResolverKey<NoteStore> {
//             ResolverKey { r in NoteStore(api: r.resolve(\.api)) }.scope(.application)
//         }
//         var noteList: ResolverKey<NoteListViewModel, Int, String> {
//             ResolverKey { r, userID, locale in NoteListViewModel(userID: userID, locale: locale) }
//         }
//     }
//     let store = Resolver.resolve(\.store)
//
// A key is a registration of its service type under a name of its own, made
// from its property's name where the key is declared (`#function`, with the
// file and line for messages): `Engine/Keys` (DESIGN.md, "Compile-time-checked
// keys"). The getter runs at each resolve and only builds this value; the
// registration is made once, at the key's first use.

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
    init() {}
}

/// A compile-time-checked key: the service a key path of ``ResolverKeys``
/// resolves, the arguments a resolve passes, its default factory and its
/// options.
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
/// The factory must return `Service` and take the arguments in their order
/// (after the resolving container, if it takes it), or the declaration does
/// not compile; a resolve must pass arguments of those types, or it does not
/// compile. Options are a registration's: ``scope(_:)``, the contexts
/// (``onTest(_:)-(()->Service)``, …) and ``allowedInStrictTests()``.
///
/// A key's identity is its service type and the name of the property that
/// makes it (`#function`, taken by the initializer's default argument), so
/// declare each key as its own property. Leave `fileID`, `line` and `name`
/// out. Two modules that declare a key of one service type under one
/// property name declare the same key: its first use stops with a message
/// naming both places.
///
/// The property's getter runs at every resolve. It only builds this value
/// (no instance is made, nothing is registered), which costs nothing once
/// the compiler sees the getter and the key path together; the key's
/// registration is made at its first use. See <doc:CompileTimeCheckedKeys>.
public struct ResolverKey<Service, each Argument> {
    /// Where the key is declared, and its name.
    @usableFromInline let site: KeySite
    /// The default factory, in the one shape it was declared with (all nil:
    /// a promised key).
    @usableFromInline let plain: ((repeat each Argument) -> Service)?
    @usableFromInline let withResolver: ((Resolver, repeat each Argument) -> Service)?
    @usableFromInline let mainActorPlain: (@MainActor (repeat each Argument) -> Service)?
    @usableFromInline let mainActorWithResolver: (@MainActor (Resolver, repeat each Argument) -> Service)?
    @usableFromInline let asyncPlain: ((repeat each Argument) async -> Service)?
    @usableFromInline let asyncWithResolver: ((Resolver, repeat each Argument) async -> Service)?
    /// The scope, read when the key's registration is made (nil:
    /// `Resolver.defaultScope` then).
    @usableFromInline let scope: (() -> ResolverScope)?
    /// The contexts, in the order written.
    @usableFromInline let contexts: [KeyContext<Service, repeat each Argument>]
    @usableFromInline let isAllowedInStrictTests: Bool

    @inlinable
    init(site: KeySite, plain: ((repeat each Argument) -> Service)?,
         withResolver: ((Resolver, repeat each Argument) -> Service)?,
         mainActorPlain: (@MainActor (repeat each Argument) -> Service)?,
         mainActorWithResolver: (@MainActor (Resolver, repeat each Argument) -> Service)?,
         asyncPlain: ((repeat each Argument) async -> Service)?,
         asyncWithResolver: ((Resolver, repeat each Argument) async -> Service)?,
         scope: (() -> ResolverScope)?, contexts: [KeyContext<Service, repeat each Argument>],
         isAllowedInStrictTests: Bool) {
        self.site = site
        self.plain = plain
        self.withResolver = withResolver
        self.mainActorPlain = mainActorPlain
        self.mainActorWithResolver = mainActorWithResolver
        self.asyncPlain = asyncPlain
        self.asyncWithResolver = asyncWithResolver
        self.scope = scope
        self.contexts = contexts
        self.isAllowedInStrictTests = isAllowedInStrictTests
    }

    /// This key with other options.
    @inlinable
    func with(scope: (() -> ResolverScope)?, contexts: [KeyContext<Service, repeat each Argument>],
              isAllowedInStrictTests: Bool) -> ResolverKey {
        ResolverKey(site: site, plain: plain, withResolver: withResolver, mainActorPlain: mainActorPlain,
                    mainActorWithResolver: mainActorWithResolver, asyncPlain: asyncPlain,
                    asyncWithResolver: asyncWithResolver, scope: scope, contexts: contexts,
                    isAllowedInStrictTests: isAllowedInStrictTests)
    }

    // MARK: Declaring

    /// A key whose factory takes the arguments: `ResolverKey { LiveAPI() }`,
    /// or `ResolverKey { userID, locale in NoteListViewModel(userID: userID, locale: locale) }`.
    ///
    /// - Parameters:
    ///   - fileID: where the key is declared (`#fileID`); leave it out.
    ///   - line: the declaration's line (`#line`); leave it out.
    ///   - name: the key's name, the declaring property's (`#function`); leave it out.
    ///   - factory: makes the service from the arguments.
    @inlinable
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                _ factory: @escaping (repeat each Argument) -> Service) {
        self.init(site: KeySite(fileID, line, name), plain: factory, withResolver: nil, mainActorPlain: nil,
                  mainActorWithResolver: nil, asyncPlain: nil, asyncWithResolver: nil, scope: nil, contexts: [],
                  isAllowedInStrictTests: false)
    }

    /// A key whose factory takes the resolving container, then the
    /// arguments: `ResolverKey { r in NoteStore(api: r.resolve(\.api)) }`.
    ///
    /// - Parameters:
    ///   - fileID: where the key is declared (`#fileID`); leave it out.
    ///   - line: the declaration's line (`#line`); leave it out.
    ///   - name: the key's name, the declaring property's (`#function`); leave it out.
    ///   - factory: makes the service from the container `resolve` was called on and the arguments.
    @inlinable
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                _ factory: @escaping (Resolver, repeat each Argument) -> Service) {
        self.init(site: KeySite(fileID, line, name), plain: nil, withResolver: factory, mainActorPlain: nil,
                  mainActorWithResolver: nil, asyncPlain: nil, asyncWithResolver: nil, scope: nil, contexts: [],
                  isAllowedInStrictTests: false)
    }

    /// A key whose factory runs on the main actor:
    /// `ResolverKey { @MainActor in SettingsViewModel() }`.
    ///
    /// As for a `@MainActor` registration, a synchronous resolve runs it on
    /// the main actor only (elsewhere it returns a cached instance or stops
    /// with a message), and `resolveAsync` hops there.
    ///
    /// - Parameters:
    ///   - fileID: where the key is declared (`#fileID`); leave it out.
    ///   - line: the declaration's line (`#line`); leave it out.
    ///   - name: the key's name, the declaring property's (`#function`); leave it out.
    ///   - factory: makes the service from the arguments, on the main actor.
    @inlinable
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                mainActor factory: @escaping @MainActor (repeat each Argument) -> Service) {
        self.init(site: KeySite(fileID, line, name), plain: nil, withResolver: nil, mainActorPlain: factory,
                  mainActorWithResolver: nil, asyncPlain: nil, asyncWithResolver: nil, scope: nil, contexts: [],
                  isAllowedInStrictTests: false)
    }

    /// A key whose factory runs on the main actor and takes the resolving
    /// container: `ResolverKey { @MainActor r in ProfileViewModel(store: r.resolve(\.store)) }`.
    ///
    /// - Parameters:
    ///   - fileID: where the key is declared (`#fileID`); leave it out.
    ///   - line: the declaration's line (`#line`); leave it out.
    ///   - name: the key's name, the declaring property's (`#function`); leave it out.
    ///   - factory: makes the service from the container and the arguments, on the main actor.
    @inlinable
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                mainActor factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) {
        self.init(site: KeySite(fileID, line, name), plain: nil, withResolver: nil, mainActorPlain: nil,
                  mainActorWithResolver: factory, asyncPlain: nil, asyncWithResolver: nil, scope: nil,
                  contexts: [], isAllowedInStrictTests: false)
    }

    /// A key whose factory is async: `ResolverKey { await Database.open() }`,
    /// resolved with `await Resolver.resolveAsync(\.database)`.
    ///
    /// As for an async registration, a caching scope builds it once while
    /// the other askers suspend, and a synchronous resolve returns a cached
    /// instance or stops with a message.
    ///
    /// - Parameters:
    ///   - fileID: where the key is declared (`#fileID`); leave it out.
    ///   - line: the declaration's line (`#line`); leave it out.
    ///   - name: the key's name, the declaring property's (`#function`); leave it out.
    ///   - factory: makes the service from the arguments.
    @inlinable
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                _ factory: @escaping (repeat each Argument) async -> Service) {
        self.init(site: KeySite(fileID, line, name), plain: nil, withResolver: nil, mainActorPlain: nil,
                  mainActorWithResolver: nil, asyncPlain: factory, asyncWithResolver: nil, scope: nil, contexts: [],
                  isAllowedInStrictTests: false)
    }

    /// A key whose factory is async and takes the resolving container:
    /// `ResolverKey { r in await Store.open(api: r.resolve(\.api)) }`.
    ///
    /// - Parameters:
    ///   - fileID: where the key is declared (`#fileID`); leave it out.
    ///   - line: the declaration's line (`#line`); leave it out.
    ///   - name: the key's name, the declaring property's (`#function`); leave it out.
    ///   - factory: makes the service from the container and the arguments.
    @inlinable
    public init(fileID: StaticString = #fileID, line: UInt = #line, name: StaticString = #function,
                _ factory: @escaping (Resolver, repeat each Argument) async -> Service) {
        self.init(site: KeySite(fileID, line, name), plain: nil, withResolver: nil, mainActorPlain: nil,
                  mainActorWithResolver: nil, asyncPlain: nil, asyncWithResolver: factory, scope: nil, contexts: [],
                  isAllowedInStrictTests: false)
    }

    /// A key that another module registers: `var analytics: ResolverKey<any Analytics> { .promised() }`.
    ///
    /// Until someone registers it (`Resolver.register(\.analytics) { … }`),
    /// `resolve` stops with a message that names the key and where it was
    /// declared, `optional` returns nil, and `verify()` lists it among its
    /// failures once the program has mentioned it (resolved it, declared a
    /// property wrapper of it, or registered it).
    ///
    /// - Parameters:
    ///   - fileID: where the key is declared (`#fileID`); leave it out.
    ///   - line: the declaration's line (`#line`); leave it out.
    ///   - name: the key's name, the declaring property's (`#function`); leave it out.
    @inlinable
    public static func promised(fileID: StaticString = #fileID, line: UInt = #line,
                                name: StaticString = #function) -> ResolverKey {
        ResolverKey(site: KeySite(fileID, line, name), plain: nil, withResolver: nil, mainActorPlain: nil,
                    mainActorWithResolver: nil, asyncPlain: nil, asyncWithResolver: nil, scope: nil, contexts: [],
                    isAllowedInStrictTests: false)
    }

    /// Whether the key was declared with ``promised(fileID:line:name:)``.
    @inlinable
    var isPromised: Bool {
        // Matched, not compared with `nil`: `==` would pass each function,
        // of a variadic type, to generic code.
        guard case .none = plain, case .none = withResolver, case .none = mainActorPlain,
              case .none = mainActorWithResolver, case .none = asyncPlain, case .none = asyncWithResolver else {
            return false
        }
        return true
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
    public func scope(_ scope: @autoclosure @escaping () -> ResolverScope) -> ResolverKey {
        with(scope: scope, contexts: contexts, isAllowedInStrictTests: isAllowedInStrictTests)
    }

    /// Under a test runner, resolves with `factory` instead (see
    /// ``ResolverOptions/onTest(_:)-(()->Service?)``); strict tests do not report the key.
    ///
    /// - Parameter factory: makes the service from the arguments.
    @inlinable
    public func onTest(_ factory: @escaping (repeat each Argument) -> Service) -> ResolverKey {
        adding(KeyContext(.test, plain: factory, withResolver: nil))
    }

    /// Under a test runner, resolves with `factory`, given the container.
    ///
    /// - Parameter factory: makes the service from the container and the arguments.
    @inlinable
    public func onTest(_ factory: @escaping (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(KeyContext(.test, plain: nil, withResolver: factory))
    }

    /// For Xcode's previews, resolves with `factory` instead (see
    /// ``ResolverOptions/onPreview(_:)-(()->Service?)``).
    ///
    /// - Parameter factory: makes the service from the arguments.
    @inlinable
    public func onPreview(_ factory: @escaping (repeat each Argument) -> Service) -> ResolverKey {
        adding(KeyContext(.preview, plain: factory, withResolver: nil))
    }

    /// For Xcode's previews, resolves with `factory`, given the container.
    ///
    /// - Parameter factory: makes the service from the container and the arguments.
    @inlinable
    public func onPreview(_ factory: @escaping (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(KeyContext(.preview, plain: nil, withResolver: factory))
    }

    /// When the app was launched with `argument`, resolves with `factory`
    /// instead (see ``ResolverOptions/onArg(_:_:)-(_,()->Service?)``).
    ///
    /// - Parameters:
    ///   - argument: the launch argument, such as `"-mock-api"`.
    ///   - factory: makes the service from the arguments.
    @inlinable
    public func onArg(_ argument: String, _ factory: @escaping (repeat each Argument) -> Service) -> ResolverKey {
        adding(KeyContext(.argument(argument), plain: factory, withResolver: nil))
    }

    /// When the app was launched with `argument`, resolves with `factory`,
    /// given the container.
    ///
    /// - Parameters:
    ///   - argument: the launch argument, such as `"-mock-api"`.
    ///   - factory: makes the service from the container and the arguments.
    @inlinable
    public func onArg(_ argument: String, _ factory: @escaping (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(KeyContext(.argument(argument), plain: nil, withResolver: factory))
    }

    /// In a debug build of the app, resolves with `factory` instead (see
    /// ``ResolverOptions/onDebug(_:)-(()->Service?)``).
    ///
    /// - Parameter factory: makes the service from the arguments.
    @inlinable
    public func onDebug(_ factory: @escaping (repeat each Argument) -> Service) -> ResolverKey {
        adding(KeyContext(.debug, plain: factory, withResolver: nil))
    }

    /// In a debug build of the app, resolves with `factory`, given the
    /// container.
    ///
    /// - Parameter factory: makes the service from the container and the arguments.
    @inlinable
    public func onDebug(_ factory: @escaping (Resolver, repeat each Argument) -> Service) -> ResolverKey {
        adding(KeyContext(.debug, plain: nil, withResolver: factory))
    }

    /// Lets strict tests use the key's default factory though the test did
    /// not register the key (see ``ResolverOptions/allowedInStrictTests()``).
    @inlinable
    public func allowedInStrictTests() -> ResolverKey {
        with(scope: scope, contexts: contexts, isAllowedInStrictTests: true)
    }

    /// This key with `context` added after the others.
    @inlinable
    func adding(_ context: KeyContext<Service, repeat each Argument>) -> ResolverKey {
        with(scope: scope, contexts: contexts + [context], isAllowedInStrictTests: isAllowedInStrictTests)
    }
}

/// One context of a key (`onTest`, `onArg`, …): where it applies, and its
/// factory in the shape it was written with.
@usableFromInline
struct KeyContext<Service, each Argument> {
    @usableFromInline let context: RegistrationContext
    @usableFromInline let plain: ((repeat each Argument) -> Service)?
    @usableFromInline let withResolver: ((Resolver, repeat each Argument) -> Service)?

    @inlinable
    init(_ context: RegistrationContext, plain: ((repeat each Argument) -> Service)?,
         withResolver: ((Resolver, repeat each Argument) -> Service)?) {
        self.context = context
        self.plain = plain
        self.withResolver = withResolver
    }
}
