// `make example`: resolves a view model's dependencies and prints them.
import Resolver

let model = ForecastViewModel()
print("weather:  \(type(of: model.weather)) -> \(model.headline())")
print("staging:  \(model.stagingWeather.forecast(for: "Porto"))")

let logger: ConsoleLogger = Resolver.resolve()
let sameLogger = Resolver.resolve(Logging.self) as? ConsoleLogger
print("logger:   one application-wide instance: \(logger === sameLogger), \(logger.lines) line(s) logged")

let second = ForecastViewModel()
_ = second.headline()
print("logger:   after a second view model: \(logger.lines) line(s) logged")
