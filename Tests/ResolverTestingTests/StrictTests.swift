import Resolver
import ResolverTestSupport
import ResolverTesting
import Testing

// Services registered in `Resolver.main`, as an app registers them.
protocol Weather: Sendable { var forecast: String { get } }
struct LiveWeather: Weather { let forecast = "live" }
struct StubWeather: Weather { let forecast = "stub" }
protocol Payments: Sendable { var provider: String { get } }
struct LivePayments: Payments { let provider = "live" }
final class Formatter: Sendable {}
final class Radio: Sendable {}
final class Tuner: Sendable {}
protocol Player: Sendable {}
final class LivePlayer: Player {}
final class Forecaster: Sendable {
    let weather: Weather
    init(weather: Weather) { self.weather = weather }
}
final class WeatherScreen {
    @Injected var weather: Weather
}
final class ForecastMade: Sendable {}

/// The places of the live registrations below, for the issues' messages.
enum LiveRegistrations {
    static let weatherLine = #line + 3
    /// Registers them once, in `main`.
    static let registered: Void = {
        Resolver.register { LiveWeather() as Weather }
        Resolver.register(name: "card") { LivePayments() as Payments }
        Resolver.register { LivePayments() as Payments }.onTest { LivePayments() as Payments }
        Resolver.register { Formatter() }.allowedInStrictTests()
        Resolver.register { Radio() }
        Resolver.register { Tuner() }
        Resolver.register { LivePlayer() }.onTest { LivePlayer() }.implements(Player.self)
        Resolver.register { r in Forecaster(weather: r.resolve()) }.allowedInStrictTests()
    }()

    static var weatherPlace: String {
        "ResolverTestingTests/StrictTests.swift:\(weatherLine)"
    }
}

/// Whether `issue` is a strict test's report of `service`, at the test's
/// own source location.
func isLiveUse(_ issue: Issue, of service: String, at place: String? = nil) -> Bool {
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    return text.contains("live registration of '\(service)'") && (place.map { text.contains($0) } ?? true)
        && issue.sourceLocation == Test.current?.sourceLocation
}

/// Strict tests (`.resolver(strict: true)`): a resolve that uses a
/// registration the test did not make records an issue, naming the service
/// and where it was registered.
@Suite struct StrictTests {
    /// The app's registrations, made once on a thread of their own: a
    /// `register` call in a strict test's task is the test's.
    init() {
        _ = startThread { LiveRegistrations.registered }.finished(within: 10)
    }

    @Test(.resolver(strict: true))
    func aSynchronousResolveOfALiveRegistrationRecordsAnIssueNamingWhereItWasMade() {
        withKnownIssue {
            #expect(Resolver.resolve(Weather.self).forecast == "live")
        } matching: { issue in
            isLiveUse(issue, of: "Weather", at: LiveRegistrations.weatherPlace)
        }
    }

    @Test(.resolver(strict: true))
    func aNamedLiveRegistrationIsNamedInTheIssue() {
        withKnownIssue {
            _ = Resolver.resolve(Payments.self, name: "card")
        } matching: { issue in
            isLiveUse(issue, of: "Payments") && issue.comments.contains { $0.rawValue.contains("named 'card'") }
        }
    }

    @Test(.resolver(strict: true))
    func anAsyncResolveRecordsAnIssue() async {
        await withKnownIssue {
            _ = await Resolver.resolveAsync(Radio.self)
        } matching: { issue in
            isLiveUse(issue, of: "Radio")
        }
    }

    @Test(.resolver(strict: true))
    func aPropertyWrapperRecordsAnIssue() {
        withKnownIssue {
            #expect(WeatherScreen().weather.forecast == "live")
        } matching: { issue in
            isLiveUse(issue, of: "Weather", at: LiveRegistrations.weatherPlace)
        }
    }

    @Test(.resolver(strict: true))
    func aTaskTheTestStartsRecordsAnIssue() async {
        await withKnownIssue {
            _ = await Task { Resolver.resolve(Tuner.self) }.value
        } matching: { issue in
            isLiveUse(issue, of: "Tuner")
        }
    }

    /// A registration the test may use (allowed) whose factory resolves a
    /// live one: the live one is reported.
    @Test(.resolver(strict: true))
    func aLiveDependencyOfAnAllowedRegistrationRecordsAnIssue() {
        withKnownIssue {
            #expect(Resolver.resolve(Forecaster.self).weather.forecast == "live")
        } matching: { issue in
            isLiveUse(issue, of: "Weather")
        }
    }

    /// The test's own registrations, `.onTest` ones (and an `implements` of
    /// one), ones marked `.allowedInStrictTests()`, and ones `register`
    /// made in the test's task record nothing: any issue would fail this test.
    @Test(.resolver(strict: true) { $0.register { StubWeather() as Weather } })
    func theTestsOwnOnTestAndAllowedRegistrationsRecordNothing() async {
        #expect(Resolver.resolve(Weather.self).forecast == "stub")
        #expect(WeatherScreen().weather.forecast == "stub")
        #expect(Resolver.resolve(Forecaster.self).weather.forecast == "stub")
        #expect(Resolver.resolve(Payments.self).provider == "live")
        _ = Resolver.resolve(Formatter.self)
        _ = Resolver.resolve(Player.self)
        Resolver.root.register { ForecastMade() }
        _ = await Task { Resolver.resolve(ForecastMade.self) }.value
    }

    /// A test that is not strict records nothing, whatever it resolves.
    @Test(.resolver())
    func aTestThatIsNotStrictRecordsNothing() async {
        #expect(Resolver.resolve(Weather.self).forecast == "live")
        _ = await Resolver.resolveAsync(Radio.self)
        _ = Resolver.resolve(Payments.self, name: "card")
    }
}
