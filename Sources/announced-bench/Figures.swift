// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import POSIXThreads
import Synchronization

/// The benchmark's figures, each against the daemon as a separate process on a real socket.
struct Figures {
    let executable: String
    let samples: Int
    let millionPosts: Int
    /// A smoke run (`--smoke`): each figure takes `samples` rounds, without the floors that make
    /// the figures worth quoting.
    var smoke = false

    /// How many rounds a figure takes: `samples / divisor`, at least `minimum`; `samples` in a
    /// smoke run.
    func rounds(atLeast minimum: Int, perSamples divisor: Int) -> Int {
        smoke ? samples : max(minimum, samples / divisor)
    }

    /// 1. Socket write → `started`, idle daemon (or with `busy` other connections posting: as fast
    /// as each gets its answers, or one post every `interval`). The figure's note says how many
    /// posts per second the other connections made and how much of the machine's CPU time was
    /// idle while it was measured.
    func startLatency(busy: Int, interval: Duration? = nil) throws -> Figure {
        let daemon = try BenchDaemon(executable: executable)
        defer { daemon.stop() }
        let stop = Atomic<Bool>(false)
        let busyPosts = Atomic<Int>(0)
        var threads: [Thread] = []
        let done = DispatchGroup()
        for index in 0..<busy {
            let client = try daemon.connect()
            done.enter()
            let thread = Thread {
                var n = 0
                // Paced connections start spread over one interval, as independent apps would.
                var next = now() + (interval.map { UInt64($0 / .nanoseconds(1)) * UInt64(index) / UInt64(busy) } ?? 0)
                while !stop.load(ordering: .relaxed) {
                    if let interval {
                        let current = now()
                        if next > current { usleep(UInt32((next - current) / 1000)) }
                        next += UInt64(interval / .nanoseconds(1))
                    }
                    n += 1
                    client.send(#"{"op":"announce","id":\#(n),"text":"busy \#(index)","priority":"low"}"#)
                    client.send(#"{"op":"cancel","id":"c\#(n)","target":\#(n)}"#)
                    client.waitFor(#""id":"c\#(n)""#)
                    busyPosts.add(1, ordering: .relaxed)
                }
                done.leave()
            }
            thread.start()
            threads.append(thread)
        }
        let client = try daemon.connect()
        let name =
            switch (busy, interval) {
            case (0, _): "1. write → started (idle)"
            case (_, nil): "1. write → started (\(busy) connections posting flat out)"
            case (_, let interval?): "1. write → started (\(busy) connections, 1 post/\(interval) each)"
            }
        var figure = Figure(name: name)
        let cpuBefore = CPUTimes.now()
        let postsBefore = busyPosts.load(ordering: .relaxed)
        let measuring = now()
        for id in 0..<samples {
            let start = now()
            client.send(#"{"op":"announce","id":\#(id),"text":"Saved"}"#)
            guard let started = client.waitFor(#""event":"started""#, #""id":\#(id),"#) else {
                throw BenchError("lost the connection")
            }
            figure.add(nanoseconds: started - start)
            // Cancel it and wait until it has stopped, so the next sample starts on an idle daemon.
            client.send(#"{"op":"cancel","target":\#(id)}"#)
            client.waitFor(#""event":"finished""#, #""id":\#(id),"#)
        }
        let load = Double(busyPosts.load(ordering: .relaxed) - postsBefore) / (Double(now() - measuring) / 1e9)
        figure.note =
            (busy > 0 ? "the others: \(format(load, 0)) posts/s; " : "")
            + "machine CPU idle \(format(CPUTimes.now().idlePercent(since: cpuBefore), 0))%"
        stop.store(true, ordering: .relaxed)
        daemon.stop()
        done.wait()
        return figure
    }

    /// 2. An interrupting post: write → old post's terminal line, and → new post's `started`.
    func interruption() throws -> (Figure, Figure) {
        let daemon = try BenchDaemon(executable: executable)
        defer { daemon.stop() }
        let client = try daemon.connect()
        var ended = Figure(name: "2. interrupt: write → old post's terminal line")
        var started = Figure(name: "2. interrupt: write → new post's started")
        client.send(
            #"{"op":"announce","id":0,"text":"A long sentence that keeps speaking while it is interrupted, again and again."}"#
        )
        client.waitFor(#""event":"started""#, #""id":0,"#)
        for id in 1...samples {
            let start = now()
            client.send(
                #"{"op":"announce","id":\#(id),"text":"A long sentence that keeps speaking while it is interrupted, again and again."}"#
            )
            guard let old = client.waitFor(#""event":"finished""#, #""id":\#(id - 1),"#),
                let new = client.waitFor(#""event":"started""#, #""id":\#(id),"#)
            else { throw BenchError("lost the connection") }
            ended.add(nanoseconds: old - start)
            started.add(nanoseconds: new - start)
        }
        return (ended, started)
    }

    /// 3. Completion: last sample played → terminal line, for a post of known length.
    func completion(text: String, audioSeconds: Double) throws -> Figure {
        let daemon = try BenchDaemon(executable: executable)
        defer { daemon.stop() }
        let client = try daemon.connect()
        var figure = Figure(name: "3. last sample played → finished")
        let count = rounds(atLeast: 20, perSamples: 4)
        for id in 0..<count {
            client.send(#"{"op":"announce","id":\#(id),"text":"\#(text)"}"#)
            guard let started = client.waitFor(#""event":"started""#, #""id":\#(id),"#),
                let finished = client.waitFor(#""event":"finished""#, #""id":\#(id),"#)
            else { throw BenchError("lost the connection") }
            let played = UInt64(audioSeconds * 1e9)
            figure.add(nanoseconds: finished - started > played ? finished - started - played : 0)
        }
        return figure
    }

    /// 4. Throughput: posts per second accepted and answered (each gets queued and a terminal
    /// line), over `connections` connections sending `posts` interrupting posts in all.
    ///
    /// With `warmUp` posts, the daemon is first left alone for two seconds, then answers that many
    /// on a connection of its own and is left alone for two seconds again before `before` is read:
    /// a daemon that has not yet served does not hold the code that serving runs, and a comparison
    /// with it would count that code as growth.
    func throughput(posts: Int, connections: Int, warmUp: Int = 0) throws -> (
        postsPerSecond: Double, rssMiB: Double, daemon: BenchDaemon?, before: Resident
    ) {
        let daemon = try BenchDaemon(executable: executable)
        if warmUp > 0 {
            usleep(2_000_000)
            let client = try daemon.connect()
            _ = client.postPipelined(0..<warmUp) { #"{"op":"announce","id":\#($0),"text":"n"}"# }
            // What the figure does after the posts, once: a new connection asks for the status.
            let probe = try daemon.connect()
            probe.send(#"{"op":"status","id":1}"#)
            probe.waitFor(#""event":"ok""#)
            usleep(2_000_000)
        }
        let before = Resident(pid: daemon.process.pid)
        let perConnection = posts / connections
        let clients = try (0..<connections).map { _ in try daemon.connect() }
        let group = DispatchGroup()
        let start = now()
        let finish = LockedValue<UInt64>(0)
        let shortfall = LockedValue<Int>(0)
        for client in clients {
            group.enter()
            Thread {
                let terminals = client.postPipelined(0..<perConnection) { #"{"op":"announce","id":\#($0),"text":"n"}"# }
                let end = now()
                finish.withLock { $0 = max($0, end) }
                shortfall.withLock { $0 += perConnection - terminals }
                group.leave()
            }.start()
        }
        group.wait()
        let missing = shortfall.withLock { $0 }
        if missing > 0 {
            daemon.stop()
            throw BenchError(
                "throughput: \(missing) of \(posts) posts got no terminal line before the daemon closed the connection")
        }
        let seconds = Double(finish.withLock { $0 } - start) / 1e9
        return (Double(perConnection * connections) / seconds, daemon.residentMiB, daemon, before)
    }

    /// Figure 4's two rows, in posts per second: one connection posting a tenth of the memory
    /// figure's posts (at least 10,000), and 100 connections posting 100,000 in all; in a smoke run,
    /// the memory figure's posts each.
    func throughputs() throws -> (one: Double, hundred: Double) {
        let one = try throughput(posts: smoke ? millionPosts : max(10_000, millionPosts / 10), connections: 1)
        one.daemon?.stop()
        let hundred = try throughput(posts: smoke ? millionPosts : 100_000, connections: 100)
        hundred.daemon?.stop()
        return (one.postsPerSecond, hundred.postsPerSecond)
    }

    /// 5. Memory: idle, with 1,000 connections, and before and after a million posts.
    func memory() throws -> MemoryFigure {
        var figure = MemoryFigure()
        do {
            let daemon = try BenchDaemon(executable: executable)
            defer { daemon.stop() }
            figure.idle = daemon.residentMiB
            figure.helperIdle = daemon.helperResidentMiB
            var clients: [BenchClient] = []
            for id in 0..<1000 {
                let client = try daemon.connect()
                client.send(#"{"op":"hello","id":\#(id),"client":"c\#(id)"}"#)
                clients.append(client)
            }
            for client in clients { client.waitFor(#""event":"ok""#) }
            figure.connections = daemon.residentMiB
        }
        // The million posts go to a daemon of their own, whose memory before them is the
        // baseline: the same process, so the comparison is not blurred by start-to-start spread.
        // Its warm-up is as long as the run: a daemon keeps faulting in code it runs rarely for a
        // long time after it starts (a shorter warm-up left the run to pay for that in file-backed
        // pages), while its anonymous memory, where a leak would show, stays flat either way.
        let (_, rss, daemon, before) = try throughput(posts: millionPosts, connections: 1, warmUp: millionPosts)
        figure.beforePosts = before
        figure.afterPosts = rss
        guard let daemon else { return figure }
        defer { daemon.stop() }
        let idleClient = try daemon.connect()
        idleClient.send(#"{"op":"status","id":1}"#)
        idleClient.waitFor(#""event":"ok""#)
        // The daemon gives freed heap back after a quiet second (MemoryTrimmer): the figure is
        // what an idle daemon holds, so it is read after two quiet seconds.
        usleep(2_000_000)
        figure.afterPostsIdle = Resident(pid: daemon.process.pid)
        return figure
    }

    /// 6. Start: exec → READY=1 (the socket is served before READY is sent).
    func startup() throws -> Figure {
        var figure = Figure(name: "6. exec → serving (READY=1)")
        for _ in 0..<samples {
            let daemon = try BenchDaemon(executable: executable)
            figure.add(nanoseconds: daemon.startNanoseconds)
            daemon.stop()
        }
        return figure
    }
}

/// Figure 5, in MiB.
struct MemoryFigure {
    /// A fresh daemon right after READY=1.
    var idle = Double.nan
    /// Its espeak-ng helper process.
    var helperIdle = Double.nan
    /// The same daemon with 1,000 connections open.
    var connections = Double.nan
    /// Another fresh daemon, before the million posts (after as many warm-up posts, a status
    /// request and two quiet seconds).
    var beforePosts = Resident(pid: -1)
    /// That daemon right after its last post was answered.
    var afterPosts = Double.nan
    /// That daemon two quiet seconds later.
    var afterPostsIdle = Resident(pid: -1)

    /// How much more the daemon holds, idle, after the posts than before them, in percent.
    var growth: Double { (afterPostsIdle.total / beforePosts.total - 1) * 100 }

    /// The figure as one line.
    func described(posts: Int) -> String {
        "RSS MiB: idle \(format(idle, 1)) (its espeak-ng helper process: \(format(helperIdle, 1)) more); 1,000 connections "
            + "\(format(connections, 1)); \(posts) posts: before \(beforePosts.described), right after \(format(afterPosts, 1)), "
            + "idle 2 s later \(afterPostsIdle.described), \(format(growth, 1))% over before"
    }
}
