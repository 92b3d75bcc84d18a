// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc

/// Long texts for the long-text tests: plain English sentences (ASCII, so a character is a byte;
/// no quotes, backslashes or line breaks, so a text goes into a JSON line as it is), repeated up
/// to an exact length, and SSML with a mark before every sentence.
enum LongText {
    /// Sentences of ordinary words, without digits (espeak-ng reads "42" as two words).
    static let sentences = [
        "The committee met on a quiet morning to read the whole report aloud. ",
        "Every chapter begins with a question, and every answer raises another one. ",
        "Rain fell on the harbour while the ships waited for the tide to turn. ",
        "Nobody in the room expected the reading to last until the evening. ",
    ]

    /// Exactly `count` Unicode scalars of the sentences, over and over.
    static func plain(count: Int) -> String {
        let round = sentences.joined()
        let repeated = String(repeating: round, count: count / round.utf8.count + 1)
        return String(decoding: repeated.utf8.prefix(count), as: UTF8.self)
    }

    /// A mark of ``ssml(marks:)``: its name and where its tag starts, in scalars of the SSML.
    struct Mark {
        var name: String
        var offset: Int
    }

    /// Short sentences, each after a mark (`s0`, `s1`, …): the place Orca's say-all puts one,
    /// right after the previous sentence's full stop. At least `minimumCount` scalars in all.
    static func ssml(minimumCount: Int) -> (text: String, marks: [Mark]) {
        let short = ["One more line is read. ", "Then another follows. ", "Still it goes on. "]
        var text = "<speak>"
        var marks: [Mark] = []
        var index = 0
        while text.utf8.count < minimumCount {
            let name = "s\(index)"
            marks.append(Mark(name: name, offset: text.utf8.count))
            text += "<mark name='\(name)'/>" + short[index % short.count]
            index += 1
        }
        return (text + "</speak>", marks)
    }
}

extension DaemonProcess {
    /// Waits until the wav output of post `seq` holds at least `samples` samples, looking at the
    /// file's size whenever inotify reports a file of the wav directory created or written (the
    /// output writes as it plays); false after `timeout` seconds.
    func waitForAudio(seq: Int, samples: Int, timeout: Double = 30) -> Bool {
        let path = URL(fileURLWithPath: wavDirectory).appendingPathComponent("\(seq).wav").path
        let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard watch >= 0 else { return false }
        defer { close(watch) }
        // Watched before the first look at the size, so no write between the two goes unseen.
        guard inotify_add_watch(watch, wavDirectory, UInt32(IN_CREATE | IN_MODIFY)) >= 0 else { return false }
        let deadline = Date().addingTimeInterval(timeout)
        var events = [UInt8](repeating: 0, count: 4096)
        while true {
            var info = stat()
            if stat(path, &info) == 0, Int(info.st_size) >= 44 + 2 * samples { return true }
            let remaining = Int32(deadline.timeIntervalSinceNow * 1000)
            guard remaining > 0 else { return false }
            var ready = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, remaining) >= 0 || errno == EINTR else { return false }
            while read(watch, &events, events.count) > 0 {}
        }
    }
}
