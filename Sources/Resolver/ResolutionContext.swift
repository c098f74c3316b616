#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one thread is in the middle of resolving.
///
/// - `stack`: the registrations whose factories are running on this thread,
///   outermost first. A registration entering while already on the stack is a
///   dependency cycle (reported with the chain instead of overflowing the
///   stack), unless it is resolved with arguments: a factory that resolves
///   its own type with other arguments (building a tree level by level, say)
///   is recursion that ends, as the original allows; runaway recursion is
///   still stopped, at `maximumDepth`. The stack being non-empty means a
///   top-level resolution is in progress.
/// - `graph`: the `.graph`-scoped instances made during the current top-level
///   resolution, so a dependency needed twice is made once. It belongs to this
///   thread, so two threads resolving at once never share graph instances. It
///   is emptied when the outermost factory returns.
/// - `waitingFor`: the in-flight `.application`/`.cached` build this thread is
///   waiting for, read by other threads (under the registry mutex) to detect
///   cycles that cross threads.
///
/// Only the owning thread touches `stack` and `graph`, so they need no lock
/// and no dynamic exclusivity checks; `waitingFor` is guarded by the mutex.
/// The stack is a plain buffer and graph entries hold their objects as
/// manually retained references: this is the factory path of every resolve.
@usableFromInline
final class ResolutionContext: @unchecked Sendable {
    /// `stackCount` registrations, outermost first, in a buffer of
    /// `stackCapacity`.
    @exclusivity(unchecked) @usableFromInline var stack: UnsafeMutablePointer<Unmanaged<_ResolverRegistrationBase>>
    @exclusivity(unchecked) @usableFromInline var stackCount = 0
    @exclusivity(unchecked) @usableFromInline var stackCapacity = 16
    /// Each entry owns one reference to its object.
    @exclusivity(unchecked) @usableFromInline var graph: ContiguousArray<GraphEntry> = []
    /// The previous resolution's graph storage, kept to be reused.
    @exclusivity(unchecked) var spareGraph: ContiguousArray<GraphEntry> = []
    /// True while a finished resolution's instances are being released.
    @exclusivity(unchecked) var releasingGraph = false
    @exclusivity(unchecked) var waitingFor: InFlight?

    /// A resolution deeper than this is runaway recursion (for example a
    /// factory resolving itself with ever new arguments) and is stopped with
    /// the chain rather than a stack overflow.
    @usableFromInline static let maximumDepth = 512

    init() {
        stack = .allocate(capacity: stackCapacity)
        graph.reserveCapacity(16)
        spareGraph.reserveCapacity(16)
    }

    deinit {
        stack.deallocate()
        for entry in graph { entry.object.release() }
    }

    /// The calling thread's context.
    @inlinable
    static var current: ResolutionContext {
        currentReference.takeUnretainedValue()
    }

    /// Calls `body` with the calling thread's context, without reference
    /// counting: the thread-local slot keeps it alive while the thread runs.
    @inlinable
    static func withCurrent<Result>(_ body: (ResolutionContext) -> Result) -> Result {
        currentReference._withUnsafeGuaranteedRef(body)
    }

    @inlinable
    static var currentReference: Unmanaged<ResolutionContext> {
        if let raw = pthread_getspecific(resolutionContextKey) {
            return Unmanaged<ResolutionContext>.fromOpaque(raw)
        }
        return makeCurrent()
    }

    @usableFromInline
    static func makeCurrent() -> Unmanaged<ResolutionContext> {
        let context = Unmanaged.passRetained(ResolutionContext())
        pthread_setspecific(resolutionContextKey, context.toOpaque())
        return context
    }

    /// True while a factory is running on this thread.
    @inlinable
    var isResolving: Bool {
        stackCount > 0
    }

    /// Pushes `registration`, stopping the program if it is already running
    /// on this thread without arguments (a cycle) or the resolution has
    /// become runaway deep.
    @inlinable
    func enter(_ registration: _ResolverRegistrationBase, withArguments: Bool) {
        let entry = Unmanaged.passUnretained(registration).toOpaque()
        if !withArguments {
            for index in 0..<stackCount where stack[index].toOpaque() == entry {
                reportCycle(closingWith: registration)
            }
        }
        if _slowPath(stackCount == stackCapacity) {
            growStack(for: registration)
        }
        stack[stackCount] = Unmanaged.passUnretained(registration)
        stackCount += 1
    }

    /// Pops the innermost registration; ends the top-level resolution (and
    /// its graph) when it was the outermost.
    @inlinable
    func leave() {
        stackCount -= 1
        if stackCount == 0 && !graph.isEmpty {
            endResolution()
        }
    }

    /// Doubles the stack, or stops a runaway resolution.
    @usableFromInline
    func growStack(for registration: _ResolverRegistrationBase) {
        if stackCapacity >= ResolutionContext.maximumDepth {
            reportRunawayDepth(at: registration)
        }
        let larger = UnsafeMutablePointer<Unmanaged<_ResolverRegistrationBase>>.allocate(capacity: stackCapacity * 2)
        larger.moveInitialize(from: stack, count: stackCount)
        stack.deallocate()
        stack = larger
        stackCapacity *= 2
    }

    /// Releases the graph's instances. They are moved out first, so that a
    /// deinit that resolves starts a fresh resolution; the storage is kept
    /// for the next resolution.
    @usableFromInline
    func endResolution() {
        if releasingGraph {
            // A deinit run by the release below resolved and finished a
            // resolution of its own: release that one without reuse.
            var finished = ContiguousArray<GraphEntry>()
            swap(&finished, &graph)
            for entry in finished { entry.object.release() }
            return
        }
        releasingGraph = true
        swap(&spareGraph, &graph)
        for entry in spareGraph { entry.object.release() }
        spareGraph.removeAll(keepingCapacity: true)
        releasingGraph = false
    }

    /// The graph instance made for `registration`'s key in this resolution.
    @inlinable
    func graphInstance<Service>(for registration: _ResolverRegistrationBase, as type: Service.Type) -> Service? {
        let typeID = registration.typeID
        for index in graph.indices where graph[index].typeID == typeID {
            if graph[index].name == registration.name {
                return ValueStorage.value(at: graph[index].object.toOpaque(), as: Service.self)
            }
        }
        return nil
    }

    /// Remembers `service` for the rest of this resolution if it is a class
    /// instance (value types are always made anew, as in the original).
    @inlinable
    func rememberGraphInstance<Service>(_ service: Service, for registration: _ResolverRegistrationBase) {
        guard let object = ValueStorage.retainedGraphObject(for: service) else {
            return
        }
        graph.append(GraphEntry(typeID: registration.typeID, name: registration.name, object: object))
    }

    /// The services on this thread's stack, outermost first, for messages.
    var chainDescription: [String] {
        (0..<stackCount).map { stack[$0]._withUnsafeGuaranteedRef { $0.keyDescription } }
    }

    @usableFromInline
    func reportCycle(closingWith registration: _ResolverRegistrationBase) -> Never {
        let entry = Unmanaged.passUnretained(registration).toOpaque()
        let start = (0..<stackCount).first { stack[$0].toOpaque() == entry } ?? 0
        let chain = (start..<stackCount).map { stack[$0]._withUnsafeGuaranteedRef { $0.keyDescription } }
            + [registration.keyDescription]
        resolverFailure("RESOLVER: circular dependency: \(chain.joined(separator: " → ")). Break the cycle with resolveProperties, a lazy property or a weak reference.")
    }

    @usableFromInline
    func reportRunawayDepth(at registration: _ResolverRegistrationBase) -> Never {
        let chain = chainDescription
        let shown = chain.prefix(8).joined(separator: " → ") + " → … → " + chain.suffix(4).joined(separator: " → ")
        resolverFailure("RESOLVER: resolution nested more than \(ResolutionContext.maximumDepth) deep while resolving \(registration.keyDescription): \(shown). A factory keeps resolving without end.")
    }
}

/// One graph-scope instance: the key it was made for and the object, owned
/// by the entry (released when the resolution ends).
@usableFromInline
struct GraphEntry {
    @usableFromInline let typeID: UInt64
    @usableFromInline let name: Resolver.Name?
    @usableFromInline let object: Unmanaged<AnyObject>

    @inlinable
    init(typeID: UInt64, name: Resolver.Name?, object: Unmanaged<AnyObject>) {
        self.typeID = typeID
        self.name = name
        self.object = object
    }
}

/// The thread-local slot holding each thread's `ResolutionContext`; the
/// context is released when its thread exits.
@usableFromInline
let resolutionContextKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
    let rc = pthread_key_create(&key) { raw in
        Unmanaged<ResolutionContext>.fromOpaque(raw).release()
    }
    #else
    let rc = pthread_key_create(&key) { raw in
        if let raw { Unmanaged<ResolutionContext>.fromOpaque(raw).release() }
    }
    #endif
    precondition(rc == 0, "RESOLVER: pthread_key_create failed (\(rc))")
    return key
}()
