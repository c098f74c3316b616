#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard error, for `print(_:to:)`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8(writeToStandardError)
    }
}

private func writeToStandardError(_ bytes: UnsafeBufferPointer<UInt8>) {
    _ = write(2, bytes.baseAddress, bytes.count)
}

/// Stops the program with `message`, after passing it to the failure hook; on a thread that verifies, ends
/// that thread instead, with the failure collected (`VerificationRun`).
@usableFromInline
func fail(_ message: String, kind: Resolver.Verification.Failure.Kind = .other,
          file: StaticString = #file, line: UInt = #line) -> Never {
    if let context = ResolutionContext.existing, let verification = context.verification {
        verification.workerFailed(message, kind: kind, context: context)
    }
    registry.withLock { registry.failureHook }?(message)
    fatalError(message, file: file, line: line)
}

/// "Type" or "Type:name".
func describe(_ type: Any.Type, _ name: Resolver.Name?) -> String {
    name.map { "\(type):\($0.rawValue)" } ?? String(describing: type)
}
