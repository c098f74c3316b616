import CRegistry

/// Threads of the engine's own (`crg_thread.h`), and the calling thread's.
@usableFromInline
enum EngineThread {
    /// Starts a detached thread running `body`: 0, or an error code.
    static func launch(_ body: @escaping () -> Void) -> Int32 {
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        let rc = crg_thread_start({ Unmanaged<Box<() -> Void>>.fromOpaque($0!).takeRetainedValue().value() }, context)
        if rc != 0 {
            Unmanaged<Box<() -> Void>>.fromOpaque(context).release()
        }
        return rc
    }

    /// Ends the calling thread, which `start` started (its context released).
    static func exit() -> Never { crg_thread_exit() }

    /// The calling thread's identity while it lives: its record's address
    /// (which a thread that starts after it exits may take).
    static var identity: UInt64 { UInt64(UInt(bitPattern: crg_thread_record_current())) }
}
