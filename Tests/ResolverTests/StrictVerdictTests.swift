import Resolver
import ResolverTesting
import Testing

// Strict tests as an app's suite writes them, against services that the
// app's `registerAllServices` registers (AppStyleTests.swift calls
// `StrictVerdictServices.register()` from it). That setup runs lazily, in
// whichever task resolves first after a reset: a strict test's verdict must
// not depend on whether that task was its own. `make test-strict-verdicts`
// (Tests/Scripts/strict_verdicts.py) runs `StrictVerdicts` in full, each of
// its tests alone, and `StrictVerdictsReversed` (the same tests in the
// opposite order), and checks that every test's verdict is the same in all.

protocol AppClock: Sendable { var now: Int { get } }
final class LiveClock: AppClock { let now = 1 }
final class MockClock: AppClock { let now = 0 }

/// Pure logic over the clock: allowed in strict tests, its clock checked on its own.
final class ReportFormatter: Sendable {
    let clock: AppClock
    init(clock: AppClock) { self.clock = clock }
}

protocol ReportPlugin: Sendable { var title: String { get } }
final class MetricsPlugin: ReportPlugin { let title = "metrics" }
final class AuditPlugin: ReportPlugin { let title = "audit" }
final class UploadPlugin: ReportPlugin { let title = "upload" }

/// The app's registrations these tests use, made by `registerAllServices`.
enum StrictVerdictServices {
    /// Where the live element of the "uploading" list is registered.
    static let uploadLine = #line + 10

    static func register() {
        Resolver.register { LiveClock() as AppClock }
        Resolver.register { r in ReportFormatter(clock: r.resolve()) }.allowedInStrictTests()
        // A list whose elements all reach nothing live.
        Resolver.register(into: [any ReportPlugin].self) { MetricsPlugin() }.allowedInStrictTests()
        Resolver.register(into: [any ReportPlugin].self) { AuditPlugin() }.allowedInStrictTests()
        // A list with one live element.
        Resolver.register(into: [any ReportPlugin].self, name: "uploading") { MetricsPlugin() }.allowedInStrictTests()
        Resolver.register(into: [any ReportPlugin].self, name: "uploading") { UploadPlugin() }
    }

    static var uploadPlace: String {
        "ResolverTests/StrictVerdictTests.swift:\(uploadLine)"
    }
}

/// Whether `issue` is a strict test's report of the live registration of
/// `service` (registered at `place`, if given).
private func isLiveUse(_ issue: Issue, of service: String, at place: String? = nil) -> Bool {
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    return text.contains("live registration of '\(service)'") && (place.map { text.contains("registered at \($0)") } ?? true)
}

/// The tests' bodies, shared by the two suites below.
enum StrictVerdictScenarios {
    static func theTestsOwnMockRecordsNothing() {
        #expect(Resolver.resolve(AppClock.self).now == 0)
        #expect(Resolver.resolve(ReportFormatter.self).clock.now == 0)
    }

    static func aLiveServiceOfTheAppSetupRecordsAnIssue() {
        withKnownIssue {
            #expect(Resolver.resolve(AppClock.self).now == 1)
        } matching: { issue in
            isLiveUse(issue, of: "AppClock")
        }
    }

    static func anAllowedServiceRecordsItsLiveDependencyOnly() {
        withKnownIssue {
            #expect(Resolver.resolve(ReportFormatter.self).clock.now == 1)
        } matching: { issue in
            isLiveUse(issue, of: "AppClock")
        }
    }

    static func aListOfAllowedElementsRecordsNothing() {
        #expect(Resolver.resolve([any ReportPlugin].self).map(\.title) == ["metrics", "audit"])
    }

    static func aListRecordsItsLiveElementWithItsPlace() {
        withKnownIssue {
            #expect(Resolver.resolve([any ReportPlugin].self, name: "uploading").map(\.title) == ["metrics", "upload"])
        } matching: { issue in
            isLiveUse(issue, of: "ReportPlugin", at: StrictVerdictServices.uploadPlace)
        }
    }

    static func anAsyncResolveOfALiveServiceRecordsAnIssue() async {
        await withKnownIssue {
            #expect(await Resolver.resolveAsync(AppClock.self).now == 1)
        } matching: { issue in
            isLiveUse(issue, of: "AppClock")
        }
    }
}

extension ResolverTests {
    /// Strict tests whose verdicts must not depend on which of them runs the
    /// app's lazy setup: in source order (this suite is serialized), the
    /// first test runs it.
    @Suite struct StrictVerdicts {
        @Test(.resolver(strict: true) { $0.register { MockClock() as AppClock } })
        func theTestsOwnMockRecordsNothing() {
            StrictVerdictScenarios.theTestsOwnMockRecordsNothing()
        }

        @Test(.resolver(strict: true))
        func aLiveServiceOfTheAppSetupRecordsAnIssue() {
            StrictVerdictScenarios.aLiveServiceOfTheAppSetupRecordsAnIssue()
        }

        @Test(.resolver(strict: true))
        func anAllowedServiceRecordsItsLiveDependencyOnly() {
            StrictVerdictScenarios.anAllowedServiceRecordsItsLiveDependencyOnly()
        }

        @Test(.resolver(strict: true))
        func aListOfAllowedElementsRecordsNothing() {
            StrictVerdictScenarios.aListOfAllowedElementsRecordsNothing()
        }

        @Test(.resolver(strict: true))
        func aListRecordsItsLiveElementWithItsPlace() {
            StrictVerdictScenarios.aListRecordsItsLiveElementWithItsPlace()
        }

        @Test(.resolver(strict: true))
        func anAsyncResolveOfALiveServiceRecordsAnIssue() async {
            await StrictVerdictScenarios.anAsyncResolveOfALiveServiceRecordsAnIssue()
        }
    }

    /// The tests of `StrictVerdicts` in the opposite order.
    @Suite struct StrictVerdictsReversed {
        @Test(.resolver(strict: true))
        func anAsyncResolveOfALiveServiceRecordsAnIssue() async {
            await StrictVerdictScenarios.anAsyncResolveOfALiveServiceRecordsAnIssue()
        }

        @Test(.resolver(strict: true))
        func aListRecordsItsLiveElementWithItsPlace() {
            StrictVerdictScenarios.aListRecordsItsLiveElementWithItsPlace()
        }

        @Test(.resolver(strict: true))
        func aListOfAllowedElementsRecordsNothing() {
            StrictVerdictScenarios.aListOfAllowedElementsRecordsNothing()
        }

        @Test(.resolver(strict: true))
        func anAllowedServiceRecordsItsLiveDependencyOnly() {
            StrictVerdictScenarios.anAllowedServiceRecordsItsLiveDependencyOnly()
        }

        @Test(.resolver(strict: true))
        func aLiveServiceOfTheAppSetupRecordsAnIssue() {
            StrictVerdictScenarios.aLiveServiceOfTheAppSetupRecordsAnIssue()
        }

        @Test(.resolver(strict: true) { $0.register { MockClock() as AppClock } })
        func theTestsOwnMockRecordsNothing() {
            StrictVerdictScenarios.theTestsOwnMockRecordsNothing()
        }
    }
}
