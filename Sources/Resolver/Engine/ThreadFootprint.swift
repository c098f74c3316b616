import CRegistry

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

    /// The calling thread's reader record, its cache of cached instances,
    /// and its resolution state with the state's buffers, as far as it has
    /// each.
    static func current() -> [Region] {
        var regions: [Region] = []
        if let record = crg_reader_record() {
            let start = UInt(bitPattern: record)
            regions.append(Region(what: "reader record", start: start, size: Int(CRG_READER_SIZE),
                                  allocation: (start, Int(CRG_READER_SIZE))))
        }
        regions.append(Region(what: "thread cache", start: UInt(bitPattern: crg_tcache_current()),
                              size: MemoryLayout<crg_tcache>.size, allocation: nil))
        if let context = ResolutionContext.existing {
            regions += context.footprint
        }
        return regions
    }

    /// The first `size` bytes of the heap block at `pointer`.
    static func heapBlock(_ what: String, _ pointer: UnsafeRawPointer, size: Int) -> Region {
        let start = UInt(bitPattern: pointer)
        return Region(what: what, start: start, size: size, allocation: (start, Int(crg_allocation_size(pointer))))
    }
}

extension ResolutionContext {
    /// The context's written state (`ResolutionState`, not the object: see
    /// `currentState`) and the buffers it writes while resolving.
    var footprint: [ThreadFootprint.Region] {
        let written = self.written.pointee
        var regions = [ThreadFootprint.heapBlock("resolution state", self.written,
                                                 size: MemoryLayout<ResolutionState>.size),
                       ThreadFootprint.heapBlock("resolution stack", written.stack,
                                                 size: written.stackCapacity * MemoryLayout<UnsafeMutableRawPointer>.stride)]
        for (what, buffer) in [("graph", written.graph), ("spare graph", written.spareGraph)] {
            if let base = buffer.base {
                regions.append(ThreadFootprint.heapBlock(what, base, size: buffer.capacity * MemoryLayout<GraphEntry>.stride))
            }
        }
        return regions
    }
}
