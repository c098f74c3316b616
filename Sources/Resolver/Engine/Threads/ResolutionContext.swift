import CRegistry

// The cold part of what a thread keeps while it resolves, in an object its
// record points to (`crg_thread_record.h`, DESIGN.md "A thread's record");
// what resolves write is `ResolutionState.swift`.

/// The cold part of what one thread is in the middle of resolving: what a
/// resolve does not write on its way (the build it waits for, a
/// verification's bookkeeping). Made on first use, kept in the thread's
/// record (`crg_thread_object`), released when the thread exits.
///
/// - `waitingFor`: the in-flight cached build this thread is waiting for,
///   read by other threads (under the registry mutex) to detect cycles that
///   cross threads.
@usableFromInline
final class ResolutionContext: @unchecked Sendable {
    // Only the owning thread touches these (`waitingFor`: under the registry
    // mutex), so dynamic exclusivity checks would only repeat what that
    // ownership already ensures.

    @exclusivity(unchecked) var waitingFor: Flight?
    /// The verification this thread works for (a verification's own threads
    /// only; `Verification.swift`), else nil.
    @exclusivity(unchecked) var verification: VerificationRun?
    /// Which of the verification's worker threads this is.
    @exclusivity(unchecked) var verificationWorker = 0
    /// While verifying: the builds this thread started (synchronous ones,
    /// and async ones whose tasks it runs) and has yet to finish, so that a
    /// failure ending the thread can abandon them (`ResolverScope+BuildOnce.swift`).
    /// Under the registry mutex.
    @exclusivity(unchecked) var unfinishedBuilds: [(scope: ResolverScope, ticket: BuildTicket)] = []

    /// The instance an async factory just made, for the factory that
    /// `update(factory:)` installed on its registration to pick up
    /// (`resolveAsync` sets it and calls that factory at once).
    @exclusivity(unchecked) var awaitedInstance: Any?

    /// The instance `resolveAsync` left for the installed factory, taken.
    func takeAwaitedInstance<Service>(as type: Service.Type) -> Service? {
        defer { awaitedInstance = nil }
        return awaitedInstance.flatMap { $0 as? Service }
    }

    /// A resolution deeper than this is runaway recursion (for example a
    /// factory resolving itself with ever new arguments) and is stopped with
    /// the chain rather than a stack overflow.
    @usableFromInline static let maximumDepth = 512

    /// The calling thread's stack and graph (the thread's, whichever
    /// context asks).
    var state: ThreadResolution {
        ResolutionContext.currentState
    }

    /// The calling thread's context, made if needed: the thread's record
    /// (`crg_thread_object`) keeps it alive while the thread runs, and
    /// releases it when the thread exits.
    @inlinable
    static var currentRaw: UnsafeMutableRawPointer {
        if let raw = crg_thread_object() {
            return raw
        }
        return makeCurrent()
    }

    /// The calling thread's stack and graph (the resolve path): in its
    /// record, one thread-local load away; no object, no reference count.
    @inlinable
    @inline(__always)
    static var currentState: ThreadResolution {
        ThreadResolution(UnsafeMutableRawPointer(crg_thread_bytes()).bindMemory(to: ResolutionState.self, capacity: 1))
    }

    /// The calling thread's context.
    @inlinable
    static var current: ResolutionContext {
        Unmanaged<ResolutionContext>.fromOpaque(currentRaw).takeUnretainedValue()
    }

    /// The calling thread's context if it has one (none is made).
    static var existing: ResolutionContext? {
        crg_thread_object().map { Unmanaged<ResolutionContext>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The registration whose factory is running innermost on this thread.
    var innermostRegistration: RegistrationDescribing? {
        state.innermostRegistration
    }

    /// The services on this thread's stack, outermost first, for messages.
    var chainDescription: [String] {
        state.chainDescription
    }

    /// The registrations on this thread's stack, outermost first, for the
    /// places a message names (`registeredAtLine`).
    var chainRegistrations: [RegistrationDescribing] {
        state.chainRegistrations
    }

    @usableFromInline
    @inline(never)
    static func makeCurrent() -> UnsafeMutableRawPointer {
        let context = Unmanaged.passRetained(ResolutionContext()).toOpaque()
        crg_thread_set_object(context, releaseRetainedObject)
        return context
    }
}
