// Instructions per cached resolve, synchronous and `resolveAsync`, for
// `make bench-async-instructions`: valgrind's callgrind counts the whole
// program at two loop counts and the Makefile divides the difference by the
// extra resolves, so start-up and the concurrency runtime's set-up cancel
// out. (Async functions are split into partial functions, so counting one
// function's region, as InstructionCounts does, would miss their
// continuations.) The program awaits from a task, not from top-level code:
// valgrind 3.19 cannot run a program whose main thread `dispatchMain`s.
//
//   AsyncInstructionCounts sync|sync-named|async|async-factory COUNT

import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Resolver

final class Service: Sendable { init() {} }
final class AsyncService: Sendable { init() async {} }

@inline(never)
func resolveSynchronously(_ resolver: Resolver, _ count: Int) -> Int {
    var sum = 0
    for _ in 0..<count {
        sum &+= Int(bitPattern: ObjectIdentifier(resolver.resolve(Service.self))) & 1
    }
    return sum
}

@inline(never)
func resolveSynchronouslyByName(_ resolver: Resolver, _ count: Int) -> Int {
    var sum = 0
    for _ in 0..<count {
        sum &+= Int(bitPattern: ObjectIdentifier(resolver.resolve(Service.self, name: "fred"))) & 1
    }
    return sum
}

@inline(never)
func resolveAsynchronously<S: AnyObject>(_ resolver: Resolver, _ type: S.Type, _ count: Int) async -> Int {
    var sum = 0
    for _ in 0..<count {
        sum &+= Int(bitPattern: ObjectIdentifier(await resolver.resolveAsync(S.self))) & 1
    }
    return sum
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]),
      ["sync", "sync-named", "async", "async-factory"].contains(arguments[1]) else {
    print("usage: AsyncInstructionCounts sync|sync-named|async|async-factory COUNT")
    exit(2)
}
let mode = arguments[1]

func makeResolver() -> Resolver {
    let resolver = Resolver()
    resolver.register { Service() }.scope(.application)
    resolver.register(name: "fred") { Service() }.scope(.application)
    resolver.register { await AsyncService() }.scope(.application)
    return resolver
}
let resolver = makeResolver()
let done = DispatchSemaphore(value: 0)
Task.detached {
    // Built and cached (and in this thread's cache) before counting.
    _ = resolver.resolve(Service.self)
    _ = resolver.resolve(Service.self, name: "fred")
    _ = await resolver.resolveAsync(Service.self)
    _ = await resolver.resolveAsync(AsyncService.self)
    switch mode {
    case "sync": _ = resolveSynchronously(resolver, count)
    case "sync-named": _ = resolveSynchronouslyByName(resolver, count)
    case "async": _ = await resolveAsynchronously(resolver, Service.self, count)
    default: _ = await resolveAsynchronously(resolver, AsyncService.self, count)
    }
    done.signal()
}
done.wait()
