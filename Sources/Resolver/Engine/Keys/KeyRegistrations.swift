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
    static func makeDefault<Service, each Argument>(_ declaration: KeyDeclaration, _ service: Service.Type,
                                                   _ arguments: repeat (each Argument).Type)
        -> ResolverRegistration<Service> {
        let registration: ResolverRegistration<Service> = Resolver.newRegistration(
            name: KeyName.registrationName(declaration.site), scope: scope(of: declaration),
            factory: factory(declaration.factory, Service.self, repeat (each Argument).self),
            arguments: argumentList(repeat (each Argument).self), site: declaration.site.place)
        finish(registration, declaration, repeat (each Argument).self)
        return registration
    }

    /// The scope a key's registration gets: its declaration's, else
    /// `Resolver.defaultScope` now.
    @usableFromInline
    static func scope(of declaration: KeyDeclaration) -> ResolverScope {
        declaration.scope?() ?? Resolver.defaultScope
    }

    /// The argument list of a key's registrations: nil without arguments.
    @inlinable
    static func argumentList<each Argument>(_ arguments: repeat (each Argument).Type) -> ArgumentList? {
        keyArgumentCount(repeat (each Argument).self) == 0 ? nil : ArgumentList(keyArguments: repeat (each Argument).self)
    }

    /// The registration's factory for `function` (nil: a promise's, which
    /// finds nothing).
    @inlinable
    static func factory<Service, each Argument>(_ function: KeyFunction?, _ service: Service.Type,
                                               _ arguments: repeat (each Argument).Type)
        -> ResolverRegistration<Service>.Factory {
        let typed = keyArgumentCount(repeat (each Argument).self) != 0
        guard let function else {
            // A promise: registered, so that it is found, with a factory that
            // finds nothing (`optional` returns nil, `resolve` says what is
            // missing, `verify()` lists it).
            if typed {
                return .typed(ResolverRegistration<Service>.KeyTypedFactory<repeat each Argument>(
                    call: { _, _ in nil }, boxed: { _, _ in nil }))
            }
            return .resolver({ _ in nil })
        }
        switch function.shape {
        case .plain:
            let plain = function.restored(as: KeyPlainFunction<Service, repeat each Argument>.self).call
            if typed {
                return .typed(ResolverRegistration<Service>.KeyTypedFactory<repeat each Argument>(
                    call: { _, header in plain(repeat each KeyArgumentsOf<repeat each Argument>.values(header.pointee)) },
                    boxed: { _, args in plain(repeat each KeyArgumentsBox<repeat each Argument>.values(of: args)) }))
            }
            let none = noArguments(repeat (each Argument).self)
            return .plain({ plain(repeat each none) })
        case .withResolver:
            let withResolver = function.restored(as: KeyResolverFunction<Service, repeat each Argument>.self).call
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
        case .mainActorPlain:
            let mainActorPlain = function.restored(as: KeyMainActorFunction<Service, repeat each Argument>.self).call
            return .mainActor({ _, args in
                mainActorPlain(repeat each values(of: args, as: (repeat each Argument).self))
            }, takesArguments: typed)
        case .mainActorWithResolver:
            let mainActorWithResolver = function.restored(
                as: KeyMainActorResolverFunction<Service, repeat each Argument>.self).call
            return .mainActor({ resolver, args in
                mainActorWithResolver(resolver, repeat each values(of: args, as: (repeat each Argument).self))
            }, takesArguments: typed)
        case .asyncPlain:
            let asyncPlain = function.restored(as: KeyAsyncFunction<Service, repeat each Argument>.self).call
            return .async({ _, args in
                await asyncPlain(repeat each values(of: args, as: (repeat each Argument).self))
            }, takesArguments: typed)
        case .asyncWithResolver:
            let asyncWithResolver = function.restored(as: KeyAsyncResolverFunction<Service, repeat each Argument>.self).call
            return .async({ resolver, args in
                await asyncWithResolver(resolver, repeat each values(of: args, as: (repeat each Argument).self))
            }, takesArguments: typed)
        }
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
                                               _ declaration: KeyDeclaration,
                                               _ arguments: repeat (each Argument).Type) {
        for context in declaration.contexts {
            switch context.function.shape {
            case .plain:
                let plain = context.function.restored(as: KeyPlainFunction<Service, repeat each Argument>.self).call
                registration.addContext(context.context) { _, args in
                    plain(repeat each values(of: args, as: (repeat each Argument).self))
                }
            case .withResolver:
                let withResolver = context.function.restored(
                    as: KeyResolverFunction<Service, repeat each Argument>.self).call
                registration.addContext(context.context) { resolver, args in
                    withResolver(resolver, repeat each values(of: args, as: (repeat each Argument).self))
                }
            case .mainActorPlain, .mainActorWithResolver, .asyncPlain, .asyncWithResolver:
                // The modifiers take plain factories only.
                preconditionFailure("RESOLVER: a key's context has a factory of shape \(context.function.shape)")
            }
        }
        if declaration.isAllowedInStrictTests {
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

        override func call(name: Resolver.Name?) -> Call {
            Self.checkingList((repeat each Argument).self, name, call)
        }

        override func anyArgumentsForm(name: Resolver.Name?) -> ResolverFactoryAnyArguments<Service> {
            boxed
        }
    }
}

extension Resolver {
    /// The funnel of `register(\.key) { … }`: registers `factory` for the
    /// key `declaration` declares, in `container` (nil: `main`), made at
    /// `site`, with the key's scope. The key's own registration is made
    /// too, if it has none yet (a promise kept here is still one `verify()`
    /// knows).
    @inlinable
    static func registerKey<Service, each Argument>(_ declaration: KeyDeclaration, _ factory: KeyFunction,
                                                   _ service: Service.Type, _ arguments: repeat (each Argument).Type,
                                                   in container: Resolver?, _ site: RegistrationSite)
        -> ResolverOptions<Service> {
        KeyDefaults.install(declaration, Service.self, repeat (each Argument).self)
        let registration: ResolverRegistration<Service> = Resolver.newRegistration(
            name: KeyName.registrationName(declaration.site), scope: KeyRegistration.scope(of: declaration),
            factory: KeyRegistration.factory(factory, Service.self, repeat (each Argument).self),
            arguments: KeyRegistration.argumentList(repeat (each Argument).self), site: site)
        return putKeyOverride(registration, in: container)
    }

    /// Stores a key's override in `container` (nil: `main`), as the
    /// `register` funnel stores a registration.
    @usableFromInline
    static func putKeyOverride<Service>(_ registration: ResolverRegistration<Service>,
                                        in container: Resolver?) -> ResolverOptions<Service> {
        let (target, rc) = registry.write { () -> (Resolver, Int32) in
            let target = container ?? registry.main
            return (target, target.putLocked(registration, typeID: registration.typeID, name: registration.name))
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
