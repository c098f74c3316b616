// `Scaling`: total throughput of each scenario at 1, 2, … threads (up to the
// number of cores), in one process, beside the floors. Prints one JSON object
// per measurement on standard output; Scripts/scaling.py runs it (also against
// an earlier commit, interleaved), takes medians and prints the tables.
//
//   Scaling [--seconds 0.25] [--rounds 5] [--threads 1,2] [--filter text]
//
// Rounds alternate the order of the thread counts, and every scenario runs once
// per round, so slow drift of a shared machine lands on all of them alike.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

struct Options {
    var seconds = 0.25
    var rounds = 5
    var threads: [Int] = Array(1...max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    var filter: String?
    /// Print every result object (never useful; it keeps `sinkTarget` opaque).
    var printResults = false
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
        if argument == "--print-results" {
            options.printResults = true
            continue
        }
        guard let value = arguments.next() else {
            fatalError("\(argument) needs a value")
        }
        switch argument {
        case "--seconds": options.seconds = Double(value) ?? options.seconds
        case "--rounds": options.rounds = Int(value) ?? options.rounds
        case "--threads": options.threads = value.split(separator: ",").compactMap { Int($0) }
        case "--filter": options.filter = value
        default: fatalError("unknown option \(argument)")
        }
    }
    return options
}

/// Writes `line` and a newline to a file descriptor (1: results, 2: progress).
func write(_ line: String, to descriptor: Int32) {
    var line = line + "\n"
    line.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
}

func report(_ line: String) { write(line, to: 1) }
func progress(_ line: String) { write(line, to: 2) }

let options = parseOptions()
// See `sinkTarget`: a value the optimiser cannot know.
sinkTarget = options.printResults ? { print($0) } : { _ in }
let scenarios = (resolverScenarios + swinjectScenarios + floorScenarios).filter { scenario in
    guard let filter = options.filter else { return true }
    return "\(scenario.implementation) \(scenario.name)".contains(filter)
}
// Each operation is built once (registrations, first resolve) and reused.
let operations = scenarios.map { $0.make() }

for round in 1...options.rounds {
    let threadCounts = round % 2 == 1 ? options.threads : options.threads.reversed()
    for (scenario, operation) in zip(scenarios, operations) {
        for threads in threadCounts {
            let result = measureAny(operation, threads: threads, seconds: options.seconds)
            let mops = Double(result.operations) / result.seconds / 1e6
            report("{\"scenario\": \"\(scenario.name)\", \"implementation\": \"\(scenario.implementation)\", "
                + "\"threads\": \(threads), \"round\": \(round), \"operations\": \(result.operations), "
                + "\"seconds\": \(result.seconds)}")
            progress("round \(round)/\(options.rounds)  \(scenario.implementation) \(scenario.name), T=\(threads): "
                + "\((mops * 10).rounded() / 10) Mops/s")
        }
    }
}
