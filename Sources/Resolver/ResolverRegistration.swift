import CRegistry

/// One registered way of making a `Service`: its factory, scope and name.
///
/// Custom scopes call ``instantiate(resolver:args:)`` to make a new instance;
/// ``resolve(resolver:args:)`` goes through the registration's scope.
///
/// A registration made by `register` does not know its container; one made
/// with ``init(resolver:key:name:factory:)`` keeps a weak reference to the
/// given container, where ``ResolverOptions/implements(_:name:)`` registers.
//
// Invariants: the key (`typeID`, `name`) and the factory it was registered
// with never change. The scope and the factory installed by
// `update(factory:)` change under the registry mutex and are published in
// `cells` for readers: each holds an unretained pointer, owned by
// `scopeStorage` (the scope) or by the cell itself (the factory box); what
// they replace is retired, so a thread still running a replaced factory, or
// reading a replaced scope, is never left with a freed object (DESIGN.md).
public final class ResolverRegistration<Service>: @unchecked Sendable {
    /// The factory, in the shape it was registered with. The resolve path
    /// calls it in place.
    @usableFromInline
    enum Factory {
        case plain(ResolverFactory<Service>)
        case resolver(ResolverFactoryResolver<Service>)
        case arguments(ResolverFactoryArgumentsN<Service>)
        case anyArguments(ResolverFactoryAnyArguments<Service>)
        /// `{ @MainActor in … }`, in any shape: runs on the main actor only.
        case mainActor(MainActorFactory, takesArguments: Bool)
        /// An async factory, in any shape: `resolveAsync` only.
        case async(AsyncFactory, takesArguments: Bool)

        /// What isolation the factory needs.
        @inlinable
        var isolation: FactoryIsolation {
            switch self {
            case .plain, .resolver, .arguments, .anyArguments: return .none
            case .mainActor: return .mainActor
            case .async: return .async
            }
        }
    }

    /// A main-actor factory of any shape, as stored.
    @usableFromInline
    typealias MainActorFactory = @MainActor (_ resolver: Resolver, _ args: Any?) -> Service?
    /// An async factory of any shape, as stored.
    @usableFromInline
    typealias AsyncFactory = (_ resolver: Resolver, _ args: Any?) async -> Service?

    /// A factory installed by `update(factory:)`, held by reference.
    @usableFromInline
    final class FactoryBox {
        @usableFromInline let factory: ResolverFactoryAnyArguments<Service>

        init(_ factory: @escaping ResolverFactoryAnyArguments<Service>) {
            self.factory = factory
        }

        /// The factory of the box at `raw`, read without a reference count
        /// (read section).
        @inlinable
        @inline(__always)
        static func factory(_ raw: UnsafeMutableRawPointer) -> ResolverFactoryAnyArguments<Service> {
            unowned(unsafe) let box = Unmanaged<FactoryBox>.fromOpaque(raw).takeUnretainedValue()
            return box.factory
        }
    }

    /// `ObjectIdentifier(Service.self)` as the registry's type identity.
    @usableFromInline let typeID: UInt64
    @usableFromInline let name: Resolver.Name?
    @usableFromInline let factory: Factory
    /// `factory.isolation`, kept for the paths that branch on it.
    @usableFromInline let isolation: FactoryIsolation
    /// Whether `register` was called on the main actor (`#isolation`): a
    /// plain factory written there may be isolated to it.
    let registeredOnMainActor: Bool
    /// Whether the warning for running such a factory off the main actor
    /// has been given (under the registry mutex).
    var warnedOffMainActor = false
    /// `cells[scopeCell]`: the scope (unretained; `scopeStorage` owns it).
    /// `cells[replacementCell]`: the `FactoryBox` from `update(factory:)`
    /// (owned, +1), or nil while the registered factory is in use.
    /// `cells[memoCell]`: the `CacheMemo` of its cached instance (owned), or nil.
    /// `cells[producersCell]`: `producerSlots + 1` cells, one per thread
    /// number (`crg_thread_index`) and a last one that higher-numbered
    /// threads share, each an owned `Producer` or nil; nil until a thread
    /// first makes an instance.
    @usableFromInline let cells: UnsafeMutablePointer<crg_cell>
    @inlinable static var scopeCell: Int { 0 }
    @inlinable static var replacementCell: Int { 1 }
    @inlinable static var memoCell: Int { 2 }
    @inlinable static var producersCell: Int { 3 }
    /// Threads numbered below this get a `Producer` of their own; the others
    /// share one (and its reference count).
    @inlinable static var producerSlots: Int { 64 }

    // Guarded by the registry mutex.
    private var scopeStorage: ResolverScope
    /// Counts `update(factory:)` installs, so an update that raced another
    /// can tell and wrap the newer factory.
    private var factoryVersion: UInt64 = 0

    /// The container given to `init(resolver:key:name:factory:)`, where the
    /// options' `implements` registers (held weakly, as by the original).
    /// Registrations made by `register` leave it nil: `ResolverOptions` knows
    /// their container.
    weak var container: Resolver?

    /// The registration an `implements()` registration resolves through
    /// (under the registry mutex): its factory takes arguments only to pass
    /// them on, so it needs them only if that one does.
    var forwardsTo: RegistrationDescribing?

    /// The key this registration reports: the type identity of `Service`, or
    /// the one given to `init(resolver:key:name:factory:)`.
    public let key: Int

    /// A string key of `key` and name, which the original's caches used:
    /// "key" or "key:name". Computed on demand.
    public var cacheKey: String {
        guard let name else { return String(key) }
        return String(key) + ":" + name.rawValue
    }

    /// For a registration made by hand whose `key` is not the type identity
    /// of `Service`: its `cacheKey`, as a name, under which the caching scopes
    /// keep its instance (in a key space of hand-made registrations,
    /// `handMadeCacheType`), as the original's caches kept it. nil for
    /// every other registration: `register` gives each the key of its type,
    /// and the caches keep its instance under its type and name.
    let handMadeCacheName: Resolver.Name?

    /// The type identity of the caching scopes' keys for hand-made
    /// registrations (`handMadeCacheName`): odd, so it is no type's identity
    /// (a type's is the address of its metadata). The registrations that
    /// meet there may be of different service types, as in the original,
    /// where two registrations with one `cacheKey` shared an entry.
    static var handMadeCacheType: UInt64 { 1 }

    /// A registration made by `register`.
    @usableFromInline
    init(name: Resolver.Name?, scope: ResolverScope, factory: Factory, registeredOnMainActor: Bool = false) {
        typeID = UInt64(UInt(bitPattern: ObjectIdentifier(Service.self)))
        key = Int(bitPattern: UInt(typeID))
        self.name = name
        self.factory = factory
        isolation = factory.isolation
        self.registeredOnMainActor = registeredOnMainActor
        handMadeCacheName = nil
        scopeStorage = scope
        cells = makeCells(4)
        crg_cell_store(cells, Unmanaged.passUnretained(scope).toOpaque())
    }

    /// Makes a registration by hand, as the original allows: for calling a
    /// factory through a scope directly (`scope.resolve(registration:…)`) or
    /// building `ResolverOptions(registration:)`. It is not registered
    /// anywhere. Its scope is `Resolver.defaultScope`.
    ///
    /// The caching scopes keep its instance under ``cacheKey``, made of `key`
    /// and `name`, as the original's did: hand-made registrations under two
    /// keys cache two instances, and one whose `key` is not the type identity
    /// of `Service` (`Int(bitPattern: ObjectIdentifier(Service.self))`, the
    /// key `register` gives) does not share the instance of the registration
    /// `register` made for `Service` and `name`. Hand-made registrations of
    /// different service types under one `cacheKey` share the entry: each
    /// finds there an instance of its type, or makes one that replaces it.
    /// (Unlike the original's, a `key` that is the identity of another type
    /// does not reach the instances of that type's ordinary registrations.)
    public init(resolver: Resolver, key: Int, name: Resolver.Name?, factory: @escaping ResolverFactoryAnyArguments<Service>) {
        typeID = UInt64(UInt(bitPattern: ObjectIdentifier(Service.self)))
        self.key = key
        self.name = name
        self.factory = .anyArguments(factory)
        isolation = .none
        registeredOnMainActor = false
        if key == Int(bitPattern: UInt(typeID)) {
            handMadeCacheName = nil
        } else {
            handMadeCacheName = Resolver.Name(name.map { String(key) + ":" + $0.rawValue } ?? String(key))
        }
        let scope = Resolver.defaultScope
        scopeStorage = scope
        cells = makeCells(4)
        crg_cell_store(cells, Unmanaged.passUnretained(scope).toOpaque())
        container = resolver
    }

    deinit {
        for index in [ResolverRegistration.replacementCell, ResolverRegistration.memoCell] {
            if let object = crg_cell_load(cells + index) {
                Unmanaged<AnyObject>.fromOpaque(object).release()
            }
        }
        if let producers = crg_cell_load(cells + ResolverRegistration.producersCell) {
            let slots = producers.assumingMemoryBound(to: crg_cell.self)
            for index in 0...ResolverRegistration.producerSlots {
                if let producer = crg_cell_load(slots + index) {
                    Unmanaged<Producer>.fromOpaque(producer).release()
                }
            }
            crg_cells_destroy(slots)
        }
        crg_cells_destroy(cells)
    }

    /// A thread's own copy of the registered factory.
    ///
    /// Calling a closure read from a shared object retains and releases its
    /// context, and reaching the registration from the table's pointer
    /// retains the registration: two reference counts every thread writes,
    /// on every new instance. Each thread instead reaches a `Producer` of its
    /// own (retaining only it) and calls the factory from the producer's
    /// constant property, which needs no reference count. (A subclass per
    /// factory shape: a closure bound out of an enum case is a copy, with the
    /// retain and release this avoids.) The factory is the registered one
    /// and never changes; `update(factory:)` replacements are checked before
    /// a producer is used.
    @usableFromInline
    class Producer {
        /// An instance from the factory. A factory that takes a container
        /// gets `given` (which the caller holds) or, when nil, the calling
        /// thread's snapshot of the root at `rootRaw`. Call inside a read
        /// section.
        @usableFromInline
        func produce(given: Resolver?, root rootRaw: UnsafeMutableRawPointer, _ arguments: ArgumentsPointer) -> Service? {
            preconditionFailure("Producer is abstract")
        }

        /// A producer for the factory of `registration`.
        static func make(for registration: ResolverRegistration) -> Producer {
            let producer = makeUnchecked(for: registration)
            guard registration.registeredOnMainActor, registration.isolation == .none else {
                return producer
            }
            return LeavingMainActorCheck(producer, registration)
        }

        static func makeUnchecked(for registration: ResolverRegistration) -> Producer {
            switch registration.factory {
            case .plain(let factory): return Plain(factory)
            case .resolver(let factory): return WithResolver(factory)
            case .arguments(let factory): return WithArguments(factory)
            case .anyArguments(let factory): return WithAnyArguments(factory)
            case .mainActor(let factory, _): return OnMainActor(factory, registration.name)
            case .async: return AsyncOnly(registration.name)
            }
        }

        final class Plain: Producer {
            let factory: ResolverFactory<Service>

            init(_ factory: @escaping ResolverFactory<Service>) {
                self.factory = factory
            }

            override func produce(given: Resolver?, root rootRaw: UnsafeMutableRawPointer,
                                  _ arguments: ArgumentsPointer) -> Service? {
                factory()
            }
        }

        /// The shapes that take a container.
        class ContainerProducer: Producer {
            final override func produce(given: Resolver?, root rootRaw: UnsafeMutableRawPointer,
                                        _ arguments: ArgumentsPointer) -> Service? {
                // Not `if let`: binding the caller's container copies it, a
                // retain of an object every thread holds.
                if given != nil {
                    return call(given.unsafelyUnwrapped, arguments)
                }
                return call(RootSnapshot.current(for: rootRaw), arguments)
            }

            /// The snapshot's root, passed without a reference count.
            final func call(_ snapshot: RootSnapshot, _ arguments: ArgumentsPointer) -> Service? {
                call(snapshot.root, arguments)
            }

            func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                preconditionFailure("ContainerProducer is abstract")
            }
        }

        final class WithResolver: ContainerProducer {
            let factory: ResolverFactoryResolver<Service>

            init(_ factory: @escaping ResolverFactoryResolver<Service>) {
                self.factory = factory
            }

            override func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                factory(resolver)
            }
        }

        final class WithArguments: ContainerProducer {
            let factory: ResolverFactoryArgumentsN<Service>

            init(_ factory: @escaping ResolverFactoryArgumentsN<Service>) {
                self.factory = factory
            }

            override func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                factory(resolver, Resolver.Args(arguments.value))
            }
        }

        final class WithAnyArguments: ContainerProducer {
            let factory: ResolverFactoryAnyArguments<Service>

            init(_ factory: @escaping ResolverFactoryAnyArguments<Service>) {
                self.factory = factory
            }

            override func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                factory(resolver, arguments.value)
            }
        }

        /// A main-actor factory: runs on the main actor only.
        final class OnMainActor: ContainerProducer {
            let factory: MainActorFactory
            let name: Resolver.Name?

            init(_ factory: @escaping MainActorFactory, _ name: Resolver.Name?) {
                self.factory = factory
                self.name = name
            }

            override func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                ResolverRegistration.callOnMainActor(factory, name, resolver, arguments.value)
            }
        }

        /// A plain factory registered from the main actor: before it runs on
        /// a thread other than the one that ran it last, checks whether that
        /// thread is on the main actor, and says once per registration if it
        /// is not (`warnIfLeavingMainActor`). Per thread rather than per
        /// producer: threads take turns with a slot's producer (thread
        /// numbers are reused, and threads numbered past the slots share
        /// one).
        final class LeavingMainActorCheck: Producer {
            let inner: Producer
            /// The registration owns this producer.
            unowned(unsafe) let registration: ResolverRegistration
            /// The context of the thread that ran it last, or `warned` once
            /// the warning has been given.
            let lastThread: UnsafeMutablePointer<crg_word>
            static var warned: UInt64 { UInt64.max }

            init(_ inner: Producer, _ registration: ResolverRegistration) {
                self.inner = inner
                self.registration = registration
                lastThread = makeWords(1)
            }

            deinit {
                crg_cells_destroy(lastThread)
            }

            override func produce(given: Resolver?, root rootRaw: UnsafeMutableRawPointer,
                                  _ arguments: ArgumentsPointer) -> Service? {
                let thread = UInt64(UInt(bitPattern: crg_thread_object()))
                let last = crg_word_load(lastThread)
                if last != thread && last != LeavingMainActorCheck.warned {
                    crg_word_store(lastThread, thread)
                    if registration.warnIfLeavingMainActor() {
                        crg_word_store(lastThread, LeavingMainActorCheck.warned)
                    }
                }
                return inner.produce(given: given, root: rootRaw, arguments)
            }
        }

        /// An async factory: a synchronous resolve stops with a message.
        final class AsyncOnly: Producer {
            let name: Resolver.Name?

            init(_ name: Resolver.Name?) {
                self.name = name
            }

            override func produce(given: Resolver?, root rootRaw: UnsafeMutableRawPointer,
                                  _ arguments: ArgumentsPointer) -> Service? {
                resolverFailure(ResolverRegistration.asyncFactoryMessage(name), kind: .other)
            }
        }

        /// The calling thread's producer for the registration at `raw`, made
        /// on first use; threads numbered `producerSlots` or more share one.
        /// Call inside a read section.
        @inlinable
        @inline(__always)
        static func forCallingThread(_ raw: UnsafeMutableRawPointer) -> Producer {
            let slot = min(Int(crg_thread_index()), producerSlots)
            if let producers = crg_cell_load(ResolverRegistration.cells(raw) + producersCell),
               let producer = crg_cell_load(producers.assumingMemoryBound(to: crg_cell.self) + slot) {
                return Unmanaged<Producer>.fromOpaque(producer).takeUnretainedValue()
            }
            return make(raw, slot)
        }

        /// Makes and publishes the producer of `slot` (and the slot array,
        /// the first time). A thread that loses a race for either uses the
        /// winner's.
        @usableFromInline
        @inline(never)
        static func make(_ raw: UnsafeMutableRawPointer, _ slot: Int) -> Producer {
            let registration = Unmanaged<ResolverRegistration>.fromOpaque(raw).takeUnretainedValue()
            let slots = published(makeCells(producerSlots + 1), in: registration.cells + producersCell,
                                  discard: { crg_cells_destroy($0) })
            let producer = Unmanaged.passRetained(Producer.make(for: registration)).toOpaque()
            let kept = published(producer, in: slots.assumingMemoryBound(to: crg_cell.self) + slot,
                                 discard: { Unmanaged<Producer>.fromOpaque($0).release() })
            return Unmanaged<Producer>.fromOpaque(kept).takeUnretainedValue()
        }

        /// `value` stored in the empty `cell`, or, if the cell has been
        /// filled meanwhile, what it holds (and `value` is discarded).
        private static func published(_ value: UnsafeMutableRawPointer, in cell: UnsafeMutablePointer<crg_cell>,
                                      discard: (UnsafeMutableRawPointer) -> Void) -> UnsafeMutableRawPointer {
            if let existing = crg_cell_load(cell) {
                discard(value)
                return existing
            }
            if crg_cell_compare_exchange(cell, nil, value) {
                return value
            }
            discard(value)
            return crg_cell_load(cell).unsafelyUnwrapped
        }
    }

    /// The scope (under the registry mutex).
    var scope: ResolverScope {
        registry.withLock { scopeStorage }
    }

    /// "Type" or "Type:name", as in the original's messages.
    var keyDescription: String {
        describe(Service.self, name)
    }

    /// The factory as registered, in the `(Resolver, Any?) -> Service?` form
    /// that `update(factory:)` works with.
    var registeredFactory: ResolverFactoryAnyArguments<Service> {
        switch factory {
        case .plain(let factory): return { _, _ in factory() }
        case .resolver(let factory): return { resolver, _ in factory(resolver) }
        case .arguments(let factory): return { resolver, args in factory(resolver, Resolver.Args(args)) }
        case .anyArguments(let factory): return factory
        case .mainActor(let factory, _):
            let name = self.name
            return { resolver, args in ResolverRegistration.callOnMainActor(factory, name, resolver, args) }
        case .async:
            // `resolveAsync` runs the async factory, then calls what
            // `update(factory:)` installed with its instance waiting here.
            let name = self.name
            return { _, _ in
                guard let service = ResolutionContext.current.takeAwaitedInstance(as: Service.self) else {
                    resolverFailure(ResolverRegistration.asyncFactoryMessage(name), kind: .other)
                }
                return service
            }
        }
    }

    /// Resolves through this registration's scope: depending on the scope,
    /// a cached instance or a new one.
    public final func resolve(resolver: Resolver, args: Any?) -> Service? {
        withArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key in
                if crg_word_load(Published.detours) != 0 {
                    GraphRecorder.recordResolve(of: Service.self, key)
                }
                crg_read_begin()
                defer { crg_read_end() }
                let raw = Unmanaged.passUnretained(self).toOpaque()
                let resolverRaw = Unmanaged.passUnretained(resolver).toOpaque()
                if handMadeCacheName != nil {
                    return resolveHandMade(raw, key, resolverRaw, resolver, arguments)
                }
                return ResolverRegistration.resolve(raw, key, resolverRaw, given: resolver, arguments)
            }
        }
    }

    /// `resolve(resolver:args:)` of a registration with a `handMadeCacheName`:
    /// the scope is chosen as for every registration (the container's cache
    /// for `.container`, a sandbox's copy where the container isolates its
    /// scopes); a caching scope keeps the instance under the hand-made key.
    /// Call inside a read section.
    private func resolveHandMade(_ raw: UnsafeMutableRawPointer, _ key: UnsafeMutablePointer<crg_key>,
                                 _ resolverRaw: UnsafeMutableRawPointer, _ resolver: Resolver,
                                 _ arguments: ArgumentsPointer) -> Service? {
        var scopeRaw = crg_cell_load(cells + ResolverRegistration.scopeCell).unsafelyUnwrapped
        if ResolverScope.kind(scopeRaw) == .container {
            scopeRaw = crg_cell_load(Resolver.cells(resolverRaw) + Resolver.cacheCell)
                ?? Resolver.makeCacheScope(resolverRaw)
        }
        if let isolated = Resolver.isolatedScopes(resolverRaw) {
            scopeRaw = IsolatedScopes.substitute(isolated, scopeRaw)
        }
        let kind = ResolverScope.kind(scopeRaw)
        guard kind == .cache || kind == .shared else {
            return ResolverRegistration.resolve(raw, through: scopeRaw, key, resolverRaw, given: resolver, arguments)
        }
        let scope = Unmanaged<ResolverScope>.fromOpaque(scopeRaw).takeUnretainedValue()
        return scope.resolveHandMade(self, resolver, arguments)
    }

    /// Makes a new instance with the factory (and any `resolveProperties`
    /// blocks). This is what scopes call. A registration re-entered on the
    /// same thread while its factory is running is a dependency cycle, and
    /// stops the program with the chain of services involved.
    public final func instantiate(resolver: Resolver, args: Any?) -> Service? {
        withArguments(args) { arguments in
            crg_read_begin()
            defer { crg_read_end() }
            return instantiateInReadSection(resolver, arguments)
        }
    }

    /// `instantiate`, inside a read section.
    func instantiateInReadSection(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
        ResolverRegistration.produce(Unmanaged.passUnretained(self).toOpaque(), ResolutionContext.current,
                                     Unmanaged.passUnretained(resolver).toOpaque(), given: resolver, arguments)
    }

    /// Replaces the factory with `modifier(factory)`: how `resolveProperties`
    /// attaches its blocks, and how apps can wrap a factory themselves.
    public final func update(factory modifier: (_ factory: @escaping ResolverFactoryAnyArguments<Service>) -> ResolverFactoryAnyArguments<Service>) {
        // The modifier is user code, so it runs without the lock held; if
        // another update lands meanwhile, wrap the newer factory instead, so
        // that no update is lost.
        while true {
            let (version, current) = registry.withLock { () -> (UInt64, ResolverFactoryAnyArguments<Service>) in
                let installed = crg_cell_load(cells + ResolverRegistration.replacementCell)
                    .map { Unmanaged<FactoryBox>.fromOpaque($0).takeUnretainedValue().factory }
                return (factoryVersion, installed ?? registeredFactory)
            }
            let updated = modifier(current)
            let installed = registry.write { () -> Bool in
                guard factoryVersion == version else {
                    return false
                }
                factoryVersion += 1
                let box = Unmanaged.passRetained(FactoryBox(updated)).toOpaque()
                if let replaced = crg_cell_exchange(cells + ResolverRegistration.replacementCell, box) {
                    retire(retained: replaced)
                }
                return true
            }
            if installed {
                return
            }
        }
    }

    /// Sets the scope (under the registry mutex); the old one, and the memo
    /// of its cached entry, are retired.
    final func setScope(_ scope: ResolverScope) {
        registry.write {
            guard scope !== scopeStorage else { return }
            retire(scopeStorage)
            scopeStorage = scope
            crg_cell_store(cells + ResolverRegistration.scopeCell, Unmanaged.passUnretained(scope).toOpaque())
            if let memo = crg_cell_exchange(cells + ResolverRegistration.memoCell, nil) {
                retire(retained: memo)
            }
        }
    }
}

/// What the diagnostics, verification and the dependency graph need of a
/// registration of any service type.
protocol RegistrationDescribing: AnyObject {
    /// "Type" or "Type:name".
    var keyDescription: String { get }
    /// The graph node of its key (without a scope).
    var graphNode: Resolver.Graph.Node { get }
    /// Whether its factory takes arguments (`verify()` skips it). The mutex
    /// must be held.
    var takesArgumentsLocked: Bool { get }
    /// Whether its factory is `@MainActor` (`verify()`, which resolves on
    /// threads of its own, cannot run it there, and skips it).
    var isMainActorFactory: Bool { get }
    /// Resolves it once from `container` (a verification's sandbox), as
    /// `optional()` does: whether an instance came back.
    func resolveOnce(from container: Resolver) -> Bool
    /// The scope (under the registry mutex).
    var scope: ResolverScope { get }
}

extension RegistrationDescribing {
    /// The graph node of its key, with its scope (takes the registry mutex).
    var scopedGraphNode: Resolver.Graph.Node {
        graphNode.with(scope: scopeName(scope))
    }
}

extension ResolverRegistration: RegistrationDescribing {
    var graphNode: Resolver.Graph.Node {
        Resolver.Graph.Node(typeID: typeID, type: String(describing: Service.self), name: name?.rawValue, scope: nil,
                            isolation: isolationDescription)
    }

    /// How the graph marks the factory's isolation.
    var isolationDescription: String? {
        switch isolation {
        case .none: return nil
        case .mainActor: return "@MainActor"
        case .async: return "async"
        }
    }

    var takesArgumentsLocked: Bool {
        switch factory {
        case .plain, .resolver: return false
        case .arguments: return true
        case .anyArguments: return forwardsTo?.takesArgumentsLocked ?? true
        case .mainActor(_, let takesArguments), .async(_, let takesArguments): return takesArguments
        }
    }

    var isMainActorFactory: Bool {
        isolation == .mainActor
    }

    func resolveOnce(from container: Resolver) -> Bool {
        guard isolation == .async else {
            return container.optional(Service.self, name: name) != nil
        }
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else {
            return true
        }
        let name = self.name
        // The sandbox as the task's root, for static resolves in the
        // factories and in build tasks (which inherit it). Not `withRoot`: a
        // failure ends this thread inside the operation, and `withRoot`
        // would never give back its count of the detour word; the
        // verification's own count keeps resolves on the detour meanwhile.
        return VerificationExecutor.run {
            await Resolver.$rootOverride.withValue(container) {
                await container.optionalAsync(Service.self, name: name) != nil
            }
        }
    }
}
