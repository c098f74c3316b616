import CRegistry
import CRegistry.Testing
@testable import Resolver

/// What the calling thread's resolves write that is the thread's own
/// (DESIGN.md, "Who touches what"), by address: for the test that no two
/// threads' state shares a cache line (`ThreadFootprintTests`).
///
/// Not on any resolve path: it reads what resolves leave behind. The
/// instances a resolve returns are the factories' objects, not the
/// library's, and are not listed.
enum ThreadFootprint {
    /// The bytes `[start, start + size)` that resolves write, inside the
    /// block `[allocationStart, allocationStart + allocationSize)` that the
    /// allocator gave for them (nil: not from the heap, the thread's own
    /// static thread-local storage).
    struct Region: CustomStringConvertible, Sendable {
        let what: String
        let start: UInt
        let size: Int
        let allocation: (start: UInt, size: Int)?

        var description: String {
            let block = allocation.map { " in a block of \($0.size) bytes at 0x\(String($0.start, radix: 16))" } ?? ""
            return "\(what): \(size) bytes at 0x\(String(start, radix: 16))\(block)"
        }

        /// The `lineSize`-byte lines (or line pairs) its bytes touch.
        func lines(of lineSize: UInt) -> ClosedRange<UInt> {
            (start / lineSize)...((start + UInt(max(size, 1)) - 1) / lineSize)
        }

        /// Whether every `lineSize`-byte line its bytes touch lies inside its
        /// allocation, so that no other allocation can share one.
        func ownsItsLines(of lineSize: UInt) -> Bool {
            guard let allocation else { return true }
            let lines = lines(of: lineSize)
            return lines.lowerBound * lineSize >= allocation.start
                && (lines.upperBound + 1) * lineSize <= allocation.start + UInt(allocation.size)
        }
    }

    /// The calling thread's record (its epoch word, its cache, its
    /// resolution state) and the buffers its resolution state has grown
    /// into, as far as it has each.
    static func current() -> [Region] {
        guard let record = crg_thread_record_address() else {
            return []
        }
        // Its block is 128-byte aligned inside a larger allocation, whose
        // other bytes no one uses: the block is the record's alone.
        let start = UInt(bitPattern: record)
        var regions = [Region(what: "thread record", start: start, size: crg_thread_record_size(),
                              allocation: (start, crg_thread_record_size()))]
        let state = ResolutionContext.currentState.state.pointee
        if let stack = state.stack, state.stackCapacity > ResolutionState.inlineStackCapacity {
            regions.append(heapBlock("resolution stack", stack,
                                     size: state.stackCapacity * MemoryLayout<UnsafeMutableRawPointer>.stride))
        }
        for (what, buffer) in [("graph", state.graph), ("spare graph", state.spareGraph)] {
            if let base = buffer.base {
                regions.append(heapBlock(what, base, size: buffer.capacity * MemoryLayout<GraphEntry>.stride))
            }
        }
        return regions
    }

    /// The first `size` bytes of the heap block at `pointer`.
    static func heapBlock(_ what: String, _ pointer: UnsafeRawPointer, size: Int) -> Region {
        let start = UInt(bitPattern: pointer)
        return Region(what: what, start: start, size: size, allocation: (start, Int(crg_allocation_size(pointer))))
    }
}
