extension Resolver {
    /// The arguments of a resolve call, as a factory sees them.
    ///
    /// Built from the `args:` of `resolve`/`optional`: an `Args` is taken as
    /// is, a `[String: Any?]` (or `[String: Any]`, or any dictionary with
    /// `String` keys) becomes keyed arguments, and any other value is the one
    /// positional argument. As in the original, the positional argument is
    /// also the keyed argument `""`: `args("")` and `optional("")` read it.
    ///
    /// ```swift
    /// register { _, args in XYZService(args()) }          // resolve(args: true)
    /// register { _, args in User(args("name"), args("id")) } // resolve(args: ["name": "x", "id": 7])
    /// ```
    ///
    /// `args()`/`get()` and `args("key")`/`get("key")` stop the program with a
    /// message naming the key, the expected type and what was passed when the
    /// argument is missing or of another type; `optional()` and
    /// `optional("key")` return nil instead.
    public struct Args {
        /// What `args:` was: a single value (possibly nil), or keyed arguments.
        @usableFromInline
        enum Storage {
            case positional(Any?)
            case keyed([String: Any?])
        }

        /// The `args:` value as passed (an `Args` unwrapped), or `()`: opened where it lies, and
        /// classified (`storage`) only when a read needs it, which `args()` of the exact type does not.
        @usableFromInline private(set) var value: Any
        /// Whether `args:` was a value (not nil).
        @usableFromInline private(set) var hasValue: Bool

        /// The `args:` value as passed (an `Args` unwrapped).
        @usableFromInline
        var raw: Any? {
            hasValue ? value : nil
        }

        /// Arguments as a resolve call's `args:` makes them; apps and tests build `Args` to call a
        /// factory or a scope directly.
        public init(_ args: Any?) {
            guard let args else {
                self.init(none: ())
                return
            }
            self.init(unwrapped: args)
        }

        init(none: ()) {
            value = ()
            hasValue = false
        }

        /// A value that was passed, an `Args` taken as is: tested by its opened type, as a cast or
        /// `type(of:)` costs more than the rest of the call.
        init(unwrapped args: consuming Any) {
            func isArgs<V>(_ value: V) -> Bool {
                V.self == Args.self
            }
            value = args
            hasValue = true
            if isArgs(value), let nested = value as? Args {
                self = nested
            }
        }

        /// A resolve call's arguments, for a factory that takes `Args`: `args:` copied once from the
        /// caller's frame, typed arguments boxed.
        init(_ arguments: ArgumentsPointer) {
            if let payload = arguments.untypedPayload {
                self.init(unwrapped: payload.load(as: Any.self))
            } else {
                self.init(arguments.value)
            }
        }

        /// What `raw` is: keyed when it is a dictionary with `String` keys. An `Args` or a dictionary
        /// inside an `Optional` counts as the value it wraps, as the original's casts had it.
        @usableFromInline
        var storage: Storage {
            guard let raw else {
                return .positional(nil)
            }
            func open<V>(_ value: V) -> Storage {
                if let keyed = exactly(value, as: [String: Any?].self) {
                    return .keyed(keyed)
                }
                if let keyed = exactly(value, as: [String: Any].self) {
                    return .keyed(keyed.mapValues { $0 })
                }
                if value is any StringKeyedDictionary, let keyed = value as? [String: Any?] {
                    return .keyed(keyed)
                }
                if value is any OptionalArgument, let nested = value as? Args {
                    return nested.storage
                }
                return .positional(value)
            }
            return open(raw)
        }

        /// The single argument (or the only keyed one) as a `T`, as
        /// ``get()``: stops the program if it is missing or not a `T`.
        @inlinable
        public func callAsFunction<T>() -> T {
            get()
        }

        /// The keyed argument `key` as a `T`, as ``get(_:)``: stops the
        /// program if it is missing or not a `T`.
        @inlinable
        public func callAsFunction<T>(_ key: String) -> T {
            get(key)
        }

        /// The single argument (or the only keyed one) as a `T`; stops the
        /// program if it is missing or not a `T`.
        @inlinable
        public func get<T>() -> T {
            if hasValue, let result: T = Args.exact(value) {
                return result
            }
            return getSlow()
        }

        /// The keyed argument `key` as a `T`; stops the program if it is
        /// missing or not a `T`.
        @inlinable
        public func get<T>(_ key: String) -> T {
            if case .keyed(let arguments) = storage, let found = arguments[key], let value = found,
               let result: T = Args.exact(value) {
                return result
            }
            return getSlow(key)
        }

        /// The single argument if it is a `T`, else nil. With keyed arguments,
        /// one of them, as in the original: which one is not defined when
        /// there are several, so read those by key.
        public func optional<T>() -> T? {
            switch storage {
            case .positional(let value):
                return Args.convert(value)
            case .keyed(let arguments):
                return arguments.first.flatMap { Args.convert($0.value) }
            }
        }

        /// The keyed argument `key` if present and a `T`, else nil. The
        /// single argument is also the keyed argument `""`, as in the
        /// original: `Args(6).optional("")` is 6.
        public func optional<T>(_ key: String) -> T? {
            switch storage {
            case .positional(let value):
                return key.isEmpty ? Args.convert(value) : nil
            case .keyed(let arguments):
                guard let found = arguments[key] else {
                    return nil
                }
                return Args.convert(found)
            }
        }

        /// `value` when its dynamic type is exactly `T`, without a cast.
        @inlinable
        static func exact<T>(_ value: Any) -> T? {
            func open<V>(_ value: V) -> T? {
                exactly(value, as: T.self)
            }
            return open(value)
        }

        /// `value` as a `T` with the usual cast rules (subclasses, protocols,
        /// optionals), trying the exact type first.
        static func convert<T>(_ value: Any?) -> T? {
            guard let value else {
                return nil as Any? as? T
            }
            if let result: T = exact(value) {
                return result
            }
            return value as? T
        }

        @usableFromInline
        func getSlow<T>() -> T {
            switch storage {
            case .positional(let value):
                if let result: T = Args.convert(value) {
                    return result
                }
                let passed = Args.describe(value: value)
                fail("RESOLVER: argument of type \(T.self) expected, but \(passed) was passed." + chainPlaces)
            case .keyed(let arguments):
                guard arguments.count == 1, let only = arguments.first else {
                    fail("RESOLVER: a single argument of type \(T.self) expected, but keyed arguments were passed: \(Args.describe(arguments)). Use args(\"key\")." + chainPlaces)
                }
                if let result: T = Args.convert(only.value) {
                    return result
                }
                fail("RESOLVER: argument of type \(T.self) expected, but '\(only.key)' is \(Args.describe(value: only.value))." + chainPlaces)
            }
        }

        @usableFromInline
        func getSlow<T>(_ key: String) -> T {
            guard case .keyed(let arguments) = storage else {
                if case .positional(let value?) = storage {
                    // The original kept a single argument under the key "".
                    if key.isEmpty {
                        if let result: T = Args.convert(value) {
                            return result
                        }
                        fail("RESOLVER: argument '' (the single argument) of type \(T.self) expected, but \(Args.describe(value: value)) was passed." + chainPlaces)
                    }
                    fail("RESOLVER: argument '\(key)' of type \(T.self) expected, but a single argument (\(describeType(of: value))) was passed, not keyed arguments." + chainPlaces)
                }
                fail("RESOLVER: argument '\(key)' of type \(T.self) expected, but no arguments were passed." + chainPlaces)
            }
            guard let found = arguments[key] else {
                fail("RESOLVER: argument '\(key)' of type \(T.self) expected, but it was not passed. Passed: \(Args.describe(arguments))." + chainPlaces)
            }
            if let result: T = Args.convert(found) {
                return result
            }
            fail("RESOLVER: argument '\(key)' of type \(T.self) expected, but \(Args.describe(value: found)) was passed." + chainPlaces)
        }

        /// "a String", "an Int", or "nil".
        static func describe(value: Any?) -> String {
            guard let value else { return "nil" }
            let type = describeType(of: value)
            let article = type.first.map { "AEIOU".contains($0) } == true ? "an" : "a"
            return "\(article) \(type)"
        }

        static func describe(_ arguments: [String: Any?]) -> String {
            if arguments.isEmpty { return "none" }
            return arguments.keys.sorted().map { "'\($0)': \(describe(value: arguments[$0] ?? nil))" }.joined(separator: ", ")
        }
    }
}

/// Dictionaries with `String` keys, whatever their values: keyed arguments.
protocol StringKeyedDictionary {}

extension Dictionary: StringKeyedDictionary where Key == String {}

/// `Optional`, whatever it wraps: the only values other than an `Args` that may cast to one.
protocol OptionalArgument {}

extension Optional: OptionalArgument {}

/// The dynamic type of `value` for messages.
func describeType(of value: Any) -> String {
    String(describing: type(of: value))
}
