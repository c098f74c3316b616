// The seam between the routes and the container: the routes ask a wiring for one
// request's controller, and only the wiring knows how it is built.

/// Gives the routes one request's services.
public protocol ServiceWiring: Sendable {
    /// A controller for one request: a new `.graph` (unit of work) every call, the
    /// same `.application` store every call.
    func controller() -> any ItemsController
}

/// The greeting when `GREETING` is not set.
public let defaultGreeting = "Hello"
