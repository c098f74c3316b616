import CRegistry

/// One pointer per thread (`crg_thread.h`), nil until set: while a thread
/// takes a key's declaration, its `KeyDeclaration` (K2). Reading it is one
/// thread-local load.
@usableFromInline
enum ThreadPointer {
    @inlinable
    @inline(__always)
    static var current: UnsafeMutableRawPointer? {
        crg_thread_pointer()
    }

    /// Sets this thread's pointer and returns the one it replaces.
    @inlinable
    @inline(__always)
    static func exchange(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        crg_thread_pointer_exchange(pointer)
    }
}
