// Async factories and `resolveAsync` (DESIGN.md, "Actors and async
// factories"; the article Concurrency).
//
// `resolveAsync` starts like a synchronous resolve: in one read section it
// finds the registration and, for a plain factory, resolves it there and then
// (a cached instance, or the factory run as a synchronous resolve would). A
// main-actor or async registration returns a cached instance if its caching
// scope holds one; otherwise the call leaves the read section holding real
// references and continues asynchronously:
// - a main-actor factory: the call hops to the main actor and resolves there
//   synchronously, through the registration's scope;
// - an async factory: run in the calling task, with the task's chain of
//   async registrations (`AsyncFrame`, task-local) checked for a cycle first;
//   a caching scope builds each key once: the first task starts the build in
//   a task of its own and every asking task, that one included, suspends on
//   the build's continuation list until it finishes (no thread waits, and a
//   cancelled asker does not cancel the build); a graph-scoped one is kept
//   for the rest of the top-level `resolveAsync`.

// MARK: - Registering async factories

extension Resolver {
    /// Registers an async factory in `main`: `register { await Store() }`.
    ///
    /// Resolve it with `await Resolver.resolveAsync()`. A synchronous resolve
    /// returns an instance a caching scope already holds, and otherwise stops
    /// the program with a message. Caching scopes build it once however many
    /// tasks ask at the same moment; the others suspend until it is built.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                         factory: @escaping ResolverFactoryAsync<Service>) -> ResolverOptions<Service> {
        register(nil, name, .async({ _, _ in await factory() }, takesArguments: false))
    }

    /// Registers an async factory that receives the resolving container, in
    /// `main`: `register { r in await Store(api: r.resolve()) }`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name.
    ///   - factory: makes the service from the container `resolveAsync` was called on.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                         factory: @escaping ResolverFactoryAsyncResolver<Service>) -> ResolverOptions<Service> {
        register(nil, name, .async({ resolver, _ in await factory(resolver) }, takesArguments: false))
    }

    /// Registers an async factory that receives the container and the
    /// resolve call's arguments, in `main`.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name.
    ///   - factory: makes the service from the container and its `args:` (``Args``).
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public static func register<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                         factory: @escaping ResolverFactoryAsyncArgumentsN<Service>) -> ResolverOptions<Service> {
        register(nil, name, .async({ resolver, args in await factory(resolver, Resolver.Args(args)) }, takesArguments: true))
    }
}

extension Resolver.Registrar {
    /// Registers an async factory in this container (see the static
    /// `register` of this shape).
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name.
    ///   - factory: makes the service; returning nil counts as not registered.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                        factory: @escaping ResolverFactoryAsync<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, .async({ _, _ in await factory() }, takesArguments: false))
    }

    /// Registers an async factory that receives the resolving container, in
    /// this container.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name.
    ///   - factory: makes the service from the container `resolveAsync` was called on.
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                        factory: @escaping ResolverFactoryAsyncResolver<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, .async({ resolver, _ in await factory(resolver) }, takesArguments: false))
    }

    /// Registers an async factory that receives the container and the
    /// resolve call's arguments, in this container.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the factory's result when omitted.
    ///   - name: register under this name.
    ///   - factory: makes the service from the container and its `args:` (``Args``).
    /// - Returns: options for the new registration (scope, `implements`, …).
    @inlinable
    @discardableResult
    public func callAsFunction<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                        factory: @escaping ResolverFactoryAsyncArgumentsN<Service>) -> ResolverOptions<Service> {
        Resolver.register(container, name, .async({ resolver, args in await factory(resolver, Resolver.Args(args)) }, takesArguments: true))
    }
}

// MARK: - Resolving from async code

extension Resolver {
    /// Resolves a `Service` from `root` in async code, whatever its factory:
    /// an async factory is awaited, a `@MainActor` factory runs on the main
    /// actor (the call hops there), a plain factory runs as a synchronous
    /// resolve would. Stops the program when none is registered (or its
    /// factory returns nil).
    ///
    /// It runs on the caller's actor (`nonisolated(nonsending)`): a cached
    /// instance costs about what a synchronous resolve costs, with no hop.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the context when omitted.
    ///   - name: the registration's name.
    ///   - args: passed to the factory (``Args``), if any.
    @inlinable
    nonisolated(nonsending)
    public static func resolveAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                             args: Any? = nil) async -> Service {
        if let service: Service = await resolveServiceAsync(in: nil, name: name, args: args) {
            return service
        }
        notResolved(Service.self, name: name, in: nil)
    }

    /// Resolves a `Service` from `root` in async code, or nil where
    /// `resolveAsync` would stop.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the context when omitted.
    ///   - name: the registration's name.
    ///   - args: passed to the factory (``Args``), if any.
    @inlinable
    nonisolated(nonsending)
    public static func optionalAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                              args: Any? = nil) async -> Service? {
        await resolveServiceAsync(in: nil, name: name, args: args)
    }

    /// Resolves a `Service` from this container (and its children) in async
    /// code (see the static `resolveAsync`).
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the context when omitted.
    ///   - name: the registration's name.
    ///   - args: passed to the factory (``Args``), if any.
    @inlinable
    nonisolated(nonsending)
    public final func resolveAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                            args: Any? = nil) async -> Service {
        if let service: Service = await Resolver.resolveServiceAsync(in: self, name: name, args: args) {
            return service
        }
        Resolver.notResolved(Service.self, name: name, in: self)
    }

    /// Resolves a `Service` from this container (and its children) in async
    /// code, or nil where `resolveAsync` would stop.
    ///
    /// - Parameters:
    ///   - type: the service type; inferred from the context when omitted.
    ///   - name: the registration's name.
    ///   - args: passed to the factory (``Args``), if any.
    @inlinable
    nonisolated(nonsending)
    public final func optionalAsync<Service>(_ type: Service.Type = Service.self, name: Resolver.Name? = nil,
                                             args: Any? = nil) async -> Service? {
        await Resolver.resolveServiceAsync(in: self, name: name, args: args)
    }

    /// Resolves `Service` in `container` (nil: `root`) from async code.
    @inlinable
    nonisolated(nonsending)
    static func resolveServiceAsync<Service>(in container: Resolver?, name: Resolver.Name?, args: Any?) async -> Service? {
        let step: AsyncStep<Service> = withArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key in
                startAsync(key, in: container, arguments)
            }
        }
        switch step {
        case .done(let service):
            return service
        case .pending(let pending):
            return await pending.finish(args)
        }
    }

    /// The synchronous start of `resolveAsync`: the service, when it can be
    /// had without awaiting; else what is needed to await it.
    @inlinable
    static func startAsync<Service>(_ key: RegistryKey, in container: Resolver?,
                                    _ arguments: ArgumentsPointer) -> AsyncStep<Service> {
        var target = container
        if Published.detours.load() != 0 {
            target = container ?? currentOverride()
            GraphRecorder.recordResolve(of: Service.self, key)
        }
        let section = ReadSection()
        guard let found = registeredTarget(target, section) else {
            section.end()
            return startAsyncAfterRegistering(key, in: target, arguments)
        }
        let hit = ThreadCache.find(found, key.typeID, key.nameBytes, key.nameHash, section)
        if let instance = hit?.instance {
            let service = ValueStorage.value(in: instance, as: Service.self)
            section.end()
            return .done(service)
        }
        let request = ResolveRequest(key, from: found, arguments)
        let step: AsyncStep<Service>
        if let hit {
            step = startAsyncFound(hit.registration.unsafeCast(to: ResolverRegistration<Service>.self), request,
                                   given: target, section)
        } else {
            step = startAsyncInReadSection(request, given: target, section)
        }
        section.end()
        return step
    }

    /// `startAsync` while `registerAllServices` has yet to run: run it (or
    /// wait for it), then start.
    @usableFromInline
    @inline(never)
    static func startAsyncAfterRegistering<Service>(_ key: RegistryKey, in container: Resolver?,
                                                    _ arguments: ArgumentsPointer) -> AsyncStep<Service> {
        withRegisteredTarget(container) { target, section in
            startAsyncInReadSection(ResolveRequest(key, from: target, arguments), given: container, section)
        }
    }

    /// Finds the registration for the request: a plain factory's
    /// registration is resolved here; a main-actor or async one returns its
    /// cached instance, if any, or what is needed to await it.
    @inlinable
    static func startAsyncInReadSection<Service>(_ request: ResolveRequest, given: Resolver?,
                                                 _ section: borrowing ReadSection) -> AsyncStep<Service> {
        guard let found = request.container.read({ $0.storage }).find(request.key, section) else {
            return .done(nil)
        }
        return startAsyncFound(found.unsafeCast(to: ResolverRegistration<Service>.self), request, given: given, section)
    }

    /// `startAsyncInReadSection` once `registration` is found.
    @inlinable
    static func startAsyncFound<Service>(_ registration: UnownedReference<ResolverRegistration<Service>>,
                                         _ request: ResolveRequest, given: Resolver?,
                                         _ section: borrowing ReadSection) -> AsyncStep<Service> {
        let scope = ResolverRegistration<Service>.effectiveScope(registration, request.container, section)
        if let service = cachedService(registration, scope, request, section) {
            return .done(service)
        }
        if ResolverRegistration<Service>.isolation(registration) == .none {
            let service = ResolverRegistration<Service>.resolveUncached(registration, through: scope, request,
                                                                         given: given, section)
            if let decorate = Published.decorate.load(), let service {
                DecorateBox.call(decorate, with: service)
            }
            return .done(service)
        }
        return .pending(AsyncPending(registration, scope, request.resolver(given: given)))
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
    init(_ registration: UnownedReference<ResolverRegistration<Service>>, _ scope: UnownedReference<ResolverScope>,
         _ resolver: Resolver) {
        self.registration = registration.object
        self.scope = scope.object
        self.resolver = resolver
    }

    /// Resolves it: on the main actor, or by awaiting its async factory.
    @usableFromInline
    nonisolated(nonsending)
    func finish(_ args: Any?) async -> Service? {
        let service: Service?
        switch registration.isolation {
        case .none, .mainActor:
            let carried = Carried((registration, resolver, args))
            service = await MainActor.run {
                Carried(carried.value.0.resolve(resolver: carried.value.1, args: carried.value.2))
            }.value
        case .async:
            service = await registration.resolveAsyncFactory(through: scope, resolver, args)
        }
        if let service, let decorate = registry.withLock({ registry.decorateWhenResolving }) {
            decorate(service)
        }
        return service
    }
}

// MARK: - Running async factories

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
    let parent: AsyncFrame?
    let graph: AsyncGraph

    init(registration: ObjectIdentifier?, description: String, parent: AsyncFrame?, graph: AsyncGraph) {
        self.registration = registration
        self.description = description
        self.parent = parent
        self.graph = graph
    }

    /// The frame for the top level of a `resolveAsync`, with a new graph.
    static func topLevel() -> AsyncFrame {
        AsyncFrame(registration: nil, description: "", parent: nil, graph: AsyncGraph())
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
    func resolveAsyncFactory(through scope: ResolverScope, _ resolver: Resolver, _ args: Any?) async -> Service? {
        let parent = AsyncFrame.current ?? AsyncFrame.topLevel()
        if parent.contains(ObjectIdentifier(self)) {
            let chain = parent.chain.drop { $0 != keyDescription } + [keyDescription]
            resolverFailure("RESOLVER: circular dependency: \(chain.joined(separator: " → ")). Break the cycle with resolveProperties, a lazy property or a weak reference.",
                            kind: .cycle)
        }
        switch scope.kind {
        case .cache, .shared:
            return await scope.buildOnceAsync(self, resolver, args, parent)
        case .graph:
            if let found = parent.graph.instance(of: ObjectIdentifier(self), as: Service.self) {
                return found
            }
            let service = await runAsyncFactory(resolver, args, parent)
            if let service {
                parent.graph.remember(service, of: ObjectIdentifier(self))
            }
            return service
        case .unique, .container, .custom:
            return await runAsyncFactory(resolver, args, parent)
        }
    }

    /// Runs the async factory in a frame of its own, then what
    /// `update(factory:)` installed (`resolveProperties` blocks), if any.
    nonisolated(nonsending)
    func runAsyncFactory(_ resolver: Resolver, _ args: Any?, _ parent: AsyncFrame) async -> Service? {
        guard case .async(let factory, _) = factory else {
            return nil
        }
        let frame = AsyncFrame(registration: ObjectIdentifier(self), description: keyDescription, parent: parent,
                               graph: parent.graph)
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

// MARK: - Building once without blocking

extension ResolverScope {
    /// A caching scope's way to an async instance that is not cached: the
    /// first task starts the build in a task of its own, and every task that
    /// asks meanwhile (the first too) suspends until it finishes; the
    /// instance is stored unless the scope was reset meanwhile (DESIGN.md,
    /// invariant 4). No thread waits: waiting tasks are suspended.
    nonisolated(nonsending)
    func buildOnceAsync<Service>(_ registration: ResolverRegistration<Service>, _ resolver: Resolver, _ args: Any?,
                                 _ parent: AsyncFrame) async -> Service? {
        let start: AsyncBuildStart<Service> = withRegistryKey(Service.self, registration.name) { key in
            registry.withLock {
                if let cached = cachedInstance(key, as: Service.self) {
                    return .cached(cached)
                }
                if let flight = asyncBuilding.first(where: { $0.isBuilding(registration.typeID, registration.name) }) {
                    return .wait(flight)
                }
                let flight = AsyncFlight(typeID: registration.typeID, name: registration.name)
                asyncBuilding.append(flight)
                return .build(flight, generation)
            }
        }
        switch start {
        case .cached(let service):
            return service
        case .wait(let flight):
            return await flight.result(as: Service.self)
        case .build(let flight, let generation):
            let work = Carried((self, registration, resolver, args, parent))
            // A task of its own, inheriting this one's task-locals (the
            // chain, `withRoot`): cancelling any asker leaves the build alone.
            startTask {
                let (scope, registration, resolver, args, parent) = work.value
                // On a verification's thread (its executor runs this task), a
                // failure ends the thread: it must first take this build out.
                let verifying = ResolutionContext.existing.flatMap { $0.verification == nil ? nil : $0 }
                verifying?.unfinishedAsyncBuilds.append((scope, flight))
                let service = await AsyncFrame.$current.withValue(parent) {
                    await registration.runAsyncFactory(resolver, args, parent)
                }
                verifying?.unfinishedAsyncBuilds.removeAll { $0.flight === flight }
                scope.finishAsyncBuild(flight, service, registration.name, generation)
            }
            return await flight.result(as: Service.self)
        }
    }

    /// Stores a finished async build's instance (unless the scope was reset
    /// since it began) and wakes the tasks waiting for it.
    func finishAsyncBuild<Service>(_ flight: AsyncFlight, _ service: Service?, _ name: Resolver.Name?, _ generation: UInt64) {
        withRegistryKey(Service.self, name) { key in
            registry.write {
                asyncBuilding.removeAll { $0 === flight }
                if let service, generation == self.generation {
                    storeLocked(service, key)
                }
            }
        }
        flight.finish(Carried(service))
    }
}

/// Starts `operation` in a new task that inherits the caller's task-locals
/// (and, inside `verify()`, runs on the verification's thread).
private func startTask(_ operation: sending @escaping @isolated(any) () async -> Void) {
    if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *),
       let executor = VerificationExecutor.current {
        Task(executorPreference: executor, operation: operation)
    } else {
        Task(operation: operation)
    }
}

/// How an async build-once begins.
enum AsyncBuildStart<Service> {
    case cached(Service)
    case wait(AsyncFlight)
    case build(AsyncFlight, UInt64)
}

/// An async build in progress in a caching scope: which key, and the tasks
/// waiting for it (suspended on continuations; resumed when it finishes).
/// Its state is guarded by the registry mutex, held for a few instructions.
final class AsyncFlight: @unchecked Sendable {
    let typeID: UInt64
    let name: Resolver.Name?
    private var finished = false
    private var result: Any?
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(typeID: UInt64, name: Resolver.Name?) {
        self.typeID = typeID
        self.name = name
    }

    /// Whether this build is for the key (`typeID`, `name`).
    func isBuilding(_ typeID: UInt64, _ name: Resolver.Name?) -> Bool {
        self.typeID == typeID && self.name == name
    }

    /// Suspends until the build finishes; its instance.
    func result<Service>(as type: Service.Type) async -> Service? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = registry.withLock { () -> Bool in
                if !finished {
                    waiters.append(continuation)
                }
                return finished
            }
            if done {
                continuation.resume()
            }
        }
        let result = registry.withLock { self.result }
        // nil when the build was abandoned (a verification's failed thread).
        return (result as? Carried<Service?>)?.value ?? nil
    }

    /// Ends a build whose task will never finish (its verification thread
    /// failed): the waiting tasks get nil. The caller has taken it out of its
    /// scope.
    func abandon() {
        let waiting = registry.withLock { () -> [CheckedContinuation<Void, Never>] in
            finished = true
            result = nil
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting {
            waiter.resume()
        }
    }

    /// Records the instance and resumes every waiting task.
    func finish<Service>(_ service: Carried<Service?>) {
        let waiting = registry.withLock { () -> [CheckedContinuation<Void, Never>] in
            finished = true
            result = service
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting {
            waiter.resume()
        }
    }
}
