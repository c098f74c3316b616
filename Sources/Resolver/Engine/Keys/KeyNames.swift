// A key's identity in the registry (DESIGN.md, K1): its service type under
// the name of the property that declares it and a NUL byte. `#function` is a
// NUL-terminated literal, so a key costs what a literal name costs (no copy,
// the hash remembered per thread by the literal's address), and the NUL keeps
// keys apart from the names apps write.

/// Where a key is declared (`#fileID`, `#line`) and its name (`#function`:
/// the declaring property's).
@frozen
@usableFromInline
struct KeySite: Sendable {
    @usableFromInline let fileID: StaticString
    @usableFromInline let line: UInt
    @usableFromInline let name: StaticString

    @inlinable
    init(_ fileID: StaticString, _ line: UInt, _ name: StaticString) {
        self.fileID = fileID
        self.line = line
        self.name = name
    }

    /// The key as a key path reads: `\.store`.
    var keyPath: String {
        "\\." + name.description
    }

    /// `Module/File.swift:LINE`: where it is declared, as the resolve path
    /// carries it to a lookup in the keys' table.
    @inlinable
    @inline(__always)
    var place: RegistrationSite {
        RegistrationSite(fileID, line)
    }
}

extension RegistrationSite {
    /// The site a resolve that is not a key's carries down the resolve path
    /// (`isKeyDeclaration` false: no `#line` is 0). A site is the literal and
    /// the line, four words in registers; the literal's bytes are read only
    /// where the keys' table is searched, so a resolve the thread's cache
    /// answers pays nothing for them (B3).
    @inlinable
    static var notAKey: RegistrationSite {
        RegistrationSite("", 0)
    }

    /// Whether it is a key's declaration, not `notAKey`.
    @inlinable
    var isKeyDeclaration: Bool {
        line != 0
    }

    /// Whether `other` is this key declaration (the same file and line; a
    /// getter the compiler copied into another module has literals of its own).
    func isSameDeclaration(as other: RegistrationSite?) -> Bool {
        guard let other, line == other.line else { return false }
        if fileID.hasPointerRepresentation, other.fileID.hasPointerRepresentation,
           fileID.utf8Start == other.fileID.utf8Start {
            return true
        }
        return fileID.description == other.fileID.description
    }
}

/// A key's name in the registry.
@usableFromInline
enum KeyName {
    /// Calls `body` with the registry bytes of the key named `name`: the
    /// literal's own bytes and its NUL, hashed once per thread.
    @inlinable
    @inline(__always)
    static func withBytes<Result>(_ name: StaticString, _ body: (KeyBytes) -> Result) -> Result {
        guard name.hasPointerRepresentation else {
            return withCopiedBytes(name, body)
        }
        let start = UnsafeRawPointer(name.utf8Start)
        let count = name.utf8CodeUnitCount &+ 1  // a literal's length and its NUL: no overflow
        return body(KeyBytes(literalAt: start, count: count))
    }

    /// `withBytes` for a name of one Unicode scalar, not a literal's bytes (a
    /// `#function` never is).
    @usableFromInline
    @inline(never)
    static func withCopiedBytes<Result>(_ name: StaticString, _ body: (KeyBytes) -> Result) -> Result {
        let owned = OwnedKeyBytes(name.description + "\0")
        return withExtendedLifetime(owned) { body(owned.bytes) }
    }

    /// The name of a key's registrations, shown as `\.name`.
    @usableFromInline
    static func registrationName(_ site: KeySite) -> Resolver.Name {
        registeredName(site.name.description + "\0")
    }

    /// The name a table entry's text stands for: a key's (ending with a NUL)
    /// shown as `\.name`, any other as written.
    static func registeredName(_ registered: String) -> Resolver.Name {
        guard registered.utf8.last == 0 else {
            return Resolver.Name(registered)
        }
        let bytes = OwnedKeyBytes(registered)
        return Resolver.Name(key: bytes.bytes, owner: NameStorage(spelling: "\\." + registered.dropLast(), key: bytes))
    }

    /// Whether `name` is a key's: its bytes end with a NUL, which the names
    /// apps write do not.
    static func isKey(_ name: Resolver.Name?) -> Bool {
        guard let name, name.key.count > 0 else { return false }
        return name.key.start.load(fromByteOffset: name.key.count - 1, as: UInt8.self) == 0
    }
}
