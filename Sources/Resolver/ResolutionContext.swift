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
@usableFromInline
final class ResolutionContext: @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var stack: ContiguousArray<Unmanaged<_ResolverRegistrationBase>> = []
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
        stack.reserveCapacity(16)
        graph.reserveCapacity(16)
        spareGraph.reserveCapacity(16)
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
        !stack.isEmpty
    }

    /// Pushes `registration`, stopping the program if it is already running
    /// on this thread without arguments (a cycle) or the resolution has
    /// become runaway deep.
    @inlinable
    func enter(_ registration: _ResolverRegistrationBase, withArguments: Bool) {
        let entry = Unmanaged.passUnretained(registration)
        if !withArguments {
            for running in stack where running.toOpaque() == entry.toOpaque() {
                reportCycle(closingWith: registration)
            }
        }
        if _slowPath(stack.count >= ResolutionContext.maximumDepth) {
            reportRunawayDepth(at: registration)
        }
        stack.append(entry)
    }

    /// Pops the innermost registration; ends the top-level resolution (and
    /// its graph) when it was the outermost.
    @inlinable
    func leave() {
        stack.removeLast()
        if stack.isEmpty && !graph.isEmpty {
            endResolution()
        }
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
            return
        }
        releasingGraph = true
        swap(&spareGraph, &graph)
        spareGraph.removeAll(keepingCapacity: true)
        releasingGraph = false
    }

    /// The graph instance made for `registration`'s key in this resolution.
    @inlinable
    func graphInstance<Service>(for registration: _ResolverRegistrationBase, as type: Service.Type) -> Service? {
        let typeID = registration.typeID
        // Compare fields in place: copying whole entries would retain them.
        for index in graph.indices where graph[index].typeID == typeID {
            if graph[index].name == registration.name {
                return ValueStorage.value(of: graph[index].object, as: Service.self)
            }
        }
        return nil
    }

    /// Remembers a graph instance (`ValueStorage.graphObject`: class
    /// instances only, value types are always made anew, as in the original)
    /// for the rest of this resolution.
    @inlinable
    func rememberGraphInstance(_ object: __owned AnyObject, for registration: _ResolverRegistrationBase) {
        graph.append(GraphEntry(typeID: registration.typeID, name: registration.name, object: object))
    }

    /// The services on this thread's stack, outermost first, for messages.
    var chainDescription: [String] {
        stack.map { $0._withUnsafeGuaranteedRef { $0.keyDescription } }
    }

    @usableFromInline
    func reportCycle(closingWith registration: _ResolverRegistrationBase) -> Never {
        let entry = Unmanaged.passUnretained(registration).toOpaque()
        let start = stack.firstIndex { $0.toOpaque() == entry } ?? 0
        let chain = stack[start...].map { $0._withUnsafeGuaranteedRef { $0.keyDescription } } + [registration.keyDescription]
        resolverFailure("RESOLVER: circular dependency: \(chain.joined(separator: " → ")). Break the cycle with resolveProperties, a lazy property or a weak reference.")
    }

    @usableFromInline
    func reportRunawayDepth(at registration: _ResolverRegistrationBase) -> Never {
        let chain = chainDescription
        let shown = chain.prefix(8).joined(separator: " → ") + " → … → " + chain.suffix(4).joined(separator: " → ")
        resolverFailure("RESOLVER: resolution nested more than \(ResolutionContext.maximumDepth) deep while resolving \(registration.keyDescription): \(shown). A factory keeps resolving without end.")
    }
}

/// One graph-scope instance: the key it was made for and the object.
@usableFromInline
struct GraphEntry {
    @usableFromInline let typeID: UInt64
    @usableFromInline let name: Resolver.Name?
    @usableFromInline let object: AnyObject

    @inlinable
    init(typeID: UInt64, name: Resolver.Name?, object: __owned AnyObject) {
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
