import CRegistry

/// Proof that the calling thread is in a read section, where nothing a
/// writer retires is released (DESIGN.md, "Memory reclamation"): functions
/// that follow an `UncheckedReference` take a `borrowing ReadSection`. Not
/// copyable, ended by `end()` or else its deinit; sections nest. Zero-sized:
/// `crg_read_begin`/`crg_read_end`, inlined.
@frozen @usableFromInline
struct ReadSection: ~Copyable {
    @inlinable @inline(__always) init() { crg_read_begin() }

    /// Leaves the section (the deinit runs here).
    @inlinable @inline(__always) consuming func end() {}

    @inlinable @inline(__always) deinit { crg_read_end() }

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
