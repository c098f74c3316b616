import CRegistry

/// What a thread's resolves write, in its record's front-end bytes
/// (`crg_thread_front_end`, zero in a new record: this state empty), reached
/// by pointer (`ThreadResolution`); only that thread touches it (DESIGN.md, "A
/// thread's record"). When the thread exits, `releaseAll` leaves it empty for
/// the next thread.
@usableFromInline
struct ResolutionState {
    /// The registrations whose factories run on this thread, outermost first,
    /// unretained (the thread's read section keeps them): `stackCount` of
    /// them, in the record's bytes after this state (`inlineStackCapacity`),
    /// then in a `CacheLines` buffer of `stackCapacity`, kept with the record.
    /// Non-empty while a top-level resolution runs. One entering again
    /// without arguments is a cycle; with arguments it is recursion that ends
    /// (a tree built level by level, as the original allows), stopped at
    /// `maximumDepth` all the same.
    @usableFromInline var stack: UnsafeMutablePointer<UnsafeMutableRawPointer>?
    @usableFromInline var stackCount: Int
    @usableFromInline var stackCapacity: Int
    /// The `.graph` instances of the current top-level resolution (this
    /// thread's only), so a dependency needed twice is made once; each entry
    /// owns one count. Emptied when the outermost factory returns.
    @usableFromInline var graph: PaddedBuffer<GraphEntry>
    /// The previous resolution's graph storage, kept to be reused.
    var spareGraph: PaddedBuffer<GraphEntry>
    /// True while a finished resolution's instances are being released.
    var releasingGraph: Bool

    /// Where the stack starts, in the record's bytes: after this state.
    static var inlineStackOffset: Int { (MemoryLayout<ResolutionState>.stride + 15) / 16 * 16 }

    /// How many entries the stack holds in the record's bytes.
    static var inlineStackCapacity: Int {
        (Int(CRG_FRONT_END_BYTES) - inlineStackOffset) / MemoryLayout<UnsafeMutableRawPointer>.stride
    }

    /// Releases what it owns and leaves it empty, its buffers kept (its thread
    /// ended, maybe mid-resolution: a verification's thread that failed).
    mutating func releaseAll() {
        for index in 0..<graph.count { graph[index].object.release() }
        graph.removeAll()
        spareGraph.removeAll()
        stackCount = 0
        releasingGraph = false
    }

    /// The record's front-end cleanup (`crg_thread_set_front_end_cleanup`).
    static let cleanup: @convention(c) (UnsafeMutableRawPointer) -> Void = { frontEnd in
        frontEnd.bindMemory(to: ResolutionState.self, capacity: 1).pointee.releaseAll()
    }
}

/// A thread's `ResolutionState`, by pointer (the record lasts as long as the
/// thread): what the resolve path uses.
@frozen @usableFromInline
struct ThreadResolution {
    @usableFromInline let state: UnsafeMutablePointer<ResolutionState>

    @inlinable @inline(__always)
    init(_ state: UnsafeMutablePointer<ResolutionState>) { self.state = state }

    /// True while a factory is running on this thread.
    @inlinable
    var isResolving: Bool { state.pointee.stackCount > 0 }

    /// Whether this resolution has made graph instances yet (none: no search).
    @inlinable
    var hasGraphInstances: Bool { !state.pointee.graph.isEmpty }

    /// Pushes the registration at `entry`; stops the program on a cycle or a
    /// runaway depth.
    @inlinable @inline(__always)
    func enter(_ entry: UnsafeMutableRawPointer, withArguments: Bool) {
        let count = state.pointee.stackCount
        if !withArguments, let stack = state.pointee.stack {
            for index in 0..<count where stack[index] == entry {
                reportCycle(closingWith: entry)
            }
        }
        if count == state.pointee.stackCapacity {
            growStack(for: entry)
        }
        state.pointee.stack.unsafelyUnwrapped[count] = entry
        state.pointee.stackCount = count &+ 1
    }

    /// Pops the innermost registration; ends the top-level resolution (and
    /// its graph) when it was the outermost.
    @inlinable @inline(__always)
    func leave() {
        state.pointee.stackCount &-= 1
        if state.pointee.stackCount == 0 && !state.pointee.graph.isEmpty {
            endResolution()
        }
    }

    /// Sets the stack up in the record's bytes (the thread's first entry), or
    /// doubles it into a buffer of its own, or stops a runaway resolution.
    @usableFromInline @inline(never)
    func growStack(for registration: UnsafeMutableRawPointer) {
        let capacity = state.pointee.stackCapacity
        guard let stack = state.pointee.stack else {
            state.pointee.stack = (UnsafeMutableRawPointer(state) + ResolutionState.inlineStackOffset)
                .bindMemory(to: UnsafeMutableRawPointer.self, capacity: ResolutionState.inlineStackCapacity)
            state.pointee.stackCapacity = ResolutionState.inlineStackCapacity
            return
        }
        if capacity >= ResolutionContext.maximumDepth {
            reportRunawayDepth(at: registration)
        }
        let larger = CacheLines.allocate(UnsafeMutableRawPointer.self, capacity: capacity * 2)
        larger.moveInitialize(from: stack, count: state.pointee.stackCount)
        if capacity != ResolutionState.inlineStackCapacity {
            CacheLines.deallocate(stack)
        }
        state.pointee.stack = larger
        state.pointee.stackCapacity = capacity * 2
    }

    /// Releases the graph's instances, moved out first so that a deinit that
    /// resolves starts a fresh resolution; the storage is kept for the next.
    @usableFromInline @inline(never)
    func endResolution() {
        if state.pointee.releasingGraph {
            // A deinit run by the release below resolved and finished a
            // resolution of its own: release that one without reuse.
            var finished = PaddedBuffer<GraphEntry>()
            swap(&finished, &state.pointee.graph)
            for index in 0..<finished.count { finished[index].object.release() }
            finished.deallocate()
            return
        }
        state.pointee.releasingGraph = true
        swap(&state.pointee.spareGraph, &state.pointee.graph)
        // A copy of the spare's pointer and count: a deinit the loop runs
        // may resolve, and change the state (its graph) meanwhile.
        let spare = state.pointee.spareGraph
        for index in 0..<spare.count { spare[index].object.release() }
        state.pointee.spareGraph.removeAll()
        state.pointee.releasingGraph = false
    }

    /// The graph instance made in this resolution for the key of
    /// `registration` (`typeID` and its name): by the same registration (one
    /// compare), or by another of that key (a parent's), names compared.
    @inlinable
    func graphInstance<Service>(of registration: UncheckedReference<ResolverRegistration<Service>>, typeID: UInt64,
                                as type: Service.Type) -> Service? {
        let graph = state.pointee.graph
        for index in 0..<graph.count where graph[index].typeID == typeID {
            let made = graph[index].registration
            if made == registration.opaque || GraphEntry.sameName(made, registration) {
                return ValueStorage.value(in: UncheckedReference(opaque: graph[index].object.toOpaque()), as: Service.self)
            }
        }
        return nil
    }

    /// Keeps `service`, made by `registration`, for the rest of this
    /// resolution if it is a class instance (values are made anew, as in the
    /// original).
    @inlinable
    func rememberGraphInstance<Service>(_ service: Service, of registration: UncheckedReference<ResolverRegistration<Service>>,
                                        typeID: UInt64) {
        guard let object = ValueStorage.retainedGraphObject(for: service) else {
            return
        }
        state.pointee.graph.append(GraphEntry(typeID: typeID, registration: registration.opaque, object: object))
    }

    /// The registration whose factory is running innermost on this thread.
    var innermostRegistration: RegistrationDescribing? {
        let count = state.pointee.stackCount
        guard count > 0 else { return nil }
        return describing(state.pointee.stack.unsafelyUnwrapped[count - 1])
    }

    /// The services on this thread's stack, outermost first, for messages.
    var chainDescription: [String] {
        (0..<state.pointee.stackCount).map { describeEntry(state.pointee.stack.unsafelyUnwrapped[$0]) }
    }

    /// The registrations on this thread's stack, outermost first.
    var chainRegistrations: [RegistrationDescribing] {
        (0..<state.pointee.stackCount).compactMap { describing(state.pointee.stack.unsafelyUnwrapped[$0]) }
    }

    private func describing(_ entry: UnsafeMutableRawPointer) -> RegistrationDescribing? {
        Unmanaged<AnyObject>.fromOpaque(entry).takeUnretainedValue() as? RegistrationDescribing
    }

    private func describeEntry(_ entry: UnsafeMutableRawPointer) -> String {
        describing(entry)?.keyDescription ?? "?"
    }

    @usableFromInline @inline(never)
    func reportCycle(closingWith entry: UnsafeMutableRawPointer) -> Never {
        let stack = state.pointee.stack.unsafelyUnwrapped
        let count = state.pointee.stackCount
        let start = (0..<count).first { stack[$0] == entry } ?? 0
        let chain = (start..<count).map { describeEntry(stack[$0]) } + [describeEntry(entry)]
        let places = registeredAtLine((start..<count).compactMap { describing(stack[$0]) })
        resolverFailure("RESOLVER: circular dependency: \(chain.joined(separator: " → ")). Break the cycle with resolveProperties, a lazy property or a weak reference." + places,
                        kind: .cycle)
    }

    @usableFromInline @inline(never)
    func reportRunawayDepth(at entry: UnsafeMutableRawPointer) -> Never {
        let chain = chainDescription
        let shown = chain.prefix(8).joined(separator: " → ") + " → … → " + chain.suffix(4).joined(separator: " → ")
        resolverFailure("RESOLVER: resolution nested more than \(ResolutionContext.maximumDepth) deep while resolving \(describeEntry(entry)): \(shown). A factory keeps resolving without end.")
    }
}

/// One graph instance: its key (the type, and the registration that made it,
/// whose name completes the key) and the object, owned (released when the
/// resolution ends). The registration is unowned: the outermost resolve's
/// read section keeps it while the entry lives (copying its name would count
/// the name's storage for every entry).
@usableFromInline
struct GraphEntry {
    @usableFromInline let typeID: UInt64
    @usableFromInline let registration: UnsafeMutableRawPointer
    @usableFromInline let object: Unmanaged<AnyObject>

    @inlinable
    init(typeID: UInt64, registration: UnsafeMutableRawPointer, object: Unmanaged<AnyObject>) {
        self.typeID = typeID
        self.registration = registration
        self.object = object
    }

    /// Whether `made`, a registration of `registration`'s type, has the same
    /// name.
    @usableFromInline @inline(never)
    static func sameName<Service>(_ made: UnsafeMutableRawPointer,
                                  _ registration: UncheckedReference<ResolverRegistration<Service>>) -> Bool {
        UncheckedReference<ResolverRegistration<Service>>(opaque: made).read { $0.name } == registration.read { $0.name }
    }
}
