// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

#if FUZZING
    import CLibFuzzer
#endif

/// A libFuzzer entry point: one input's bytes; returns 0.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

#if FUZZING
    /// Hands the process to libFuzzer, which calls `target` with its inputs; call it from the
    /// executable's entry point (`@_cdecl("<Target>_main")`, the name SwiftPM links it under).
    public func runLibFuzzer(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ target: FuzzTarget
    ) -> CInt {
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments, target)
    }
#endif

/// Without libFuzzer: feeds each file named in `paths` (a corpus, or a crash) to `target` and
/// prints how many it replayed. Files that cannot be read are skipped.
public func replayFiles(_ paths: ArraySlice<String>, through target: FuzzTarget) {
    var count = 0
    for path in paths {
        guard let bytes = readFile(path) else { continue }
        _ = bytes.withUnsafeBufferPointer { target($0.baseAddress, $0.count) }
        count += 1
    }
    print("replayed \(count) inputs")
}

/// The bytes of a file, or nil when it cannot be read.
func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[..<count])
    }
    return bytes
}
