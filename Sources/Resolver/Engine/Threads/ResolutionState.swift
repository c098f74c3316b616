import CRegistry

/// What a thread's resolves write, in its record's bytes (`crg_thread_bytes`; zero:
/// empty), touched by that thread only (DESIGN.md, "A thread's record").
@usableFromInline
struct ResolutionState {
    /// The registrations whose factories run, outermost first, unretained (the
    /// read section keeps them): after this state, then in a `CacheLines`
    /// buffer. One entering again is a cycle, unless with arguments (a tree
    /// built level by level, as the original allows; `maximumDepth` stops it).
    @usableFromInline var stack: UnsafeMutablePointer<UnsafeMutableRawPointer>?
    @usableFromInline var stackCount: Int
    @usableFromInline var stackCapacity: Int
    /// The top-level resolution's `.graph` instances, and the previous one's
    /// storage kept for reuse.
    @usableFromInline var graph: PaddedBuffer<GraphEntry>
    var spareGraph: PaddedBuffer<GraphEntry>
    var releasingGraph: Bool

    static var inlineStackOffset: Int { (MemoryLayout<ResolutionState>.stride + 15) / 16 * 16 }
    static var inlineStackCapacity: Int {
        (Int(CRG_THREAD_BYTES) - inlineStackOffset) / MemoryLayout<UnsafeMutableRawPointer>.stride
    }

    /// Releases what it owns, its buffers kept: its thread ended (maybe
    /// mid-resolution: a failed verification's).
    mutating func releaseAll() {
        for index in 0..<graph.count { graph[index].object.release() }
        graph.removeAll()
        spareGraph.removeAll()
        stackCount = 0
        releasingGraph = false
    }

    /// The record's exit callback (`crg_thread_set_exit_callback`).
    static let cleanup: @convention(c) (UnsafeMutableRawPointer) -> Void = { frontEnd in
        frontEnd.bindMemory(to: ResolutionState.self, capacity: 1).pointee.releaseAll()
    }
}

/// A thread's `ResolutionState`, by pointer: what the resolve path uses.
@frozen @usableFromInline
struct ThreadResolution {
    @usableFromInline let state: UnsafeMutablePointer<ResolutionState>

    @inlinable @inline(__always) init(_ state: UnsafeMutablePointer<ResolutionState>) { self.state = state }
    /// True while a factory is running on this thread.
    @inlinable var isResolving: Bool { state.pointee.stackCount > 0 }
    @inlinable var hasGraphInstances: Bool { !state.pointee.graph.isEmpty }

    /// Pushes the registration at `entry`; stops on a cycle or a runaway depth.
    @inlinable @inline(__always)
    func enter(_ entry: UnsafeMutableRawPointer, withArguments: Bool) {
        let count = state.pointee.stackCount
        if !withArguments, let stack = state.pointee.stack {
            for index in 0..<count where stack[index] == entry {
                reportCycle(closingWith: entry)
            }
        }
        if count == state.pointee.stackCapacity { growStack(for: entry) }
        state.pointee.stack.unsafelyUnwrapped[count] = entry
        state.pointee.stackCount = count &+ 1
    }

    /// Pops the innermost registration (the outermost ends the graph).
    @inlinable @inline(__always)
    func leave() {
        state.pointee.stackCount &-= 1
        if state.pointee.stackCount == 0 && !state.pointee.graph.isEmpty { endResolution() }
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
        if capacity >= ResolutionContext.maximumDepth { reportRunawayDepth(at: registration) }
        let larger = CacheLines.allocate(UnsafeMutableRawPointer.self, capacity: capacity * 2)
        larger.moveInitialize(from: stack, count: state.pointee.stackCount)
        if capacity != ResolutionState.inlineStackCapacity { CacheLines.deallocate(stack) }
        state.pointee.stack = larger
        state.pointee.stackCapacity = capacity * 2
    }

    /// Releases the graph's instances, moved out first so that a deinit that
    /// resolves starts a fresh resolution; the storage is kept for the next.
    @usableFromInline @inline(never)
    func endResolution() {
        if state.pointee.releasingGraph {
            // A deinit run by the release below finished a resolution of its
            // own: release that one without reuse.
            var finished = PaddedBuffer<GraphEntry>()
            swap(&finished, &state.pointee.graph)
            for index in 0..<finished.count { finished[index].object.release() }
            finished.deallocate()
            return
        }
        state.pointee.releasingGraph = true
        swap(&state.pointee.spareGraph, &state.pointee.graph)
        // A copy: a deinit the loop runs may resolve and change the state.
        let spare = state.pointee.spareGraph
        for index in 0..<spare.count { spare[index].object.release() }
        state.pointee.spareGraph.removeAll()
        state.pointee.releasingGraph = false
    }

    /// The instance made for `registration`'s key: by it (one compare) or by
    /// another of that key (a parent's), whose name is compared.
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

    /// Keeps `service` for the rest of this resolution if it is a class
    /// instance (values are made anew, as in the original).
    @inlinable
    func rememberGraphInstance<Service>(_ service: Service, of registration: UncheckedReference<ResolverRegistration<Service>>,
                                        typeID: UInt64) {
        guard let object = ValueStorage.retainedGraphObject(for: service) else { return }
        state.pointee.graph.append(GraphEntry(typeID: typeID, registration: registration.opaque, object: object))
    }

    /// The stack, outermost first, for messages.
    private var entries: UnsafeBufferPointer<UnsafeMutableRawPointer> {
        UnsafeBufferPointer(start: state.pointee.stack, count: state.pointee.stackCount)
    }
    var innermostRegistration: RegistrationDescribing? { entries.last.flatMap(describing) }
    var chainDescription: [String] { entries.map(describeEntry) }
    var chainRegistrations: [RegistrationDescribing] { entries.compactMap(describing) }

    private func describing(_ entry: UnsafeMutableRawPointer) -> RegistrationDescribing? {
        Unmanaged<AnyObject>.fromOpaque(entry).takeUnretainedValue() as? RegistrationDescribing
    }

    private func describeEntry(_ entry: UnsafeMutableRawPointer) -> String { describing(entry)?.keyDescription ?? "?" }

    @usableFromInline @inline(never)
    func reportCycle(closingWith entry: UnsafeMutableRawPointer) -> Never {
        let stack = state.pointee.stack.unsafelyUnwrapped
        let count = state.pointee.stackCount
        let start = (0..<count).first { stack[$0] == entry } ?? 0
        let chain = (start..<count).map { describeEntry(stack[$0]) } + [describeEntry(entry)]
        let places = registeredAtLine((start..<count).compactMap { describing(stack[$0]) })
        fail("RESOLVER: circular dependency: \(chain.joined(separator: " → ")). Break the cycle with resolveProperties, a lazy property or a weak reference." + places,
             kind: .cycle)
    }

    @usableFromInline @inline(never)
    func reportRunawayDepth(at entry: UnsafeMutableRawPointer) -> Never {
        let chain = chainDescription
        let shown = chain.prefix(8).joined(separator: " → ") + " → … → " + chain.suffix(4).joined(separator: " → ")
        fail("RESOLVER: resolution nested more than \(ResolutionContext.maximumDepth) deep while resolving \(describeEntry(entry)): \(shown). A factory keeps resolving without end.")
    }
}

/// One graph instance: its key (the type, and the registration that made it,
/// unowned: the outermost read section keeps it) and the object, owned.
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

    /// Whether `made`, a registration of `registration`'s type, has its name.
    @usableFromInline @inline(never)
    static func sameName<Service>(_ made: UnsafeMutableRawPointer,
                                  _ registration: UncheckedReference<ResolverRegistration<Service>>) -> Bool {
        UncheckedReference<ResolverRegistration<Service>>(opaque: made).read { $0.name } == registration.read { $0.name }
    }
}
