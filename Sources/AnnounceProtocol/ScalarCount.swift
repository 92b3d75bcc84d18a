// SPDX-License-Identifier: Apache-2.0
extension String {
    /// How many Unicode scalars the string has (what `max_text_chars` and `spoken_chars` count),
    /// counted over its UTF-8 bytes: every byte that does not continue a scalar starts one.
    ///
    /// The same number as `unicodeScalars.count`, which decodes every scalar: a long text is
    /// counted more than once on its way to the first sample (Benchmarks/README.md, long texts).
    public var unicodeScalarCount: Int {
        let counted = utf8.withContiguousStorageIfAvailable { bytes in
            ByteScan.scalarStarts(in: UnsafeRawBufferPointer(bytes))
        }
        return counted ?? unicodeScalars.count
    }
}
