import CRegistry
@testable import Resolver
import ResolverTestSupport
import Testing

extension ResolverTests {
    /// Two threads resolving the same registrations write nothing on a
    /// common cache line, nor on a line the other reads (DESIGN.md, "Why it
    /// scales"): everything a resolve writes that is its thread's own
    /// (`ThreadFootprint`: the reader record, the thread cache, the
    /// resolution state and its buffers) lies on 64-byte lines, and on x86
    /// 128-byte line pairs (the adjacent-line prefetcher fetches both
    /// halves), that no other allocation can share: not the other thread's
    /// state, and not the instances its factories make and free on every
    /// resolve. What a resolve reads of shared objects (the containers, the
    /// registrations and their factories, the scopes) it reads borrowed,
    /// writing no reference count.
    ///
    /// Threads come and go as a server's do: each round starts two fresh
    /// ones, which take reader records that earlier threads left, and
    /// memory the allocator had given those. Process-wide: the default-scope
    /// factories receive `root`.
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
            container.register { Unique() }.scope(.unique)
            container.register { DefaultB() }
            container.register { DefaultA(b: $0.resolve()) }
            container.register { GraphC() }
            container.register { GraphB(c: $0.resolve()) }
            container.register { GraphA(b: $0.resolve(), c: $0.resolve()) }
            container.register { LazyService() }.scope(.unique)
            Resolver.root = container
            defer { Resolver.root = Resolver.main }

            var betweenThreads: [String] = []
            var withOtherAllocations: [String] = []
            for round in 1...8 {
                let reports = Locked<[Int: [ThreadFootprint.Region]]>([:])
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
                    // Both report while both are alive: nothing either owns is freed yet.
                    reports.withLock { $0[thread] = regions }
                    while reports.withLock({ $0.count }) < 2 {}
                }
                let report = reports.withLock { $0 }
                guard let first = report[0], let second = report[1] else {
                    Issue.record("a thread did not report")
                    return
                }
                for lineSize in Self.lineSizes {
                    for region in first + second where !region.ownsItsLines(of: lineSize) {
                        withOtherAllocations.append("round \(round): \(region) shares a \(lineSize)-byte line with another allocation")
                    }
                    for region in first {
                        for other in second where region.lines(of: lineSize).overlaps(other.lines(of: lineSize)) {
                            betweenThreads.append("round \(round): \(region) and the other thread's \(other) share a \(lineSize)-byte line")
                        }
                    }
                }
            }
            #expect(betweenThreads.count == 0,
                    "\(betweenThreads.count) lines both threads write:\n\(betweenThreads.prefix(20).joined(separator: "\n"))")
            #expect(withOtherAllocations.count == 0,
                    "\(withOtherAllocations.count) lines shared with other allocations:\n\(withOtherAllocations.prefix(20).joined(separator: "\n"))")
        }
    }
}
