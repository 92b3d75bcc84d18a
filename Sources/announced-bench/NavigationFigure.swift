// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import Foundation
import Glibc

extension Figures {
    /// 8. `navigate next` → the new stop's `started`: a navigator's write until its `speech`
    /// subscription says the stop's speech reached the audio output, on an idle daemon with one
    /// app's screen of `samples + 1` stops.
    func navigateNext() throws -> Figure {
        let daemon = try BenchDaemon(executable: executable)
        defer { daemon.stop() }
        let app = try daemon.connect()
        let stops = (0...samples).map { #"{"id":"e\#($0)","label":"Item \#($0)","traits":["button"]}"# }.joined(
            separator: ",")
        // A string subject: the screen is published without focusing anything.
        app.send(#"{"op":"screen-changed","id":1,"element":"Menu","elements":[\#(stops)]}"#)
        guard app.waitFor(#""event":"finished""#, #""id":1,"#) != nil else {
            throw BenchError("the screen post was not answered")
        }
        let keys = try daemon.connect()
        keys.send(#"{"op":"subscribe","id":0,"events":["speech"]}"#)
        keys.waitFor(#""event":"ok""#, #""id":0"#)
        var figure = Figure(name: "8. navigate next → the new stop's started (idle)")
        for id in 1...samples {
            let start = now()
            keys.send(#"{"op":"navigate","id":\#(id),"action":"next"}"#)
            guard let started = keys.waitFor(#""state":"started""#, #""client":"navigation""#) else {
                throw BenchError("lost the connection")
            }
            figure.add(nanoseconds: started - start)
            // Stop it and wait until it has ended, so the next sample starts on an idle daemon.
            keys.send(#"{"op":"stop"}"#)
            keys.waitFor(#""state":"finished""#, #""client":"navigation""#)
        }
        return figure
    }

    /// 9. `announcectl next`, as a desktop shortcut runs it: exec → exit 0 (the process starts,
    /// connects, sends one `navigate` and has its answer), on an idle daemon with a screen.
    func announcectlNext() throws -> Figure {
        let daemon = try BenchDaemon(executable: executable)
        defer { daemon.stop() }
        let app = try daemon.connect()
        let stops = (0...samples).map { #"{"id":"e\#($0)","label":"Item \#($0)"}"# }.joined(separator: ",")
        app.send(#"{"op":"screen-changed","id":1,"element":"Menu","elements":[\#(stops)]}"#)
        guard app.waitFor(#""event":"finished""#, #""id":1,"#) != nil else {
            throw BenchError("the screen post was not answered")
        }
        let tool = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("announcectl")
        var figure = Figure(name: "9. announcectl next: exec → exit (one navigate answered)")
        // posix_spawn and waitpid, not Foundation's Process: its waitUntilExit polls a run loop
        // and would add its own milliseconds to the figure.
        let arguments = [tool.path, "--socket", daemon.socketPath, "next"]
        for _ in 0..<min(samples, 100) {
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            let start = now()
            guard posix_spawn(&pid, tool.path, nil, nil, &argv, environ) == 0 else {
                throw BenchError("cannot start \(tool.path)")
            }
            var status: Int32 = 0
            _ = retryingOnInterrupt { waitpid(pid, &status, 0) }
            figure.add(nanoseconds: now() - start)
            guard status == 0 else { throw BenchError("announcectl next exited with wait status \(status)") }
        }
        return figure
    }
}
