/// The block cipher of QQ Music's encrypted QRC: triple DES as QQ implements it, with the key QQ
/// publishes in its clients. Decryption only: LyricPoster reads QRC and never writes it encrypted.
///
/// QQ's DES is FIPS 46-3 DES with four differences, all needed (the facts are documented by
/// Lyricify-Lyrics-Helper, LDDC and Unilyric, whose decoders go back to one C source):
/// 1. the data block and the key are read with the bytes of each 4-byte half reversed;
/// 2. the output block is written the same way;
/// 3. two S-box cells differ: S2 row 1 column 7 is 15 (not 14) and S4 row 3 column 5 is 10 (not 1);
/// 4. PC-2 takes bit p − 27 of the D half where DES takes p − 28; for p = 56 that bit lies outside
///    the 28-bit half and is always zero.
///
/// A block is decrypted with K3, then encrypted with K2, then decrypted with K1
/// (the key `!@#)(*$%123ZXC!@!@#)(NHL` split in three).
extension QRC {
    enum Cipher {
        /// The key schedules for decryption, in the order they are applied: D(K3), E(K2), D(K1).
        /// Each is 16 round keys of 48 bits. Computed once.
        static let decryption: [[UInt64]] = {
            let key = Array("!@#)(*$%123ZXC!@!@#)(NHL".utf8)
            let k1 = schedule(Array(key[0..<8])), k2 = schedule(Array(key[8..<16])), k3 = schedule(Array(key[16..<24]))
            return [k3.reversed(), k2, k1.reversed()]
        }()

        /// Decrypts `data` (a whole number of 8-byte blocks) with ``decryption``.
        static func decrypt(_ data: [UInt8]) -> [UInt8] {
            process(data, passes: decryption)
        }

        /// Runs every 8-byte block of `data` through `passes` (QQ-DES with each schedule in turn).
        /// A trailing part shorter than a block is dropped.
        static func process(_ data: [UInt8], passes: [[UInt64]]) -> [UInt8] {
            var output = [UInt8](repeating: 0, count: data.count / 8 * 8)
            var offset = 0
            while offset + 8 <= data.count {
                var block = read(data, at: offset)
                for keys in passes { block = crypt(block, keys: keys) }
                for i in 0..<8 { output[offset + i] = UInt8(truncatingIfNeeded: block >> (56 - 8 * UInt64(i))) }
                offset += 8
            }
            return output
        }

        /// Eight bytes as a 64-bit block, big-endian: standard DES's reading of a block.
        private static func read(_ bytes: [UInt8], at offset: Int) -> UInt64 {
            var value: UInt64 = 0
            for i in 0..<8 { value = value << 8 | UInt64(bytes[offset + i]) }
            return value
        }

        /// QQ's reading (and writing) of a block: the bytes of each 4-byte half reversed.
        private static func swapHalves(_ value: UInt64) -> UInt64 {
            let high = UInt32(truncatingIfNeeded: value >> 32).byteSwapped
            let low = UInt32(truncatingIfNeeded: value).byteSwapped
            return UInt64(high) << 32 | UInt64(low)
        }

        /// Picks bits of `value` (numbered 1… from the most significant of `width` bits) in the
        /// order `table` names them.
        private static func permute(_ value: UInt64, width: Int, _ table: [UInt8]) -> UInt64 {
            var result: UInt64 = 0
            for position in table {
                result = result << 1 | (value >> UInt64(width - Int(position))) & 1
            }
            return result
        }

        /// One QQ-DES pass over a block with 16 round keys (decryption = the keys reversed).
        static func crypt(_ block: UInt64, keys: [UInt64]) -> UInt64 {
            let permuted = permute(swapHalves(block), width: 64, Tables.initial)
            var left = UInt32(truncatingIfNeeded: permuted >> 32), right = UInt32(truncatingIfNeeded: permuted)
            for key in keys {
                (left, right) = (right, left ^ feistel(right, key))
            }
            let joined = UInt64(right) << 32 | UInt64(left)
            return swapHalves(permute(joined, width: 64, Tables.final))
        }

        /// The round function: expansion, key, S-boxes and P (merged in ``spTable``).
        private static func feistel(_ half: UInt32, _ key: UInt64) -> UInt32 {
            let expanded = permute(UInt64(half), width: 32, Tables.expansion) ^ key
            var output: UInt32 = 0
            for box in 0..<8 {
                let six = Int((expanded >> UInt64(42 - 6 * box)) & 0x3F)
                output |= spTable[box][six]
            }
            return output
        }

        /// For each S-box and 6-bit input, its 4-bit output placed by P.
        private static let spTable: [[UInt32]] = (0..<8).map { box in
            (0..<64).map { six in
                let row = (six >> 4) & 2 | six & 1, column = (six >> 1) & 0xF
                let nibble = UInt64(Tables.sBoxes[box][row * 16 + column])
                let placed = nibble << UInt64(28 - 4 * box)
                return UInt32(permute(placed, width: 32, Tables.p))
            }
        }

        /// The 16 round keys (48 bits each) for encryption with `key`, QQ's way.
        static func schedule(_ key: [UInt8]) -> [UInt64] {
            let swapped = swapHalves(read(key, at: 0))
            let pc1 = permute(swapped, width: 64, Tables.pc1)
            var c = UInt32(truncatingIfNeeded: pc1 >> 28) & 0x0FFF_FFFF, d = UInt32(truncatingIfNeeded: pc1) & 0x0FFF_FFFF
            var keys: [UInt64] = []
            for shift in Tables.rotations {
                c = (c << shift | c >> (28 - shift)) & 0x0FFF_FFFF
                d = (d << shift | d >> (28 - shift)) & 0x0FFF_FFFF
                var subkey: UInt64 = 0
                for position in Tables.pc2 {
                    let p = Int(position)
                    let bit: UInt32
                    if p <= 28 {
                        bit = (c >> UInt32(28 - p)) & 1
                    } else {
                        // QQ's quirk: bit p − 27 of D; past D's 28 bits it reads a cleared bit.
                        let q = p - 27
                        bit = q <= 28 ? (d >> UInt32(28 - q)) & 1 : 0
                    }
                    subkey = subkey << 1 | UInt64(bit)
                }
                keys.append(subkey)
            }
            return keys
        }
    }
}
