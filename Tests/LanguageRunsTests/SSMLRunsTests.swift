// SPDX-License-Identifier: GPL-3.0-or-later
import LanguageRuns
import Testing

@Suite("Runs from SSML's xml:lang")
struct SSMLRunsTests {
    let splitter = LanguageRunSplitter(switching: .script, languages: ["en"])

    /// Checks what every SSML run must be, and gives (language, SSML) pairs: the runs cover the
    /// post's SSML in order, each run's SSML holds its range of the post at `sourceOffset`.
    func summary(_ runs: [SSMLRun], of ssml: String) -> [String] {
        let scalars = Array(ssml.unicodeScalars)
        var next = 0
        for run in runs {
            #expect(run.range.lowerBound == next, "runs leave a gap or overlap before \(run)")
            let own = Array(run.ssml.unicodeScalars)
            let source = scalars[run.range]
            #expect(
                own[run.sourceOffset..<(run.sourceOffset + source.count)].elementsEqual(source),
                "\(run) does not hold its range")
            next = run.range.upperBound
        }
        #expect(next == scalars.count, "the runs do not reach the end of the SSML")
        return runs.map { "\($0.language): \($0.ssml)" }
    }

    @Test("xml:lang makes a run on each element that carries it", arguments: ["speak", "p", "s", "voice", "lang"])
    func xmlLangOnEachElement(element: String) {
        let ssml = "<speak>Hello <\(element) xml:lang=\"de\">Guten Tag</\(element)> world</speak>"
        #expect(
            summary(splitter.runs(ofSSML: ssml, language: "en"), of: ssml) == [
                "en: <speak>Hello </speak>",
                "de: <speak><\(element) xml:lang=\"de\">Guten Tag</\(element)></speak>",
                "en: <speak> world</speak>",
            ])
    }

    @Test(
        "ASCII SSML without xml:lang in a Latin-script language is one run, the SSML as it is; in Russian its Latin text is still cut into runs of its own"
    )
    func asciiWithoutXMLLang() {
        let ssml = "<speak>Saved. <mark name='a'/>Download complete.</speak>"
        #expect(
            splitter.runs(ofSSML: ssml, language: "en") == [
                SSMLRun(language: "en", range: 0..<ssml.unicodeScalars.count, ssml: ssml, sourceOffset: 0)
            ])
        let russian = splitter.runs(ofSSML: ssml, language: "ru")
        #expect(russian.map(\.language).first == "en" && russian.count > 1, "\(russian)")
    }

    @Test("xml:lang on <speak> is the language of the whole text")
    func xmlLangOnSpeak() {
        let ssml = "<speak xml:lang='de-DE'>Guten Tag</speak>"
        #expect(
            splitter.runs(ofSSML: ssml, language: "en") == [
                SSMLRun(language: "de-DE", range: 0..<41, ssml: ssml, sourceOffset: 0)
            ])
    }

    @Test("The elements open where a run starts are opened again, and those still open are closed")
    func wrappersReopened() {
        let ssml =
            #"<speak><prosody rate="fast">One <s xml:lang="fr">deux <mark name="m2"/>trois</s> four<mark name="m4"/>"#
            + "</prosody></speak>"
        let runs = splitter.runs(ofSSML: ssml, language: "en")
        #expect(
            summary(runs, of: ssml) == [
                #"en: <speak><prosody rate="fast">One </prosody></speak>"#,
                #"fr: <speak><prosody rate="fast"><s xml:lang="fr">deux <mark name="m2"/>trois</s></prosody></speak>"#,
                #"en: <speak><prosody rate="fast"> four<mark name="m4"/></prosody></speak>"#,
            ])
        // A mark's position in a run maps back to its position in the post's SSML.
        let markInRun =
            runs[1].ssml.unicodeScalars.count - #"trois</s></prosody></speak>"#.unicodeScalars.count
            - #"<mark name="m2"/>"#.unicodeScalars.count
        let markInPost =
            Array(ssml.unicodeScalars).count
            - #"trois</s> four<mark name="m4"/></prosody></speak>"#.unicodeScalars.count
            - #"<mark name="m2"/>"#.unicodeScalars.count
        #expect(runs[1].range.lowerBound + markInRun - runs[1].sourceOffset == markInPost)
    }

    @Test("Marks stay in text order across runs")
    func marksInOrder() {
        let ssml =
            #"<speak><mark name="a"/>Hi <voice xml:lang="ru"><mark name="b"/>привет <mark name="c"/></voice>"#
            + #"<mark name="d"/>bye</speak>"#
        let runs = splitter.runs(ofSSML: ssml, language: "en")
        let names = runs.flatMap { run in
            run.ssml.split(separator: "<mark name=\"").dropFirst().map { String($0.prefix(1)) }
        }
        #expect(names == ["a", "b", "c", "d"])
        #expect(runs.map(\.language) == ["en", "ru", "en"])
    }

    @Test("Text inside SSML is cut by script, in the language xml:lang gives it; an opening tag goes with its run")
    func scriptRunsInsideSSML() {
        let ssml = "<speak>The file <emphasis>Привет</emphasis> was saved. <p xml:lang=\"uk\">Файл Привіт</p></speak>"
        #expect(
            summary(splitter.runs(ofSSML: ssml, language: "en"), of: ssml) == [
                "en: <speak>The file </speak>",
                "ru: <speak><emphasis>Привет</emphasis></speak>",
                "en: <speak> was saved. </speak>",
                "uk: <speak><p xml:lang=\"uk\">Файл Привіт</p></speak>",
            ])
    }

    @Test("Runs of one language next to each other are one run; space between paragraphs does not cut")
    func adjacentRunsJoin() {
        let ssml = "<speak><p xml:lang=\"de\">Eins</p>\n<p xml:lang=\"de\">Zwei</p></speak>"
        #expect(
            summary(splitter.runs(ofSSML: ssml, language: "en"), of: ssml) == [
                "de: <speak><p xml:lang=\"de\">Eins</p>\n<p xml:lang=\"de\">Zwei</p></speak>"
            ])
    }

    @Test("Comments, declarations, quoted '>' and single quotes do not confuse the cut")
    func lenientTokens() {
        let ssml =
            "<?xml version=\"1.0\"?><speak><!-- <voice xml:lang=\"ru\"> --><say-as interpret-as=\"x>y\">A</say-as> "
            + "<voice name='v' xml:lang='el'>Γεια</voice></speak>"
        #expect(
            summary(splitter.runs(ofSSML: ssml, language: "en"), of: ssml) == [
                "en: <?xml version=\"1.0\"?><speak><!-- <voice xml:lang=\"ru\"> --><say-as interpret-as=\"x>y\">A</say-as> </speak>",
                "el: <speak><voice name='v' xml:lang='el'>Γεια</voice></speak>",
            ])
    }

    @Test("SSML left open is closed in each run; a stray closing tag is kept")
    func unbalancedSSML() {
        let ssml = "<speak>Hi</p> <voice xml:lang=\"ru\">привет"
        #expect(
            summary(splitter.runs(ofSSML: ssml, language: "en"), of: ssml) == [
                "en: <speak>Hi</p> </speak>",
                "ru: <speak><voice xml:lang=\"ru\">привет</voice></speak>",
            ])
    }
}
