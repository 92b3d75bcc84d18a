// SPDX-License-Identifier: GPL-3.0-or-later
import CAnnounceLinux
import Glibc
import Testing

/// `CAnnounceLinux_release_read_only_pages`, which the daemon (once it serves) and the espeak-ng
/// helper (once it is ready) call so that code only start-up ran, theirs and their libraries',
/// stops counting in their memory.
/// Serialized: the release is process-wide, and one test's release in the middle of the other's
/// readings spoils them (zlib's code read 4 KiB resident right after it was touched).
@Suite("Releasing a program's start-up pages", .serialized)
struct StartupPagesTests {
    /// Written before the release and read after it: the release must leave writable pages alone.
    nonisolated(unsafe) static var written: [Int] = []

    @Test("the executable's code leaves the resident set; its data stays and it keeps running")
    func codeLeavesTheResidentSet() throws {
        Self.written = Array(1...1000)
        let executable = Self.executable()
        // Every page of its code made resident first, as start-up makes resident what it runs.
        // What runs between the release and the second reading (this test, the other tests'
        // threads) faults back in, a small part of all of it; of only the pages run so far it
        // was two thirds under `make asan`, whose runtime sits in this executable and runs on
        // every allocation.
        let sum = Self.touch(Self.codeRanges(of: executable))
        let before = try #require(Self.residentCode(of: executable))
        let released = CAnnounceLinux_release_read_only_pages()
        let after = try #require(Self.residentCode(of: executable))
        #expect(released > 0)
        #expect(after < before / 2, "resident code: \(before) KiB before, \(after) KiB after (sum \(sum))")
        #expect(Self.written == Array(1...1000))
    }

    @Test("a library's code leaves the resident set too")
    func libraryCodeLeavesTheResidentSet() throws {
        // zlib: on every Debian system, and nothing in this process calls it between the two
        // readings. Its code is made resident the way start-up makes a library's resident.
        let handle = try #require(dlopen("libz.so.1", RTLD_NOW), "libz.so.1 cannot be loaded (apt-get install zlib1g)")
        defer { dlclose(handle) }
        let library = try #require(Self.mappedFile(named: "libz.so.1"), "libz.so.1 is not in /proc/self/maps")
        let sum = Self.touch(Self.codeRanges(of: library))
        let before = try #require(Self.residentCode(of: library))
        _ = CAnnounceLinux_release_read_only_pages()
        let after = try #require(Self.residentCode(of: library))
        #expect(before >= 16, "zlib's resident code before the release: \(before) KiB (sum \(sum))")
        #expect(after < before / 4, "zlib's resident code: \(before) KiB before, \(after) KiB after")
        // Its code still runs, from the page cache.
        typealias Version = @convention(c) () -> UnsafePointer<CChar>?
        let version = unsafeBitCast(try #require(dlsym(handle, "zlibVersion")), to: Version.self)
        #expect(version().map { String(cString: $0) }?.first == "1")
    }

    /// Reads a byte of every page in `ranges`, which makes them resident; their sum, for a
    /// message, so that the reads stay.
    static func touch(_ ranges: [(UInt, UInt)]) -> UInt8 {
        var sum: UInt8 = 0
        for (start, end) in ranges {
            for page in stride(from: start, to: end, by: 4096) { sum &+= UnsafePointer<UInt8>(bitPattern: page)!.pointee }
        }
        return sum
    }

    /// The running executable's path (/proc/self/exe).
    static func executable() -> String {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &target, target.count - 1)
        return length > 0 ? String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    /// The path of a mapped file whose name starts with `name` (libz.so.1 is mapped as
    /// libz.so.1.2.13), from /proc/self/maps.
    static func mappedFile(named name: String) -> String? {
        mappings().first { $0.path.split(separator: "/").last?.hasPrefix(name) == true }?.path
    }

    /// The address ranges of the code mappings (`r-xp`) of the file at `path`.
    static func codeRanges(of path: String) -> [(UInt, UInt)] {
        mappings().filter { $0.path == path && $0.permissions == "r-xp" }.map { ($0.start, $0.end) }
    }

    /// The file mappings of this process, from /proc/self/maps.
    static func mappings() -> [(start: UInt, end: UInt, permissions: String, path: String)] {
        guard let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var found: [(start: UInt, end: UInt, permissions: String, path: String)] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            let fields = String(cString: line).split { $0 == " " || $0 == "\n" }
            guard fields.count >= 6, fields[5].hasPrefix("/") else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16) else { continue }
            found.append((start, end, String(fields[1]), String(fields[5])))
        }
        return found
    }

    /// The resident KiB of the code mappings (`r-xp` lines of /proc/self/smaps) of the file at
    /// `path`, or nil when they cannot be read.
    static func residentCode(of path: String) -> Int? {
        guard !path.isEmpty, let smaps = fopen("/proc/self/smaps", "r") else { return nil }
        defer { fclose(smaps) }
        var total = 0
        var inCode = false
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, smaps) > 0, let line {
            let text = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
            guard let first = text.first else { continue }
            if first.contains("-"), text.count >= 5 {
                inCode = text[1] == "r-xp" && text.last.map { $0.hasSuffix(path + "\n") || $0 == path } == true
            } else if inCode, first == "Rss:", text.count >= 2, let kib = Int(text[1]) {
                total += kib
            }
        }
        return total
    }
}
