extension Resolver {
    /// The name of a registration, for services registered more than once
    /// under different names.
    ///
    /// Names are written as literals (`name: "fred"`) or declared as
    /// constants:
    ///
    /// ```swift
    /// extension Resolver.Name {
    ///     static let fred = Self("Fred")
    /// }
    /// ```
    ///
    /// Two names are the same when their raw values are equal as Swift strings, which compares by
    /// canonical equivalence: a precomposed "é" and "e" followed by a combining acute accent name
    /// the same registration. A name computes its registry key once, when it is made; a string
    /// literal is kept as a `StaticString`, so `name: "fred"` allocates nothing and costs one
    /// short hash.
    public struct Name: ExpressibleByStringLiteral, Hashable, @unchecked Sendable {
        /// A string literal is a `StaticString`: its bytes need no copy.
        public typealias StringLiteralType = StaticString

        // Immutable, so sendable: the bytes are a literal's or `owner`'s.

        /// The bytes the registry compares, and their hash (DESIGN.md, "Names").
        @usableFromInline let key: KeyBytes
        /// The key's bytes and the name as given, for names that are not ASCII literals.
        @usableFromInline let owner: NameStorage?

        @usableFromInline
        init(key: KeyBytes, owner: NameStorage?) {
            self.key = key
            self.owner = owner
        }

        /// The name as given.
        public var rawValue: String {
            owner?.spelling ?? key.text
        }

        /// Makes a name from a string.
        public init(_ rawValue: String) {
            let owner = NameStorage(rawValue)
            self.init(key: owner.key.bytes, owner: owner)
        }

        /// Makes a name from a string literal: `name: "fred"`. An ASCII literal is its own key:
        /// nothing is copied, and its hash is computed once per thread, however often the call runs.
        @inlinable
        public init(stringLiteral value: StaticString) {
            if let key = KeyBytes.literal(value) {
                self.init(key: key, owner: nil)
            } else {
                self.init(value.description)
            }
        }

        /// Makes a name from a string, as `init(_:)`.
        public init(stringLiteral value: String) {
            self.init(value)
        }

        /// A name for `string`, or nil when `string` is nil.
        public static func name(fromString string: String?) -> Name? {
            string.map { Name($0) }
        }

        /// Names are equal when their raw values are equal as Swift strings.
        @inlinable
        public static func == (lhs: Name, rhs: Name) -> Bool {
            lhs.key.matches(rhs.key)
        }

        /// Hashes the name consistently with `==`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(key.hash)
        }

        static func isASCII(_ string: String) -> Bool {
            string.utf8.allSatisfy { $0 < 0x80 }
        }
    }
}

/// The key bytes of a name that is not an ASCII literal, and the name as given.
@usableFromInline
final class NameStorage: @unchecked Sendable {
    let spelling: String
    let key: OwnedKeyBytes

    init(_ spelling: String) {
        self.spelling = spelling
        key = OwnedKeyBytes(Resolver.Name.isASCII(spelling) ? spelling : NameInterner.shared.representative(of: spelling))
    }

    /// A compile-time-checked key's name (`Engine/Keys/KeyNames.swift`).
    init(spelling: String, key: OwnedKeyBytes) {
        self.spelling = spelling
        self.key = key
    }
}

/// Maps every name that is not ASCII to one representative spelling of its canonical-equivalence
/// class (the first seen), so that names Swift's `==` finds equal have the same bytes (DESIGN.md,
/// "Names"). The only non-ASCII characters whose canonical form is ASCII are the Kelvin sign,
/// the Greek question mark and the Greek varia.
final class NameInterner: @unchecked Sendable {
    static let shared = NameInterner()

    private let mutex = Mutex.make()
    /// Guarded by `mutex`.
    private var representatives: [String: String] = [:]

    private init() {}

    func representative(of string: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x212A: scalars.append("K")
            case 0x037E: scalars.append(";")
            case 0x1FEF: scalars.append("`")
            default: scalars.append(scalar)
            }
        }
        let ascii = String(scalars)
        if Resolver.Name.isASCII(ascii) && ascii == string {
            return ascii
        }
        return mutex.withLock {
            if let representative = representatives[string] {
                return representative
            }
            representatives[string] = string
            return string
        }
    }
}
