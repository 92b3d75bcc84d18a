// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import SSIPProtocol
import Testing

/// FuzzSSIP's seed corpus (and any crash found later, added to it) through a session.
@Suite("SSIP fuzz corpus regressions")
struct SSIPCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/FuzzCorpus/ssip")

    @Test("every corpus input gives well-formed replies and bounded messages")
    func corpus() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.corpus, includingPropertiesForKeys: nil)
        #expect(files.count >= 3)
        var queued = 0
        var refused = 0
        for file in files {
            var session = SSIPSession(clientID: 1, maxCharacters: 64)
            for line in try Data(contentsOf: file).split(
                separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            {
                switch session.take(line) {
                case .reply(let reply):
                    let text = String(decoding: reply.bytes, as: UTF8.self)
                    #expect(text.hasSuffix("\r\n") && text.hasPrefix(String(reply.code)), "\(file.lastPathComponent)")
                    if !reply.isSuccess { refused += 1 }
                case .queue(let message):
                    #expect(message.text.unicodeScalars.count <= 64)
                    queued += 1
                default:
                    break
                }
            }
        }
        // The corpus reaches both sides: messages queued and commands refused.
        #expect(queued > 0 && refused > 0)
    }
}
