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
        for file in files {
            var session = SSIPSession(clientID: 1, maxCharacters: 64)
            var steps = 0
            for line in try Data(contentsOf: file).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                switch session.take(line) {
                case .reply(let reply):
                    let text = String(decoding: reply.bytes, as: UTF8.self)
                    #expect(text.hasSuffix("\r\n") && text.hasPrefix(String(reply.code)), "\(file.lastPathComponent)")
                case .queue(let message):
                    #expect(message.text.unicodeScalars.count <= 64)
                default:
                    break
                }
                steps += 1
            }
            #expect(steps > 1, "\(file.lastPathComponent) has no lines")
        }
    }
}
