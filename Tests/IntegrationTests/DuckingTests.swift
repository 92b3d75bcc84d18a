// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// Ducking against the daemon process, heard where the user hears it: another application's tone
/// in a recorded null sink drops by the configured level while a post speaks and comes back
/// after; the user's change wins; a crashed daemon's successor restores; `duck: off` touches
/// nothing. The checks of ``DuckingCheck`` run on both sound servers, each suite skipped with the
/// packages it needs.
@Suite(
    "Daemon: ducking other applications on a headless PulseAudio", .daemonTimeLimit, .onBlockingThreads, .serialized,
    .enabled(if: HeadlessPulseAudio.canRecord && ToneRig.canPlay, "needs pulseaudio, pulseaudio-utils and sox")
)
struct PulseAudioDuckingTests {
    @Test(arguments: DuckingCheck.all)
    func check(_ check: DuckingCheck) throws { try check.run(try .pulseAudio()) }

    @Test("SIGTERM while ducked: the tone is restored before the daemon exits, and the state file removed")
    func shutdownRestores() throws {
        let rig = try ToneRig.pulseAudio()
        let run = try DuckingRun(rig)
        try run.waitUntilLowered()
        #expect(run.daemon.stop() == 0)
        #expect(access(run.stateFile, F_OK) != 0, "the state file is still there after a clean exit")
        // Restored before the exit: back at once, not only after the next start.
        let back = try #require(
            rig.waitForLevel(timeout: 1) { abs($0 - run.baseline) < 1 }, "the tone stayed lowered after the exit")
        let after = rig.level(from: back, seconds: 0.5)
        print("ducking [pulse] SIGTERM: baseline \(dB(run.baseline)), after the exit \(dB(after))")
        #expect(abs(after - run.baseline) < 1)
    }

    @Test("duck: off (the default) leaves the tone's level alone while a post speaks")
    func offTouchesNothing() throws {
        let rig = try ToneRig.pulseAudio()
        let run = try DuckingRun(rig, duck: false)
        let start = rig.recorder.sampleCount
        let terminal = try #require(run.client.waitForTerminal(id: 1))
        #expect(terminal["success"] == .bool(true))
        let speaking = rig.level(from: start, seconds: Double(rig.recorder.sampleCount - start) / Double(rig.rate))
        print("ducking [pulse] off: baseline \(dB(run.baseline)), while speaking \(dB(speaking))")
        #expect(abs(speaking - run.baseline) < 0.5)
        #expect(access(run.stateFile, F_OK) != 0)
        #expect(run.daemon.stop() == 0)
        #expect(!run.daemon.stderrText().contains("ducking"))
    }
}

@Suite(
    "Daemon: ducking other applications through a headless PipeWire", .daemonTimeLimit, .onBlockingThreads, .serialized,
    .enabled(
        if: HeadlessPipeWire.canRecord && ToneRig.canPlay,
        "needs pipewire, wireplumber, pipewire-pulse, dbus, pulseaudio-utils and sox")
)
struct PipeWireDuckingTests {
    @Test(arguments: DuckingCheck.all)
    func check(_ check: DuckingCheck) throws { try check.run(try .pipeWire()) }
}

extension ToneRig {
    /// A rig on a fresh private PulseAudio.
    static func pulseAudio() throws -> ToneRig {
        let server = try HeadlessPulseAudio()
        return try ToneRig(
            label: "pulse", server: server, serverEnvironment: server.serverEnvironment,
            clientEnvironment: server.clientEnvironment,
            recorderLatency: 5
        )
    }

    /// A rig on a fresh private PipeWire session.
    static func pipeWire() throws -> ToneRig {
        let session = try HeadlessPipeWire()
        return try ToneRig(
            label: "pipewire", server: session, serverEnvironment: session.serverEnvironment,
            clientEnvironment: session.clientEnvironment, recorderLatency: 20
        )
    }
}

/// A check both sound servers go through.
struct DuckingCheck: Sendable, CustomTestStringConvertible {
    /// What the check shows, as the test reports it.
    let testDescription: String
    /// Runs the check on a rig.
    let run: @Sendable (ToneRig) throws -> Void

    /// Every check, in the order they run.
    static let all = [
        DuckingCheck(
            testDescription:
                "the tone drops by about 12 dB while a post speaks, stays down through the hold, and comes back",
            run: checkDucksAndRestores),
        DuckingCheck(
            testDescription: "a ducked stream whose volume the user changes is left at the user's volume",
            run: checkUserChangeWins),
        DuckingCheck(
            testDescription: "a stream that starts while ducking is lowered too, and restored with the others",
            run: checkLateStreamLowered),
        DuckingCheck(
            testDescription: "after kill -9 while ducked, the next start restores the tone and removes the state file",
            run: checkCrashRestore),
    ]
}

/// How every check begins: a daemon (with `--duck -12`, or with ducking off) on the rig's server,
/// the tone's level before it speaks, and a client whose long post (id 1) has started.
struct DuckingRun {
    let daemon: DaemonProcess
    let client: LineClient
    /// The tone's level before the post.
    let baseline: Double
    /// Where the daemon keeps what it lowered (beside its socket).
    let stateFile: String
    private let rig: ToneRig

    init(_ rig: ToneRig, duck: Bool = true) throws {
        self.rig = rig
        daemon = try DaemonProcess(
            arguments: duck ? ["--duck", "-12"] : [], audio: "pulse", environment: rig.daemonEnvironment)
        stateFile =
            URL(fileURLWithPath: daemon.socketPath).deletingLastPathComponent().appendingPathComponent(
                "ducked-streams.json"
            ).path
        baseline = rig.levelNow(seconds: 0.5)
        client = try daemon.connect()
        client.send(announce(1, longText))
        try #require(client.waitFor("started", id: 1) != nil)
    }

    /// Waits until the tone is heard lowered (by more than 9 dB).
    func waitUntilLowered() throws {
        try #require(
            rig.waitForLevel(timeout: 5) { $0 < baseline - 9 } != nil, "\(rig.label): the tone was not lowered")
    }
}

// MARK: - The checks

/// A post of about five seconds.
private let longText =
    "This announcement is long enough for the music to be measured while it speaks, and then it ends and the music comes back up again."

/// With `--duck -12`: the tone's level drops by 12 dB (within 1.5) while a post speaks, is still
/// down just after the post (the hold), and returns to where it was (within 1 dB).
func checkDucksAndRestores(_ rig: ToneRig) throws {
    let run = try DuckingRun(rig)
    let (daemon, client, baseline) = (run.daemon, run.client, run.baseline)
    let started = rig.recorder.sampleCount
    let terminal = try #require(client.waitForTerminal(id: 1))
    #expect(terminal["success"] == .bool(true))
    let ended = rig.recorder.sampleCount
    // The first 300 ms leave time for the server to apply the change and the recorder to hear it.
    let speakingStart = started + rig.samples(0.3)
    let speaking = rig.level(from: speakingStart, seconds: Double(ended - speakingStart) / Double(rig.rate))
    let hold = rig.level(from: ended, seconds: 0.3)
    let back = try #require(
        rig.waitForLevel(timeout: 5) { abs($0 - baseline) < 1 }, "\(rig.label): the tone did not come back")
    let after = rig.level(from: back, seconds: 0.5)
    let cameBackAfter = Double(back - ended) / Double(rig.rate)
    print(
        "ducking [\(rig.label)]: baseline \(dB(baseline)), while speaking \(dB(speaking)) (\(dB(speaking - baseline))), "
            + "first 300 ms of the hold \(dB(hold)), after \(dB(after)); back \(String(format: "%.2f", cameBackAfter)) s after the terminal line"
    )
    #expect(abs(speaking - baseline + 12) < 1.5, "\(rig.label): lowered by \(dB(baseline - speaking)), not about 12 dB")
    #expect(abs(hold - baseline + 12) < 1.5, "\(rig.label): the tone came back during the hold")
    #expect(abs(after - baseline) < 1)
    #expect(daemon.stop() == 0)
    // Only the tone was lowered, never announced's own stream.
    let lowered = daemon.stderrText().split(separator: "\n").filter { $0.contains("ducking: lowered a stream") }
    #expect(lowered.count == 1 && lowered.allSatisfy { $0.contains("stream=tone") }, "\(lowered)")
}

/// With `--duck -12`: while a post speaks the user sets the tone to 50% (-18 dB); when ducking
/// ends the tone stays at the user's level instead of being restored over it.
func checkUserChangeWins(_ rig: ToneRig) throws {
    let run = try DuckingRun(rig)
    let (daemon, client, baseline) = (run.daemon, run.client, run.baseline)
    try run.waitUntilLowered()
    try ToneRig.pactl(["set-sink-input-volume", try rig.toneSinkInput(), "50%"], rig.serverEnvironment)
    #expect(daemon.waitForStderr(containing: "a lowered stream's volume was changed meanwhile", timeout: 5))
    let terminal = try #require(client.waitForTerminal(id: 1))
    #expect(terminal["success"] == .bool(true))
    // The daemon logs the end of ducking when the hold is over.
    #expect(daemon.waitForStderr(containing: "ducking: ended", timeout: 5))
    let after = rig.levelNow(seconds: 0.5)
    print(
        "ducking [\(rig.label)] user change: baseline \(dB(baseline)), after ducking ended \(dB(after)) (\(dB(after - baseline)); 50% is -18.1 dB)"
    )
    #expect(abs(after - baseline + 18.06) < 1.5, "\(rig.label): the user's 50% was not kept")
    #expect(daemon.stop() == 0)
}

/// With `--duck -12`: the daemon is killed (SIGKILL) while the tone is lowered; the tone stays
/// lowered, the state file (0600, the user's) names it, and the next start restores it and
/// removes the file.
func checkCrashRestore(_ rig: ToneRig) throws {
    let run = try DuckingRun(rig)
    let (first, stateFile, baseline) = (run.daemon, run.stateFile, run.baseline)
    try run.waitUntilLowered()

    var status = stat()
    #expect(stat(stateFile, &status) == 0, "no state file at \(stateFile) while ducked")
    #expect(status.st_mode & 0o777 == 0o600)
    #expect(status.st_uid == getuid())
    let state = (try? String(contentsOfFile: stateFile, encoding: .utf8)) ?? ""
    #expect(state.contains("\"tone\""), "state file: \(state)")

    #expect(first.stop(signal: SIGKILL) == SIGKILL)
    let afterCrash = rig.levelNow(seconds: 0.5)
    #expect(
        abs(afterCrash - (baseline - 12)) < 1.5, "after the crash the tone should still be lowered: \(dB(afterCrash))")

    let second = try DaemonProcess(
        arguments: ["--duck", "-12"], audio: "pulse", socketPath: first.socketPath, environment: rig.daemonEnvironment
    )
    #expect(second.waitForStderr(containing: "restored the volume of a stream an earlier run lowered", timeout: 10))
    let back = try #require(rig.waitForLevel(timeout: 5) { abs($0 - baseline) < 1 }, "the tone did not come back")
    let restored = rig.level(from: back, seconds: 0.5)
    print(
        "ducking [\(rig.label)] crash: baseline \(dB(baseline)), after kill -9 \(dB(afterCrash)), after the next start \(dB(restored))"
    )
    #expect(abs(restored - baseline) < 1)
    #expect(access(stateFile, F_OK) != 0, "the state file is still there after restoring")
    #expect(second.stop() == 0)
}

@Suite("Daemon: ducking without a sound server", .daemonTimeLimit, .onBlockingThreads, .serialized)
struct DuckingWithoutPulseTests {
    @Test(
        "duck with an output other than pulse: one warning saying ducking cannot work and what to do; speech still works"
    )
    func otherOutputWarns() throws {
        let daemon = try DaemonProcess(arguments: ["--duck", "-12"])
        let client = try daemon.connect()
        client.send(announce(1, "Still speaking"))
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(daemon.stop() == 0)
        let warnings = daemon.stderrText().split(separator: "\n").filter {
            $0.contains("ducking works only through PulseAudio")
        }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("--audio pulse") == true)
    }

    @Test("--duck with a bad level is a usage error naming what it must be")
    func badFlag() throws {
        let daemon = try DaemonProcess(arguments: ["--duck", "5"], waitForReady: false)
        #expect(daemon.waitForExit() == 2)
        #expect(
            daemon.stderrText().contains("--duck: must be off or a level in decibels from -60 to -1 (e.g. -12), not 5"))
    }
}

/// With `--duck -12`: a second tone as loud as the first starts while a post speaks. Two
/// uncorrelated tones are 3 dB above one: lowered together they are 9 dB below the first tone's
/// level (the second one unlowered would leave them near it), and restored together 3 dB above.
func checkLateStreamLowered(_ rig: ToneRig) throws {
    let run = try DuckingRun(rig)
    let (daemon, client, baseline) = (run.daemon, run.client, run.baseline)
    try run.waitUntilLowered()
    try rig.playAnotherTone(frequency: 660, name: "late")
    guard let arrived = rig.waitForLevel(timeout: 5, { $0 > baseline - 10.5 }) else {
        Issue.record(
            "\(rig.label): the second tone is not heard (now \(dB(rig.levelNow(seconds: 0.5)))); \((try? ToneRig.pactl(["list", "sink-inputs"], rig.serverEnvironment)) ?? "")"
        )
        return
    }
    let both = rig.level(from: arrived + rig.samples(0.3), seconds: 0.5)
    let terminal = try #require(client.waitForTerminal(id: 1))
    #expect(terminal["success"] == .bool(true))
    guard let back = rig.waitForLevel(timeout: 5, { abs($0 - baseline - 3.01) < 1 }) else {
        Issue.record(
            "\(rig.label): the tones did not come back (both while speaking \(dB(both)), now \(dB(rig.levelNow(seconds: 0.5)))); the daemon's log:\n\(daemon.stderrText())"
        )
        return
    }
    let after = rig.level(from: back, seconds: 0.5)
    print(
        "ducking [\(rig.label)] late stream: one tone \(dB(baseline)), both while speaking \(dB(both)), both after \(dB(after))"
    )
    #expect(abs(both - baseline + 8.99) < 1.5, "\(rig.label): the second tone was not lowered")
    #expect(abs(after - baseline - 3.01) < 1)
    #expect(daemon.stop() == 0)
}
