import CRegistry

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
    /// Two names are the same when their raw values are equal as Swift
    /// strings, which compares by canonical equivalence: a precomposed "é" and
    /// "e" followed by a combining acute accent name the same registration.
    ///
    /// A name computes its registry key once, when it is made: the bytes the
    /// registry compares and their hash. A string literal is kept as a
    /// `StaticString`, so `name: "fred"` allocates nothing and costs one short
    /// hash; ASCII text is its own key. Other text is mapped to one
    /// representative spelling per canonical-equivalence class (an interning
    /// table compares with Swift's `==`), so the registry can compare bytes.
    public struct Name: ExpressibleByStringLiteral, Hashable, Sendable {
        /// A string literal is a `StaticString`: its bytes need no copy.
        public typealias StringLiteralType = StaticString

        /// Text as a literal or a string.
        @usableFromInline
        enum Text: Sendable {
            case literal(StaticString)
            case string(String)

            var string: String {
                switch self {
                case .literal(let literal): return literal.description
                case .string(let string): return string
                }
            }

            @inlinable
            func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
                switch self {
                case .literal(let literal):
                    return literal.withUTF8Buffer(body)
                case .string(let string):
                    if let result = string.utf8.withContiguousStorageIfAvailable(body) {
                        return result
                    }
                    var copy = string
                    return copy.withUTF8(body)
                }
            }
        }

        /// The name as given.
        @usableFromInline let text: Text
        /// The bytes the registry stores and compares: `text` itself, or the
        /// representative of its canonical-equivalence class.
        @usableFromInline let key: Text
        /// `crg_name_hash` of `key`.
        @usableFromInline let hash: UInt64

        /// The name as given.
        public var rawValue: String {
            text.string
        }

        /// Makes a name from a string.
        public init(_ rawValue: String) {
            text = .string(rawValue)
            key = Name.isASCII(rawValue) ? text : .string(NameInterner.shared.representative(of: rawValue))
            hash = key.withBytes { crg_name_hash($0.baseAddress, $0.count) }
        }

        /// Makes a name from a string literal: `name: "fred"`.
        public init(stringLiteral value: StaticString) {
            text = .literal(value)
            key = value.isASCII ? text : .string(NameInterner.shared.representative(of: value.description))
            hash = key.withBytes { crg_name_hash($0.baseAddress, $0.count) }
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
        public static func == (lhs: Name, rhs: Name) -> Bool {
            lhs.hash == rhs.hash && lhs.key.withBytes { left in
                rhs.key.withBytes { right in left.elementsEqual(right) }
            }
        }

        /// Hashes the name consistently with `==`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        /// Calls `body` with the UTF-8 bytes of the registry key.
        @inlinable
        func withKeyBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            key.withBytes(body)
        }

        static func isASCII(_ string: String) -> Bool {
            string.utf8.allSatisfy { $0 < 0x80 }
        }
    }
}

/// Maps every name that is not ASCII to one representative spelling of its
/// canonical-equivalence class, so that names the Swift `==` finds equal have
/// the same bytes in the registry. Texts canonically equivalent to ASCII text
/// map to that text: the only non-ASCII characters whose canonical form is
/// ASCII are the Kelvin sign (K), the Greek question mark (;) and the Greek
/// varia (`). Others are kept in a dictionary, whose `String` keys compare by
/// canonical equivalence; the first spelling seen is the representative.
final class NameInterner: @unchecked Sendable {
    static let shared = NameInterner()

    private let mutex: OpaquePointer
    /// Guarded by `mutex`.
    private var representatives: [String: String] = [:]

    private init() {
        guard let mutex = crg_mutex_create() else {
            fatalError("RESOLVER: could not create a mutex")
        }
        self.mutex = mutex
    }

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
        crg_mutex_lock(mutex)
        defer { crg_mutex_unlock(mutex) }
        if let representative = representatives[string] {
            return representative
        }
        representatives[string] = string
        return string
    }
}

/// Builds the C key for a service type and optional name and passes it to
/// `body`. The name's bytes are valid only inside `body`; the key's hash is
/// computed by the first table call that needs it and kept in the key.
@inlinable
func withRegistryKey<Result>(_ type: Any.Type, _ name: Resolver.Name?,
                             _ body: (UnsafeMutablePointer<crg_key>) -> Result) -> Result {
    let typeID = UInt64(UInt(bitPattern: ObjectIdentifier(type)))
    guard let name else {
        var key = crg_key_unnamed(typeID)
        return body(&key)
    }
    return name.withKeyBytes { bytes in
        var key = crg_key_named(typeID, bytes.baseAddress, bytes.count, name.hash)
        return body(&key)
    }
}
