import CRegistry

/// Proof that the calling thread is inside a read section: while it lives,
/// nothing a writer retires is released (DESIGN.md, "Memory reclamation").
///
/// The resolve path reaches shared objects through unowned references
/// (`UncheckedReference`), valid only inside a read section. Every function
/// that needs one takes a `borrowing ReadSection`, so the compiler checks
/// that a section is open wherever such a reference is followed. It cannot
/// be copied and cannot be left open: `end()` closes it, and if a path
/// forgets, its deinit does. Sections nest.
///
/// Zero-sized: beginning and ending compile to the C calls they wrap
/// (`crg_read_begin`/`crg_read_end`), inlined into the caller.
@frozen
@usableFromInline
struct ReadSection: ~Copyable {
    /// Enters a read section on the calling thread.
    @inlinable
    @inline(__always)
    init() {
        crg_read_begin()
    }

    /// Leaves the section. Nothing reached through it may be used after.
    @inlinable
    @inline(__always)
    consuming func end() {
        // The deinit runs here, at the end of this consuming use.
    }

    @inlinable
    @inline(__always)
    deinit {
        crg_read_end()
    }

    /// Runs `body` inside a read section.
    @inlinable
    @inline(__always)
    static func run<Result>(_ body: (borrowing ReadSection) throws -> Result) rethrows -> Result {
        let section = ReadSection()
        // A throw ends the section through its deinit.
        let result = try body(section)
        section.end()
        return result
    }

    /// Whether the calling thread is inside a read section (checks).
    static var isActive: Bool {
        crg_read_active()
    }
}
