import CRegistry
import CRegistry.Testing
import Testing

/// The key hash is computed inline (crg_table_inline.h) from constants
/// derived once from the seed; it must be XXH3_64bits_withSeed exactly.
/// crg_internal_hash_check compares the two inside the library, where the
/// xxHash header is compiled in.
@Suite struct HashTests {
    /// SplitMix64: many well-spread inputs, the same on every run.
    struct Inputs: Sequence, IteratorProtocol {
        var state: UInt64
        mutating func next() -> UInt64? {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func inlineHashesEqualXXH3UnderTheProcessSeed() {
        var inputs = Inputs(state: 1)
        var mismatches = 0
        for _ in 0..<200_000 {
            let type = inputs.next()!, nameHash = inputs.next()!
            if crg_internal_hash_check(nil, type, nameHash) != 0 { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func inlineHashesEqualXXH3UnderAnySeed() {
        var inputs = Inputs(state: 2)
        var mismatches = 0
        for _ in 0..<200_000 {
            var seed = inputs.next()!
            let type = inputs.next()!, nameHash = inputs.next()!
            if crg_internal_hash_check(&seed, type, nameHash) != 0 { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    /// Seeds and inputs at the edges: zero, all ones, single bits, values
    /// that wrap when the seed is added or subtracted.
    @Test func edgeSeedsAndInputs() {
        var edges: [UInt64] = [0, 1, 2, UInt64.max, UInt64.max - 1, 1 << 63, (1 << 63) - 1, 0xFFFF_FFFF, 1 << 32]
        edges += (0..<64).map { UInt64(1) << $0 }
        var mismatches = 0
        for seed in edges {
            for type in edges {
                var seedCopy = seed
                if crg_internal_hash_check(&seedCopy, type, seed ^ type) != 0 { mismatches += 1 }
                if crg_internal_hash_check(&seedCopy, type, ~type) != 0 { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    /// The hash a table call stores in a key is the inline one, and a key
    /// hashed once keeps its hash (a resolve hashes once for two tables).
    @Test func keysKeepTheirHash() {
        let table = Table()
        table.put(Key(42), 1)
        var key = crg_key_unnamed(42)
        #expect(key.hash == 0)
        var value: UnsafeMutableRawPointer?
        #expect(crg_get(table.raw, &key, &value) == 0 && integer(value) == 1)
        let hash = key.hash
        #expect(hash != 0)
        #expect(crg_get(table.raw, &key, &value) == 0 && key.hash == hash)
        var fresh = crg_key_unnamed(42)
        #expect(crg_internal_key_hash(&fresh) == hash)
    }

    /// A literal's hash, remembered per thread by address, is the hash of
    /// its bytes: first and later calls, and when two buffers share a memo
    /// slot (addresses 8 × CRG_NAME_MEMOS bytes apart) and evict each other.
    @Test func rememberedLiteralHashesAreTheBytesHashes() {
        let stride = 8 * Int(CRG_NAME_MEMOS)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 2 * stride + 64, alignment: 64)
        defer { buffer.deallocate() }
        let first = buffer, second = buffer + stride
        for (index, byte) in "alpha".utf8.enumerated() { first.storeBytes(of: byte, toByteOffset: index, as: UInt8.self) }
        for (index, byte) in "omega".utf8.enumerated() { second.storeBytes(of: byte, toByteOffset: index, as: UInt8.self) }
        let alpha = crg_name_hash(first, 5), omega = crg_name_hash(second, 5)
        #expect(alpha != omega)
        for _ in 0..<3 {
            #expect(crg_name_hash_static(first, 5) == alpha)
            #expect(crg_name_hash_static(second, 5) == omega)
        }
        // Same address, another length: a different name, hashed anew.
        #expect(crg_name_hash_static(first, 3) == crg_name_hash(first, 3))
        #expect(crg_name_hash_static(first, 5) == alpha)
    }
}
