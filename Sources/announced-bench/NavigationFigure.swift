extension Figures {
    /// 8. `navigate next` → the new stop's `started`: a navigator's write until its `speech`
    /// subscription says the stop's speech reached the audio output, on an idle daemon with one
    /// app's screen of `samples + 1` stops.
    func navigateNext() throws -> Figure {
        let daemon = try BenchDaemon(executable: executable)
        defer { daemon.stop() }
        let app = try daemon.connect()
        let stops = (0...samples).map { #"{"id":"e\#($0)","label":"Item \#($0)","traits":["button"]}"# }.joined(separator: ",")
        // A string subject: the screen is published without focusing anything.
        app.send(#"{"op":"screen-changed","id":1,"element":"Menu","elements":[\#(stops)]}"#)
        guard app.waitFor(#""event":"finished""#, #""id":1,"#) != nil else { throw BenchError("the screen post was not answered") }
        let keys = try daemon.connect()
        keys.send(#"{"op":"subscribe","id":0,"events":["speech"]}"#)
        keys.waitFor(#""event":"ok""#, #""id":0"#)
        var figure = Figure(name: "8. navigate next → the new stop's started (idle)")
        for id in 1...samples {
            let start = now()
            keys.send(#"{"op":"navigate","id":\#(id),"action":"next"}"#)
            guard let started = keys.waitFor(#""state":"started""#, #""client":"navigation""#) else { throw BenchError("lost the connection") }
            figure.add(nanoseconds: started - start)
            // Stop it and wait until it has ended, so the next sample starts on an idle daemon.
            keys.send(#"{"op":"stop"}"#)
            keys.waitFor(#""state":"finished""#, #""client":"navigation""#)
        }
        return figure
    }
}
