// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import LanguageRuns
import ProcessHarness
import Testing

/// The runs are worth making: espeak-ng reads each run's text in the run's language when given
/// that language's voice, where the English voice spells it (or names its letters).
@Suite("espeak-ng speaks each run in its language", .onBlockingThreads)
struct EspeakSpeaksRunsTests {
    /// espeak-ng's IPA for `text` with `voice`.
    func ipa(_ text: String, voice: String) throws -> String {
        expectBlockingAllowed("running espeak-ng")
        let espeak = try #require(
            HeadlessPulseAudio.findExecutable("espeak-ng"), "espeak-ng is not installed: apt-get install espeak-ng")
        let child = try SpawnedProcess(
            executable: espeak, arguments: ["-q", "--ipa", "-v", voice, text], environment: [:], output: .pipe)
        let output = try #require(child.output).readDataToEndOfFile()
        #expect(child.waitForExit() == 0, "espeak-ng -v \(voice) failed")
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// espeak-ng 1.51's voice for a run's language: its own name, but for Chinese, whose `cmn`
    /// (and `zh`) voice reads Han as pinyin spelled in English ("bei three"); `cmn-latn-pinyin`
    /// reads it in Mandarin.
    func espeakVoice(_ language: String) -> String { language == "zh" ? "cmn-latn-pinyin" : language }

    @Test("Russian, Greek, Japanese, Chinese and Ukrainian runs of an English post")
    func foreignRunsInTheirVoices() throws {
        let splitter = LanguageRunSplitter(switching: .script, languages: ["en"])
        let runs = splitter.runs(of: "The file Привет was saved, καλημέρα and こんにちは, then 北京欢迎你.", language: "en")
        let ukrainian = LanguageRunSplitter(switching: .script, languages: ["en", "uk"]).runs(
            of: "Файл Привіт", language: "en")
        let foreign = runs.filter { $0.language != "en" } + ukrainian
        #expect(foreign.map(\.language) == ["ru", "el", "ja", "zh", "uk"])
        for run in foreign {
            let own = try ipa(run.text, voice: espeakVoice(run.language))
            let english = try ipa(run.text, voice: "en")
            #expect(!own.isEmpty)
            #expect(own != english, "espeak-ng's \(run.language) voice reads \(run.text) as its English voice does")
            // No switch back to English inside the run (espeak-ng marks one as "(en)").
            #expect(!own.contains("(en)"), "\(run.language): \(own)")
        }
        // Russian "Привет" as Russian, where English spells it letter by letter.
        let russian = try #require(foreign.first)
        #expect(try ipa(russian.text, voice: "ru").contains("prʲivʲˈet"))
        #expect(try ipa(russian.text, voice: "en").split(separator: " ").count == 6)
    }

    @Test("A German run found by detect is read as German")
    func detectedGermanRun() throws {
        let splitter = LanguageRunSplitter(switching: .detect, languages: ["en", "de"])
        let runs = splitter.runs(of: "He wrote \"Ich habe heute leider keine Zeit für dich\" and left.", language: "en")
        let german = try #require(runs.first { $0.language == "de" })
        let own = try ipa(german.text, voice: "de")
        let english = try ipa(german.text, voice: "en")
        #expect(own != english)
        // "ich" and "dich" with German's [ç].
        #expect(own.split(separator: " ").first == "ɪç" && own.hasSuffix("dˈɪç"), "\(own)")
    }
}
