import Resolver
import Testing

// Services for the tests of where registrations were made.
private final class Boiler {}
private final class Radiator { init(boiler: Boiler) {} }
private final class Thermostat { init(radiator: Radiator) {} }
private protocol Heating: AnyObject {}
private final class GasHeating: Heating {}
private final class HeatPump: Heating {}

extension IndependentTests {
    /// Every registration keeps the `#fileID` and `#line` of its `register`
    /// call, and the messages that name it, `verify()`'s list of
    /// replacements and strict tests show it as `Module/File.swift:LINE`.
    @Suite struct RegistrationSites {
        @Test func aRegistrationKnowsTheFileAndLineOfItsRegisterCall() {
            let container = Resolver()
            let line = #line + 1
            let options = container.register { Boiler() }
            #expect(options.registration.registeredAt == "ResolverTests/RegistrationSiteTests.swift:\(line)")
            let namedLine = #line + 1
            let named = container.register(name: "spare") { r in Radiator(boiler: r.resolve()) }
            #expect(named.registration.registeredAt == "ResolverTests/RegistrationSiteTests.swift:\(namedLine)")
            let typedLine = #line + 1
            let typed = container.register(arguments: Int.self) { _, _ in Boiler() }
            #expect(typed.registration.registeredAt == "ResolverTests/RegistrationSiteTests.swift:\(typedLine)")
        }

        @Test func aListElementKnowsTheFileAndLineOfItsRegisterCall() {
            let container = Resolver()
            let line = #line + 1
            let element = container.register(into: [Boiler].self) { Boiler() }
            #expect(element.registration.registeredAt == "ResolverTests/RegistrationSiteTests.swift:\(line)")
            let namedLine = #line + 1
            let named = container.register(into: [Boiler].self, name: "spare") { _ in Boiler() }
            #expect(named.registration.registeredAt == "ResolverTests/RegistrationSiteTests.swift:\(namedLine)")
        }

        @Test func anImplementsRegistrationGivesThePlaceOfTheOneItResolvesThrough() {
            let container = Resolver()
            let line = #line + 1
            container.register { GasHeating() }.implements(Heating.self)
            let result = container.verify()
            #expect(result.isValid, "\(result)")
            #expect(result.replacements.isEmpty)
            let line2 = #line + 1
            container.register { HeatPump() }.implements(Heating.self)
            let replacements = container.verify().replacements
            #expect(replacements.map(\.service) == ["Heating"], "\(replacements)")
            #expect(replacements.first?.registeredAt == "ResolverTests/RegistrationSiteTests.swift:\(line2)")
            #expect(replacements.first?.replacedRegistrationAt == "ResolverTests/RegistrationSiteTests.swift:\(line)")
        }

        @Test func aRegistrationMadeByHandHasNoPlace() {
            let registration = ResolverRegistration<Boiler>(resolver: Resolver(), key: 7, name: nil) { _, _ in Boiler() }
            #expect(registration.registeredAt == nil)
        }

        /// `verify()` lists the registrations that replaced another for the
        /// same type and name, with both places, and does not count them as
        /// failures; its description shows them.
        @Test func verifyListsTheRegistrationsThatReplacedAnotherWithBothPlaces() {
            let container = Resolver()
            let first = #line + 1
            container.register { Boiler() }
            container.register(name: "spare") { Boiler() }
            let second = #line + 1
            container.register { Boiler() }
            let third = #line + 1
            container.register { Boiler() }

            let result = container.verify()

            #expect(result.isValid, "\(result)")
            #expect(result.replacements.count == 1, "\(result)")
            let replacement = result.replacements.first
            #expect(replacement?.service == "Boiler")
            #expect(replacement?.registeredAt == "ResolverTests/RegistrationSiteTests.swift:\(third)")
            #expect(replacement?.replacedRegistrationAt == "ResolverTests/RegistrationSiteTests.swift:\(second)")
            #expect(result.description.contains("""
                Replaced (not failures; the later registration is the one in use):
                    'Boiler' registered at ResolverTests/RegistrationSiteTests.swift:\(third) \
                replaced the one registered at ResolverTests/RegistrationSiteTests.swift:\(second).
                """), "\(result)")
            #expect(first < second)
        }

        /// A child's replacements show in its parent's verification (it
        /// looks there), each container's once.
        @Test func verifyReportsTheReplacementsOfTheContainersItLooksIn() {
            let child = Resolver()
            child.register { GasHeating() as Heating }
            let line = #line + 1
            child.register { HeatPump() as Heating }
            let parent = Resolver(child: child)
            let replacements = parent.verify().replacements
            #expect(replacements.count == 1, "\(replacements)")
            #expect(replacements.first?.registeredAt == "ResolverTests/RegistrationSiteTests.swift:\(line)")
        }

        /// Each `register(into:)` adds an element, a registration of its
        /// own: none replaces another, however many a list has.
        @Test func theElementsOfAListAreNotReplacements() {
            let container = Resolver()
            container.register(into: [any Heating].self) { GasHeating() }
            container.register(into: [any Heating].self) { HeatPump() }
            container.register(into: [any Heating].self, name: "spare") { HeatPump() }
            container.register(into: [any Heating].self) { _ in GasHeating() }
            let result = container.verify()
            #expect(result.replacements.isEmpty, "\(result)")
            #expect(!result.description.contains("Replaced"), "\(result)")
        }

        /// A plain registration of the list, replaced by elements added
        /// after it, is a replacement (its list is gone).
        @Test func elementsThatReplaceAPlainListAreAReplacement() {
            let container = Resolver()
            let line = #line + 1
            container.register { [GasHeating()] as [any Heating] }
            container.register(into: [any Heating].self) { HeatPump() }
            container.register(into: [any Heating].self) { GasHeating() }
            let replacements = container.verify().replacements
            #expect(replacements.map(\.service) == ["Array<Heating>"], "\(replacements)")
            #expect(replacements.first?.replacedRegistrationAt == "ResolverTests/RegistrationSiteTests.swift:\(line)")
        }

        @Test func aMissingDependencyNamesWhereEachRegistrationInTheChainWasMade() {
            let container = Resolver()
            let thermostatLine = #line + 1
            container.register { r in Thermostat(radiator: r.resolve()) }
            let radiatorLine = #line + 1
            container.register { r in Radiator(boiler: r.resolve()) }
            let failure = container.verify().failures.first { $0.service == "Thermostat" }
            #expect(failure?.kind == .missing)
            #expect(failure?.message.contains("""
                Registered at: Thermostat (ResolverTests/RegistrationSiteTests.swift:\(thermostatLine)), \
                Radiator (ResolverTests/RegistrationSiteTests.swift:\(radiatorLine)).
                """) == true, "\(failure?.message ?? "no failure")")
        }

        /// The probe's stops: a missing dependency, a cycle, arguments of
        /// the wrong types, each with the places of the registrations.
        @Test(arguments: [
            ("missing-dependency", ["Registered at: Top (ResolverFailureProbe/main.swift:", "Middle (ResolverFailureProbe/main.swift:"]),
            ("cycle", ["Registered at: A (ResolverFailureProbe/main.swift:", "B (ResolverFailureProbe/main.swift:",
                       "C (ResolverFailureProbe/main.swift:"]),
            ("typed-wrong-types", ["'TypedService' was registered at ResolverFailureProbe/main.swift:"]),
            ("wrong-argument-type", ["Registered at: Int (ResolverFailureProbe/main.swift:"]),
            ("async-cycle", ["Registered at: AsyncA (ResolverFailureProbe/main.swift:"]),
            ("list-cycle", ["Plugin:[Plugin] #2 (ResolverFailureProbe/main.swift:"]),
        ])
        func stopsNameWhereTheRegistrationsWereMade(scenario: String, expected: [String]) throws {
            let run = try runProgram("ResolverFailureProbe", [scenario])
            #expect(run.signaled, "\(scenario): \(run.output)")
            for line in expected {
                #expect(run.output.contains(line), "\(scenario): missing '\(line)' in: \(run.output)")
            }
        }
    }
}
