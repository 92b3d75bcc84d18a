// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ProcessHarness

/// Figure 12: texts of any length up to `max_text_chars`, from the socket to the first sample.
struct LongTextFigures {
    /// Write → `started`, by text (null output).
    var started: [Figure] = []
    /// Write → first audible sample at a PulseAudio null sink, by text (when PulseAudio is installed).
    var heard: [Figure] = []
    /// The daemon and its helper: idle before, while speaking the 1 MiB text, and after it.
    var idle = MemoryRollup()
    var speaking = MemoryRollup()
    var after = MemoryRollup()

    /// Every row: the latencies, then the memory table.
    var described: String {
        (started + heard).map {
            pad($0.name, 62) + "p50 \(format($0.p50))  p99 \(format($0.p99))  max \(format($0.max))"
        }
        .joined(separator: "\n") + "\n" + memoryTable
    }

    /// The memory rows, MiB.
    var memoryTable: String {
        MemoryRollup.table(
            "12. daemon + helper memory around a 1 MiB text (--audio null; MiB, from /proc/PID/smaps_rollup):",
            [("idle, before", idle), ("speaking it, 1 s in", speaking), ("2.5 s after stop", after)]
        )
    }
}

/// The texts figure 12 speaks: plain sentences repeated to an exact length, and SSML with a mark
/// before every sentence.
enum LongTexts {
    static let sentence = "The committee met on a quiet morning to read the whole report aloud. "

    static func plain(_ count: Int) -> String {
        String(
            decoding: String(repeating: sentence, count: count / sentence.utf8.count + 1).utf8.prefix(count),
            as: UTF8.self)
    }

    static func ssml(_ count: Int) -> String {
        var text = "<speak>"
        var index = 0
        let end = "</speak>"
        while true {
            let piece = "<mark name='m\(index)'/>" + sentence
            guard text.utf8.count + piece.utf8.count + end.utf8.count <= count else { break }
            text += piece
            index += 1
        }
        return text + end
    }

    /// `count` bytes of JSON string: the sentence with a Russian word, its Cyrillic escaped
    /// (`\u041f`) as Python's `json.dumps` writes every non-ASCII character.
    static func mixedEscaped(_ count: Int) -> String {
        let escaped =
            "The file \\u041f\\u0440\\u0438\\u0432\\u0435\\u0442 was saved and the report was sent to the team. "
        var text = String(repeating: escaped, count: count / escaped.utf8.count)
        text += String(repeating: " ", count: count - text.utf8.count)
        return text
    }

    /// The texts, by name.
    static let all: [(name: String, text: String, ssml: Bool)] = [
        ("short (68 characters)", sentence, false),
        ("10,000 characters", plain(10_000), false),
        ("300,000 characters", plain(300_000), false),
        ("1 MiB (1,048,576 characters)", plain(1_048_576), false),
        ("1 MiB of SSML, a mark per sentence", ssml(1_048_576), true),
        ("1 MiB of JSON: a Russian word per sentence, escaped (\\uXXXX)", mixedEscaped(1_048_576), false),
    ]
}

extension Figures {
    /// 12. Long texts: write → `started` for texts from a sentence to 1 MiB (a fresh helper for
    /// each sample, stopped once started), write → first audible sample at a null sink, and the
    /// daemon and helper's memory while a 1 MiB text speaks and after.
    func longTexts() throws -> LongTextFigures {
        var figures = LongTextFigures()
        let rounds = self.rounds(atLeast: 3, perSamples: 20)
        do {
            let daemon = try BenchDaemon(executable: executable)
            defer { daemon.stop() }
            let client = try daemon.connect()
            var id = 0
            for text in LongTexts.all {
                var figure = Figure(name: "12. write → started, " + text.name)
                for _ in 0..<rounds {
                    id += 1
                    let line =
                        Array(#"{"op":"announce","id":\#(id),"ssml":\#(text.ssml),"text":"\#(text.text)"}"#.utf8) + [10]
                    let start = now()
                    client.send(line)
                    guard let started = client.waitFor(#""event":"started""#, #""id":\#(id),"#) else {
                        throw BenchError("lost the connection")
                    }
                    figure.add(nanoseconds: started - start)
                    client.send(#"{"op":"stop","id":"s\#(id)"}"#)
                    guard client.waitFor(#""event":"finished""#, #""id":\#(id),"#) != nil else {
                        throw BenchError("lost the connection")
                    }
                }
                figures.started.append(figure)
            }
        }
        try measureLongTextMemory(&figures)
        if HeadlessPulseAudio.canRecord { try measureHeardLongTexts(&figures, rounds: rounds) }
        return figures
    }

    private func measureLongTextMemory(_ figures: inout LongTextFigures) throws {
        let daemon = try BenchDaemon(executable: executable)
        defer { daemon.stop() }
        let client = try daemon.connect()
        client.send(#"{"op":"announce","id":0,"text":"Saved"}"#)
        guard client.waitFor(#""event":"finished""#) != nil else { throw BenchError("lost the connection") }
        usleep(2_000_000)
        let pair = { try daemon.memoryOfPair().sum }
        figures.idle = try pair()
        client.send(#"{"op":"announce","id":1,"text":"\#(LongTexts.plain(1_048_576))"}"#)
        guard client.waitFor(#""event":"started""#) != nil else { throw BenchError("lost the connection") }
        usleep(1_000_000)
        figures.speaking = try pair()
        client.send(#"{"op":"stop","id":2}"#)
        guard client.waitFor(#""event":"finished""#) != nil else { throw BenchError("lost the connection") }
        usleep(2_500_000)
        figures.after = try pair()
    }

    /// Write → the first audible sample at the sink, for the short text and the 1 MiB ones.
    private func measureHeardLongTexts(_ figures: inout LongTextFigures, rounds: Int) throws {
        figures.heard = try withHeardDaemon { daemon, recorder in try heardLongTexts(daemon, recorder, rounds: rounds) }
    }

    private func heardLongTexts(_ daemon: BenchDaemon, _ recorder: MonitorRecorder, rounds: Int) throws -> [Figure] {
        var heard: [Figure] = []
        let client = try daemon.connect()
        var id = 0
        for text in LongTexts.all where text.name.hasPrefix("short") || text.name.hasPrefix("1 MiB") {
            var figure = Figure(name: "12. heard (pulse): write → audible, " + text.name)
            for _ in 0..<rounds {
                id += 1
                let times = try recorder.timeHeardPost(
                    #"{"op":"announce","id":\#(id),"ssml":\#(text.ssml),"text":"\#(text.text)"}"#, id: id, on: client
                )
                figure.add(nanoseconds: times.heard)
            }
            heard.append(figure)
        }
        return heard
    }
}
