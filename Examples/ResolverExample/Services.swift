// The services of a small weather app.
import Resolver

protocol WeatherFetching: Sendable {
    func forecast(for city: String) -> String
}

protocol Logging: Sendable {
    func log(_ message: String)
}

/// Talks to the weather API (here, makes something up).
final class WeatherAPI: WeatherFetching {
    let endpoint: String
    init(endpoint: String) { self.endpoint = endpoint }
    func forecast(for city: String) -> String { "sunny in \(city) (from \(endpoint))" }
}

/// One per app: counts what was logged.
final class ConsoleLogger: Logging, @unchecked Sendable {
    private(set) var lines = 0
    func log(_ message: String) {
        lines += 1
        print("  log: \(message)")
    }
}

/// The app's settings.
struct Settings: Sendable {
    let city: String
}

final class ForecastViewModel {
    @Injected var weather: WeatherFetching
    @Injected(name: .staging) var stagingWeather: WeatherFetching
    @LazyInjected var logger: Logging
    @Injected var settings: Settings

    func headline() -> String {
        let text = weather.forecast(for: settings.city)
        logger.log("showed forecast for \(settings.city)")
        return text
    }
}
