import CRegistry
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    public struct Name: ExpressibleByStringLiteral, Hashable, @unchecked Sendable {
        /// A string literal is a `StaticString`: its bytes need no copy.
        public typealias StringLiteralType = StaticString

        // Immutable, so sendable: the bytes are a literal's (static) or owned
        // by `owner`, which nothing changes.

        /// `crg_name_hash` of the key bytes.
        @usableFromInline let hash: UInt64
        /// The bytes the registry stores and compares: an ASCII literal's own
        /// bytes, or `owner`'s.
        @usableFromInline let bytes: UnsafeRawPointer
        @usableFromInline let count: Int
        /// Keeps `bytes` alive and the name as given, for names that are not
        /// ASCII literals; nil for those (so copying a literal name copies
        /// plain data only).
        @usableFromInline let owner: NameStorage?

        @usableFromInline
        init(hash: UInt64, bytes: UnsafeRawPointer, count: Int, owner: NameStorage?) {
            self.hash = hash
            self.bytes = bytes
            self.count = count
            self.owner = owner
        }

        /// The name as given.
        public var rawValue: String {
            owner?.spelling ?? String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
        }

        /// Makes a name from a string.
        public init(_ rawValue: String) {
            let owner = NameStorage(rawValue)
            self.init(hash: owner.hash, bytes: UnsafeRawPointer(owner.bytes), count: owner.count, owner: owner)
        }

        /// Makes a name from a string literal: `name: "fred"`. An ASCII
        /// literal is its own key: nothing is copied or allocated, and its
        /// hash is computed once per thread (remembered by the literal's
        /// address), however often the call that names it runs.
        @inlinable
        public init(stringLiteral value: StaticString) {
            if value.hasPointerRepresentation && value.isASCII {
                let bytes = UnsafeRawPointer(value.utf8Start)
                self.init(hash: crg_name_hash_static(bytes, value.utf8CodeUnitCount), bytes: bytes,
                          count: value.utf8CodeUnitCount, owner: nil)
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
            lhs.hash == rhs.hash && lhs.count == rhs.count
                && (lhs.bytes == rhs.bytes || memcmp(lhs.bytes, rhs.bytes, lhs.count) == 0)
        }

        /// Hashes the name consistently with `==`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        static func isASCII(_ string: String) -> Bool {
            string.utf8.allSatisfy { $0 < 0x80 }
        }
    }
}

/// The key bytes of a name that is not an ASCII literal, and the name as
/// given: ASCII text is its own key; other text is keyed by the
/// representative of its canonical-equivalence class (`NameInterner`).
@usableFromInline
final class NameStorage: @unchecked Sendable {
    let spelling: String
    let bytes: UnsafeMutableRawPointer
    let count: Int
    let hash: UInt64

    init(_ spelling: String) {
        self.spelling = spelling
        let key = Resolver.Name.isASCII(spelling) ? spelling : NameInterner.shared.representative(of: spelling)
        let utf8 = Array(key.utf8)
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: max(utf8.count, 1), alignment: 1)
        utf8.withUnsafeBytes { bytes.copyMemory(from: $0.baseAddress!, byteCount: utf8.count) }
        self.bytes = bytes
        count = utf8.count
        hash = crg_name_hash(bytes, utf8.count)
    }

    deinit {
        bytes.deallocate()
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
        mutex = makeMutex()
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
/// `body`. The key's hash is computed by the first table call that needs it
/// and kept in the key.
@inlinable
func withRegistryKey<Result>(_ type: Any.Type, _ name: Resolver.Name?,
                             _ body: (UnsafeMutablePointer<crg_key>) -> Result) -> Result {
    let typeID = UInt64(UInt(bitPattern: ObjectIdentifier(type)))
    // Built in Swift rather than with crg_key_unnamed/crg_key_named: C
    // functions returning a struct are called, not inlined.
    guard let name else {
        var key = crg_key(type: typeID, name: nil, name_len: 0, name_hash: 0, hash: 0, has_name: false)
        return body(&key)
    }
    var key = crg_key(type: typeID, name: name.bytes, name_len: name.count, name_hash: name.hash, hash: 0, has_name: true)
    // The bytes belong to the name (or are static): keep it to the end.
    return withExtendedLifetime(name) { body(&key) }
}
