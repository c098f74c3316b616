import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A thread of a scaling variant besides the timed one: it runs `body` `n`
/// times whenever the timed thread starts a batch of `n`, and the timed thread
/// waits for it at the batch's end, so a sample's time is that of every thread
/// doing its `n` operations at once. Between batches it spins (a batch starts
/// within a cache-line transfer, not a wake-up); `init` returns once it runs.
final class PartnerThread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    private let batchSize = Atomic<Int>(0)
    private let started = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    private let stopRequested = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    private var thread: pthread_t?

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { raw in
            #if canImport(Darwin)
            let partner = Unmanaged<PartnerThread>.fromOpaque(raw).takeRetainedValue()
            #else
            let partner = Unmanaged<PartnerThread>.fromOpaque(raw!).takeRetainedValue()
            #endif
            partner.loop()
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        thread = handle
        while !running.load(ordering: .acquiring) {
            sched_yield()
        }
    }

    private func loop() {
        running.store(true, ordering: .releasing)
        var seen = 0
        while true {
            var batch = started.load(ordering: .acquiring)
            while batch == seen {
                if stopRequested.load(ordering: .relaxed) { return }
                batch = started.load(ordering: .acquiring)
            }
            seen = batch
            for _ in 0..<batchSize.load(ordering: .relaxed) { body() }
            finished.store(seen, ordering: .releasing)
        }
    }

    /// Starts a batch of `n` operations on the partner.
    func start(_ n: Int) {
        batchSize.store(n, ordering: .relaxed)
        started.add(1, ordering: .releasing)
    }

    /// Waits until the partner has finished the batch started last.
    func wait() {
        let batch = started.load(ordering: .relaxed)
        while finished.load(ordering: .acquiring) != batch {}
    }

    /// Stops the thread and waits for it; safe to call more than once.
    func stop() {
        guard let thread else { return }
        self.thread = nil
        stopRequested.store(true, ordering: .relaxed)
        pthread_join(thread, nil)
    }
}
