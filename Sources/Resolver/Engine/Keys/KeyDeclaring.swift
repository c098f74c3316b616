import CRegistry

// How a key's declaration reaches the engine (DESIGN.md, "Compile-time-
// checked keys"). A key's getter runs at every resolve, and a resolve needs
// only where the key is declared: so the `ResolverKey` a getter returns is
// that place alone (plain data, free to copy, nothing to release), and the
// factory and options written in the getter are handed over only when the
// key's registration is made. Then the engine runs the getter again with a
// `KeyDeclaration` set as this thread's (`crg_thread_pointer`): the key's
// initializer and modifiers find it and give it what they were given (the
// factory retained, the options), and at every other time each of them
// costs one thread-local load.

/// What a key's getter declares: its factory (nil for a promise), scope,
/// contexts and strict-test mark, handed over by the key's initializer and
/// modifiers while this thread takes the declaration of `site`. One
/// thread's, for the length of one run of the getter.
@usableFromInline
final class KeyDeclaration {
    @usableFromInline let site: KeySite
    /// Whether the key's initializer (or `promised()`) handed it over.
    private(set) var received = false
    @usableFromInline private(set) var factory: KeyFunction?
    private(set) var scope: (() -> ResolverScope)?
    private(set) var contexts: [KeyContext] = []
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

    /// The key's initializer: its factory (nil: `promised()`).
    @usableFromInline
    func receive(_ site: KeySite, factory: KeyFunction?) {
        guard isFor(site) else { return }
        received = true
        self.factory = factory
    }

    /// `scope(_:)`.
    @usableFromInline
    func receive(_ site: KeySite, scope: @escaping () -> ResolverScope) {
        guard isFor(site) else { return }
        self.scope = scope
    }

    /// A context (`onTest`, `onArg`, …), after the earlier ones.
    @usableFromInline
    func receive(_ site: KeySite, context: KeyContext) {
        guard isFor(site) else { return }
        contexts.append(context)
    }

    /// `allowedInStrictTests()`.
    @usableFromInline
    func receiveAllowedInStrictTests(_ site: KeySite) {
        guard isFor(site) else { return }
        isAllowedInStrictTests = true
    }

    /// Whether it is a promise (`promised()`).
    @usableFromInline
    var isPromised: Bool {
        guard case .none = factory else { return false }
        return true
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
        crg_thread_pointer() != nil
    }

    /// The declaration this thread is taking from a key's getter, if any
    /// (almost never): one thread-local load.
    @inlinable
    @inline(__always)
    static var current: UnownedReference<KeyDeclaration>? {
        crg_thread_pointer().map { UnownedReference(opaque: $0) }
    }

    // What a key's initializer and modifiers hand over, called only while
    // this thread is declaring (`isDeclaring`): out of line, so that a key's
    // getter stays small enough for the compiler to inline where the key is
    // resolved, and costs a thread-local load and a branch per initializer
    // and modifier.

    /// A key's factory (`factory` makes it: nil for a promise).
    @inlinable
    @inline(never)
    static func offer<Service, each Argument>(_ site: KeySite, plain factory: @escaping (repeat each Argument) -> Service) {
        if let declaration = current {
            declaration.read { $0.receive(site, factory: .plain(factory)) }
        }
    }

    @inlinable
    @inline(never)
    static func offer<Service, each Argument>(_ site: KeySite,
                                             withResolver factory: @escaping (Resolver, repeat each Argument) -> Service) {
        if let declaration = current {
            declaration.read { $0.receive(site, factory: .withResolver(factory)) }
        }
    }

    @inlinable
    @inline(never)
    static func offer<Service, each Argument>(_ site: KeySite,
                                             mainActorPlain factory: @escaping @MainActor (repeat each Argument) -> Service) {
        if let declaration = current {
            declaration.read { $0.receive(site, factory: .mainActorPlain(factory)) }
        }
    }

    @inlinable
    @inline(never)
    static func offer<Service, each Argument>(
        _ site: KeySite, mainActorWithResolver factory: @escaping @MainActor (Resolver, repeat each Argument) -> Service) {
        if let declaration = current {
            declaration.read { $0.receive(site, factory: .mainActorWithResolver(factory)) }
        }
    }

    @inlinable
    @inline(never)
    static func offer<Service, each Argument>(_ site: KeySite,
                                             asyncPlain factory: @escaping (repeat each Argument) async -> Service) {
        if let declaration = current {
            declaration.read { $0.receive(site, factory: .asyncPlain(factory)) }
        }
    }

    @inlinable
    @inline(never)
    static func offer<Service, each Argument>(
        _ site: KeySite, asyncWithResolver factory: @escaping (Resolver, repeat each Argument) async -> Service) {
        if let declaration = current {
            declaration.read { $0.receive(site, factory: .asyncWithResolver(factory)) }
        }
    }

    /// A promise (`promised()`).
    @usableFromInline
    @inline(never)
    static func offerPromise(_ site: KeySite) {
        if let declaration = current {
            declaration.read { $0.receive(site, factory: nil) }
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

    /// A context (`onTest`, …), made by `context` only when declaring.
    @inlinable
    @inline(never)
    static func offer(_ site: KeySite, context: () -> KeyContext) {
        if let declaration = current {
            declaration.read { $0.receive(site, context: context()) }
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

    /// Makes `declaration` this thread's until `end`; returns the one it
    /// replaces (a getter may use another key that is being declared).
    @usableFromInline
    static func begin(_ declaration: KeyDeclaration) -> UnsafeMutableRawPointer? {
        crg_thread_pointer_exchange(UnownedReference(declaration).opaque)
    }

    /// Gives the thread back the declaration `begin` replaced.
    @usableFromInline
    static func end(_ previous: UnsafeMutableRawPointer?) {
        _ = crg_thread_pointer_exchange(previous)
    }

    /// The declaration of the key at `site`, taken while `getter` (the
    /// key's getter, applied through its key path where the caller wrote
    /// it) runs.
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
}
