// How a key's declaration reaches the engine (DESIGN.md, K2). The getter runs
// at every resolve and returns only where the key is declared; the factory
// and options written in it are taken at the key's first use, by running the
// getter again with a `KeyDeclaration` in this thread's pointer (`ThreadPointer`).
// The key's initializer and modifiers find it there and hand over what they
// were given, already in the forms a registration takes; at any other time
// each costs one thread-local load.

/// What a key's getter declares, handed over by its initializer and
/// modifiers while this thread takes the declaration of `site`.
@usableFromInline
final class KeyDeclaration {
    @usableFromInline let site: KeySite
    /// Whether the key's initializer (or `promised()`) handed it over.
    private(set) var received = false
    /// A `ResolverRegistration<Service>.Factory`; nil for `promised()`.
    private(set) var factory: Any?
    private(set) var arguments: ArgumentList?
    private(set) var scope: (() -> ResolverScope)?
    /// Each context and its `ResolverFactoryAnyArguments<Service>`.
    private(set) var contexts: [(context: RegistrationContext, factory: Any)] = []
    private(set) var isAllowedInStrictTests = false

    @usableFromInline
    init(_ site: KeySite) {
        self.site = site
    }

    /// Whether an offer is for this key, not another key the getter makes.
    private func isFor(_ site: KeySite) -> Bool {
        site.name.utf8Start == self.site.name.utf8Start && site.line == self.site.line
            && site.fileID.utf8Start == self.site.fileID.utf8Start
    }

    @usableFromInline
    func receive(_ site: KeySite, factory: Any?, arguments: ArgumentList?) {
        guard isFor(site) else { return }
        received = true
        self.factory = factory
        self.arguments = arguments
    }

    @usableFromInline
    func receive(_ site: KeySite, scope: @escaping () -> ResolverScope) {
        if isFor(site) { self.scope = scope }
    }

    @usableFromInline
    func receive(_ site: KeySite, context: RegistrationContext, factory: Any) {
        if isFor(site) { contexts.append((context, factory)) }
    }

    @usableFromInline
    func receiveAllowedInStrictTests(_ site: KeySite) {
        if isFor(site) { isAllowedInStrictTests = true }
    }

    var isPromised: Bool {
        factory == nil
    }

    /// The registration's factory: the key's, or a promise's, which finds
    /// nothing (`optional` returns nil, `resolve` says what is missing).
    func registrationFactory<Service>(of type: Service.Type) -> ResolverRegistration<Service>.Factory {
        if let factory = factory as? ResolverRegistration<Service>.Factory {
            return factory
        }
        return arguments == nil ? .givenResolver { _ in nil } : .anyArguments { _, _ in nil }
    }

    /// Gives the key's registration its contexts and strict-test mark, before
    /// the register funnel publishes it. The mutex must be held.
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

/// This thread's key declaration, and what a key's initializer and modifiers
/// hand over to it: out of line (B3), called only while declaring.
@usableFromInline
enum KeyDeclaring {
    /// Whether this thread is taking a key's declaration: one thread-local load.
    @inlinable
    @inline(__always)
    static var isDeclaring: Bool {
        ThreadPointer.current != nil
    }

    @inlinable
    @inline(__always)
    static var current: UncheckedReference<KeyDeclaration>? {
        ThreadPointer.current.map { UncheckedReference(opaque: $0) }
    }

    /// A key's factory, made by `factory` in the form its registration takes.
    @inlinable
    @inline(never)
    static func offer<Service, each Argument>(_ site: KeySite, _ service: Service.Type, _ arguments: repeat (each Argument).Type,
                                             factory: () -> ResolverRegistration<Service>.Factory) {
        let arguments = ArgumentList.of(repeat (each Argument).self)
        current?.read { $0.receive(site, factory: factory(), arguments: arguments) }
    }

    /// `promised()`, of the key's arguments.
    @inlinable
    @inline(never)
    static func offerPromise<each Argument>(_ site: KeySite, _ arguments: repeat (each Argument).Type) {
        let arguments = ArgumentList.of(repeat (each Argument).self)
        current?.read { $0.receive(site, factory: nil, arguments: arguments) }
    }

    @usableFromInline
    @inline(never)
    static func offer(_ site: KeySite, scope: @escaping () -> ResolverScope) {
        current?.read { $0.receive(site, scope: scope) }
    }

    /// A context and its factory, made by `factory` only when declaring.
    @inlinable
    @inline(never)
    static func offer<Service>(_ site: KeySite, context: RegistrationContext,
                               factory: () -> ResolverFactoryAnyArguments<Service>) {
        current?.read { $0.receive(site, context: context, factory: factory()) }
    }

    @usableFromInline
    @inline(never)
    static func offerAllowedInStrictTests(_ site: KeySite) {
        current?.read { $0.receiveAllowedInStrictTests(site) }
    }

    /// The declaration of the key at `site`, taken while `getter` (applied
    /// through the key path where the caller wrote it) runs.
    @inlinable
    @inline(__always)
    static func declaration(of site: KeySite, running getter: () -> Void) -> KeyDeclaration {
        let declaration = KeyDeclaration(site)
        // A getter may use a key that is itself being declared: the slot's
        // earlier value is restored.
        let previous = exchange(UncheckedReference(declaration))
        withExtendedLifetime(declaration) {
            getter()
        }
        _ = exchange(previous)
        return declaration
    }

    /// Makes `declaration` this thread's and returns the one it replaces.
    @usableFromInline
    static func exchange(_ declaration: UncheckedReference<KeyDeclaration>?) -> UncheckedReference<KeyDeclaration>? {
        ThreadPointer.exchange(declaration?.opaque).map { UncheckedReference(opaque: $0) }
    }
}
