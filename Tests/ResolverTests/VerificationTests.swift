import CRegistry
import Foundation
@testable import Resolver
import ResolverTestSupport
import Testing

// Services for the verification and graph tests.
private final class Engine { let id = Serial.next() }
private final class Wheel {}
private final class Car {
    let engine: Engine, wheel: Wheel
    init(engine: Engine, wheel: Wheel) { self.engine = engine; self.wheel = wheel }
}
private final class Garage { init(car: Car) {} }
private final class Fuel {}
private final class Tank { init(fuel: Fuel) {} }
private final class Pump { init(tank: Tank) {} }
private final class Chicken { init(egg: Egg) {} }
private final class Egg { init(chicken: Chicken) {} }
private final class Broken {}
private final class NeedsBroken { init(broken: Broken) {} }
private final class Greeter { let greeting: String; init(_ greeting: String) { self.greeting = greeting } }
private final class Plant { let id = Serial.next() }
private final class Factory { init(plant: Plant) {} }
private final class Blocker {}
private final class AfterBlocker {}
private final class Session { let id = Serial.next() }
private final class Screen { let session: Session; init(session: Session) { self.session = session } }

extension ResolverScope {
    fileprivate static let testSession = ResolverScopeCache()
}

extension ResolverTests {
    /// `verify()` resolves every registration once in a sandbox and collects
    /// what would have stopped the program.
    @Suite struct Verification {
        @Test func aCompleteContainerIsValidAndArgumentFactoriesAreSkipped() {
            let container = Resolver()
            container.register { Engine() }
            container.register { Wheel() }
            container.register { Car(engine: $0.resolve(), wheel: $0.resolve()) }
            container.register(name: "formal") { _, args in Greeter(args()) }
            container.register(name: "plain") { Greeter("hi") }

            let result = container.verify()

            #expect(result.isValid, "\(result)")
            #expect(result.failures.isEmpty)
            #expect(Set(result.resolved) == ["Engine", "Wheel", "Car", "Greeter:plain"])
            #expect(result.skipped == ["Greeter:formal"])
            #expect(result.description.hasPrefix("Resolver.verify(): 4 resolved, 0 failed, 1 skipped."), "\(result)")
        }

        /// `implements()` registers a factory that takes arguments only to
        /// pass them on: it is verified unless the one it forwards to needs them.
        @Test func implementsRegistrationsAreVerifiedLikeTheirTarget() {
            let container = Resolver()
            container.register { XYZService() }.implements(XYZFetching.self)
            container.register { _, args in Greeter(args()) }.implements(AnyObject.self)

            let result = container.verify()

            #expect(result.isValid, "\(result)")
            #expect(Set(result.resolved) == ["XYZService", "XYZFetching"])
            #expect(Set(result.skipped) == ["Greeter", "AnyObject"])
        }

        @Test func aMissingDependencyIsReportedWithTheChainThatNeededIt() throws {
            let container = Resolver()
            container.register { Pump(tank: $0.resolve()) }
            container.register { Tank(fuel: $0.resolve()) }

            let result = container.verify()

            #expect(!result.isValid)
            #expect(result.resolved.isEmpty)
            let pump = try #require(result.failures.first { $0.service == "Pump" })
            #expect(pump.kind == .missing)
            #expect(pump.message.contains("'Fuel:NONAME' not resolved"), "\(pump.message)")
            #expect(pump.message.contains("Needed while resolving Pump → Tank."), "\(pump.message)")
            let tank = try #require(result.failures.first { $0.service == "Tank" })
            #expect(tank.message.contains("Needed while resolving Tank."), "\(tank.message)")
            #expect(result.description.contains("FAILED Pump: missing"), "\(result)")
            #expect(result.description.contains("    Needed while resolving Pump → Tank."), "\(result)")
        }

        @Test func aCycleIsReportedWithItsChain() throws {
            let container = Resolver()
            container.register { Chicken(egg: $0.resolve()) }
            container.register { Egg(chicken: $0.resolve()) }

            let result = container.verify()

            #expect(result.failures.count == 2)
            let chicken = try #require(result.failures.first { $0.service == "Chicken" })
            #expect(chicken.kind == .cycle)
            #expect(chicken.message.contains("circular dependency: Chicken → Egg → Chicken"), "\(chicken.message)")
        }

        @Test func aFactoryReturningNilIsReported() throws {
            let container = Resolver()
            container.register { nil as Broken? }
            container.register { NeedsBroken(broken: $0.resolve()) }
            container.register { Engine() }

            let result = container.verify()

            let broken = try #require(result.failures.first { $0.service == "Broken" })
            #expect(broken.kind == .returnedNil)
            let needing = try #require(result.failures.first { $0.service == "NeedsBroken" })
            #expect(needing.kind == .returnedNil)
            #expect(needing.message.contains("its factory returned nil"), "\(needing.message)")
            #expect(result.resolved == ["Engine"])
        }

        @Test func namedRegistrationsAndChildrenAreEachVerifiedOnce() {
            let child = Resolver()
            child.register(name: "a") { Engine() }
            child.register { Wheel() }
            let container = Resolver(child: child)
            container.register(name: "b") { Engine() }
            // Shadows the child's: a lookup from `container` finds this one.
            container.register { nil as Wheel? }

            let result = container.verify()

            #expect(Set(result.resolved) == ["Engine:a", "Engine:b"])
            #expect(result.failures.map(\.service) == ["Wheel"])
        }

        @Test func theAppsSingletonsAreNeitherMadeNorReplaced() {
            let made = Counter()
            let container = Resolver()
            container.register { () -> Plant in made.increment(); return Plant() }.scope(.application)
            container.register { () -> Session in made.increment(); return Session() }.scope(.testSession)
            container.register { Factory(plant: $0.resolve()) }
            container.register { Screen(session: $0.resolve()) }
            let plant: Plant = container.resolve()
            #expect(made.count == 1)

            let result = container.verify()

            #expect(result.isValid, "\(result)")
            // The sandbox made its own Plant and Session.
            #expect(made.count == 3)
            let again: Plant = container.resolve()
            #expect(again === plant, "verify() replaced the app's .application instance")
            let session: Session = container.resolve()
            #expect(made.count == 4, "verify() left its Session in the app's custom scope")
            #expect((container.resolve() as Screen).session === session)
            ResolverScope.application.reset()
            ResolverScope.testSession.reset()
        }

        @Test func staticResolvesInsideFactoriesUseTheSandbox() {
            // Registered only in this container, which is not root: a
            // factory's static resolve finds it only through the sandbox.
            let container = Resolver()
            container.register { Engine() }
            container.register { Car(engine: Resolver.resolve(), wheel: Wheel()) }

            let result = container.verify()

            #expect(result.isValid, "\(result)")
            #expect(result.resolved.contains("Car"))
        }

        @Test func aBuildThatFailedDoesNotKeepOthersWaiting() throws {
            let container = Resolver()
            container.register { Tank(fuel: $0.resolve()) }.scope(.application)
            container.register { Pump(tank: $0.resolve()) }

            let result = container.verify(timeout: 20)

            #expect(result.failures.count == 2)
            #expect(result.failures.allSatisfy { $0.kind == .missing }, "\(result)")
            // The app's own .application scope is untouched and still works.
            container.register { Fuel() }
            let tank: Tank? = container.optional()
            #expect(tank != nil)
            ResolverScope.application.reset()
        }

        @Test func aFactoryThatHangsTimesOutAndTheOthersAreStillVerified() throws {
            let gate = Locked(false)
            let container = Resolver()
            container.register { () -> Blocker in
                while !gate.withLock({ $0 }) { usleep(1_000) }
                return Blocker()
            }
            container.register { AfterBlocker() }
            container.register { Engine() }

            let result = container.verify(timeout: 0.3)
            gate.withLock { $0 = true }

            let blocked = try #require(result.failures.first)
            #expect(result.failures.count == 1)
            #expect(blocked.service == "Blocker")
            #expect(blocked.kind == .timedOut)
            #expect(blocked.message.contains("did not finish within 0.3 s"), "\(blocked.message)")
            #expect(Set(result.resolved) == ["AfterBlocker", "Engine"])
        }

        @Test func theStaticVerifyChecksTheRoot() {
            let mocks = Resolver(child: .main, isolatedScopes: true)
            mocks.register { Pump(tank: $0.resolve()) }
            Resolver.withRoot(mocks) {
                let result = Resolver.verify()
                #expect(result.failures.contains { $0.service == "Pump" && $0.kind == .missing }, "\(result)")
            }
        }

        @Test func afterVerifyingResolvesTakeTheDirectPathAgain() {
            let container = Resolver()
            container.register { Pump(tank: $0.resolve()) }
            _ = container.verify()
            #expect(released { Published.detours.load() == 0 },
                    "a verification left resolves on the detour")
        }
    }
}
