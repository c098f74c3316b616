import CRegistry

// How a key's declaration reaches the engine (DESIGN.md, K2). A key's getter
// runs at every resolve, and a resolve needs only where the key is declared:
// so the `ResolverKey` a getter returns is that place alone, and the factory
// and options written in the getter are handed over only when the key's
// registration is made, at its first use. Then the engine runs the getter
// again with a `KeyDeclaration` in this thread's slot (`crg_keys.h`): the
// key's initializer and modifiers find it and give it what they were given,
// already in the form a registration takes (`ResolverRegistration.Factory`,
// the contexts' `(Resolver, Any?)` factories), and at every other time each
// of them costs one thread-local load.

/// What a key's getter declares: its factory (nil for a promise) and argument
/// list, scope, contexts and strict-test mark, handed over by the key's
/// initializer and modifiers while this thread takes the declaration of
/// `site`. One thread's, for the length of one run of the getter.
@usableFromInline
final class KeyDeclaration {
    @usableFromInline let site: KeySite
    /// Whether the key's initializer (or `promised()`) handed it over.
    private(set) var received = false
    /// The registration's factory, a `ResolverRegistration<Service>.Factory`
    /// (nil: `promised()`).
    private(set) var factory: Any?
    private(set) var arguments: ArgumentList?
    private(set) var scope: (() -> ResolverScope)?
    /// Each context with its factory, a `ResolverFactoryAnyArguments<Service>`.
    private(set) var contexts: [(context: RegistrationContext, factory: Any)] = []
    private(set) var isAllowedInStrictTests = false

    @usableFromInline
    init(_ site: KeySite) {
        self.site = site
    }

    /// Whether this thread's getter is declaring the key at `site` (not
    /// another key it happens to make).
    private func isFor(_ site: KeySite) -> Bool {
        site.name.utf8Start == self.site.name.utf8Start && site.line == self.site.line
            && site.fileID.utf8Start == self.site.fileID.utf8Start
    }

    /// The key's initializer: its factory (nil: `promised()`) and arguments.
    @usableFromInline
    func receive(_ site: KeySite, factory: Any?, arguments: ArgumentList?) {
        guard isFor(site) else { return }
        received = true
        self.factory = factory
        self.arguments = arguments
    }

    /// `scope(_:)`.
    @usableFromInline
    func receive(_ site: KeySite, scope: @escaping () -> ResolverScope) {
        guard isFor(site) else { return }
        self.scope = scope
    }

    /// A context (`onTest`, `onArg`, …), after the earlier ones.
    @usableFromInline
    func receive(_ site: KeySite, context: RegistrationContext, factory: Any) {
        guard isFor(site) else { return }
        contexts.append((context, factory))
    }

    /// `allowedInStrictTests()`.
    @usableFromInline
    func receiveAllowedInStrictTests(_ site: KeySite) {
        guard isFor(site) else { return }
        isAllowedInStrictTests = true
    }

    /// Whether it is a promise (`promised()`).
    var isPromised: Bool {
        factory == nil
    }

    /// The registration's factory: the key's, or a promise's, which finds
    /// nothing (`optional` returns nil, `resolve` says what is missing).
    func registrationFactory<Service>(of type: Service.Type) -> ResolverRegistration<Service>.Factory {
        if let factory = factory as? ResolverRegistration<Service>.Factory {
            return factory
        }
        return arguments == nil ? .resolver { _ in nil } : .anyArguments { _, _ in nil }
    }

    /// Gives the key's registration its contexts and strict-test mark (the
    /// register funnel, before the registration is published). The mutex
    /// must be held.
    @usableFromInline
    func declareLocked<Service>(_ registration: ResolverRegistration<Service>) {
        registry.assertLocked()
        for (context, factory) in contexts {
            if let factory = factory as? ResolverFactoryAnyArguments<Service> {
                registration.addContextLocked(context, factory)
            }
        }
        registration.isAllowedInStrictTests = isAllowedInStrictTests
    }
}

/// The thread's key declaration.
@usableFromInline
enum KeyDeclaring {
    /// Whether this thread is taking a key's declaration (almost never):
    /// one thread-local load.
    @inlinable
    @inline(__always)
    static var isDeclaring: Bool {
        crg_key_declaration() != nil
    }

    /// The declaration this thread is taking from a key's getter, if any
    /// (almost never): one thread-local load.
    @inlinable
    @inline(__always)
    static var current: UncheckedReference<KeyDeclaration>? {
        crg_key_declaration().map { UncheckedReference(opaque: $0) }
    }

    // What a key's initializer and modifiers hand over, called only while
    // this thread is declaring: out of line (B3), so that a key's getter
    // stays small enough for the compiler to inline where the key is
    // resolved.

    /// A key's factory, made by `factory` in the form its registration
    /// takes, and its arguments.
    @inlinable
    @inline(never)
    static func offer<Service, each Argument>(_ site: KeySite, _ service: Service.Type, _ arguments: repeat (each Argument).Type,
                                             factory: () -> ResolverRegistration<Service>.Factory) {
        if let declaration = current {
            declaration.read { $0.receive(site, factory: factory(), arguments: ArgumentList.of(repeat (each Argument).self)) }
        }
    }

    /// A promise (`promised()`), of the key's arguments.
    @inlinable
    @inline(never)
    static func offerPromise<each Argument>(_ site: KeySite, _ arguments: repeat (each Argument).Type) {
        if let declaration = current {
            declaration.read { $0.receive(site, factory: nil, arguments: ArgumentList.of(repeat (each Argument).self)) }
        }
    }

    /// `scope(_:)`.
    @usableFromInline
    @inline(never)
    static func offer(_ site: KeySite, scope: @escaping () -> ResolverScope) {
        if let declaration = current {
            declaration.read { $0.receive(site, scope: scope) }
        }
    }

    /// A context (`onTest`, …) and its factory, made by `factory` only when declaring.
    @inlinable
    @inline(never)
    static func offer<Service>(_ site: KeySite, context: RegistrationContext,
                               factory: () -> ResolverFactoryAnyArguments<Service>) {
        if let declaration = current {
            declaration.read { $0.receive(site, context: context, factory: factory()) }
        }
    }

    /// `allowedInStrictTests()`.
    @usableFromInline
    @inline(never)
    static func offerAllowedInStrictTests(_ site: KeySite) {
        if let declaration = current {
            declaration.read { $0.receiveAllowedInStrictTests(site) }
        }
    }

    /// The declaration of the key at `site`, taken while `getter` (the key's
    /// getter, applied through its key path where the caller wrote it) runs.
    @inlinable
    @inline(__always)
    static func declaration(of site: KeySite, running getter: () -> Void) -> KeyDeclaration {
        let declaration = KeyDeclaration(site)
        let previous = begin(declaration)
        withExtendedLifetime(declaration) {
            getter()
        }
        end(previous)
        return declaration
    }

    /// Makes `declaration` this thread's until `end`; returns the one it
    /// replaces (a getter may use another key that is being declared).
    @usableFromInline
    static func begin(_ declaration: KeyDeclaration) -> UnsafeMutableRawPointer? {
        crg_key_declaration_exchange(UncheckedReference(declaration).opaque)
    }

    /// Gives the thread back the declaration `begin` replaced.
    @usableFromInline
    static func end(_ previous: UnsafeMutableRawPointer?) {
        _ = crg_key_declaration_exchange(previous)
    }
}
