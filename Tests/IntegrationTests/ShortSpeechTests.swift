// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

@Suite("Daemon: char, key and sound, heard in the audio", .daemonTimeLimit, .onBlockingThreads)
struct ShortSpeechTests {
    @Test(
        "char a is espeak-ng's spelling of a; key control_alt_delete is \"control alt delete\"; key shift_a spells the a"
    )
    func charAndKey() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(#"{"op":"char","id":1,"char":"a","voice":"en-us","rate":175}"#)
        try #require(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        client.send(#"{"op":"key","id":2,"key":"control_alt_delete","voice":"en-us","rate":175}"#)
        try #require(client.waitForTerminal(id: 2)?["success"] == .bool(true))
        client.send(#"{"op":"key","id":3,"key":"shift+a","voice":"en-us","rate":175}"#)
        try #require(client.waitForTerminal(id: 3)?["success"] == .bool(true))
        #expect(client.lines(id: 2).first { $0.event == "started" }?["text"] == .string("control alt delete"))

        let letter = WAVFile.trimmed(try daemon.wavSamples(seq: 1))
        let spelledLetter = WAVFile.trimmed(
            try espeakReference(
                text: #"<speak><say-as interpret-as="characters">a</say-as> </speak>"#, voice: "en-us", rate: 175,
                ssml: true))
        let key = WAVFile.trimmed(try daemon.wavSamples(seq: 2))
        let words = WAVFile.trimmed(try espeakReference(text: "control alt delete", voice: "en-us", rate: 175))
        let shifted = WAVFile.trimmed(try daemon.wavSamples(seq: 3))
        let shiftA = WAVFile.trimmed(
            try espeakReference(
                text: #"<speak>shift <say-as interpret-as="characters">a</say-as></speak>"#, voice: "en-us", rate: 175,
                ssml: true))
        print(
            "char a: \(letter.count) samples (espeak-ng \(spelledLetter.count)); control_alt_delete: \(key.count) (\(words.count)); shift+a: \(shifted.count) (\(shiftA.count))"
        )
        #expect(abs(letter.count - spelledLetter.count) < spelledLetter.count / 10)
        #expect(
            abs(key.count - words.count) < words.count / 50,
            "the key's audio is not as long as espeak-ng saying \"control alt delete\"")
        #expect(abs(shifted.count - shiftA.count) < shiftA.count / 10)
    }

    @Test(
        "sound screen-changed plays the earcon alone (about 120 ms), even with earcons off; an unknown name is invalid")
    func sound() throws {
        let file = try EditableConfigFile(#"{"earcons": false}"#)
        let daemon = try DaemonProcess(arguments: ["--config", file.path])
        let client = try daemon.connect()
        client.send(#"{"op":"sound","id":1,"name":"screen-changed"}"#)
        try #require(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(client.lines(id: 1).contains { $0.event == "started" })
        let earcon = WAVFile.trimmed(try daemon.wavSamples(seq: 1))
        print("sound screen-changed: \(earcon.count) samples")
        #expect(earcon.count > 2_400 && earcon.count < 2_700, "\(earcon.count) samples")
        client.send(
            #"{"op":"sound","id":2,"name":"beep"}"#, #"{"op":"char","id":3,"char":"ab"}"#,
            #"{"op":"key","id":4,"key":"a b"}"#)
        for (id, field) in [(2, "`name`"), (3, "`char`"), (4, "`key`")] {
            let error = try #require(client.waitFor("error", id: id))
            #expect(
                error["code"] == .string("invalid") && error["message"]?.stringValue?.contains(field) == true,
                "\(error.text)")
        }
    }

    @Test("announcectl char, key and sound: spoken with --wait; a bad name is a usage error")
    func commandLine() throws {
        let daemon = try DaemonProcess()
        for arguments in [["char", "x"], ["char", " "], ["key", "control_alt_delete"], ["sound", "screen-changed"]] {
            let result = try AnnouncectlProcess.run(["--socket", daemon.socketPath] + arguments + ["--wait"])
            #expect(result.status == 0 && result.stdout == "spoken\n", "\(arguments): \(result)")
        }
        for arguments in [["char", "xy"], ["key", "a b"], ["sound", "beep"]] {
            #expect(
                try AnnouncectlProcess.run(["--socket", daemon.socketPath] + arguments).status == 2, "\(arguments)")
        }
    }
}
