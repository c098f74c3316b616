// Pieces of the original that exist only on Apple platforms.

#if canImport(SwiftUI) && canImport(Combine)
import Combine
import SwiftUI

/// Resolves an `ObservableObject` and observes it, for SwiftUI views.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@propertyWrapper
public struct InjectedObject<Service>: DynamicProperty where Service: ObservableObject {
    @ObservedObject private var service: Service

    /// Resolves `Service` from `Resolver.root`.
    public init() {
        service = Resolver.resolve(Service.self)
    }

    /// Resolves `Service` under `name` from `container`, or `Resolver.root`.
    public init(name: Resolver.Name? = nil, container: Resolver? = nil) {
        service = container?.resolve(Service.self, name: name) ?? Resolver.resolve(Service.self, name: name)
    }

    /// The resolved object.
    public var wrappedValue: Service {
        get { service }
        mutating set { service = newValue }
    }

    /// Bindings to the object's properties.
    public var projectedValue: ObservedObject<Service>.Wrapper {
        $service
    }
}
#endif

#if canImport(UIKit) && os(iOS)
import UIKit

/// Adopted by view controllers made from storyboards, which set the
/// user-defined runtime attribute `resolving` to have `resolveViewController()`
/// called.
public protocol StoryboardResolving: Resolving {
    /// Resolves the view controller's dependencies.
    func resolveViewController()
}

extension UIViewController {
    /// Set from a storyboard's user-defined runtime attributes to call
    /// `resolveViewController()` on a `StoryboardResolving` view controller.
    @objc public dynamic var resolving: Bool {
        get {
            true
        }
        set {
            if let controller = self as? StoryboardResolving {
                controller.resolveViewController()
            }
        }
    }
}
#endif
