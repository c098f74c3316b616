import Resolver

extension Resolver.Name {
    static let staging = Self("staging")
}

// Wired the way Resolver apps are: everything registered in one place, run
// automatically before the first resolve.
extension Resolver: ResolverRegistering {
    public static func registerAllServices() {
        register { WeatherAPI(endpoint: "https://api.example.com") }
            .implements(WeatherFetching.self)
        register(name: .staging) { WeatherAPI(endpoint: "https://staging.example.com") as WeatherFetching }
        register { ConsoleLogger() }
            .implements(Logging.self)
            .scope(.application)
        register { Settings(city: "Lisbon") }
    }
}
