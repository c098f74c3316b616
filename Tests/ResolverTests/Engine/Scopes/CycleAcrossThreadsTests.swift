@testable import Resolver
import Testing

// A circle of threads each waiting for another's build is a cycle (S1); a
// thread whose `waitingFor` still names a flight that has ended waits for
// nobody, and closes no circle. (The lifetime threads test met the false
// cycle: thread A waited on B's build of Store, which ended; B, before A
// woke, asked for the Top that A was building.)

extension IndependentTests {
    @Suite struct CycleAcrossThreads {
        /// A build of `Leaf` owned by `owner`, with its flight.
        private func flight(ownedBy owner: ResolutionContext) -> Flight {
            Flight(Build(ticket: BuildTicket(number: 1), typeID: RegistryKey.typeID(of: Leaf.self), name: nil,
                         argumentsKey: nil, registration: UncheckedReference(owner), owner: UncheckedReference(owner),
                         flight: nil))
        }

        @Test func aThreadWaitingOnABuildOfTheAskerIsACycle() {
            let building = ResolutionContext()
            let asker = ResolutionContext()
            let askersBuild = flight(ownedBy: asker)
            let buildingsBuild = flight(ownedBy: building)
            building.waitingFor = askersBuild
            let chain = registry.withLock { buildingsBuild.cycleLocked(closedBy: asker) }
            #expect(chain?.count == 3, "building waits for the asker's build, which waits for building's")
        }

        @Test func aThreadWhoseFlightHasEndedWaitsForNobody() {
            let building = ResolutionContext()
            let asker = ResolutionContext()
            let askersBuild = flight(ownedBy: asker)
            let buildingsBuild = flight(ownedBy: building)
            building.waitingFor = askersBuild
            let chain = registry.withLock { () -> [String]? in
                askersBuild.endLocked(.built(nil)).resume()
                return buildingsBuild.cycleLocked(closedBy: asker)
            }
            #expect(chain == nil, "the flight building waited on has ended: no circle")
        }
    }
}
