// What travels down the resolve path (`ResolveRequest`), and the one step
// in which a synchronous resolve and the start of `resolveAsync` differ
// (`ResolvePath`).

/// One resolve on its way down the path: the key, the container searched
/// (the one the caller gave, or `root`), which is also the one a factory
/// receives, and the arguments.
@frozen
@usableFromInline
struct ResolveRequest {
    @usableFromInline let key: RegistryKey
    /// The container searched: the caller's, or `root`.
    @usableFromInline let container: UnownedReference<Resolver>
    @usableFromInline let arguments: ArgumentsPointer

    @inlinable
    @inline(__always)
    init(_ key: RegistryKey, from container: UnownedReference<Resolver>, _ arguments: ArgumentsPointer) {
        self.key = key
        self.container = container
        self.arguments = arguments
    }

    /// The container as a strong reference, for the slow paths that keep
    /// it or hand it on.
    @inlinable
    var resolver: Resolver {
        container.object
    }
}

/// What a resolve does once it has found a registration whose instance its
/// scope does not hold: the one step in which a synchronous resolve and the
/// start of `resolveAsync` differ. Everything before it (the detours, the
/// registration gate, `root`, the thread's cache, the key, the table, the
/// scope, a cached instance) is one path, generic over this.
@usableFromInline
protocol ResolvePath {
    associatedtype Service
    associatedtype Result

    /// The answer when the resolve ends with `service`: a cached instance,
    /// or nil when nothing is registered.
    static func found(_ service: Service?) -> Result

    /// The answer for `registration`, whose instance `scope` does not hold.
    static func uncached(_ registration: UnownedReference<ResolverRegistration<Service>>,
                         through scope: UnownedReference<ResolverScope>, _ request: ResolveRequest,
                         _ section: borrowing ReadSection) -> Result
}

/// A synchronous resolve: the instance, made on this thread.
@frozen
@usableFromInline
enum SynchronousPath<Service>: ResolvePath {
    @inlinable
    @inline(__always)
    static func found(_ service: Service?) -> Service? {
        service
    }

    @inlinable
    @inline(__always)
    static func uncached(_ registration: UnownedReference<ResolverRegistration<Service>>,
                         through scope: UnownedReference<ResolverScope>, _ request: ResolveRequest,
                         _ section: borrowing ReadSection) -> Service? {
        let service = ResolverRegistration<Service>.resolveUncachedInline(registration, through: scope, request, section)
        // The decorator field first: binding `service` copies it (a retain).
        if let decorate = Published.decorate.load(), let service {
            DecorateBox.call(decorate, with: service)
        }
        return service
    }
}
