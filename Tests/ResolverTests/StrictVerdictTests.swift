import Resolver
import ResolverTesting
import Testing

// Services that the app's `registerAllServices` registers (AppStyleTests.swift
// calls `StrictVerdictServices.register()` from it), for strict tests. That
// setup runs lazily, in whichever task resolves first after a reset: a strict
// test's verdict must not depend on whether that task was its own.

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
