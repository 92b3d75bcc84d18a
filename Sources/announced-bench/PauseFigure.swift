// SPDX-License-Identifier: GPL-3.0-or-later
extension Figures {
    /// 10. Pause and resume on a speaking post: write `pause` → its `paused` line (the output is
    /// held from that moment: the daemon closes the speech thread's gate before it answers, and
    /// the thread writes at most the one ≈5 ms slice it was in), and write `resume` → `resumed`
    /// (the thread is let go before the line is sent, and continues from the next sample).
    func pauseAndResume() throws -> (Figure, Figure) {
        let daemon = try BenchDaemon(executable: executable)
        defer { daemon.stop() }
        let client = try daemon.connect()
        var paused = Figure(name: "10. pause: write → paused (output held)")
        var resumed = Figure(name: "10. resume: write → resumed (output continues)")
        let text = "A long sentence that keeps speaking while it is paused and resumed, again and again, until the end."
        var post = 0
        client.send(#"{"op":"announce","id":\#(post),"text":"\#(text)"}"#)
        client.waitFor(#""event":"started""#, #""id":\#(post),"#)
        for sample in 0..<samples {
            // Every 20 samples, a fresh post, so that the measured one is always mid-speech.
            if sample > 0, sample % 20 == 0 {
                post += 1
                client.send(#"{"op":"announce","id":\#(post),"text":"\#(text)"}"#)
                client.waitFor(#""event":"started""#, #""id":\#(post),"#)
            }
            let start = now()
            client.send(#"{"op":"pause","id":"p\#(sample)"}"#)
            // The reply comes before the `paused` line: both are waited for together.
            guard
                let held = client.waitForEach([[#""event":"paused""#, #""id":\#(post),"#], [#""id":"p\#(sample)""#]])
            else {
                throw BenchError("lost the connection")
            }
            paused.add(nanoseconds: held[0] - start)
            let again = now()
            client.send(#"{"op":"resume","id":"r\#(sample)"}"#)
            guard
                let going = client.waitForEach([[#""event":"resumed""#, #""id":\#(post),"#], [#""id":"r\#(sample)""#]])
            else {
                throw BenchError("lost the connection")
            }
            resumed.add(nanoseconds: going[0] - again)
        }
        return (paused, resumed)
    }
}
