// SPDX-License-Identifier: GPL-3.0-or-later
import LanguageRuns
import Testing

@Suite("Runs by a language identifier (language_switching: detect, with CLD2)")
struct DetectRunsTests {
    @Test("An English post quoting a German sentence: the quote is a German run")
    func englishPostQuotingGerman() {
        let splitter = LanguageRunSplitter(switching: .detect, languages: ["en", "de"])
        let text = "He wrote \"Ich habe heute leider keine Zeit für dich\" and left."
        let runs = splitter.runs(of: text, language: "en")
        #expect(
            runs.map { "\($0.language): \($0.text)" } == [
                "en: He wrote ", "de: \"Ich habe heute leider keine Zeit für dich\" ", "en: and left.",
            ])
        #expect(runs.map(\.range) == [0..<9, 9..<53, 53..<62])
        // The same post with `script` only is one English run.
        #expect(
            LanguageRunSplitter(switching: .script, languages: ["en", "de"]).runs(of: text, language: "en").count == 1)
    }

    @Test("A German post quoting an English sentence, and the user's tag as given")
    func germanPostQuotingEnglish() {
        let splitter = LanguageRunSplitter(switching: .detect, languages: ["de-DE", "en-GB"])
        let runs = splitter.runs(of: "Er sagte: «The meeting starts in ten minutes» und ging.", language: "de-DE")
        #expect(runs.map(\.language) == ["de-DE", "en-GB", "de-DE"])
        #expect(runs[1].text == "«The meeting starts in ten minutes» ")
    }

    @Test("Only the user's languages are candidates: with English alone nothing is identified")
    func onlyTheUsersLanguages() {
        let text = "He wrote \"Ich habe heute leider keine Zeit für dich\" and left."
        #expect(LanguageRunSplitter(switching: .detect, languages: ["en"]).runs(of: text, language: "en").count == 1)
        // A French sentence for a user of English and German is not German.
        let french = "He wrote \"Je ne sais pas où sont mes clés\" and left."
        let runs = LanguageRunSplitter(switching: .detect, languages: ["en", "de"]).runs(of: french, language: "en")
        #expect(!runs.contains { $0.language == "de" })
    }

    @Test("Phrases of fewer than three words are not asked about")
    func shortPhrasesStay() {
        let splitter = LanguageRunSplitter(switching: .detect, languages: ["en", "de"])
        #expect(splitter.runs(of: "He said \"Guten Tag\" and left.", language: "en").count == 1)
    }

    @Test("Cyrillic among the user's Russian and Ukrainian: the identifier chooses")
    func cyrillicAmongRussianAndUkrainian() {
        let splitter = LanguageRunSplitter(switching: .detect, languages: ["en", "ru", "uk"])
        let ukrainian = "She replied: Я передзвоню тобі завтра вранці."
        #expect(splitter.runs(of: ukrainian, language: "en").map(\.language) == ["en", "uk"])
        // `script` alone reads Cyrillic as the first of the user's languages written in it.
        let script = LanguageRunSplitter(switching: .script, languages: ["en", "ru", "uk"])
        #expect(script.runs(of: ukrainian, language: "en").map(\.language) == ["en", "ru"])
    }

    @Test("CLD2 is opened at run time: its library and both of its calls are found, and then it is mapped")
    func cld2Opens() {
        #expect(CLD2LanguageIdentifier.loadFailure == nil)
        #expect(CLD2LanguageIdentifier.isLoaded)
    }

    @Test("CLD2 answers only among the candidates, and nil when unsure")
    func identifierAnswers() {
        let cld2 = CLD2LanguageIdentifier()
        #expect(cld2.language(of: "Ich habe heute leider keine Zeit für dich", among: ["en", "de"]) == "de")
        #expect(cld2.language(of: "Ich habe heute leider keine Zeit für dich", among: ["en-US", "de-AT"]) == "de-AT")
        #expect(cld2.language(of: "The meeting starts in ten minutes", among: ["de", "en"]) == "en")
        #expect(cld2.language(of: "Ok", among: ["en", "de"]) == nil)
    }
}
