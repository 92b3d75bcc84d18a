import CAnnounceLinux
import Glibc
import Testing

/// `CAnnounceLinux_release_program_pages`, which the daemon (once it serves) and the espeak-ng
/// helper (once it is ready) call so that code only start-up ran stops counting in their memory.
@Suite("Releasing a program's start-up pages")
struct StartupPagesTests {
    /// Written before the release and read after it: the release must leave writable pages alone.
    nonisolated(unsafe) static var written: [Int] = []

    @Test("the executable's code leaves the resident set; its data stays and it keeps running")
    func codeLeavesTheResidentSet() throws {
        Self.written = Array(1...1000)
        let before = try #require(Self.residentExecutableCode())
        let released = CAnnounceLinux_release_program_pages()
        let after = try #require(Self.residentExecutableCode())
        #expect(released > 0)
        // What runs between the release and the second reading (this test, the other tests'
        // threads) faults back in, a small part of what was resident.
        #expect(after < before / 2, "resident code: \(before) KiB before, \(after) KiB after")
        #expect(Self.written == Array(1...1000))
    }

    /// The resident KiB of the running executable's code mappings (`r-xp` lines of
    /// /proc/self/smaps naming /proc/self/exe), or nil when they cannot be read.
    static func residentExecutableCode() -> Int? {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &target, target.count - 1)
        guard length > 0, let smaps = fopen("/proc/self/smaps", "r") else { return nil }
        defer { fclose(smaps) }
        let executable = String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var total = 0
        var inCode = false
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, smaps) > 0, let line {
            let text = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
            guard let first = text.first else { continue }
            if first.contains("-"), text.count >= 5 {
                inCode = text[1] == "r-xp" && text.last.map { $0.hasSuffix(executable + "\n") || $0 == executable } == true
            } else if inCode, first == "Rss:", text.count >= 2, let kib = Int(text[1]) {
                total += kib
            }
        }
        return total
    }
}
