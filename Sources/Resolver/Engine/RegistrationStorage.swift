// What a registration publishes for the resolve path, and the threads'
// copies of its factory (`Producer`).

extension ResolverRegistration {
    /// The fields the resolve path reads without a lock, each published with
    /// release stores and read with acquire loads.
    @frozen
    @usableFromInline
    struct Fields {
        @usableFromInline let cells = AtomicCells(count: 4)

        /// The scope, unretained (`scopeStorage` owns it).
        @inlinable var scope: AtomicReference<ResolverScope> { cells.reference(0) }
        /// The `FactoryBox` from `update(factory:)` (owned), or nil while the
        /// registered factory is in use.
        @inlinable var replacement: AtomicReference<FactoryBox> { cells.reference(1) }
        /// The `CacheMemo` of its cached instance (owned), or nil.
        @inlinable var memo: AtomicReference<CacheMemo> { cells.reference(2) }
        /// The threads' producers: `producerSlots + 1` fields, one per
        /// thread number (`EngineThread.index`) below `producerSlots` and a
        /// last one that higher-numbered threads share, each an owned
        /// `Producer` or nil until that thread first makes an instance; the
        /// block itself is made on first use, on lines of its own (each
        /// thread reads its slot on every new instance).
        @inlinable var producers: AtomicCellsField { cells.block(3) }

        /// Gives up what the fields own (the registration's deinit: no reader
        /// can reach it).
        func release() {
            replacement.load()?.release()
            memo.load()?.release()
            if let slots = producers.load() {
                for index in 0...ResolverRegistration.producerSlots {
                    slots.reference(index, to: Producer.self).load()?.release()
                }
                slots.deallocate()
            }
            cells.deallocate()
        }
    }

    /// The factory `update(factory:)` installed, if any. The mutex must be held.
    var installedFactoryLocked: ResolverFactoryAnyArguments<Service>? {
        registry.assertLocked()
        return fields.replacement.load()?.read { $0.factory }
    }

    /// Publishes `factory` as the one to call; the one it replaces is
    /// retired. The mutex must be held.
    func installFactoryLocked(_ factory: @escaping ResolverFactoryAnyArguments<Service>) {
        registry.assertLocked()
        if let replaced = fields.replacement.exchange(.retaining(FactoryBox(factory))) {
            retire(owned: replaced)
        }
    }

    /// Publishes `scope` (which `scopeStorage` holds) and drops the memo of
    /// the old scope's entry. The mutex must be held.
    func publishScopeLocked(_ scope: ResolverScope) {
        registry.assertLocked()
        fields.scope.store(UnownedReference(scope))
        if let memo = fields.memo.exchange(nil) {
            retire(owned: memo)
        }
    }

    /// The isolation of `registration`'s factory.
    @inlinable
    @inline(__always)
    static func isolation(_ registration: UnownedReference<ResolverRegistration>) -> FactoryIsolation {
        registration.read { $0.isolation }
    }

    /// `resolve(resolver:args:)`: through the scope, from `resolver`.
    func resolveThroughScope(_ resolver: Resolver, _ args: Any?) -> Service? {
        withCarriedArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key in
                if Published.detours.load() != 0 {
                    GraphRecorder.recordResolve(of: Service.self, key)
                }
                return ReadSection.run { section in
                    let request = ResolveRequest(key, from: UnownedReference(resolver), arguments)
                    if handMadeCacheName != nil {
                        return resolveHandMade(request, resolver, section)
                    }
                    return ResolverRegistration.resolve(UnownedReference(self), request, given: resolver, section)
                }
            }
        }
    }

    /// `resolve(resolver:args:)` of a registration with a `handMadeCacheName`:
    /// the scope is chosen as for every registration (the container's cache
    /// for `.container`, a sandbox's copy where the container isolates its
    /// scopes); a caching scope keeps the instance under the hand-made key.
    private func resolveHandMade(_ request: ResolveRequest, _ resolver: Resolver, _ section: borrowing ReadSection) -> Service? {
        let scope = ResolverRegistration.effectiveScope(UnownedReference(self), request.container, section)
        guard scope.read({ $0.kind.keepsInstances }) else {
            return ResolverRegistration.resolve(UnownedReference(self), through: scope, request, given: resolver, section)
        }
        return scope.object.resolveHandMade(self, resolver, request.arguments, section)
    }

    /// `instantiate(resolver:args:)`: a new instance from the current factory.
    func produce(_ resolver: Resolver, _ args: Any?) -> Service? {
        withCarriedArguments(args) { arguments in
            withRegistryKey(Service.self, name) { key in
                ReadSection.run { section in
                    ResolverRegistration.produce(UnownedReference(self), ResolutionContext.currentState,
                                                 ResolveRequest(key, from: UnownedReference(resolver), arguments),
                                                 given: resolver, section)
                }
            }
        }
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
    ///
    /// What a resolve reads of its producer lies on cache lines no other
    /// allocation shares (`CacheLines.swift`): a thread's producer is often
    /// made by an earlier thread with the same number, in memory the
    /// allocator now gives another running thread for its instances, and a
    /// line that thread writes on every resolve would be fetched back on
    /// every read. So the fields sit between a `HeaderPadding` and each
    /// subclass's closing `LinePadding`, the object is made to start a
    /// 128-byte block where the allocator allows (`CacheLines.lineAligned`:
    /// a resolve retains its producer around the factory's call, a write to
    /// the header), and the shapes of the common resolves (`Plain`,
    /// `WithResolver`, `WithArguments`, `WithTypedArguments`) are called by
    /// their `shape`, read from the padded fields, not through the class
    /// pointer in the header, which may not be the producer's alone where
    /// the allocator cannot place it. The other shapes are called through
    /// the class (`produce`).
    @usableFromInline
    class Producer {
        /// With the object's header, the 128 bytes before the fields.
        @usableFromInline let headerPadding = HeaderPadding()
        /// Which final class this is, for `produceInPlace`.
        @usableFromInline let shape: Shape

        /// The shapes `produceInPlace` calls without the class pointer.
        @frozen
        @usableFromInline
        enum Shape: UInt8 {
            case plain
            case withResolver
            case withArguments
            case withTypedArguments
            case other
        }

        init(shape: Shape) {
            self.shape = shape
        }

        /// An instance from the factory, as `produce`, reading nothing of
        /// the producer outside its padded fields for the shapes of the
        /// common resolves, which it calls without a virtual call.
        @inlinable
        @inline(__always)
        final func produceInPlace(_ request: ResolveRequest, given: Resolver?, _ section: borrowing ReadSection) -> Service? {
            switch shape {
            case .plain:
                return unsafeDowncast(self, to: Plain.self).factory()
            case .withResolver:
                let producer = unsafeDowncast(self, to: WithResolver.self)
                return Producer.withContainer(request, given: given, section) { producer.factory($0) }
            case .withArguments, .withTypedArguments, .other:
                // Not inlined: the resolves without arguments keep their
                // smaller code.
                return produceWithArguments(request, given: given, section)
            }
        }

        /// `produceInPlace` for the shapes that take arguments (called by
        /// their `shape`, without a virtual call), and the others.
        @usableFromInline
        final func produceWithArguments(_ request: ResolveRequest, given: Resolver?, _ section: borrowing ReadSection) -> Service? {
            switch shape {
            case .withArguments:
                let producer = unsafeDowncast(self, to: WithArguments.self)
                return Producer.withContainer(request, given: given, section) { producer.call($0, request.arguments) }
            case .withTypedArguments:
                let producer = unsafeDowncast(self, to: WithTypedArguments.self)
                return Producer.withContainer(request, given: given, section) { producer.call($0, request.arguments) }
            case .plain, .withResolver, .other:
                return produce(request, given: given, section)
            }
        }

        /// `body` with the container a factory gets: `given`, else the
        /// thread's snapshot of the root (passed without a reference count).
        @inlinable
        @inline(__always)
        static func withContainer(_ request: ResolveRequest, given: Resolver?, _ section: borrowing ReadSection,
                                  _ body: (Resolver) -> Service?) -> Service? {
            // Not `if let`: binding the caller's container copies it, a
            // retain of an object every thread holds.
            if given != nil {
                return body(given.unsafelyUnwrapped)
            }
            return RootSnapshot.current(for: request.container, section).read { body($0.root) }
        }

        /// An instance from the factory. A factory that takes a container
        /// gets `given`, else the thread's snapshot of the root.
        @usableFromInline
        func produce(_ request: ResolveRequest, given: Resolver?, _ section: borrowing ReadSection) -> Service? {
            preconditionFailure("Producer is abstract")
        }

        /// A producer for the factory of `registration`.
        static func make(for registration: ResolverRegistration) -> Producer {
            CacheLines.lineAligned {
                let producer = registration.factory.makeProducer(name: registration.name)
                guard registration.registeredOnMainActor, registration.isolation == .none else {
                    return producer
                }
                return LeavingMainActorCheck(producer, registration)
            }
        }

        @usableFromInline
        final class Plain: Producer {
            @usableFromInline let factory: ResolverFactory<Service>
            let trailingPadding = LinePadding()

            init(_ factory: @escaping ResolverFactory<Service>) {
                self.factory = factory
                super.init(shape: .plain)
            }

            override func produce(_ request: ResolveRequest, given: Resolver?, _ section: borrowing ReadSection) -> Service? {
                factory()
            }
        }

        /// The shapes that take a container.
        @usableFromInline
        class ContainerProducer: Producer {
            final override func produce(_ request: ResolveRequest, given: Resolver?, _ section: borrowing ReadSection) -> Service? {
                Producer.withContainer(request, given: given, section) { call($0, request.arguments) }
            }

            @usableFromInline
            func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                preconditionFailure("ContainerProducer is abstract")
            }
        }

        @usableFromInline
        final class WithResolver: ContainerProducer {
            @usableFromInline let factory: ResolverFactoryResolver<Service>
            let trailingPadding = LinePadding()

            init(_ factory: @escaping ResolverFactoryResolver<Service>) {
                self.factory = factory
                super.init(shape: .withResolver)
            }

            override func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                factory(resolver)
            }
        }

        @usableFromInline
        final class WithArguments: ContainerProducer {
            let factory: ResolverFactoryArgumentsN<Service>
            let trailingPadding = LinePadding()

            init(_ factory: @escaping ResolverFactoryArgumentsN<Service>) {
                self.factory = factory
                super.init(shape: .withArguments)
            }

            override func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                factory(resolver, Resolver.Args(arguments))
            }
        }

        final class WithAnyArguments: ContainerProducer {
            let factory: ResolverFactoryAnyArguments<Service>
            let trailingPadding = LinePadding()

            init(_ factory: @escaping ResolverFactoryAnyArguments<Service>) {
                self.factory = factory
                super.init(shape: .other)
            }

            override func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                factory(resolver, arguments.value)
            }
        }

        /// A main-actor factory: runs on the main actor only.
        final class OnMainActor: ContainerProducer {
            let factory: MainActorFactory
            let name: Resolver.Name?
            let trailingPadding = LinePadding()

            init(_ factory: @escaping MainActorFactory, _ name: Resolver.Name?) {
                self.factory = factory
                self.name = name
                super.init(shape: .other)
            }

            override func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                ResolverRegistration.callOnMainActor(factory, name, resolver, arguments.value)
            }
        }

        /// A collection's list: assembled from the elements of the
        /// containers the lookup reaches from the resolving container.
        final class Assembling: ContainerProducer {
            let assembly: CollectionAssembly<Service>
            let trailingPadding = LinePadding()

            init(_ assembly: CollectionAssembly<Service>) {
                self.assembly = assembly
                super.init(shape: .other)
            }

            override func call(_ resolver: Resolver, _ arguments: ArgumentsPointer) -> Service? {
                assembly.assemble(from: resolver, arguments)
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
            let lastThread = AtomicWord.allocate()
            let trailingPadding = LinePadding()
            static var warned: UInt64 { UInt64.max }

            init(_ inner: Producer, _ registration: ResolverRegistration) {
                self.inner = inner
                self.registration = registration
                super.init(shape: .other)
            }

            deinit {
                lastThread.deallocate()
            }

            override func produce(_ request: ResolveRequest, given: Resolver?, _ section: borrowing ReadSection) -> Service? {
                let thread = EngineThread.identity
                let last = lastThread.load()
                if last != thread && last != LeavingMainActorCheck.warned {
                    lastThread.store(thread)
                    if registration.warnIfLeavingMainActor() {
                        lastThread.store(LeavingMainActorCheck.warned)
                    }
                }
                return inner.produceInPlace(request, given: given, section)
            }
        }

        /// An async factory: a synchronous resolve stops with a message.
        final class AsyncOnly: Producer {
            let name: Resolver.Name?
            let trailingPadding = LinePadding()

            init(_ name: Resolver.Name?) {
                self.name = name
                super.init(shape: .other)
            }

            override func produce(_ request: ResolveRequest, given: Resolver?, _ section: borrowing ReadSection) -> Service? {
                resolverFailure(ResolverRegistration.asyncFactoryMessage(name), kind: .other)
            }
        }

        /// The calling thread's producer for `registration`, made on first
        /// use; threads numbered `producerSlots` or more share one. Unowned:
        /// the registration owns it, and the read section keeps the
        /// registration.
        @inlinable
        @inline(__always)
        static func forCallingThread(_ registration: UnownedReference<ResolverRegistration>,
                                     _ section: borrowing ReadSection) -> UnownedReference<Producer> {
            let slot = min(EngineThread.index, producerSlots)
            if let slots = registration.read({ $0.fields.producers }).load(),
               let producer = slots.reference(slot, to: Producer.self).load() {
                return producer
            }
            return make(registration, slot)
        }

        /// Makes and publishes the producer of `slot` (and the slots, the
        /// first time). A thread that loses a race for either uses the
        /// winner's.
        @usableFromInline
        @inline(never)
        static func make(_ registration: UnownedReference<ResolverRegistration>, _ slot: Int) -> UnownedReference<Producer> {
            let registration = registration.object
            let slots = registration.fields.producers.publishOnce(AtomicCells(lineAlignedCount: producerSlots + 1))
            return slots.reference(slot, to: Producer.self).publishOnce(.retaining(Producer.make(for: registration)))
        }
    }
}
