import Resolver
import ResolverTestSupport
import Testing

// Services for the strict-testing tests.
private final class Kettle: Sendable {}
private final class Toaster: Sendable {}

extension IndependentTests {
    /// `Resolver.withStrictTesting`, the API under ResolverTesting's
    /// `.resolver(strict: true)`, with a report of its own.
    @Suite struct StrictTesting {
        @Test func aLiveRegistrationIsReportedOncePerStrictTestWithItsPlace() async {
            let app = Resolver()
            let line = #line + 1
            app.register { Kettle() }
            let mine = Resolver(child: app, isolatedScopes: true)
            mine.register { Toaster() }
            let reports = Locked<[Resolver.LiveRegistrationUse]>([])
            await Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use) } }) {
                await Resolver.withRoot(mine) {
                    _ = Resolver.resolve(Kettle.self)
                    _ = mine.resolve(Kettle.self)
                    _ = await Resolver.resolveAsync(Kettle.self)
                    _ = Resolver.resolve(Toaster.self)
                }
            }
            let seen = reports.withLock { $0 }
            #expect(seen.count == 1, "\(seen)")
            #expect(seen.first?.service == "Kettle")
            #expect(seen.first?.name == nil)
            #expect(seen.first?.registeredAt == "ResolverTests/StrictTestingTests.swift:\(line)")
            #expect(seen.first?.description.contains("registered at ResolverTests/StrictTestingTests.swift:\(line)") == true)
        }

        /// Only the strict test's own task and the tasks it starts are
        /// checked: a detached task and other tests are not.
        @Test func resolvesOutsideTheStrictTestsTasksAreNotReported() async {
            let app = Resolver()
            app.register { Kettle() }
            let mine = Resolver(child: app)
            let reports = Locked<[Resolver.LiveRegistrationUse]>([])
            await Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use) } }) {
                _ = await Task.detached { mine.resolve(Kettle.self) }.value
            }
            _ = mine.resolve(Kettle.self)
            #expect(reports.withLock { $0 }.isEmpty)
            await Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use) } }) {
                _ = await Task { mine.resolve(Kettle.self) }.value
            }
            #expect(reports.withLock { $0 }.map(\.service) == ["Kettle"])
        }

        @Test func aRegistrationMadeInTheStrictTestsTaskIsTheTests() {
            let app = Resolver()
            let mine = Resolver(child: app)
            let reports = Locked<[Resolver.LiveRegistrationUse]>([])
            Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use) } }) {
                app.register { Kettle() }
                _ = mine.resolve(Kettle.self)
            }
            #expect(reports.withLock { $0 }.isEmpty)
        }
    }
}
