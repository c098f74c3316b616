#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the process is, each read once, on first use (DESIGN.md, C1, C3).
enum ProcessContext {
    /// Whether a test runner runs this process: Xcode's test variables, or XCTest or Swift Testing loaded
    /// in it (`XCTestCase`'s type descriptor or Objective-C class, Swift Testing's entry point). A child
    /// process the tests start is not, unless it loads one or inherits the variables.
    static let isRunningTests: Bool =
        ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"].contains { (name: String) in getenv(name) != nil }
        || ["swt_abiv0_getEntryPoint", "$s6XCTest0A4CaseCMn", "OBJC_CLASS_$_XCTestCase"].contains(where: isLoaded)

    static let isRunningForPreviews = getenv("XCODE_RUNNING_FOR_PREVIEWS").map { String(cString: $0) == "1" } ?? false

    #if DEBUG
    static let isDebugBuild = true
    #else
    static let isDebugBuild = false
    #endif

    /// The arguments the process was launched with (not the program's path).
    static let launchArguments: Set<String> = Set(CommandLine.arguments.dropFirst())

    /// Whether a symbol of that name is loaded in any image of the process.
    private static func isLoaded(_ symbol: String) -> Bool {
        #if canImport(Darwin)
        return dlsym(RTLD_DEFAULT, symbol) != nil
        #else
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(process) }
        return dlsym(process, symbol) != nil
        #endif
    }
}
