// The seam between the routes and a container: the routes ask a wiring for one
// request's controller, and only the wiring knows which container builds it.

/// Gives the routes one request's services.
public protocol ServiceWiring: Sendable {
    /// A controller for one request: a new `.graph` (unit of work) every call, the
    /// same `.application` store every call.
    func controller() -> any ItemsController
}

/// The container that wires the app, from the `CONTAINER` environment variable.
public enum ContainerKind: String, CaseIterable, Sendable {
    case resolver
    case swinject
    /// No container: the services built by hand (`HandWiring`).
    case hand

    public struct UnknownContainer: Error, CustomStringConvertible {
        public let value: String
        public var description: String {
            "CONTAINER=\(value): expected one of \(ContainerKind.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }

    /// `CONTAINER=resolver|swinject|hand`; Resolver when unset or empty.
    public init(environment: [String: String]) throws(UnknownContainer) {
        let value = environment["CONTAINER"] ?? ""
        if value.isEmpty {
            self = .resolver
        } else if let kind = ContainerKind(rawValue: value.lowercased()) {
            self = kind
        } else {
            throw UnknownContainer(value: value)
        }
    }

    /// The wiring for this container, with the app's registrations.
    public func makeWiring() -> any ServiceWiring {
        switch self {
        case .resolver: ResolverWiring()
        case .swinject: SwinjectWiring()
        case .hand: HandWiring()
        }
    }
}

/// The greeting when `GREETING` is not set.
public let defaultGreeting = "Hello"
