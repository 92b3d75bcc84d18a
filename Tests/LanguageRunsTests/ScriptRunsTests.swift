// SPDX-License-Identifier: GPL-3.0-or-later
import LanguageRuns
import Testing

@Suite("Runs by script (language_switching: script)")
struct ScriptRunsTests {
    let splitter = LanguageRunSplitter(switching: .script, languages: ["en"])

    /// The runs as (language, text) pairs, which also checks that they cover the text in order.
    func summary(_ runs: [LanguageRun], of text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var next = 0
        for run in runs {
            #expect(run.range.lowerBound == next, "runs leave a gap or overlap before \(run)")
            #expect(
                String(String.UnicodeScalarView(scalars[run.range])) == run.text,
                "a run's text is not its range of the post")
            next = run.range.upperBound
        }
        #expect(next == scalars.count, "the runs do not reach the end of the text")
        return runs.map { "\($0.language): \($0.text)" }
    }

    @Test("A Russian word in an English post is a run of its own, at exact scalar offsets")
    func cyrillicWordInAnEnglishPost() {
        let runs = splitter.runs(of: "The file Привет was saved", language: "en")
        #expect(
            runs == [
                LanguageRun(language: "en", range: 0..<9, text: "The file "),
                LanguageRun(language: "ru", range: 9..<16, text: "Привет "),
                LanguageRun(language: "en", range: 16..<25, text: "was saved"),
            ])
    }

    @Test("Offsets count Unicode scalars, not characters or bytes")
    func offsetsAreScalars() {
        // "é" as e + a combining acute: two scalars, one Character; "👍🏽": two scalars, one Character.
        let text = "Cafe\u{301} 👍🏽 Привет"
        let runs = splitter.runs(of: text, language: "en")
        #expect(summary(runs, of: text) == ["en: Cafe\u{301} 👍🏽 ", "ru: Привет"])
        #expect(runs.map(\.range) == [0..<9, 9..<15])
    }

    @Test("Greek and Japanese in an English post")
    func greekAndJapanese() {
        let text = "Say καλημέρα to everyone, then こんにちは and 東京タワー."
        #expect(
            summary(splitter.runs(of: text, language: "en"), of: text) == [
                "en: Say ", "el: καλημέρα ", "en: to everyone, then ", "ja: こんにちは ", "en: and ", "ja: 東京タワー.",
            ])
    }

    @Test("Han is Chinese without kana near it, Japanese with kana")
    func hanWithAndWithoutKana() {
        let text = "The sign says 北京欢迎你 and the menu says 寿司です"
        #expect(
            summary(splitter.runs(of: text, language: "en"), of: text) == [
                "en: The sign says ", "zh: 北京欢迎你 ", "en: and the menu says ", "ja: 寿司です",
            ])
    }

    @Test(
        "Each script goes to the language it implies",
        arguments: [
            ("שלום", "he"), ("مرحبا", "ar"), ("안녕하세요", "ko"), ("नमस्ते", "hi"), ("สวัสดี", "th"), ("カタカナ", "ja"),
            ("Ελλάδα", "el"),
        ])
    func impliedLanguages(word: String, language: String) {
        let runs = splitter.runs(of: "He wrote \(word) twice", language: "en")
        #expect(runs.map(\.language) == ["en", language, "en"])
        #expect(runs[1].text == "\(word) ")
    }

    @Test("With languages [en, uk], Cyrillic is read as Ukrainian")
    func userLanguagesChooseAmongAScriptsLanguages() {
        let ukrainian = LanguageRunSplitter(switching: .script, languages: ["en", "uk"])
        let text = "The file Привіт was saved"
        #expect(
            summary(ukrainian.runs(of: text, language: "en"), of: text) == [
                "en: The file ", "uk: Привіт ", "en: was saved",
            ])
        // As the user gave it, region and all.
        let tagged = LanguageRunSplitter(switching: .script, languages: ["en", "uk-UA", "ru"])
        #expect(tagged.runs(of: text, language: "en").map(\.language) == ["en", "uk-UA", "en"])
    }

    @Test("A script the post's language is written in stays in the post's language")
    func postsOwnScriptStays() {
        let text = "Файл сохранён"
        #expect(splitter.runs(of: text, language: "ru") == [LanguageRun(language: "ru", range: 0..<13, text: text)])
        // Serbian is written in both.
        #expect(splitter.runs(of: "Fajl Привет", language: "sr").count == 1)
        // A Latin word in a Russian post: to the first of the user's languages written in Latin.
        let russianUser = LanguageRunSplitter(switching: .script, languages: ["ru", "de"])
        #expect(
            summary(russianUser.runs(of: "Файл report сохранён", language: "ru"), of: "Файл report сохранён") == [
                "ru: Файл ", "de: report ", "ru: сохранён",
            ])
        // And stays Russian when the user reads no Latin language.
        #expect(
            LanguageRunSplitter(switching: .script, languages: ["ru"]).runs(of: "Файл report сохранён", language: "ru")
                .count == 1)
    }

    @Test("Digits, punctuation, spaces and symbols stay with the run around them")
    func neutralCharactersStay() {
        let text = "Файл №2, «отчёт» (2024) — готов! Then 3 files, 100% done."
        #expect(
            summary(splitter.runs(of: text, language: "en"), of: text) == [
                "ru: Файл №2, «отчёт» (2024) — готов! ", "en: Then 3 files, 100% done.",
            ])
        // Leading and trailing neutral characters go with the first and last runs.
        let quoted = "«Привет», he said: 42."
        #expect(
            summary(splitter.runs(of: quoted, language: "en"), of: quoted) == ["ru: «Привет», ", "en: he said: 42."])
        // An opening bracket after a space goes with the run it opens; without a space, the
        // characters between two runs stay with the first.
        let bracketed = "See (Привет) and Привет-world"
        #expect(
            summary(splitter.runs(of: bracketed, language: "en"), of: bracketed) == [
                "en: See ", "ru: (Привет) ", "en: and ", "ru: Привет-", "en: world",
            ])
        // Nothing but neutral characters: one run.
        #expect(splitter.runs(of: "12:30 — 42%", language: "en").count == 1)
    }

    @Test("A single foreign letter inside a word is not a run")
    func singleForeignLetterInAWord() {
        // A Cyrillic "а" and "о" inside Latin words (look-alikes), and a Latin "a" inside a Russian word.
        let text = "Enter the pаsswоrd for Ивaн"
        #expect(
            summary(splitter.runs(of: text, language: "en"), of: text) == ["en: Enter the pаsswоrd for ", "ru: Ивaн"])
        // A single letter standing alone is a run: it is read in its language.
        #expect(splitter.runs(of: "Press Ж now", language: "en").map(\.language) == ["en", "ru", "en"])
        // Two foreign letters in a row inside a word are a run.
        #expect(splitter.runs(of: "abЖЖcd", language: "en").map(\.text) == ["ab", "ЖЖ", "cd"])
        // Kana and Han side by side are not single foreign letters to each other.
        #expect(splitter.runs(of: "Drink お茶を please", language: "en").map(\.language) == ["en", "ja", "en"])
    }

    @Test("off gives one run in the post's language, whatever the text")
    func offGivesOneRun() {
        let off = LanguageRunSplitter(switching: .off, languages: ["en", "uk"])
        let text = "The file Привет was saved, καλημέρα, こんにちは"
        #expect(
            off.runs(of: text, language: "en") == [
                LanguageRun(language: "en", range: 0..<text.unicodeScalars.count, text: text)
            ])
        #expect(
            off.runs(ofSSML: "<speak>Hello <voice xml:lang=\"ru\">привет</voice></speak>", language: "en").count == 1)
    }

    @Test("An empty text is one empty run")
    func emptyText() {
        #expect(splitter.runs(of: "", language: "en") == [LanguageRun(language: "en", range: 0..<0, text: "")])
    }
}
