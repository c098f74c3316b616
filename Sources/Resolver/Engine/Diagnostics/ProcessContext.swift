#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// What the process is: under tests, running for Xcode's previews, launched
// with which arguments. Each is read once, on first use (DESIGN.md,
// "Contexts and strict tests").

enum ProcessContext {
    /// Whether a test runner runs this process: Xcode's test environment
    /// (`XCTestConfigurationFilePath`, `XCTestBundlePath`,
    /// `XCTestSessionIdentifier`), or XCTest or Swift Testing loaded in the
    /// process (their symbols `XCTestCase`'s type descriptor, the
    /// Objective-C class `XCTestCase`, Swift Testing's entry point
    /// `swt_abiv0_getEntryPoint`): `swift test` (XCTest or Swift Testing)
    /// and Xcode's tests. A program the tests start as a child process is
    /// not under test unless it loads one of them, or inherits Xcode's
    /// variables.
    static let isRunningTests: Bool = {
        for variable in ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
        where getenv(variable) != nil {
            return true
        }
        return ["swt_abiv0_getEntryPoint", "$s6XCTest0A4CaseCMn", "OBJC_CLASS_$_XCTestCase"].contains(where: isLoaded)
    }()

    /// Whether Xcode runs this process for its previews
    /// (`XCODE_RUNNING_FOR_PREVIEWS=1`).
    static let isRunningForPreviews: Bool = {
        guard let value = getenv("XCODE_RUNNING_FOR_PREVIEWS") else {
            return false
        }
        return String(cString: value) == "1"
    }()

    /// Whether this package was compiled with `DEBUG` defined: SwiftPM's and
    /// Xcode's Debug configuration, which builds packages as it builds the app.
    static let isDebugBuild: Bool = {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }()

    /// The arguments the process was launched with (not the program's path).
    static let launchArguments: Set<String> = Set(CommandLine.arguments.dropFirst())

    /// Whether a symbol of that name is loaded in the process (in any image:
    /// a test bundle that `xctest` or SwiftPM's testing helper loads too).
    private static func isLoaded(_ symbol: String) -> Bool {
        #if canImport(Darwin)
        return dlsym(RTLD_DEFAULT, symbol) != nil
        #else
        guard let process = dlopen(nil, RTLD_NOW) else {
            return false
        }
        defer { dlclose(process) }
        return dlsym(process, symbol) != nil
        #endif
    }
}
