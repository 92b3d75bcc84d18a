// SPDX-License-Identifier: GPL-3.0-or-later
import LanguageRuns
import Testing

/// Texts assembled at random from pieces that stress the cutting (tags cut short, quotes, stray
/// closing tags, comments, scripts side by side, single letters, marks), with a fixed seed: every
/// one must give runs that cover it exactly, in order, each run holding its range.
@Suite("Runs cover any text, however malformed")
struct RunInvariantTests {
    static let pieces = [
        "<speak>", "</speak>", "<p xml:lang=\"de\">", "</p>", "<voice xml:lang='ru'>", "</voice>",
        "<s xml:lang=\"uk\">", "</s>",
        "<lang xml:lang=\"el\">", "</lang>", "<mark name=\"m\"/>", "<break time=\"1s\"/>", "<!-- <p> -->", "<!--", "<",
        ">", "\"", "'",
        "<p xml:lang=", "</", "/>", "<?xml?>", "<![CDATA[x<y]]>", "Hello ", "world", "Привет", "а", "καλημέρα", "こんにちは",
        "東京", "ー",
        "שלום", "नमस्ते", " ", "\n", ", ", "42", "e\u{301}", "👍🏽", "Ich habe heute keine Zeit ", "«", "»",
    ]

    /// A small deterministic generator, so a failure names a text that can be made again.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func texts() -> [String] {
        var generator = Generator(state: 32)
        return (0..<400).map { _ in
            (0..<generator.next(24)).map { _ in pieces[generator.next(pieces.count)] }.joined()
        }
    }

    @Test("Plain text, in each mode and for several users")
    func plainText() {
        for switching in LanguageSwitching.allCases {
            for languages in [["en"], ["en", "uk", "de"], ["ru", "ja"]] {
                let splitter = LanguageRunSplitter(switching: switching, languages: languages)
                for text in Self.texts() {
                    let runs = splitter.runs(of: text, language: languages[0])
                    let scalars = Array(text.unicodeScalars)
                    #expect(!runs.isEmpty)
                    #expect(
                        runs.first?.range.lowerBound == 0 && runs.last?.range.upperBound == scalars.count,
                        "\(text.debugDescription)")
                    let touching = zip(runs, runs.dropFirst()).allSatisfy { $0.range.upperBound == $1.range.lowerBound }
                    #expect(touching, "\(text.debugDescription)")
                    #expect(
                        runs.allSatisfy { $0.text.unicodeScalars.elementsEqual(scalars[$0.range]) },
                        "\(text.debugDescription)")
                    if switching != .off {
                        #expect(
                            zip(runs, runs.dropFirst()).allSatisfy { $0.language != $1.language },
                            "\(text.debugDescription)")
                    }
                }
            }
        }
    }

    @Test("SSML, in each mode")
    func ssml() {
        for switching in LanguageSwitching.allCases {
            let splitter = LanguageRunSplitter(switching: switching, languages: ["en", "uk"])
            for text in Self.texts() {
                let runs = splitter.runs(ofSSML: text, language: "en")
                let scalars = Array(text.unicodeScalars)
                #expect(!runs.isEmpty)
                #expect(
                    runs.first?.range.lowerBound == 0 && runs.last?.range.upperBound == scalars.count,
                    "\(text.debugDescription)")
                #expect(
                    zip(runs, runs.dropFirst()).allSatisfy { $0.range.upperBound == $1.range.lowerBound },
                    "\(text.debugDescription)")
                for run in runs {
                    let own = Array(run.ssml.unicodeScalars)
                    let source = scalars[run.range]
                    #expect(run.sourceOffset + source.count <= own.count, "\(text.debugDescription)")
                    guard run.sourceOffset + source.count <= own.count else { continue }
                    #expect(
                        own[run.sourceOffset..<(run.sourceOffset + source.count)].elementsEqual(source),
                        "\(text.debugDescription)")
                }
                // Every mark of the post is in exactly one run, in order.
                let marks = text.split(separator: "<mark ", omittingEmptySubsequences: false).count - 1
                #expect(
                    runs.map { $0.ssml.split(separator: "<mark ", omittingEmptySubsequences: false).count - 1 }.reduce(
                        0, +) == marks)
            }
        }
    }
}
