import CRegistry

/// The cold part of what one thread is in the middle of resolving, which no
/// resolve writes on its way: made on first use, kept by the thread's record
/// (`crg_thread_object`), released when the thread exits (DESIGN.md, "A
/// thread's record"). What resolves write is `ResolutionState`.
@usableFromInline
final class ResolutionContext: @unchecked Sendable {
    // Only the owning thread touches these (`waitingFor`: under the registry
    // mutex), so dynamic exclusivity checks would only repeat that ownership.

    /// The in-flight build this thread waits for, read by other threads
    /// (under the mutex) to find cycles that cross threads.
    @exclusivity(unchecked) var waitingFor: Flight?
    /// The verification this thread works for (a verification's own threads
    /// only), else nil.
    @exclusivity(unchecked) var verification: VerificationRun?
    /// Which of the verification's worker threads this is.
    @exclusivity(unchecked) var verificationWorker = 0
    /// While verifying, under the mutex: the builds this thread started (and
    /// async ones whose tasks it runs) and has yet to finish, which a failure
    /// ending the thread abandons (`BuildOnce.swift`).
    @exclusivity(unchecked) var unfinishedBuilds: [(scope: ResolverScope, ticket: BuildTicket)] = []
    /// The instance an async factory just made, for the factory
    /// `update(factory:)` installed to pick up (`resolveAsync` sets it and
    /// calls that factory at once).
    @exclusivity(unchecked) var awaitedInstance: Any?

    /// `awaitedInstance`, taken.
    func takeAwaitedInstance<Service>(as type: Service.Type) -> Service? {
        defer { awaitedInstance = nil }
        return awaitedInstance.flatMap { $0 as? Service }
    }

    /// Deeper than this is runaway recursion (a factory resolving itself with
    /// ever new arguments, say), stopped with the chain rather than a stack
    /// overflow.
    @usableFromInline static let maximumDepth = 512

    /// The calling thread's stack and graph, whichever context asks.
    var state: ThreadResolution { ResolutionContext.currentState }

    /// The calling thread's context, made if needed.
    @inlinable
    static var currentRaw: UnsafeMutableRawPointer {
        if let raw = crg_thread_object() {
            return raw
        }
        return makeCurrent()
    }

    /// The calling thread's stack and graph (the resolve path): in its
    /// record, one thread-local load away; no object, no count.
    @inlinable @inline(__always)
    static var currentState: ThreadResolution {
        ThreadResolution(UnsafeMutableRawPointer(crg_thread_front_end()).bindMemory(to: ResolutionState.self, capacity: 1))
    }

    @inlinable
    static var current: ResolutionContext {
        Unmanaged<ResolutionContext>.fromOpaque(currentRaw).takeUnretainedValue()
    }

    /// The calling thread's context if it has one (none is made).
    static var existing: ResolutionContext? {
        crg_thread_object().map { Unmanaged<ResolutionContext>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The services on this thread's stack, outermost first, for messages.
    var chainDescription: [String] { state.chainDescription }

    /// The registrations on this thread's stack, outermost first.
    var chainRegistrations: [RegistrationDescribing] { state.chainRegistrations }

    @usableFromInline @inline(never)
    static func makeCurrent() -> UnsafeMutableRawPointer {
        let context = Unmanaged.passRetained(ResolutionContext()).toOpaque()
        crg_thread_set_object(context, releaseRetainedObject)
        return context
    }
}
