// Strict tests: a test that reaches a live service hears about it.

extension Resolver {
    /// A resolve in a strict test that used a registration the test did not make: what
    /// `withStrictTesting(_:report:operation:)` reports.
    public struct LiveRegistrationUse: Sendable, CustomStringConvertible {
        /// "Type" or "Type:name".
        public let service: String
        /// The service type, as Swift prints it.
        public let type: String
        /// The registration's name, or nil.
        public let name: String?
        /// Where the live registration was made (`Module/File.swift:LINE`), or nil when unknown (made by
        /// hand, or a collection's list).
        public let registeredAt: String?

        /// The sentence a test issue shows: what was resolved, where it was registered, and the ways out.
        public var description: String {
            let place = registeredAt.map { "registered at \($0)" } ?? "registered in a place not known"
            let named = name.map { " named '\($0)'" } ?? ""
            return "A strict test resolved the live registration of '\(type)'\(named), \(place). "
                + "Register a mock in the test's container, add .onTest { … } to the registration, "
                + "or mark it .allowedInStrictTests() if it reaches nothing live."
        }
    }

    /// Runs `operation` as a strict test whose own registrations are those of `container` (and the ones
    /// `register` makes in its tasks): each resolve made in the current task and the tasks it starts
    /// (static or on a container, sync or async, property wrappers) that uses another registration calls
    /// `report` once per registration, unless that registration has an `onTest` or is marked
    /// `allowedInStrictTests()`.
    ///
    /// ResolverTesting's `.resolver(strict: true) { … }` trait calls it, with `container` as the test's
    /// root, and records each report as a test issue. From XCTest, call it inside `withRoot(container)`,
    /// with `report: { XCTFail($0.description) }` (the testing article shows it). Resolves on threads that
    /// are not the test's tasks are not checked. While one runs, every resolve in the process takes the
    /// detour that `withRoot` takes.
    public static func withStrictTesting<Result>(_ container: Resolver,
                                                 report: @escaping @Sendable (LiveRegistrationUse) -> Void,
                                                 operation: () throws -> Result) rethrows -> Result {
        StrictTest.running.increment()
        defer { StrictTest.running.decrement() }
        return try Published.withDetour {
            try StrictTest.$current.withValue(StrictTest(container: container, report: report), operation: operation)
        }
    }

    /// The async `withStrictTesting(_:report:operation:)`.
    public static func withStrictTesting<Result>(_ container: Resolver,
                                                 report: @escaping @Sendable (LiveRegistrationUse) -> Void,
                                                 isolation: isolated (any Actor)? = #isolation,
                                                 operation: () async throws -> Result) async rethrows -> Result {
        StrictTest.running.increment()
        Published.detours.increment()
        defer {
            Published.detours.decrement()
            StrictTest.running.decrement()
        }
        return try await StrictTest.$current.withValue(StrictTest(container: container, report: report),
                                                       operation: operation, isolation: isolation)
    }
}

extension ResolverOptions {
    /// Lets strict tests (`.resolver(strict: true)`) use this registration though the test did not make it:
    /// for services that reach nothing live (view models, formatters, pure logic), whose dependencies are
    /// checked on their own.
    @discardableResult
    public func allowedInStrictTests() -> ResolverOptions<Service> {
        registry.write { registration.isAllowedInStrictTests = true }
        return self
    }
}
