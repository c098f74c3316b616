// The async resolve (DESIGN.md, "Actors and async factories"). It is the
// synchronous resolve's path (`Resolution.swift`) up to the registration:
// the same detours, gate, thread cache, key, table, scope and cached
// instance, through `AsyncStartPath`. What is its own comes after, and only
// for registrations a thread cannot resolve there and then:
// - a main-actor factory: the call hops to the main actor and resolves there
//   synchronously, through the registration's scope;
// - an async factory: run in the calling task, with the task's chain of
//   async registrations (`AsyncFrame`, task-local) checked for a cycle first
//   (A3); a caching scope builds it once per generation with the same
//   flights threads use (`ResolverScope+BuildOnce.swift`, S1), the askers suspended (A2);
//   a graph-scoped one is kept for the rest of the top-level `resolveAsync`.

/// The start of `resolveAsync`: a plain registration is resolved there and
/// then, as a synchronous resolve would; a main-actor or async one becomes
/// an `AsyncPending` to await.
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
    /// Resolves `Service` in `container` (nil: `root`) from async code.
    @inlinable
    nonisolated(nonsending)
    static func resolveServiceAsync<Service>(in container: Resolver?, name: Resolver.Name?, args: Any?) async -> Service? {
        let step = withArguments(args) { arguments in
            resolve(name?.key, in: container, arguments, AsyncStartPath<Service>.self)
        }
        switch step {
        case .done(let service):
            return service
        case .pending(let pending):
            return await pending.finish(args)
        }
    }

    /// Resolves `Service` in `container` (nil: `root`) from async code, with
    /// typed arguments boxed (they may cross a suspension or an actor hop).
    @inlinable
    nonisolated(nonsending)
    static func resolveServiceAsync<Service>(in container: Resolver?, name: Resolver.Name?,
                                             boxed arguments: some TypedArgumentsBoxing) async -> Service? {
        let step = arguments.withArguments { pointer in
            resolve(name?.key, in: container, pointer, AsyncStartPath<Service>.self)
        }
        switch step {
        case .done(let service):
            return service
        case .pending(let pending):
            return await pending.finish(arguments)
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

/// A main-actor or async registration, with the scope and container to
/// resolve it through, held by real references once the read section ends.
@usableFromInline
final class AsyncPending<Service> {
    let registration: ResolverRegistration<Service>
    let scope: ResolverScope
    let resolver: Resolver

    /// Takes strong references to what the read section kept alive.
    @usableFromInline
    init(_ registration: UncheckedReference<ResolverRegistration<Service>>, _ scope: UncheckedReference<ResolverScope>,
         _ resolver: Resolver) {
        self.registration = registration.object
        self.scope = scope.object
        self.resolver = resolver
    }

    /// Resolves it (`resolve(_:)`), then the decorator, as `resolveAsync` does.
    @usableFromInline
    nonisolated(nonsending)
    func finish(_ args: Any?) async -> Service? {
        let service = await resolve(args)
        if let service, let decorate = registry.withLock({ registry.decorateWhenResolving }) {
            decorate(service)
        }
        return service
    }

    /// Resolves it: on the main actor, by awaiting its async factory, or a
    /// collection's list by awaiting the elements that need it.
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


/// The async registrations whose factories the current task is running,
/// innermost last, and the graph-scoped instances of its top-level
/// `resolveAsync`: task-local, so child tasks (and a caching scope's build
/// task) see their parent's chain, and a cycle through async factories stops
/// with its chain instead of waiting for itself.
final class AsyncFrame: Sendable {
    @TaskLocal static var current: AsyncFrame?

    /// The registration this frame runs (nil: the top level).
    let registration: ObjectIdentifier?
    let description: String
    /// Its node in a dependency graph: resolves made while its factory runs
    /// are edges from it (`GraphRecorder.recordResolve`).
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

    /// The frame for the top level of a `resolveAsync`, with a new graph.
    static func topLevel() -> AsyncFrame {
        AsyncFrame(registration: nil, description: "", node: nil, parent: nil, graph: AsyncGraph())
    }

    /// The descriptions from the outermost frame to this one.
    var chain: [String] {
        var chain: [String] = []
        var frame: AsyncFrame? = self
        while let current = frame, current.registration != nil {
            chain.append(current.description)
            frame = current.parent
        }
        return chain.reversed()
    }

    /// Whether `registration` is running in this frame or an outer one.
    func contains(_ registration: ObjectIdentifier) -> Bool {
        var frame: AsyncFrame? = self
        while let current = frame {
            if current.registration == registration {
                return true
            }
            frame = current.parent
        }
        return false
    }
}

/// The graph-scoped instances of one top-level `resolveAsync` (class
/// instances only, as for synchronous resolves), under the registry mutex.
final class AsyncGraph: @unchecked Sendable {
    private var instances: [(registration: ObjectIdentifier, object: AnyObject)] = []

    func instance<Service>(of registration: ObjectIdentifier, as type: Service.Type) -> Service? {
        registry.withLock {
            instances.first { $0.registration == registration }.map { $0.object as! Service }
        }
    }

    func remember<Service>(_ service: Service, of registration: ObjectIdentifier) {
        guard let object = ValueStorage.instance(in: service) else { return }
        registry.withLock {
            instances.append((registration, object))
        }
    }
}

extension ResolverRegistration {
    /// Resolves this async registration through `scope` (the registration's
    /// scope, as the resolve path substitutes it for the container).
    nonisolated(nonsending)
    func awaitFactory(through scope: ResolverScope, _ resolver: Resolver, _ args: Any?) async -> Service? {
        let parent = AsyncFrame.current ?? AsyncFrame.topLevel()
        if parent.contains(ObjectIdentifier(self)) {
            let chain = parent.chain.drop { $0 != keyDescription } + [keyDescription]
            resolverFailure("RESOLVER: circular dependency: \(chain.joined(separator: " → ")). Break the cycle with resolveProperties, a lazy property or a weak reference."
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
            // A custom scope's `resolve(registration:resolver:args:)` is
            // synchronous, and cannot run an async factory: it runs here.
            return await runAsyncFactory(resolver, args, parent)
        }
    }

    /// Runs the async factory in a frame of its own, then what
    /// `update(factory:)` installed (`resolveProperties` blocks), if any;
    /// or, where a context applies, only what is installed.
    nonisolated(nonsending)
    func runAsyncFactory(_ resolver: Resolver, _ args: Any?, _ parent: AsyncFrame) async -> Service? {
        guard case .async(let factory, _) = factory else {
            return nil
        }
        // A context's factory (onTest, onArg, …) replaces the async one.
        let context = registry.withLock { contextAppliesLocked ? installedFactoryLocked : nil }
        if let context {
            return context(resolver, args)
        }
        let frame = AsyncFrame(registration: ObjectIdentifier(self), description: keyDescription, node: graphNode,
                               parent: parent, graph: parent.graph)
        let service = await AsyncFrame.$current.withValue(frame) {
            await factory(resolver, args)
        }
        guard let service, let installed = installedFactory else {
            return service
        }
        // No suspension between leaving the instance and the installed
        // factory picking it up: both run on this thread.
        ResolutionContext.current.awaitedInstance = service
        defer { ResolutionContext.current.awaitedInstance = nil }
        return installed(resolver, args)
    }

    /// The factory `update(factory:)` installed, if any.
    var installedFactory: ResolverFactoryAnyArguments<Service>? {
        registry.withLock { installedFactoryLocked }
    }
}

