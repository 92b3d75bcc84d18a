import AnnounceProtocol
import Foundation
import Testing

/// The fuzzers' seed corpus (and any crash found later, added to it) through the decoder.
@Suite("Fuzz corpus regressions")
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/FuzzCorpus/requests")

    @Test("every corpus input decodes, or fails with an error line that is itself valid JSON")
    func corpusDecodes() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.corpus, includingPropertiesForKeys: nil)
        #expect(files.count >= 9)
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            switch RequestLine.decode(line: bytes) {
            case .success(let line):
                #expect(!line.request.op.isEmpty)
            case .failure(let error):
                let line = error.event.line
                #expect((try? JSONParser.parse(line.dropLast()))?.objectValue != nil, "\(file.lastPathComponent)")
            }
        }
    }
}
