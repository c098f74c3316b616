import CRegistry
#if canImport(Darwin)
import Foundation // NFC on Apple systems older than the stdlib's own normalizer
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
    /// To make that hold in the byte-comparing registry, a name is converted to
    /// Unicode Normalization Form C, and its key hashed, once, when the name is
    /// made (ASCII names need no conversion); a lookup then hashes no text.
    public struct Name: ExpressibleByStringLiteral, Hashable, Sendable {
        /// The name as given.
        public let rawValue: String
        /// `rawValue` in NFC: the bytes the registry stores and compares.
        @usableFromInline let key: String
        /// `crg_name_hash` of `key`.
        @usableFromInline let hash: UInt64

        /// Makes a name from a string.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
            self.key = Name.normalized(rawValue)
            var key = self.key
            self.hash = key.withUTF8 { crg_name_hash($0.baseAddress, $0.count) }
        }

        /// Makes a name from a string literal: `name: "fred"`.
        public init(stringLiteral: String) {
            self.init(stringLiteral as String)
        }

        /// A name for `string`, or nil when `string` is nil.
        public static func name(fromString string: String?) -> Name? {
            string.map { Name($0) }
        }

        /// Names are equal when their raw values are equal as Swift strings.
        public static func == (lhs: Name, rhs: Name) -> Bool {
            lhs.hash == rhs.hash && lhs.key == rhs.key
        }

        /// Hashes the raw value, consistently with `==`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(rawValue)
        }

        /// Calls `body` with the UTF-8 bytes of the registry key.
        @inlinable
        func withKeyBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            if let result = key.utf8.withContiguousStorageIfAvailable(body) {
                return result
            }
            var copy = key
            return copy.withUTF8(body)
        }

        /// The canonical (NFC) spelling of `string`; ASCII is returned as is.
        static func normalized(_ string: String) -> String {
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                return string
            }
            #if canImport(Darwin)
            if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
                return String(decoding: string._nfcCodeUnits, as: UTF8.self)
            }
            return string.precomposedStringWithCanonicalMapping
            #else
            return String(decoding: string._nfcCodeUnits, as: UTF8.self)
            #endif
        }
    }
}

/// Builds the C key for a service type and optional name and passes it to
/// `body`. The name's bytes are valid only inside `body`.
@inlinable
func withRegistryKey<R>(_ type: Any.Type, _ name: Resolver.Name?, _ body: (UnsafePointer<crg_key>) -> R) -> R {
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
