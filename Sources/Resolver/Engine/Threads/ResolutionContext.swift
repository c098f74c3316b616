import CRegistry

/// What one thread is in the middle of resolving that no resolve writes on
/// its way (what resolves write is `ResolutionState`): made on first use,
/// kept by the thread's record (`crg_thread_object`), released at thread
/// exit. Only its thread touches it (`waitingFor`: under the registry mutex),
/// so exclusivity is not checked.
@usableFromInline
final class ResolutionContext: @unchecked Sendable {
    /// The build this thread waits for, read by other threads (under the
    /// mutex) to find cycles that cross threads.
    @exclusivity(unchecked) var waitingFor: Flight?
    /// The verification this thread works for (its own threads), and which
    /// of its workers this is.
    @exclusivity(unchecked) var verification: VerificationRun?
    @exclusivity(unchecked) var verificationWorker = 0
    /// While verifying, under the mutex: the builds this thread started (and
    /// async ones whose tasks it runs) and has yet to finish, which a failure
    /// ending the thread abandons (`BuildOnce.swift`).
    @exclusivity(unchecked) var unfinishedBuilds: [(scope: ResolverScope, ticket: BuildTicket)] = []
    /// The instance an async factory just made, for the factory
    /// `update(factory:)` installed to pick up (`resolveAsync` sets it and
    /// calls that factory at once).
    @exclusivity(unchecked) var awaitedInstance: Any?

    func takeAwaitedInstance<Service>(as type: Service.Type) -> Service? {
        defer { awaitedInstance = nil }
        return awaitedInstance.flatMap { $0 as? Service }
    }

    /// Deeper is runaway recursion (a factory resolving itself with ever new
    /// arguments), stopped with the chain rather than a stack overflow.
    @usableFromInline static let maximumDepth = 512

    /// The calling thread's stack and graph, whichever context asks.
    var state: ThreadResolution { ResolutionContext.currentState }
    var chainDescription: [String] { state.chainDescription }
    var chainRegistrations: [RegistrationDescribing] { state.chainRegistrations }

    /// The calling thread's context, made if needed.
    @inlinable
    static var currentRaw: UnsafeMutableRawPointer {
        if let raw = crg_thread_object() {
            return raw
        }
        return makeCurrent()
    }

    /// The calling thread's stack and graph (the resolve path): one
    /// thread-local load, no object, no count.
    @inlinable @inline(__always)
    static var currentState: ThreadResolution {
        ThreadResolution(UnsafeMutableRawPointer(crg_thread_front_end()).bindMemory(to: ResolutionState.self, capacity: 1))
    }

    @inlinable
    static var current: ResolutionContext { Unmanaged<ResolutionContext>.fromOpaque(currentRaw).takeUnretainedValue() }

    /// The calling thread's context if it has one (none is made).
    static var existing: ResolutionContext? {
        crg_thread_object().map { Unmanaged<ResolutionContext>.fromOpaque($0).takeUnretainedValue() }
    }

    @usableFromInline @inline(never)
    static func makeCurrent() -> UnsafeMutableRawPointer {
        let context = Unmanaged.passRetained(ResolutionContext()).toOpaque()
        crg_thread_set_object(context, releaseRetainedObject)
        return context
    }
}
