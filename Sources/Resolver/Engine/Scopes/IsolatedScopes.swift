/// A container's own caches for the three app-wide caching scopes
/// (`Resolver(child:isolatedScopes:)`), which the resolve path substitutes
/// for them; a verification's sandbox also copies every other caching scope
/// on first use (`makeSandboxCopy`).
@usableFromInline
final class IsolatedScopes: @unchecked Sendable {
    @usableFromInline let appWide: (application: UncheckedReference<ResolverScope>, cached: UncheckedReference<ResolverScope>,
                                    shared: UncheckedReference<ResolverScope>)
    /// This container's own, which `scopes` holds.
    @usableFromInline let own: (application: UncheckedReference<ResolverScope>, cached: UncheckedReference<ResolverScope>,
                                shared: UncheckedReference<ResolverScope>)
    @usableFromInline let isolatesEveryCache: Bool
    private let scopes: [ResolverScope]
    /// The sandbox's copies, by original (under the registry mutex; the
    /// originals are held, so no address is reused while its copy is here).
    private var copies: [ObjectIdentifier: (original: ResolverScope, copy: ResolverScope)] = [:]

    init(everyCache: Bool = false) {
        scopes = [ResolverScopeCache(), ResolverScopeCache(), ResolverScopeShare()]
        isolatesEveryCache = everyCache
        appWide = (UncheckedReference(ResolverScope.application), UncheckedReference(ResolverScope.cached),
                   UncheckedReference(ResolverScope.shared))
        own = (UncheckedReference(scopes[0]), UncheckedReference(scopes[1]), UncheckedReference(scopes[2]))
    }

    /// The scope to use instead of `scope`.
    @inlinable
    @inline(__always)
    static func substitute(_ isolated: UncheckedReference<IsolatedScopes>, _ scope: UncheckedReference<ResolverScope>,
                           _ section: borrowing ReadSection) -> UncheckedReference<ResolverScope> {
        isolated.read { isolated in
            if scope == isolated.appWide.application { return isolated.own.application }
            if scope == isolated.appWide.cached { return isolated.own.cached }
            if scope == isolated.appWide.shared { return isolated.own.shared }
            if isolated.isolatesEveryCache {
                return isolated.copy(of: scope)
            }
            return scope
        }
    }

    /// This sandbox's copy of the caching scope `scope` (made on first use),
    /// or `scope` itself for a scope that does not cache.
    @usableFromInline
    func copy(of scope: UncheckedReference<ResolverScope>) -> UncheckedReference<ResolverScope> {
        let original = scope.object
        guard original.kind.keepsInstances else {
            return scope
        }
        if scopes.contains(where: { $0 === original }) {
            return scope
        }
        return registry.withLock {
            if let found = copies[ObjectIdentifier(original)] {
                return UncheckedReference(found.copy)
            }
            if copies.values.contains(where: { $0.copy === original }) {
                return scope
            }
            guard let copy = original.makeSandboxCopy() else {
                return scope
            }
            copies[ObjectIdentifier(original)] = (original, copy)
            return UncheckedReference(copy)
        }
    }
}
