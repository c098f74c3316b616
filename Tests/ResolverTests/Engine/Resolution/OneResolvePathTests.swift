import Dispatch
import Foundation
@testable import Resolver
import Testing

/// A session an async factory builds (a logged-in user's, say).
final class AsyncSession: Sendable {
    let id = Serial.next()
    let leaf: Leaf?
    init(leaf: Leaf? = nil) async {
        await Task.yield()
        self.leaf = leaf
    }
}

/// A screen whose async factory resolves an async service and a main-actor one.
final class AsyncScreen: Sendable {
    let session: AsyncSession
    init(session: AsyncSession, model: SettingsViewModel) {
        self.session = session
    }
}

/// A main-actor view model that needs a plain service.
@MainActor final class LeafViewModel {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

extension IndependentTests {
    /// The synchronous and async resolves share one path below the API: one
    /// build-once with one generation rule (DESIGN.md, S4), one place that
    /// records graph edges.
    @Suite struct OneResolvePath {
        /// The same with threads: a thread that asks after the reset builds
        /// anew at once, rather than waiting for the build that began before
        /// it (which here waits for that thread's own resolve to return).
        @Test func threadsAskingAfterAResetNeverJoinTheBuildBeforeIt() {
            let resolver = Resolver()
            let scope = ResolverScopeCache()
            let release = DispatchSemaphore(value: 0)
            let runs = Counter()
            resolver.register { () -> Leaf? in
                runs.increment()
                if runs.count == 1 {
                    release.wait()
                }
                return Leaf()
            }.scope(scope)
            let before = Locked<Leaf?>(nil)
            let builder = startThread { before.withLock { $0 = resolver.resolve(Leaf.self) } }
            #expect(eventually(within: 10) { runs.count == 1 })
            scope.reset()
            // A watchdog, so that a resolve that joins the first build ends
            // the test (failing it) instead of hanging it.
            let released = Locked(false)
            let watchdog = startThread {
                usleep(10_000_000)
                let fire = released.withLock { wasReleased -> Bool in
                    defer { wasReleased = true }
                    return !wasReleased
                }
                if fire {
                    release.signal()
                }
            }
            let after: Leaf = resolver.resolve()
            let returnedFirst = released.withLock { wasReleased -> Bool in
                defer { wasReleased = true }
                return !wasReleased
            }
            #expect(returnedFirst, "the resolve after the reset returned without waiting for the build before it")
            if returnedFirst {
                release.signal()
            }
            #expect(builder.finished(within: 10))
            #expect(before.withLock { $0 } !== after)
            #expect(resolver.resolve(Leaf.self) === after)
            #expect(runs.count == 2)
            _ = watchdog
        }

        /// A reset from another thread during a build (DESIGN.md, S1): a
        /// thread that joined the build before the reset gets its instance,
        /// which the scope does not keep; the next resolve builds again.
        /// (Threads that ask after the reset never join it:
        /// `OneResolvePath.threadsAskingAfterAResetNeverJoinTheBuildBeforeIt`.)
        @Test func aResetDuringABuildKeepsNothingFromIt() {
            let scope = ResolverScopeCache()
            expectAResetDuringABuildKeepsNothing(scope: scope) { scope.reset() }
        }
    }
}

extension ResolverTests {
    /// The async half of `OneResolvePath`, run while no other test runs: the
    /// tasks it starts and the main-actor hop it makes must not wait for a
    /// cooperative thread that a parallel test is blocking.
    @Suite struct OneResolvePathAsync {
        /// A reset (a logout) while an async build runs: the tasks that asked
        /// before the reset share the build's instance, which is not kept; the
        /// tasks that ask after it never join that build, and share one new
        /// instance, which is kept.
        @Test func tasksAskingAfterAResetNeverGetTheInstanceBuiltBeforeIt() async {
            let resolver = Resolver()
            let scope = ResolverScopeCache()
            let gate = Gate()
            let runs = Counter()
            resolver.register { () async -> AsyncSession? in
                runs.increment()
                await gate.wait()
                return await AsyncSession()
            }.scope(scope)

            let before = (0..<21).map { _ in Task { ObjectIdentifier(await resolver.resolveAsync(AsyncSession.self)) } }
            #expect(await eventually(within: 10) { await gate.arrivals == 1 })
            // Every asker (the first too) waits for the build's flight.
            #expect(await eventually(within: 10) { () async -> Bool in
                registry.withLock { scope.building.first?.waiting == 21 }
            },
                    "all 21 tasks joined the build")
            scope.reset()
            let after = (0..<20).map { _ in Task { ObjectIdentifier(await resolver.resolveAsync(AsyncSession.self)) } }
            #expect(await eventually(within: 10) { await gate.arrivals == 2 })
            await gate.openUp()

            var beforeIDs = Set<ObjectIdentifier>()
            for task in before { beforeIDs.insert(await task.value) }
            var afterIDs = Set<ObjectIdentifier>()
            for task in after { afterIDs.insert(await task.value) }
            #expect(afterIDs.count == 1, "the tasks that asked after the reset share one instance")
            #expect(beforeIDs.isDisjoint(with: afterIDs), "no task that asked after the reset got an instance built before it")
            #expect(runs.count == 2)
            let kept = ObjectIdentifier(await resolver.resolveAsync(AsyncSession.self))
            #expect(afterIDs == [kept], "the post-reset build is the one kept")
        }

        /// `verify()` records the edges async factories make through
        /// `resolveAsync` (and plain resolves inside them), and those of a
        /// `@MainActor` factory that an async factory hops to; the
        /// `@MainActor` registration itself is still skipped.
        @Test func verifyRecordsTheEdgesOfAsyncAndMainActorFactories() {
            let resolver = Resolver()
            resolver.register { Leaf() }
            resolver.register { r in await AsyncSession(leaf: r.resolve(Leaf.self)) }
            resolver.register { @MainActor in SettingsViewModel() }
            resolver.register { @MainActor r in LeafViewModel(leaf: r.resolve()) }
            resolver.register { r in
                AsyncScreen(session: await r.resolveAsync(), model: await r.resolveAsync())
            }
            resolver.register { (r: Resolver) async -> Middle? in
                _ = await r.resolveAsync(LeafViewModel.self)
                return Middle(leaf: Leaf())
            }
            let report = resolver.verify(timeout: 20)
            #expect(report.isValid, "\(report)")
            #expect(Set(report.resolved) == ["Leaf", "AsyncSession", "AsyncScreen", "Middle"], "\(report)")
            #expect(Set(report.skipped) == ["SettingsViewModel", "LeafViewModel"], "\(report)")
            let edges = Set(report.graph.edges.map { "\($0.from) -> \($0.to)" })
            #expect(edges == [
                "AsyncSession -> Leaf",
                "AsyncScreen -> AsyncSession",
                "AsyncScreen -> SettingsViewModel",
                "Middle -> LeafViewModel",
                "LeafViewModel -> Leaf",
            ], "\(edges.sorted())")
            let nodes = Set(report.graph.nodes.map(\.description))
            #expect(nodes.isSuperset(of: ["SettingsViewModel", "LeafViewModel"]))
        }
    }
}
