import CRegistry

/// Proof that the calling thread is in a read section, where nothing a
/// writer retires is released (DESIGN.md, "Memory reclamation"). Every
/// function that follows an `UncheckedReference` takes a
/// `borrowing ReadSection`, so the compiler checks that a section is open
/// there. It cannot be copied or left open: `end()` closes it, else its
/// deinit does. Sections nest. Zero-sized: it compiles to
/// `crg_read_begin`/`crg_read_end`, inlined.
@frozen @usableFromInline
struct ReadSection: ~Copyable {
    @inlinable @inline(__always)
    init() { crg_read_begin() }

    /// Leaves the section (the deinit runs here); nothing reached through it
    /// may be used after.
    @inlinable @inline(__always)
    consuming func end() {}

    @inlinable @inline(__always)
    deinit { crg_read_end() }

    /// Runs `body` inside a read section (a throw ends it through the deinit).
    @inlinable @inline(__always)
    static func run<Result>(_ body: (borrowing ReadSection) throws -> Result) rethrows -> Result {
        let section = ReadSection()
        let result = try body(section)
        section.end()
        return result
    }

    /// Whether the calling thread is in a read section (checks).
    static var isActive: Bool { crg_read_active() }
}
