// Where each registration was made (DESIGN.md, "Contexts, strict tests and where registrations were
// made"): shown in the messages that name a registration, `verify()`'s replacements and strict tests.

/// Where a `register` call is: its `#fileID` and `#line`.
@frozen
@usableFromInline
struct RegistrationSite: Sendable, CustomStringConvertible {
    @usableFromInline let fileID: StaticString
    @usableFromInline let line: UInt

    @inlinable
    init(_ fileID: StaticString, _ line: UInt) {
        self.fileID = fileID
        self.line = line
    }

    /// `Module/File.swift:LINE`.
    @usableFromInline
    var description: String {
        "\(fileID):\(line)"
    }
}

extension ResolverRegistration {
    /// Where the `register` call that made it is, as `Module/File.swift:LINE` (its `#fileID` and `#line`);
    /// nil for a registration made by hand (`init(resolver:key:name:factory:)`). An `implements`
    /// registration gives the place of the registration it resolves through.
    public var registeredAt: String? {
        site?.description
    }
}

/// The places of the registrations in a chain a message names, as the message's last line: "Registered at:
/// A (Module/A.swift:3), B (Module/B.swift:9)." Empty when no place is known.
func registeredAtLine(_ registrations: [RegistrationDescribing]) -> String {
    var seen = Set<ObjectIdentifier>()
    let located = registrations.compactMap { registration in
        registration.site.flatMap { seen.insert(ObjectIdentifier(registration)).inserted ? "\(registration.keyDescription) (\($0))" : nil }
    }
    return located.isEmpty ? "" : "\nRegistered at: " + located.joined(separator: ", ") + "."
}

/// The places of the registrations this thread is resolving, as a message's last line (or empty).
var chainPlaces: String {
    registeredAtLine(ResolutionContext.currentState.chainRegistrations)
}

/// The chain this thread is resolving, as a message's sentence ("Needed while resolving A → B."), on a line of
/// its own; empty outside a resolve. The one writer of it.
var chainSentence: String {
    let chain = ResolutionContext.currentState.chainDescription
    return chain.isEmpty ? "" : "\nNeeded while resolving \(chain.joined(separator: " → "))."
}

extension Resolver.Verification {
    /// A registration that replaced an earlier one for the same type and name in the same container: not a
    /// failure (a mock replaces the live service on purpose), but worth seeing when two modules register
    /// one service and the later one wins.
    public struct Replacement: Sendable, Equatable, CustomStringConvertible {
        /// "Type" or "Type:name".
        public let service: String
        /// Where the registration in use was made (`Module/File.swift:LINE`), or "an unknown place" for one
        /// made by hand.
        public let registeredAt: String
        /// Where the registration it replaced was made.
        public let replacedRegistrationAt: String

        /// "'Service' registered at A replaced the one registered at B."
        public var description: String {
            "'\(service)' registered at \(registeredAt) replaced the one registered at \(replacedRegistrationAt)."
        }
    }
}

extension Resolver {
    /// Records, for `verify()`, that `registration` replaced `replaced` in this container: the latest
    /// replacement per key, in the order keys were first replaced. The mutex must be held.
    func recordReplacementLocked(of replaced: RegistrationDescribing, by registration: RegistrationDescribing,
                                 typeID: UInt64, name: Resolver.Name?) {
        registry.assertLocked()
        // Described when `verify()` asks, not here under the mutex.
        let replacement = RecordedReplacement(service: registration.serviceType, name: name,
                                              registeredAt: registration.site, replacedAt: replaced.site)
        let key = ReplacementKey(typeID: typeID, name: name)
        if let index = replacementIndex[key] {
            replacements[index] = replacement
        } else {
            replacementIndex[key] = replacements.count
            replacements.append(replacement)
        }
    }

    /// The replacements recorded here and in the children (each container once). The mutex must be held.
    func replacementsLocked() -> [RecordedReplacement] {
        registry.assertLocked()
        var seen = Set<ObjectIdentifier>()
        var found: [RecordedReplacement] = []
        func collect(_ container: Resolver) {
            guard seen.insert(ObjectIdentifier(container)).inserted else { return }
            found += container.replacements
            container.children.forEach(collect)
        }
        collect(self)
        return found
    }
}

/// A replacement as `putLocked` records it (under the registry mutex): what `verify()` describes
/// (`Verification.Replacement`) when it asks.
struct RecordedReplacement {
    let service: Any.Type
    let name: Resolver.Name?
    let registeredAt: RegistrationSite?
    let replacedAt: RegistrationSite?

    var described: Resolver.Verification.Replacement {
        Resolver.Verification.Replacement(service: describe(service, name),
                                          registeredAt: registeredAt?.description ?? "an unknown place",
                                          replacedRegistrationAt: replacedAt?.description ?? "an unknown place")
    }
}

/// The key of a replacement record: type identity and name.
struct ReplacementKey: Hashable {
    let typeID: UInt64
    let name: Resolver.Name?
}
