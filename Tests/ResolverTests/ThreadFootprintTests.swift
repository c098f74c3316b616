import CRegistry
@testable import Resolver
import ResolverTestSupport
import Testing

extension ResolverTests {
    /// Two threads resolving the same registrations write nothing on a
    /// common cache line, nor on a line the other reads (DESIGN.md, "Why it
    /// scales"): everything a resolve writes that is its thread's own
    /// (`ThreadFootprint`: the reader record, the thread cache, the
    /// resolution state and its buffers) and everything of its own it
    /// reads on every new instance (its producers, the producers' slots,
    /// its snapshot of `root`) lies on 64-byte lines, and on x86 128-byte
    /// line pairs (the adjacent-line prefetcher fetches both halves), that no
    /// other allocation can share: not the other thread's state, and not the
    /// instances its factories make and free on every resolve.
    ///
    /// Threads come and go as a server's do: each round starts two fresh
    /// ones, which take reader records, thread numbers and producers that
    /// earlier threads left, and memory the allocator had given those.
    /// Process-wide: the default-scope factories receive the thread's
    /// snapshot of `root`.
    @Suite struct ThreadFootprints {
        final class Unique {}
        final class DefaultB {}
        final class DefaultA {
            let b: DefaultB
            init(b: DefaultB) { self.b = b }
        }
        final class GraphC {}
        final class GraphB {
            let c: GraphC
            init(c: GraphC) { self.c = c }
        }
        final class GraphA {
            let b: GraphB
            let c: GraphC
            init(b: GraphB, c: GraphC) {
                self.b = b
                self.c = c
            }
        }
        final class LazyService {}
        final class Owner {
            @LazyInjected var service: LazyService
        }

        #if arch(x86_64) || arch(i386)
        static let lineSizes: [UInt] = [64, 128]
        #else
        static let lineSizes: [UInt] = [64]
        #endif

        @Test func twoResolvingThreadsWriteNoCacheLineInCommon() {
            let container = Resolver()
            let unique = container.register { Unique() }.scope(.unique).registration
            let defaultB = container.register { DefaultB() }.registration
            let defaultA = container.register { DefaultA(b: $0.resolve()) }.registration
            let graphC = container.register { GraphC() }.registration
            let graphB = container.register { GraphB(c: $0.resolve()) }.registration
            let graphA = container.register { GraphA(b: $0.resolve(), c: $0.resolve()) }.registration
            let lazy = container.register { LazyService() }.scope(.unique).registration
            Resolver.root = container
            defer { Resolver.root = Resolver.main }

            var betweenThreads: [String] = []
            var withOtherAllocations: [String] = []
            for round in 1...8 {
                let reports = Locked<[Int: [ThreadFootprint.Region]]>([:])
                let readReports = Locked<[Int: [ThreadFootprint.Region]]>([:])
                runOnThreads(2) { thread in
                    let owner = Owner()
                    for _ in 0..<200 {
                        _ = Resolver.resolve(Unique.self)
                        _ = Resolver.resolve(DefaultA.self)
                        let a = Resolver.resolve(GraphA.self)
                        precondition(a.b.c === a.c)
                        _ = owner.service
                    }
                    let regions = ThreadFootprint.current()
                    var reads = ThreadFootprint.rootSnapshotReads()
                    reads += ThreadFootprint.producerReads(of: unique) + ThreadFootprint.producerReads(of: defaultB)
                    reads += ThreadFootprint.producerReads(of: defaultA) + ThreadFootprint.producerReads(of: graphC)
                    reads += ThreadFootprint.producerReads(of: graphB) + ThreadFootprint.producerReads(of: graphA)
                    reads += ThreadFootprint.producerReads(of: lazy)
                    // Both report while both are alive: nothing either owns is freed yet.
                    readReports.withLock { $0[thread] = reads }
                    reports.withLock { $0[thread] = regions }
                    while reports.withLock({ $0.count }) < 2 {}
                }
                let report = reports.withLock { $0 }
                let readReport = readReports.withLock { $0 }
                guard let first = report[0], let second = report[1],
                      let firstReads = readReport[0], let secondReads = readReport[1] else {
                    Issue.record("a thread did not report")
                    return
                }
                // Each thread read producers of all seven registrations, one snapshot.
                #expect(firstReads.count == 15 && secondReads.count == 15,
                        "round \(round): \(firstReads.count) and \(secondReads.count) regions read")
                for region in first + second + firstReads + secondReads where region.size <= 0 {
                    withOtherAllocations.append("round \(round): \(region) has no room between its paddings")
                }
                for lineSize in Self.lineSizes {
                    for region in first + second + firstReads + secondReads where !region.ownsItsLines(of: lineSize) {
                        withOtherAllocations.append("round \(round): \(region) shares a \(lineSize)-byte line with another allocation")
                    }
                    // What one writes against what the other writes or reads
                    // (both reading one line is no contention).
                    for (mine, theirs) in [(first, second + secondReads), (second, firstReads)] {
                        for region in mine {
                            for other in theirs where region.lines(of: lineSize).overlaps(other.lines(of: lineSize)) {
                                betweenThreads.append("round \(round): \(region) and the other thread's \(other) share a \(lineSize)-byte line")
                            }
                        }
                    }
                }
            }
            #expect(betweenThreads.count == 0,
                    "\(betweenThreads.count) lines one thread writes and the other writes or reads:\n\(betweenThreads.prefix(20).joined(separator: "\n"))")
            #expect(withOtherAllocations.count == 0,
                    "\(withOtherAllocations.count) lines shared with other allocations:\n\(withOtherAllocations.prefix(20).joined(separator: "\n"))")
        }
    }
}
