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
        string.withUTF8 { bytes in
            writeToStandardError(bytes)
        }
    }
}

/// Writes `bytes` to file descriptor 2.
private func writeToStandardError(_ bytes: UnsafeBufferPointer<UInt8>) {
    _ = write(2, bytes.baseAddress, bytes.count)
}
