import CRegistry

/// The cold part of what a thread is resolving (resolves write
/// `ResolutionState`), kept by its record until it exits. Only that thread
/// touches it (`waitingFor`: under the mutex): exclusivity goes unchecked.
@usableFromInline
final class ResolutionContext: @unchecked Sendable {
    /// The build this thread waits for, read by other threads (under the
    /// mutex) to find cycles that cross threads.
    @exclusivity(unchecked) var waitingFor: Flight?
    /// The verification whose worker this thread is.
    @exclusivity(unchecked) var verification: VerificationRun?
    @exclusivity(unchecked) var verificationWorker = 0
    /// While verifying: the builds this thread has yet to finish, which a
    /// failure ending it abandons (`ResolverScope+BuildOnce.swift`).
    @exclusivity(unchecked) var unfinishedBuilds: [(scope: ResolverScope, ticket: BuildTicket)] = []
    /// An async factory's instance, for the one `update(factory:)` installed
    /// (`resolveAsync` sets it and calls that at once).
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

    /// The calling thread's context, made if needed.
    @inlinable
    static var currentRaw: UnsafeMutableRawPointer {
        if let raw = crg_thread_object() { return raw }
        return makeCurrent()
    }

    /// The calling thread's state (the resolve path): one thread-local load.
    @inlinable @inline(__always)
    static var currentState: ThreadResolution {
        ThreadResolution(UnsafeMutableRawPointer(crg_thread_bytes()).bindMemory(to: ResolutionState.self, capacity: 1))
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
