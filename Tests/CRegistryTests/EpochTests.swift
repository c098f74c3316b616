import CRegistry
import CRegistry.Testing
import ResolverTestSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Read sections and deferred release (crg_epoch.h). Other suites may run
/// read sections on other threads at the same time, which can only delay a
/// release: so "not released yet" is checked at once, and "released" by
/// collecting until it happens (with a deadline that turns a hang into a
/// failure).
@Suite struct EpochTests {
    /// Records releases, in order, from the C callback.
    final class Releases: @unchecked Sendable {
        private let lock = Locked<[Int]>([])
        var order: [Int] { lock.withLock { $0 } }
        func add(_ value: Int) { lock.withLock { $0.append(value) } }
        func contains(_ value: Int) -> Bool { order.contains(value) }
        var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    }

    static let record: crg_release_fn = { object, context in
        Unmanaged<Releases>.fromOpaque(context!).takeUnretainedValue().add(Int(bitPattern: object))
    }

    /// A thread parked inside a read section until told to leave it.
    final class Reader: @unchecked Sendable {
        let inside = Atomic<Bool>(false)
        let leave = Atomic<Bool>(false)
        let left = Atomic<Bool>(false)
        var thread = pthread_t()

        /// Starts the thread and returns once it is inside its section.
        /// `exitInside`: the thread ends without leaving the section.
        init(exitInside: Bool = false) {
            exitsInside = exitInside
            let me = Unmanaged.passRetained(self).toOpaque()
            let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
                let reader = Unmanaged<Reader>.fromOpaque(raw!).takeRetainedValue()
                crg_read_begin()
                reader.inside.store(true, ordering: .releasing)
                while !reader.leave.load(ordering: .acquiring) { usleep(100) }
                if !reader.exitsInside { crg_read_end() }
                reader.left.store(true, ordering: .releasing)
                return nil
            }
            #if canImport(Darwin)
            var handle: pthread_t?
            precondition(pthread_create(&handle, nil, body, me) == 0)
            thread = handle!
            #else
            precondition(pthread_create(&thread, nil, body, me) == 0)
            #endif
            while !inside.load(ordering: .acquiring) { usleep(100) }
        }
        let exitsInside: Bool

        func finish() {
            leave.store(true, ordering: .releasing)
            pthread_join(thread, nil)
        }
    }

    @Test func aRetiredObjectWaitsForSectionsOpenAtRetirement() {
        let releases = Releases()
        let reader = Reader()
        #expect(crg_retire(UnsafeMutableRawPointer(bitPattern: 1)!, Self.record, releases.context) == 0)
        for _ in 0..<5 { _ = crg_collect() }
        #expect(!releases.contains(1), "released while a section open at retirement was still open")
        reader.finish()
        #expect(collect { releases.contains(1) })
    }

    /// With no section open, the next collection releases what was retired:
    /// a write in a single-threaded program releases what it dropped before
    /// it returns. (A section opened after the retirement, while the epoch has
    /// not moved on, may delay the release until that section ends.)
    @Test func withNoSectionOpenTheNextCollectionReleases() {
        let releases = Releases()
        #expect(crg_retire(UnsafeMutableRawPointer(bitPattern: 2)!, Self.record, releases.context) == 0)
        #expect(collect { releases.contains(2) })
        let reader = Reader()
        #expect(crg_retire(UnsafeMutableRawPointer(bitPattern: 5)!, Self.record, releases.context) == 0)
        reader.finish()
        #expect(collect { releases.contains(5) })
    }

    /// While a section that stays open holds a release back, leaving a
    /// section takes the epoch mutex once, not every time: again only when
    /// the epoch or the count of retirements has moved, or another thread
    /// asked for a collection (other suites may retire, collect and leave
    /// sections meanwhile: each retirement at most two more tries, each
    /// request one).
    @Test func leavingSectionsWhileAReleaseWaitsDoesNotTakeTheMutexEachTime() {
        let releases = Releases()
        let reader = Reader()
        #expect(crg_retire(UnsafeMutableRawPointer(bitPattern: 6)!, Self.record, releases.context) == 0)
        let collectionsBefore = crg_reader_leaving_collections()
        let retirementsBefore = crg_retirements()
        let requestsBefore = crg_collect_requests()
        let leaves: UInt64 = 100_000
        for _ in 0..<leaves {
            crg_read_begin()
            crg_read_end()
        }
        let collections = crg_reader_leaving_collections() - collectionsBefore
        let retiredMeanwhile = crg_retirements() - retirementsBefore
        let requestsMeanwhile = crg_collect_requests() - requestsBefore
        #expect(collections <= 4 + 2 * retiredMeanwhile + requestsMeanwhile,
                "\(collections) of \(leaves) leaves took the epoch mutex (\(retiredMeanwhile) retired, \(requestsMeanwhile) collections asked for meanwhile)")
        #expect(!releases.contains(6), "released while a section open at retirement was still open")
        reader.finish()
        // No collection of its own: leaving sections is enough, once nothing holds it back.
        let deadline = ContinuousClock.now + .seconds(10)
        while !releases.contains(6) && ContinuousClock.now < deadline {
            crg_read_begin()
            crg_read_end()
            usleep(100)
        }
        #expect(releases.contains(6), "released by threads leaving their sections")
    }

    @Test func sectionsNestAndOnlyTheOutermostCounts() {
        let releases = Releases()
        #expect(!crg_read_active())
        crg_read_begin()
        crg_read_begin()
        #expect(crg_read_active())
        #expect(crg_retire(UnsafeMutableRawPointer(bitPattern: 3)!, Self.record, releases.context) == 0)
        crg_read_end()
        #expect(crg_read_active(), "still inside the outer section")
        for _ in 0..<5 { _ = crg_collect() }
        #expect(!releases.contains(3), "released while this thread's outer section was open")
        crg_read_end()
        #expect(!crg_read_active())
        #expect(collect { releases.contains(3) })
    }

    @Test func aThreadThatExitsInsideASectionLeavesIt() {
        let releases = Releases()
        let reader = Reader(exitInside: true)
        #expect(crg_retire(UnsafeMutableRawPointer(bitPattern: 4)!, Self.record, releases.context) == 0)
        reader.finish()
        #expect(collect { releases.contains(4) })
    }

    /// Releases run with no lock of the library held: a release may retire
    /// more (taking the epoch mutex), which is released once due, by the same
    /// collection or a later one. (Order holds within one collection only:
    /// other suites' threads collect concurrently.)
    @Test func releasesMayRetireMore() {
        final class Chain: @unchecked Sendable {
            let releases = Releases()
        }
        let chain = Chain()
        let retireNext: crg_release_fn = { object, context in
            let chain = Unmanaged<Chain>.fromOpaque(context!).takeUnretainedValue()
            let value = Int(bitPattern: object)
            chain.releases.add(value)
            if value < 13 {
                precondition(crg_retire(UnsafeMutableRawPointer(bitPattern: value + 1)!, EpochTests.record,
                                        chain.releases.context) == 0)
            }
        }
        let context = Unmanaged.passUnretained(chain).toOpaque()
        #expect(crg_retire(UnsafeMutableRawPointer(bitPattern: 10)!, retireNext, context) == 0)
        #expect(crg_retire(UnsafeMutableRawPointer(bitPattern: 11)!, retireNext, context) == 0)
        // Releasing 10 retires 11, releasing 11 retires 12 (both only recorded
        // when released in turn): 10 once, 11 twice, 12 once.
        #expect(collect { chain.releases.order.count == 4 })
        #expect(chain.releases.order.sorted() == [10, 11, 11, 12])
    }

    /// A thread's record: one block, on whole 128-byte line pairs, attached
    /// by its first read section; its cold object is released when the
    /// thread exits, and replacing it releases the one it replaces.
    @Test func aThreadsRecordAndItsColdObject() {
        let releases = Releases()
        let record: crg_release_fn = { object, _ in
            Unmanaged<Releases>.fromOpaque(localContext!).takeUnretainedValue().add(Int(bitPattern: object))
        }
        localContext = releases.context
        defer { localContext = nil }
        let addresses = Locked<[UInt]>([])
        runOnThreads(1) { _ in
            #expect(crg_thread_record_address() == nil, "a new thread has no record before it reads")
            crg_read_begin()
            let address = UInt(bitPattern: crg_thread_record_address())
            crg_read_end()
            addresses.withLock { $0.append(address) }
            crg_thread_set_object(UnsafeMutableRawPointer(bitPattern: 21)!, record)
            #expect(crg_thread_object() == UnsafeMutableRawPointer(bitPattern: 21))
            crg_thread_set_object(UnsafeMutableRawPointer(bitPattern: 22)!, record)
            #expect(releases.contains(21), "replaced: released at once")
            #expect(!releases.contains(22))
        }
        #expect(releases.contains(22), "released when its thread exited")
        let address = addresses.withLock { $0.first ?? 0 }
        #expect(address != 0 && address % 128 == 0)
        #expect(crg_thread_record_size() % 128 == 0)
        #expect(crg_thread_record_size() >= MemoryLayout<crg_thread_record>.size)
    }
}

/// The context of the cold-object test's release function (a C function
/// pointer captures nothing).
nonisolated(unsafe) private var localContext: UnsafeMutableRawPointer?
