// The registrations of keys (DESIGN.md, "Compile-time-checked keys"): the
// one a key's declaration makes at its first use (its default factory, or a
// promise), and the overrides `register(\.key) { … }` makes. Each is an
// ordinary `ResolverRegistration` of the key's service type under the key's
// name, so scopes, flights, memos, the thread's cache, contexts, strict
// tests and `verify()` treat it as they treat any registration.
//
// The factory thunks are made in `@inlinable` code, specialized where the
// app resolves the key, so that building an instance runs no generic code:
// a key without arguments gets an ordinary `.plain`/`.resolver` factory, a
// key with arguments a typed one (`KeyTypedFactory`) that reads the values
// from the call's frame.

/// Makes the registrations of keys.
@usableFromInline
enum KeyRegistration {
    /// The registration a key's declaration makes: its default factory (a
    /// promised key's finds nothing), scope, contexts and strict-test mark,
    /// placed where the key is declared.
    @inlinable
    static func makeDefault<Service, each Argument>(_ key: ResolverKey<Service, repeat each Argument>)
        -> ResolverRegistration<Service> {
        let registration = ResolverRegistration<Service>(
            name: KeyName.registrationName(key.site), scope: key.scope?() ?? Resolver.defaultScope,
            factory: factory(of: key), arguments: argumentList(of: key), site: key.site.place)
        finish(registration, key)
        return registration
    }

    /// The argument list of a key's registrations: nil without arguments.
    @inlinable
    static func argumentList<Service, each Argument>(of key: ResolverKey<Service, repeat each Argument>) -> ArgumentList? {
        keyArgumentCount(repeat (each Argument).self) == 0 ? nil : ArgumentList(keyArguments: repeat (each Argument).self)
    }

    /// The registration's factory for the one factory `key` holds (or a
    /// promise's, which finds nothing).
    @inlinable
    static func factory<Service, each Argument>(of key: ResolverKey<Service, repeat each Argument>)
        -> ResolverRegistration<Service>.Factory {
        let typed = keyArgumentCount(repeat (each Argument).self) != 0
        if let plain = key.plain {
            if typed {
                return .typed(ResolverRegistration<Service>.KeyTypedFactory<repeat each Argument>(
                    call: { _, header in plain(repeat each KeyArgumentsOf<repeat each Argument>.values(header.pointee)) },
                    boxed: { _, args in plain(repeat each KeyArgumentsBox<repeat each Argument>.values(of: args)) }))
            }
            let none = noArguments(repeat (each Argument).self)
            return .plain({ plain(repeat each none) })
        }
        if let withResolver = key.withResolver {
            if typed {
                return .typed(ResolverRegistration<Service>.KeyTypedFactory<repeat each Argument>(
                    call: { resolver, header in
                        withResolver(resolver, repeat each KeyArgumentsOf<repeat each Argument>.values(header.pointee))
                    },
                    boxed: { resolver, args in
                        withResolver(resolver, repeat each KeyArgumentsBox<repeat each Argument>.values(of: args))
                    }))
            }
            let none = noArguments(repeat (each Argument).self)
            return .resolver({ resolver in withResolver(resolver, repeat each none) })
        }
        if let mainActorPlain = key.mainActorPlain {
            return .mainActor({ _, args in
                mainActorPlain(repeat each values(of: args, as: (repeat each Argument).self))
            }, takesArguments: typed)
        }
        if let mainActorWithResolver = key.mainActorWithResolver {
            return .mainActor({ resolver, args in
                mainActorWithResolver(resolver, repeat each values(of: args, as: (repeat each Argument).self))
            }, takesArguments: typed)
        }
        if let asyncPlain = key.asyncPlain {
            return .async({ _, args in
                await asyncPlain(repeat each values(of: args, as: (repeat each Argument).self))
            }, takesArguments: typed)
        }
        if let asyncWithResolver = key.asyncWithResolver {
            return .async({ resolver, args in
                await asyncWithResolver(resolver, repeat each values(of: args, as: (repeat each Argument).self))
            }, takesArguments: typed)
        }
        // A promise: registered, so that it is found, with a factory that
        // finds nothing (`optional` returns nil, `resolve` says what is
        // missing, `verify()` lists it).
        if typed {
            return .typed(ResolverRegistration<Service>.KeyTypedFactory<repeat each Argument>(
                call: { _, _ in nil }, boxed: { _, _ in nil }))
        }
        return .resolver({ _ in nil })
    }

    /// The values of an empty pack.
    @inlinable
    static func noArguments<each Argument>(_ types: repeat (each Argument).Type) -> (repeat each Argument) {
        // Only called for an empty pack, whose tuple is `()` (a cast the
        // optimizer folds once the pack is known).
        (() as Any) as! (repeat each Argument)
    }

    /// The values a factory of the `(Resolver, Any?)` form is given: none
    /// for an empty pack, else the key call's, boxed.
    @inlinable
    static func values<each Argument>(of args: Any?, as types: (repeat each Argument).Type) -> (repeat each Argument) {
        if keyArgumentCount(repeat (each Argument).self) == 0 {
            return noArguments(repeat (each Argument).self)
        }
        return KeyArgumentsBox<repeat each Argument>.values(of: args)
    }

    /// Adds the key's contexts and strict-test mark to its registration,
    /// and checks that a caching scope can keep its instances.
    @usableFromInline
    static func finish<Service, each Argument>(_ registration: ResolverRegistration<Service>,
                                               _ key: ResolverKey<Service, repeat each Argument>) {
        for context in key.contexts {
            if let plain = context.plain {
                registration.addContext(context.context) { _, args in
                    plain(repeat each values(of: args, as: (repeat each Argument).self))
                }
            } else if let withResolver = context.withResolver {
                registration.addContext(context.context) { resolver, args in
                    withResolver(resolver, repeat each values(of: args, as: (repeat each Argument).self))
                }
            }
        }
        if key.isAllowedInStrictTests {
            registry.write { registration.isAllowedInStrictTests = true }
        }
        registration.checkArgumentsCanBeCachedInItsScope()
    }
}

extension ResolverRegistration {
    /// The plain factory of a key with arguments: `call` reads the values
    /// from the call's frame (the header's `first` points at their tuple);
    /// `boxed` takes them boxed, for `update(factory:)` and contexts.
    @usableFromInline
    final class KeyTypedFactory<each Argument>: TypedFactory {
        @usableFromInline let call: (Resolver, UnsafePointer<TypedArgumentsHeader>) -> Service?
        @usableFromInline let boxed: ResolverFactoryAnyArguments<Service>

        @inlinable
        init(call: @escaping (Resolver, UnsafePointer<TypedArgumentsHeader>) -> Service?,
             boxed: @escaping ResolverFactoryAnyArguments<Service>) {
            self.call = call
            self.boxed = boxed
            super.init()
        }

        override func makeProducer(name: Resolver.Name?) -> Producer {
            Producer.WithTypedArguments(call, types: (repeat each Argument).self, name)
        }

        override func anyArgumentsForm(name: Resolver.Name?) -> ResolverFactoryAnyArguments<Service> {
            boxed
        }
    }
}

extension ResolverKey {
    /// The key as an override declares it: this key's name, place and
    /// scope, with `factory`'s shape as its only factory, and no contexts.
    @inlinable
    func overriding(plain: ((repeat each Argument) -> Service)? = nil,
                    withResolver: ((Resolver, repeat each Argument) -> Service)? = nil,
                    mainActorPlain: (@MainActor (repeat each Argument) -> Service)? = nil,
                    mainActorWithResolver: (@MainActor (Resolver, repeat each Argument) -> Service)? = nil,
                    asyncPlain: ((repeat each Argument) async -> Service)? = nil,
                    asyncWithResolver: ((Resolver, repeat each Argument) async -> Service)? = nil) -> ResolverKey {
        ResolverKey(site: site, plain: plain, withResolver: withResolver, mainActorPlain: mainActorPlain,
                    mainActorWithResolver: mainActorWithResolver, asyncPlain: asyncPlain,
                    asyncWithResolver: asyncWithResolver, scope: scope, contexts: [], isAllowedInStrictTests: false)
    }
}

extension Resolver {
    /// The funnel of `register(\.key) { … }`: registers `override` (the
    /// key `declared` with the override's factory) in `container` (nil:
    /// `main`), made at `site`, with the key's scope. The key's own
    /// registration is made too, if it has none yet (a promise kept here is
    /// still one `verify()` knows).
    @inlinable
    static func registerKey<Service, each Argument>(_ declared: ResolverKey<Service, repeat each Argument>,
                                                   _ override: ResolverKey<Service, repeat each Argument>,
                                                   in container: Resolver?, _ site: RegistrationSite)
        -> ResolverOptions<Service> {
        KeyDefaults.mention(declared)
        let registration = ResolverRegistration<Service>(
            name: KeyName.registrationName(override.site), scope: override.scope?() ?? Resolver.defaultScope,
            factory: KeyRegistration.factory(of: override), arguments: KeyRegistration.argumentList(of: override),
            site: site)
        return putKeyOverride(registration, in: container)
    }

    /// Stores a key's override in `container` (nil: `main`), as the
    /// `register` funnel stores a registration.
    @usableFromInline
    static func putKeyOverride<Service>(_ registration: ResolverRegistration<Service>,
                                        in container: Resolver?) -> ResolverOptions<Service> {
        let (target, rc) = registry.write { () -> (Resolver, Int32) in
            let target = container ?? registry.main
            return (target, target.putLocked(registration))
        }
        if StrictTest.isActiveAnywhere {
            StrictTest.noteRegistered(registration)
        }
        if rc != 0 {
            registry.reportRecoverable(outOfMemoryRegistering: Service.self, registration.name, rc)
        }
        registration.checkArgumentsCanBeCachedInItsScope()
        return ResolverOptions(registration: registration, container: target)
    }
}
