// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ProcessHarness

/// Figure 11, as heard: through a private headless PulseAudio null sink whose monitor is recorded.
struct HeardPauseFigures {
    /// Write `pause` → the post's last audible sample.
    var paused = Figure(name: "11. heard (pulse): write pause → silent")
    /// Write `resume` → its first audible sample again.
    var resumed = Figure(name: "11. heard (pulse): write resume → audible")
    /// Write `cancel` → the post's last audible sample.
    var cancelled = Figure(name: "11. heard (pulse): write cancel → silent")
    /// Requests that fell into a silence of the speech itself, and so measured nothing.
    var inSilence = 0
}

extension Figures {
    /// 11. Pause, resume and cancel as heard at the sink (`--audio pulse` on a private headless
    /// PulseAudio). A sample's time is when the monitor's chunk with it arrived, less the samples
    /// after it in the chunk (as Benchmarks/compare-speechd does); that can place a sample a few
    /// milliseconds early when the sink re-mixes what it had rendered ahead (a stream that starts
    /// again), so `resume → audible` is 0 at the least. A pause or cancel counts only
    /// when the post was audible in the 20 ms before it (not in a pause between its words); the
    /// figure is its last audible sample after the request.
    func heardPause() throws -> HeardPauseFigures {
        guard HeadlessPulseAudio.canRecord else {
            throw BenchError(
                "the heard figures need pulseaudio and pulseaudio-utils (apt-get install pulseaudio pulseaudio-utils)")
        }
        return try withHeardDaemon { daemon, recorder in try heardPause(daemon, recorder) }
    }

    private func heardPause(_ daemon: BenchDaemon, _ recorder: MonitorRecorder) throws -> HeardPauseFigures {
        let client = try daemon.connect()
        var figures = HeardPauseFigures()
        let text = "A long sentence that keeps speaking while it is paused, resumed and cancelled, again and again."
        for id in 0..<rounds(atLeast: 10, perSamples: 10) {
            client.send(#"{"op":"announce","id":\#(id),"text":"\#(text)"}"#)
            guard client.waitFor(#""event":"started""#, #""id":\#(id),"#) != nil else {
                throw BenchError("lost the connection")
            }
            // Somewhere in the middle of a word, most of the time.
            usleep(UInt32(200_000 + (id * 37_000) % 150_000))
            let pausedAt = try request(client, op: "pause", id: "p\(id)")
            usleep(300_000)
            let resumedAt = try request(client, op: "resume", id: "r\(id)")
            usleep(300_000)
            let cancelledAt = try request(client, op: "cancel", id: "c\(id)", extra: #","target":\#(id)"#)
            usleep(300_000)

            let times = audibleTimes(recorder)
            // The pause is 300 ms; what is heard after its first 200 ms belongs to the resume.
            let heldUntil = pausedAt + 200_000_000
            if let silent = lastAudible(times, after: pausedAt, before: heldUntil) {
                figures.paused.add(nanoseconds: silent)
                // Paused mid-word, so the resumed audio is audible at once (not the next word).
                if let audible = times.first(where: { $0 >= heldUntil }) {
                    figures.resumed.add(nanoseconds: audible > resumedAt ? audible - resumedAt : 0)
                }
            } else {
                figures.inSilence += 1
            }
            if let silent = lastAudible(times, after: cancelledAt, before: .max) {
                figures.cancelled.add(nanoseconds: silent)
            } else {
                figures.inSilence += 1
            }
        }
        return figures
    }

    /// Sends a request and waits for its answer; returns when it was sent.
    private func request(_ client: BenchClient, op: String, id: String, extra: String = "") throws -> UInt64 {
        let sent = now()
        client.send(#"{"op":"\#(op)","id":"\#(id)"\#(extra)}"#)
        guard client.waitFor(#""id":"\#(id)""#) != nil else { throw BenchError("lost the connection") }
        return sent
    }

    /// The times of the audible samples of the last 1.5 s of the recording.
    private func audibleTimes(_ recorder: MonitorRecorder) -> [UInt64] {
        let end = recorder.sampleCount
        let start = max(0, end - MonitorRecorder.rate * 3 / 2)
        let recorded = recorder.samples(from: start, to: end)
        return recorded.indices.compactMap { index in
            abs(Int(recorded[index])) > MonitorRecorder.audibleThreshold
                ? recorder.renderedNanoseconds(ofSample: start + index) : nil
        }
    }

    /// From `request` to the last audible sample before `limit`, when the 20 ms before `request`
    /// were audible; nil when they were silent (the request fell between words).
    private func lastAudible(_ times: [UInt64], after request: UInt64, before limit: UInt64) -> UInt64? {
        guard times.contains(where: { $0 < request && $0 + 20_000_000 >= request }) else { return nil }
        let last = times.last { $0 < limit } ?? request
        return last > request ? last - request : 0
    }
}
