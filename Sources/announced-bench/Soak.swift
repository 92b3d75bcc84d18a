// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The soak run: `posts` announcements through one connection, in rounds, printing the daemon's
/// resident memory before, after every round, and after it is idle again.
func soak(executable: String, posts: Int, rounds: Int = 10) throws {
    let daemon = try BenchDaemon(executable: executable)
    defer { daemon.stop() }
    let client = try daemon.connect()
    let before = daemon.residentMiB
    print("soak: \(posts) posts in \(rounds) rounds; RSS before: \(format(before, 1)) MiB")
    var peak = before
    let perRound = posts / rounds
    var nextID = 0
    for round in 1...rounds {
        let first = nextID
        let last = first + perRound - 1
        let start = now()
        let terminals = client.postPipelined(first..<(last + 1)) {
            #"{"op":"announce","id":\#($0),"text":"soak \#($0 % 100)"}"#
        }
        guard terminals == perRound else {
            throw BenchError(
                "soak: round \(round) got \(terminals) of \(perRound) terminal lines before the daemon closed the connection"
            )
        }
        nextID = last + 1
        let rss = daemon.residentMiB
        peak = max(peak, rss)
        let seconds = Double(now() - start) / 1e9
        print(
            "  round \(round): \(nextID) posts answered, \(format(Double(perRound) / seconds, 0)) posts/s, RSS \(format(rss, 1)) MiB"
        )
    }
    client.send(#"{"op":"stop","id":"end"}"#)
    client.waitFor(#""id":"end""#)
    let after = daemon.residentMiB
    // Read again after two quiet seconds, when the daemon has given freed heap back (MemoryTrimmer).
    usleep(2_000_000)
    let quiet = daemon.residentMiB
    print(
        "soak: RSS before \(format(before, 1)) MiB, peak \(format(peak, 1)) MiB, after \(format(after, 1)) MiB, after 2 quiet seconds \(format(quiet, 1)) MiB (\(format((quiet / before - 1) * 100, 1))% over before)"
    )
}
