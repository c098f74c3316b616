import CRegistry

// What every resolve reads first: the process-wide published fields, and
// the decorator a resolve calls.

/// What every resolve reads first, in process-wide fields (`crg_published_cell`/`_word`:
/// static storage, no pointer to load, no initialization check). All zero
/// until the registry is made.
@usableFromInline
enum Published {
    /// The root container, unretained (`Registry.root` owns it); nil before
    /// the registry exists.
    @inlinable static var root: AtomicReference<Resolver> { AtomicReference(crg_published_cell(0)) }
    /// The `DecorateBox` to call, unretained (`Registry.decorate` owns it), or
    /// nil (always nil in release builds of the library).
    @inlinable static var decorate: AtomicReference<DecorateBox> { AtomicReference(crg_published_cell(1)) }
    /// 1 once `registerAllServices` has run for the current registration
    /// generation; 0 while it has yet to (or before the registry exists).
    @inlinable static var registered: AtomicWord { AtomicWord(crg_published_word(0)) }
    /// Non-zero while resolves must take the detour (`resolveWithDetour`):
    /// counts the `Resolver.withRoot` calls running, the verification
    /// threads alive, and one while graph recording is switched on.
    @inlinable static var detours: AtomicWord { AtomicWord(crg_published_word(1)) }
    /// Counts scopes made, so each starts its generations at its own base.
    static var scopesMade: AtomicWord { AtomicWord(crg_published_word(2)) }
    /// 1 while `Resolver.isRecordingGraph` is on.
    static var recordingGraph: AtomicWord { AtomicWord(crg_published_word(3)) }

    /// Runs `body` with resolves on the detour (`detours` counted up, and
    /// down again after).
    static func withDetour<Result>(_ body: () throws -> Result) rethrows -> Result {
        detours.increment()
        defer { detours.decrement() }
        return try body()
    }
}

/// The `decorate` closure, held by reference so a resolve can reach it
/// through a published pointer.
@usableFromInline
final class DecorateBox: @unchecked Sendable {
    @usableFromInline let decorate: (_ service: Any) -> Void

    init(_ decorate: @escaping (_ service: Any) -> Void) {
        self.decorate = decorate
    }

    /// Calls the published decorator (read section).
    @inlinable
    @inline(__always)
    static func call(_ box: UncheckedReference<DecorateBox>, with service: Any) {
        box.read { $0.decorate(service) }
    }
}
