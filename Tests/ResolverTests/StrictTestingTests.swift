import Resolver
import ResolverTestSupport
import Testing

// Services for the strict-testing tests.
private final class Kettle: Sendable {}
private final class Toaster: Sendable {}
private protocol Appliance: Sendable {}
private final class Blender: Appliance {}
private final class Mixer: Appliance {}
private final class Oven: Appliance {}

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

        /// A list (`register(into:)`) is judged by its elements: none is
        /// reported when each is allowed, whatever the list's own
        /// registration (which no `register` call made, and no test can mark).
        @Test func aListOfAllowedElementsIsNotReported() async {
            let app = Resolver()
            app.register(into: [any Appliance].self) { Blender() }.allowedInStrictTests()
            app.register(into: [any Appliance].self) { Mixer() }.onTest { Mixer() }
            let mine = Resolver(child: app)
            let reports = Locked<[Resolver.LiveRegistrationUse]>([])
            await Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use) } }) {
                #expect(mine.resolve([any Appliance].self).count == 2)
                #expect(await mine.resolveAsync([any Appliance].self).count == 2)
            }
            #expect(reports.withLock { $0 }.isEmpty, "\(reports.withLock { $0 })")
        }

        /// A live element is reported once, by its own registration and
        /// place; the allowed ones beside it are not.
        @Test func aLiveElementIsReportedWithItsPlace() async {
            let app = Resolver()
            app.register(into: [any Appliance].self) { Blender() }.allowedInStrictTests()
            let line = #line + 1
            app.register(into: [any Appliance].self) { Oven() }
            let mine = Resolver(child: app)
            let reports = Locked<[Resolver.LiveRegistrationUse]>([])
            await Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use) } }) {
                _ = mine.resolve([any Appliance].self)
                _ = await mine.resolveAsync([any Appliance].self)
            }
            let seen = reports.withLock { $0 }
            #expect(seen.map(\.registeredAt) == ["ResolverTests/StrictTestingTests.swift:\(line)"], "\(seen)")
            #expect(seen.first?.type == "Appliance")
        }

        /// Elements in the test's container, and elements `register(into:)`
        /// adds in the test's task, are the test's.
        @Test func theTestsOwnElementsAreNotReported() {
            let app = Resolver()
            let mine = Resolver(child: app)
            mine.register(into: [any Appliance].self) { Oven() }
            let reports = Locked<[Resolver.LiveRegistrationUse]>([])
            Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use) } }) {
                app.register(into: [any Appliance].self) { Blender() }
                #expect(mine.resolve([any Appliance].self).count == 2)
            }
            #expect(reports.withLock { $0 }.isEmpty, "\(reports.withLock { $0 })")
        }

        /// A list the test's container adds to still holds the app's
        /// elements, which are judged as ever.
        @Test func theAppsElementsBesideTheTestsOwnAreJudged() {
            let app = Resolver()
            let line = #line + 1
            app.register(into: [any Appliance].self) { Oven() }
            app.register(into: [any Appliance].self) { Blender() }.allowedInStrictTests()
            let mine = Resolver(child: app)
            mine.register(into: [any Appliance].self) { Mixer() }
            let reports = Locked<[Resolver.LiveRegistrationUse]>([])
            Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use) } }) {
                #expect(mine.resolve([any Appliance].self).count == 3)
            }
            #expect(reports.withLock { $0 }.map(\.registeredAt) == ["ResolverTests/StrictTestingTests.swift:\(line)"])
        }

        /// A plain registration of the list (`register { [...] }`) is one
        /// registration, judged as any other.
        @Test func aPlainListIsJudgedAsItself() {
            let app = Resolver()
            let line = #line + 1
            app.register { [Oven()] as [any Appliance] }
            let mine = Resolver(child: app)
            let reports = Locked<[Resolver.LiveRegistrationUse]>([])
            Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use) } }) {
                _ = mine.resolve([any Appliance].self)
            }
            #expect(reports.withLock { $0 }.map(\.registeredAt) == ["ResolverTests/StrictTestingTests.swift:\(line)"])
        }
    }
}

extension ResolverTests {
    /// Strict tests and the app's setup (`registerAllServices`, which runs
    /// lazily in whichever task resolves first after a reset): a
    /// registration is the test's only if the test made it, and a resolve
    /// is judged the same whether or not the setup runs in the test's task.
    @Suite struct StrictTestingAndTheAppSetup {
        @Test func aLiveServiceIsReportedWhenTheStrictTestsFirstResolveRunsTheSetup() {
            Resolver.reset()
            let mine = Resolver(child: .main, isolatedScopes: true)
            let reports = Locked<[String]>([])
            Resolver.withRoot(mine) {
                Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use.service) } }) {
                    #expect(Resolver.resolve(AppClock.self).now == 1)
                }
            }
            #expect(reports.withLock { $0 } == ["AppClock"])
        }

        @Test func anAsyncResolveIsReportedWhenItRunsTheSetup() async {
            Resolver.reset()
            let mine = Resolver(child: .main, isolatedScopes: true)
            let reports = Locked<[String]>([])
            await Resolver.withRoot(mine) {
                await Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use.service) } }) {
                    #expect(await Resolver.resolveAsync(AppClock.self).now == 1)
                }
            }
            #expect(reports.withLock { $0 } == ["AppClock"])
        }

        /// The setup's own resolves are the app's, whichever task runs it.
        @Test func resolvesMadeByTheSetupAreNotReported() {
            registrationHook.withLock { $0 = { _ = Resolver.resolve(AppClock.self) } }
            defer { registrationHook.withLock { $0 = nil } }
            Resolver.reset()
            let mine = Resolver(child: .main, isolatedScopes: true)
            let reports = Locked<[String]>([])
            Resolver.withRoot(mine) {
                Resolver.withStrictTesting(mine, report: { use in reports.withLock { $0.append(use.service) } }) {
                    #expect(Resolver.optional(Int.self) == nil)
                }
            }
            #expect(reports.withLock { $0 }.isEmpty, "\(reports.withLock { $0 })")
        }
    }
}
