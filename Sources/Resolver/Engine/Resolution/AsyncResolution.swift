// The async resolve (DESIGN.md, "Actors and async factories"): the resolve
// path (`ResolvePath.swift`) up to the registration, through
// `AsyncStartPath`; what is its own comes after, only for registrations a
// thread cannot resolve there and then. A main-actor factory: the call hops
// to the main actor and resolves there. An async factory: run in the calling
// task, its chain of async registrations (`AsyncFrame`) checked for a cycle
// first (A3); a caching scope builds it once with the flights threads use
// (S1), the askers suspended (A2); a graph-scoped one is kept for the rest of
// the top-level `resolveAsync`.

/// The start of `resolveAsync`: a plain registration resolved as a
/// synchronous resolve would; a main-actor or async one an `AsyncPending`.
@frozen
@usableFromInline
enum AsyncStartPath<Service>: ResolvePath {
    @inlinable
    @inline(__always)
    static func found(_ service: Service?) -> AsyncStep<Service> {
        .done(service)
    }

    @inlinable
    @inline(__always)
    static func isAbsent(_ result: AsyncStep<Service>) -> Bool {
        guard case .done(let service) = result else { return false }
        return service == nil
    }

    @inlinable
    static func make(_ registration: UncheckedReference<ResolverRegistration<Service>>,
                     through scope: UncheckedReference<ResolverScope>, _ request: ResolveRequest,
                     _ section: borrowing ReadSection) -> AsyncStep<Service> {
        if registration.read({ $0.isolation }) == .none {
            return .done(SynchronousPath<Service>.make(registration, through: scope, request, section))
        }
        return .pending(AsyncPending(registration, scope, request.resolver))
    }
}

extension Resolver {
    /// Resolves `Service` in `container` (nil: `root`) from async code, with
    /// `args` (typed arguments boxed: they may cross a suspension or a hop).
    @inlinable
    nonisolated(nonsending)
    static func resolveServiceAsync<Service>(in container: Resolver?, name: Resolver.Name?, args: Any?) async -> Service? {
        let step = withCarriedArguments(args) { arguments in
            resolve(name?.key, in: container, arguments, AsyncStartPath<Service>.self)
        }
        switch step {
        case .done(let service):
            return service
        case .pending(let pending):
            return await pending.finish(args)
        }
    }
}

/// Where the synchronous start of `resolveAsync` got to.
@usableFromInline
enum AsyncStep<Service> {
    /// Resolved (nil: nothing registered, or the factory returned nil).
    case done(Service?)
    /// A main-actor or async registration to await.
    case pending(AsyncPending<Service>)
}

/// A main-actor or async registration, the scope and the container to
/// resolve it through, held strongly once the read section ends.
@usableFromInline
final class AsyncPending<Service> {
    let registration: ResolverRegistration<Service>
    let scope: ResolverScope
    let resolver: Resolver

    @usableFromInline
    init(_ registration: UncheckedReference<ResolverRegistration<Service>>, _ scope: UncheckedReference<ResolverScope>,
         _ resolver: Resolver) {
        self.registration = registration.object
        self.scope = scope.object
        self.resolver = resolver
    }

    /// Resolves it, then the decorator, as `resolveAsync` does.
    @usableFromInline
    nonisolated(nonsending)
    func finish(_ args: Any?) async -> Service? {
        let service = await resolve(args)
        if let service, let decorate = registry.withLock({ registry.decorateWhenResolving }) {
            decorate(service)
        }
        return service
    }

    /// On the main actor, by awaiting its async factory, or a list by
    /// awaiting the elements that need it.
    nonisolated(nonsending)
    func resolve(_ args: Any?) async -> Service? {
        switch registration.isolation {
        case .none, .mainActor:
            let carried = Carried((registration, resolver, args))
            return await MainActor.run {
                Carried(carried.value.0.resolve(resolver: carried.value.1, args: carried.value.2))
            }.value
        case .async:
            return await registration.awaitFactory(through: scope, resolver, args)
        case .collection:
            return await registration.assembleAsync(from: resolver, args)
        }
    }
}

/// The async registrations whose factories the current task runs, innermost
/// last, and the graph instances of its top-level `resolveAsync`: task-local,
/// so child tasks (and a build task) see their parent's chain (A3).
final class AsyncFrame: Sendable {
    @TaskLocal static var current: AsyncFrame?

    /// The registration this frame runs (nil: the top level).
    let registration: ObjectIdentifier?
    let description: String
    /// Its node in a dependency graph: resolves made while its factory runs
    /// are edges from it.
    let node: Resolver.Graph.Node?
    let parent: AsyncFrame?
    let graph: AsyncGraph

    init(registration: ObjectIdentifier?, description: String, node: Resolver.Graph.Node?, parent: AsyncFrame?,
         graph: AsyncGraph) {
        self.registration = registration
        self.description = description
        self.node = node
        self.parent = parent
        self.graph = graph
    }

    static func topLevel() -> AsyncFrame {
        AsyncFrame(registration: nil, description: "", node: nil, parent: nil, graph: AsyncGraph())
    }

    /// The frames from this one out, the top level excluded.
    private var frames: [AsyncFrame] {
        sequence(first: self, next: \.parent).filter { $0.registration != nil }
    }

    /// The descriptions from the outermost frame to this one.
    var chain: [String] {
        frames.reversed().map(\.description)
    }

    /// Whether `registration` runs in this frame or an outer one.
    func contains(_ registration: ObjectIdentifier) -> Bool {
        frames.contains { $0.registration == registration }
    }
}

/// The graph instances of one top-level `resolveAsync` (class instances
/// only, as for synchronous resolves), under the registry mutex.
final class AsyncGraph: @unchecked Sendable {
    private var instances: [(registration: ObjectIdentifier, object: AnyObject)] = []

    func instance<Service>(of registration: ObjectIdentifier, as type: Service.Type) -> Service? {
        registry.withLock { instances.first { $0.registration == registration }.map { $0.object as! Service } }
    }

    func remember<Service>(_ service: Service, of registration: ObjectIdentifier) {
        guard let object = ValueStorage.instance(in: service) else { return }
        registry.withLock { instances.append((registration, object)) }
    }
}

extension ResolverRegistration {
    /// This async registration through `scope` (as the resolve path
    /// substituted it for the container).
    nonisolated(nonsending)
    func awaitFactory(through scope: ResolverScope, _ resolver: Resolver, _ args: Any?) async -> Service? {
        let parent = AsyncFrame.current ?? AsyncFrame.topLevel()
        if parent.contains(ObjectIdentifier(self)) {
            let chain = parent.chain.drop { $0 != keyDescription } + [keyDescription]
            fail("RESOLVER: circular dependency: \(chain.joined(separator: " → ")). Break the cycle with resolveProperties, a lazy property or a weak reference."
                 + registeredAtLine([self]),
                 kind: .cycle)
        }
        switch scope.kind.strategy {
        case .buildOnceAndKeep:
            return await scope.buildOnceAsync(self, resolver, args, parent)
        case .perResolution:
            if let found = parent.graph.instance(of: ObjectIdentifier(self), as: Service.self) {
                return found
            }
            let service = await runAsyncFactory(resolver, args, parent)
            if let service {
                parent.graph.remember(service, of: ObjectIdentifier(self))
            }
            return service
        case .newInstance, .containerCache, .delegate:
            // A custom scope's `resolve(registration:…)` is synchronous: an
            // async factory runs here.
            return await runAsyncFactory(resolver, args, parent)
        }
    }

    /// Runs the async factory in a frame of its own, then what
    /// `update(factory:)` installed (`resolveProperties` blocks); where a
    /// context applies, only what is installed.
    nonisolated(nonsending)
    func runAsyncFactory(_ resolver: Resolver, _ args: Any?, _ parent: AsyncFrame) async -> Service? {
        guard case .async(let factory, _) = factory else {
            return nil
        }
        let (context, installed) = registry.withLock { (contextAppliesLocked, installedFactoryLocked) }
        if context, let installed {
            return installed(resolver, args)
        }
        let frame = AsyncFrame(registration: ObjectIdentifier(self), description: keyDescription, node: graphNode,
                               parent: parent, graph: parent.graph)
        let service = await AsyncFrame.$current.withValue(frame) {
            await factory(resolver, args)
        }
        guard let service, let installed else {
            return service
        }
        // No suspension between leaving the instance and the installed
        // factory taking it: both run on this thread.
        ResolutionContext.current.awaitedInstance = service
        defer { ResolutionContext.current.awaitedInstance = nil }
        return installed(resolver, args)
    }
}
