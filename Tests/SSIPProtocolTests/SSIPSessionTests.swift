import AnnounceProtocol
// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import SSIPProtocol
import Testing

extension SSIPSession {
    fileprivate mutating func send(_ line: String) -> SSIPStep { take(Array((line + "\r").utf8)) }
}

@Suite("SSIP sessions")
struct SSIPSessionTests {
    @Test("Orca's connect sequence and one utterance (shared/ssip.md §9)")
    func orca() {
        var session = SSIPSession(clientID: 7, maxCharacters: 8192)
        let connect: [(String, Int)] = [
            ("SET self CLIENT_NAME unknown:Orca:default", 208), ("HISTORY GET CLIENT_ID", 245),
            ("SET self NOTIFICATION index_marks on", 220), ("SET self NOTIFICATION begin on", 220),
            ("SET self NOTIFICATION end on", 220), ("SET self NOTIFICATION cancel on", 220),
            ("SET self NOTIFICATION pause on", 220), ("SET self NOTIFICATION resume on", 220),
            ("SET self PRIORITY message", 202), ("SET self SSML_MODE on", 219), ("SET self PUNCTUATION most", 205),
            ("SET self CAP_LET_RECOGN none", 206), ("SET self LANGUAGE en", 201), ("SET self LANGUAGE en-US", 201),
            ("SET self RATE 2", 203), ("SET self PITCH 10", 204), ("SET self VOLUME 100", 218), ("CANCEL self", 213),
        ]
        for (line, code) in connect {
            switch session.send(line) {
            case .reply(let reply): #expect(reply.code == code, "\(line)")
            case .control(.cancel, .self, let success): #expect(success.code == code)
            case let other: Issue.record("\(line) gave \(other)")
            }
        }
        #expect(session.send("HISTORY GET CLIENT_ID") == .reply(.clientID(7)))
        #expect(SSIPNotification.allCases.allSatisfy(session.notifications.contains))
        #expect(session.settings.clientName == "unknown:Orca:default")
        #expect(session.send("SPEAK") == .reply(.receivingData))
        #expect(session.isReceivingData)
        #expect(session.send(#"<speak><mark name="0:6"/>Cancel <mark name="7:11"/>push</speak>"#) == .none)
        guard case .queue(let message) = session.send(".") else {
            Issue.record("the message was not queued")
            return
        }
        #expect(!session.isReceivingData)
        #expect(message.kind == .text && message.text.hasPrefix("<speak>") && !message.inBlock)
        #expect(
            message.settings.priority == .message && message.settings.ssmlMode && message.settings.language == "en-US")
        let options = message.settings.speechOptions(
            defaultRate: 175, maxRate: 450, defaultPitch: 50, defaultVolume: 100)
        #expect(options.ssml && options.lang == "en-US" && options.punctuation == .some)
        #expect(options.rate == 181)
        #expect(options.pitch == 55 && options.volume == 200)
    }

    @Test("a command word inside data is text, not a command")
    func dataIsText() {
        var session = SSIPSession(clientID: 1, maxCharacters: 100)
        _ = session.send("SPEAK")
        #expect(session.send("QUIT") == .none)
        #expect(
            session.send(".")
                == .queue(SSIPMessage(kind: .text, text: "QUIT", settings: SSIPSettings(), inBlock: false)))
        #expect(session.send("QUIT") == .quit)
    }

    @Test("GET answers what SET self set; SET all and SET <id> go to the server")
    func settings() {
        var session = SSIPSession(clientID: 2, maxCharacters: 100)
        #expect(session.send("GET RATE") == .reply(.got("0")))
        _ = session.send("SET self RATE -40")
        _ = session.send("SET self PUNCTUATION all")
        _ = session.send("SET self VOICE_TYPE child_female")
        #expect(session.send("GET RATE") == .reply(.got("-40")))
        #expect(session.send("GET punctuation") == .reply(.got("all")))
        #expect(session.send("GET VOICE_TYPE") == .reply(.got("CHILD_FEMALE")))
        #expect(session.send("SET all RATE 10") == .setOthers(.all, .rate(10), success: .rateSet))
        #expect(session.send("SET 9 VOLUME -5") == .setOthers(.client(9), .volume(-5), success: .volumeSet))
        #expect(session.settings.rate == -40, "SET all is applied by the server, which also applies it here")
        session.apply(fromOthers: .rate(10))
        #expect(session.send("GET RATE") == .reply(.got("10")))
    }

    @Test("CHAR, KEY and SOUND_ICON queue messages; BLOCK marks them")
    func events() {
        var session = SSIPSession(clientID: 2, maxCharacters: 100)
        #expect(session.send("BLOCK END") == .reply(.alreadyOutsideBlock))
        #expect(session.send("BLOCK BEGIN") == .reply(.insideBlock))
        #expect(session.send("BLOCK BEGIN") == .reply(.alreadyInsideBlock))
        #expect(
            session.send("KEY control_alt_delete")
                == .queue(SSIPMessage(kind: .key, text: "control_alt_delete", settings: SSIPSettings(), inBlock: true)))
        #expect(session.send("STOP self") == .reply(.notAllowedInsideBlock))
        #expect(session.send("BLOCK END") == .reply(.outsideBlock))
        #expect(
            session.send("CHAR space")
                == .queue(SSIPMessage(kind: .char, text: "space", settings: SSIPSettings(), inBlock: false)))
        #expect(
            session.send("SOUND_ICON bell")
                == .queue(SSIPMessage(kind: .soundIcon, text: "bell", settings: SSIPSettings(), inBlock: false)))
    }

    @Test("CHAR, KEY and SOUND_ICON are bounded like SPEAK (found by FuzzSSIP)")
    func boundedArguments() {
        var session = SSIPSession(clientID: 2, maxCharacters: 8)
        for command in ["CHAR", "KEY", "SOUND_ICON"] {
            guard case .reply(let reply) = session.send("\(command) abcdefghi") else {
                Issue.record("\(command) with 9 characters was queued past a bound of 8")
                continue
            }
            #expect(reply.code == 420)
        }
        #expect(
            session.send("KEY abcdefgh")
                == .queue(SSIPMessage(kind: .key, text: "abcdefgh", settings: SSIPSettings(), inBlock: false)))
    }

    @Test("lists")
    func lists() {
        var session = SSIPSession(clientID: 2, maxCharacters: 100)
        #expect(
            session.send("LIST VOICES")
                == .reply(
                    .voiceList([
                        "MALE1", "MALE2", "MALE3", "FEMALE1", "FEMALE2", "FEMALE3", "CHILD_MALE", "CHILD_FEMALE",
                    ])))
        #expect(session.send("LIST OUTPUT_MODULES") == .listOutputModules)
        #expect(session.send("SET self OUTPUT_MODULE piper") == .setOutputModule(.self, "piper"))
        #expect(session.settings.outputModule == nil, "the front-end applies it once it knows the module has voices")
        #expect(session.send("LIST SYNTHESIS_VOICES") == .listSynthesisVoices)
    }
}

@Suite("SSIP voice parameters onto announced's")
struct SSIPVoiceMappingTests {
    @Test("rate, pitch and volume: the ends of announced's ranges at ±100, the default at 0")
    func ends() {
        #expect(SSIPVoiceMapping.rate(-100, defaultRate: 175, maxRate: 450) == 80)
        #expect(SSIPVoiceMapping.rate(0, defaultRate: 175, maxRate: 450) == 175)
        #expect(SSIPVoiceMapping.rate(100, defaultRate: 175, maxRate: 450) == 450)
        #expect(SSIPVoiceMapping.rate(-50, defaultRate: 175, maxRate: 450) == 127)
        #expect(SSIPVoiceMapping.pitch(-100, defaultPitch: 50) == 0)
        #expect(SSIPVoiceMapping.pitch(100, defaultPitch: 50) == 100)
        #expect(SSIPVoiceMapping.volume(0, defaultVolume: 100) == 100)
        #expect(SSIPVoiceMapping.volume(100, defaultVolume: 100) == 200)
        #expect(SSIPVoiceMapping.volume(-100, defaultVolume: 100) == 0)
    }

    @Test("the mapping never goes down as the SSIP value goes up, and stays in announced's ranges")
    func monotonic() {
        let rates = (-100...100).map { SSIPVoiceMapping.rate($0, defaultRate: 175, maxRate: 450) }
        let volumes = (-100...100).map { SSIPVoiceMapping.volume($0, defaultVolume: 100) }
        #expect(zip(rates, rates.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(zip(volumes, volumes.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(rates.allSatisfy(SpeechRanges.rate.contains) && volumes.allSatisfy(SpeechRanges.volume.contains))
        #expect(SSIPVoiceMapping.rate(-1000, defaultRate: 175, maxRate: 450) == 80, "out-of-range values are clamped")
    }

    @Test(
        "RATE 100 is ssip_max_rate (as speech-dispatcher's EspeakMaxRate), clamped to the engine's limit and never below the default"
    )
    func maxRate() {
        #expect(SSIPVoiceMapping.rate(100, defaultRate: 175, maxRate: 900) == 900)
        #expect(SSIPVoiceMapping.rate(50, defaultRate: 175, maxRate: 975) == 575)
        #expect(SSIPVoiceMapping.rate(-100, defaultRate: 175, maxRate: 900) == 80, "the bottom stays")
        #expect(SSIPVoiceMapping.rate(0, defaultRate: 175, maxRate: 900) == 175, "0 is still the default")
        let limit = SpeechRanges.rate.upperBound
        #expect(SSIPVoiceMapping.rate(100, defaultRate: 175, maxRate: limit + 1000) == limit)
        #expect(
            SSIPVoiceMapping.rate(100, defaultRate: 600, maxRate: 450) == 600, "a top below the default is the default")
        #expect(SSIPVoiceMapping.rate(100, defaultRate: 175, maxRate: SpeechRanges.ssipMaxRate) == 450)
    }

    @Test("every voice type has a variant espeak-ng ships, or none for MALE1", arguments: SSIPVoiceType.allCases)
    func variants(type: SSIPVoiceType) {
        guard let variant = SSIPVoiceMapping.espeakVariant(type) else {
            #expect(type == .male1)
            return
        }
        let path = "/usr/lib/x86_64-linux-gnu/espeak-ng-data/voices/!v/\(variant)"
        #expect(access(path, R_OK) == 0, "\(path) is missing")
    }
}
