// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Testing

/// Feeds `chunks` to `splitter`; the lines it gave, as strings, and whether it threw.
func lines(of chunks: [String], _ splitter: inout LineSplitter) -> (lines: [String], tooLong: Bool) {
    var found: [String] = []
    for chunk in chunks {
        do {
            try Array(chunk.utf8).withUnsafeBytes { bytes in
                try splitter.split(bytes) { found.append(String(decoding: $0, as: UTF8.self)) }
            }
        } catch {
            #expect((error as? LineSplitter.LineTooLong)?.maxLineBytes == splitter.maxLineBytes)
            return (found, true)
        }
    }
    return (found, false)
}

@Suite("LineSplitter: the protocol's framing")
struct LineSplitterTests {
    @Test("lines within one chunk, across chunks, empty lines; an unfinished line waits")
    func splitting() {
        var splitter = LineSplitter()
        let result = lines(of: ["a\nbc\n\nd", "ef", "g\nh"], &splitter)
        #expect(result.lines == ["a", "bc", "", "defg"])
        #expect(!result.tooLong)
        #expect(splitter.bufferedByteCount == 1)
        #expect(lines(of: ["\n"], &splitter).lines == ["h"])
        #expect(splitter.bufferedByteCount == 0)
    }

    @Test("a line of exactly the limit passes, one byte more throws, in one chunk or split across chunks")
    func limit() {
        let limit = 10
        let exact = String(repeating: "x", count: limit)
        var splitter = LineSplitter(maxLineBytes: limit)
        #expect(lines(of: [exact + "\n"], &splitter) == ([exact], false))
        #expect(lines(of: ["xxxxx", "xxxxx", "\n"], &splitter) == ([exact], false))

        var whole = LineSplitter(maxLineBytes: limit)
        #expect(lines(of: ["ok\n" + exact + "x\n"], &whole) == (["ok"], true))
        var joined = LineSplitter(maxLineBytes: limit)
        #expect(lines(of: ["xxxxxx", "xxxxx\n"], &joined) == ([], true))
    }

    @Test("a line that passes the limit throws before its newline arrives (nothing unbounded is kept)")
    func unfinishedTooLong() {
        var splitter = LineSplitter(maxLineBytes: 8)
        #expect(lines(of: ["12345678"], &splitter) == ([], false))
        #expect(lines(of: ["9"], &splitter) == ([], true))
    }

    @Test("the default limit is the protocol's max_line_bytes, 4194304 (a text of max_text_chars, escaped)")
    func defaultLimit() {
        #expect(LineSplitter().maxLineBytes == 4_194_304)
        var splitter = LineSplitter()
        let line = String(repeating: "a", count: 4_194_304)
        #expect(lines(of: [line + "\n"], &splitter).lines.first?.count == 4_194_304)
        #expect(lines(of: [line + "a\n"], &splitter).tooLong)
    }
}
