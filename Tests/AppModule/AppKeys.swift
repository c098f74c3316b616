import Resolver

// An app module's keys, declared where the test targets cannot edit them:
// the tests add contexts to them from their own module
// (`Resolver.onTest(\.appRepository) { … }`), as a test target adds fakes to
// an app's keys in its `registerAllServices`.

/// A repository the app module makes.
public protocol AppRepository: AnyObject, Sendable {
    var source: String { get }
}

/// The app module's live repository.
public final class LiveAppRepository: AppRepository {
    public let source = "live"
    public init() {}
}

extension ResolverKeys {
    /// The app module's repository key.
    public var appRepository: ResolverKey<any AppRepository> {
        ResolverKey { LiveAppRepository() }
    }

    /// A second key of the app module, with an argument.
    public var appGreeting: ResolverKey<String, String> {
        ResolverKey { name in "hello \(name)" }
    }
}
