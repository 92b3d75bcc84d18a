// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc

// announced-bench: the figures of Benchmarks/README.md (what each means is there too),
// against the daemon as a separate, release-built process on a real socket. Usage:
//   announced-bench [--daemon PATH] [--samples N] [--posts N] [--quick]
//   announced-bench --only FIGURE[,FIGURE...] [...]   (idle, busy10, busy100, paced100, interrupt, start, navigate, announcectl, throughput,
//                                                      pause, heard, memory, pair, longtext, wakeups, piper, piper-heard, toolkit: one figure alone,
//                                                      for profiling; piper-heard is figure 14, switch figure 15, spiel the
//                                                      Spiel provider against native posts, run only this way)
//   --memory-posts N: posts spoken before the daemon-and-helper memory figure (default 100)
//   --piper-threads N: figure 14's daemon with piper_threads N (default: the daemon's default)
//   announced-bench --soak POSTS [--daemon PATH]
//   announced-bench --smoke: every figure (the --only ones too), a few samples each, so that none
//                    rots unseen (`make bench-smoke`, run by CI); its figures are not to be quoted
// Progress (which figure, how many samples) goes to standard error, the figures to standard output.

// A connection the daemon closed must show up as an error, not kill the benchmark.
signal(SIGPIPE, SIG_IGN)

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let quick = arguments.contains("--quick")
let smoke = arguments.contains("--smoke")
let samples = Int(option("--samples") ?? "") ?? (smoke ? 3 : quick ? 50 : 200)
let millionPosts = Int(option("--posts") ?? "") ?? (smoke ? 2_000 : quick ? 100_000 : 1_000_000)
/// Posts spoken before the daemon-and-helper memory figure (5b).
let memoryPosts = Int(option("--memory-posts") ?? "") ?? (smoke ? 3 : quick ? 20 : 100)
let executable =
    option("--daemon")
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("announced").path

/// The Piper engine and test voice (scripts/fetch-piper-engine.sh; `ANNOUNCED_PIPER_LIBRARY_DIR`
/// and `ANNOUNCED_PIPER_TEST_VOICE` override where), and PyPI's piper CLI (scripts/fetch-piper-cli.sh;
/// `--piper-cli PATH` overrides where) for figures 13 and 14.
let piperCLI = option("--piper-cli") ?? FileManager.default.currentDirectoryPath + "/.build/piper-cli/bin/piper"
let piperFiles = PiperBenchFiles(
    libraryDirectory: ProcessInfo.processInfo.environment["ANNOUNCED_PIPER_LIBRARY_DIR"]
        ?? FileManager.default.currentDirectoryPath + "/.build/piper-engine/lib",
    voice: ProcessInfo.processInfo.environment["ANNOUNCED_PIPER_TEST_VOICE"]
        ?? (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? NSHomeDirectory() + "/.cache")
            + "/announced/voices/en_US-joe-medium.onnx",
    cli: FileManager.default.isExecutableFile(atPath: piperCLI) ? piperCLI : nil
)

func machine() -> String {
    let cpu =
        (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
        .split(separator: "\n").first { $0.hasPrefix("model name") }?
        .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
    #if DEBUG
        let configuration = "debug"
    #else
        let configuration = "release"
    #endif
    return
        "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu); bench built \(configuration); daemon \(executable)"
}

/// Measures and prints one figure named as `--only` names it: a figure of one row is printed
/// here, one of several rows by its own function.
func measureOne(_ name: Substring, _ figures: Figures) async throws {
    BenchProgress.shared.begin(String(name))
    let figure: Figure
    switch name {
    case "idle": figure = try figures.startLatency(busy: 0)
    case "busy10": figure = try figures.startLatency(busy: 10)
    case "busy100": figure = try figures.startLatency(busy: 100)
    case "paced100": figure = try figures.startLatency(busy: 100, interval: .milliseconds(100))
    case "interrupt": figure = try figures.interruption().1
    case "start": figure = try figures.startup()
    case "navigate": figure = try figures.navigateNext()
    case "announcectl": figure = try figures.announcectlNext()
    case "dbus": figure = try await desktopBusFigure(figures)
    case "toolkit": figure = try await toolkitFigure(figures)
    case "pause": return try printPauseAndResume(figures)
    case "heard": return try printHeard(figures)
    case "memory": return print(try figures.memory().described(posts: millionPosts))
    case "pair": return try printPairs(figures)
    case "longtext": return print(try figures.longTexts().described)
    case "wakeups": return print(try figures.idleFigure(rounds: max(3, figures.samples / 40)))
    case "throughput": return try printThroughput(figures)
    case "piper": return try printPiperHelper()
    case "switch": return print(try figures.engineSwitch(files: piperFiles).described)
    case "spiel": return try printSpiel(figures)
    case "piper-heard": return try printPiperHeard(figures)
    default:
        print(
            "unknown figure \(name): use idle, busy10, busy100, paced100, interrupt, start, navigate, announcectl, dbus, pause, heard, memory, pair, longtext, wakeups, throughput, piper, piper-heard, switch or spiel"
        )
        exit(2)
    }
    printRows([figure], note: figure.note)
}

/// Each figure's row: its name, p50, p99, max and `note`.
func printRows(_ rows: [Figure], note: String = "") {
    for figure in rows {
        print(
            pad(figure.name, 62)
                + "p50 \(format(figure.p50))  p99 \(format(figure.p99))  max \(format(figure.max))"
                + (note.isEmpty ? "" : "  \(note)"))
    }
}

/// Figure 15: the desktop bus's calls (fewer in a smoke run).
func desktopBusFigure(_ figures: Figures) async throws -> Figure {
    try await (figures.smoke ? DesktopBusFigure(calls: 100, runs: 3) : DesktopBusFigure()).measure()
}

/// The toolkit announcements' figure (as many rounds as samples in a smoke run).
func toolkitFigure(_ figures: Figures) async throws -> Figure {
    var toolkit = ToolkitAnnouncementFigure(executable: executable)
    if figures.smoke { toolkit.rounds = figures.samples }
    return try await toolkit.measure()
}

/// Pause and resume: write → `paused`, write → `resumed`.
func printPauseAndResume(_ figures: Figures) throws {
    let (paused, resumed) = try figures.pauseAndResume()
    printRows([paused, resumed])
}

/// Pause, resume and cancel as heard, and how many requests fell between words.
func printHeard(_ figures: Figures) throws {
    let heard = try figures.heardPause()
    printRows([heard.paused, heard.resumed, heard.cancelled])
    print("    (\(heard.inSilence) requests fell between words and measured nothing)")
}

/// The memory of a daemon beside speech-dispatcher, with the null and the PulseAudio output.
func printPairs(_ figures: Figures) throws {
    for audio in ["null", "pulse"] {
        print(try figures.pairMemory(audio: audio, posts: memoryPosts).described)
    }
}

/// Figure 4: posts accepted and answered per second, over one connection and a hundred.
func printThroughput(_ figures: Figures) throws {
    let (one, hundred) = try figures.throughputs()
    print(
        "4. throughput, posts/s accepted and answered: 1 connection \(format(one, 0)); 100 connections \(format(hundred, 0))"
    )
}

/// The Piper helper on its own: each row with the time its voice took to load.
func printPiperHelper() throws {
    let piper = PiperHelperFigure(
        helper: URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(
            "announced-piper"
        ).path,
        libraryDirectory: piperFiles.libraryDirectory, voice: piperFiles.voice, runs: samples
    )
    for (figure, load) in try piper.measure() {
        printRows([figure], note: "(voice loaded in \(format(load, 2)) s)")
    }
}

/// The Spiel figure, or why it is left out.
func printSpiel(_ figures: Figures) throws {
    if let missing = Figures.spielMissing {
        return print("spiel: the Spiel figure is left out: \(missing)")
    }
    print(try figures.spiel(files: piperFiles).described)
}

/// Piper as heard, through the daemon and (when installed) the piper CLI.
func printPiperHeard(_ figures: Figures) throws {
    if piperFiles.cli == nil {
        print("(the piper CLI is not at \(piperCLI): its rows are left out; scripts/fetch-piper-cli.sh installs it)")
    }
    let threads = option("--piper-threads").flatMap { Int($0) }
    print("(the daemon's piper_threads: \(threads.map(String.init) ?? "its default"))")
    print(try figures.piperHeard(files: piperFiles, threads: threads).described)
}

/// The figures only `--only` measures; `--smoke` measures them after the others.
let onlyFigures: [Substring] = ["dbus", "toolkit", "piper", "piper-heard", "switch", "spiel"]

if let only = option("--only") {
    let figures = Figures(executable: executable, samples: samples, millionPosts: millionPosts, smoke: smoke)
    let names = only.split(separator: ",")
    BenchProgress.shared.plan(figures: names.count)
    do {
        for name in names { try await measureOne(name, figures) }
        exit(0)
    } catch {
        print("benchmark failed: \(error)")
        exit(1)
    }
}

if let soakPosts = option("--soak").flatMap(Int.init) {
    do {
        try soak(executable: executable, posts: soakPosts)
        exit(0)
    } catch {
        print("soak failed: \(error)")
        exit(1)
    }
}

print("announced benchmark — \(machine())")
print("samples per figure: \(samples); posts for the memory figure: \(millionPosts)\n")

let figures = Figures(executable: executable, samples: samples, millionPosts: millionPosts, smoke: smoke)
/// The Piper figures need the engine's library and the test voice (make piper-engine) and the helper
/// beside the daemon (make bench builds it when the engine is there).
let piperReady =
    FileManager.default.isExecutableFile(
        atPath: URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("announced-piper")
            .path)
    && FileManager.default.fileExists(atPath: piperFiles.libraryDirectory + "/libsherpa-onnx-c-api.so")
    && FileManager.default.fileExists(atPath: piperFiles.voice)
let smokeOnly = onlyFigures.filter { piperReady || !["piper", "piper-heard", "switch", "spiel"].contains($0) }
BenchProgress.shared.plan(figures: 17 + (smoke ? smokeOnly.count : 0))
let text = "Download complete"
BenchProgress.shared.begin("0. espeak-ng in process (the floor)")
guard let floor = EspeakFloor.measure(text: text, samples: samples) else {
    print("espeak-ng could not start in this process (is espeak-ng-data installed?)")
    exit(1)
}
let audioSeconds = Double(EspeakFloor.totalSamples / samples) / 22050

var rows: [(Figure, String)] = []
do {
    BenchProgress.shared.begin("idle")
    let idle = try figures.startLatency(busy: 0)
    BenchProgress.shared.begin("interrupt")
    let (ended, started) = try figures.interruption()
    BenchProgress.shared.begin("completion")
    let completion = try figures.completion(text: text, audioSeconds: audioSeconds)
    BenchProgress.shared.begin("start")
    let start = try figures.startup()
    BenchProgress.shared.begin("navigate")
    let navigate = try figures.navigateNext()
    BenchProgress.shared.begin("announcectl")
    let shortcut = try figures.announcectlNext()
    BenchProgress.shared.begin("pause")
    let (paused, resumed) = try figures.pauseAndResume()
    BenchProgress.shared.begin("heard")
    let heard = try figures.heardPause()
    rows.append((floor, "the floor"))
    rows.append((idle, "p50 ≤ 1, p99 ≤ 3"))
    BenchProgress.shared.begin("busy10")
    rows.append((try figures.startLatency(busy: 10), ""))
    BenchProgress.shared.begin("busy100")
    rows.append((try figures.startLatency(busy: 100), "p99 ≤ 10"))
    BenchProgress.shared.begin("paced100")
    rows.append((try figures.startLatency(busy: 100, interval: .milliseconds(100)), "p99 ≤ 10"))
    rows.append((ended, ""))
    rows.append((started, ""))
    rows.append((completion, "≤ 15"))
    rows.append((start, "≤ 50"))
    rows.append((navigate, "p99 ≤ 3"))
    rows.append((shortcut, ""))
    rows.append((paused, ""))
    rows.append((resumed, ""))
    rows.append((heard.paused, "≤ 10"))
    rows.append((heard.resumed, ""))
    rows.append((heard.cancelled, "≤ 10"))

    print(pad("figure", 62) + pad("p50", 10) + pad("p99", 10) + pad("max", 10) + pad("p50 − floor", 13) + "target (ms)")
    for (figure, target) in rows {
        let distance =
            figure.name.hasPrefix("7.") || figure.name.hasPrefix("9.") || figure.name.hasPrefix("10.")
                || figure.name.hasPrefix("11.") ? "" : format(figure.p50 - floor.p50)
        print(
            pad(figure.name, 62) + pad(format(figure.p50), 10) + pad(format(figure.p99), 10)
                + pad(format(figure.max), 10) + pad(distance, 13) + target
                + (figure.note.isEmpty ? "" : "  (\(figure.note))"))
    }

    BenchProgress.shared.begin("throughput")
    let (one, hundred) = try figures.throughputs()
    print(
        "\n4. throughput, posts/s accepted and answered: 1 connection \(format(one, 0)) (target ≥ 50000); 100 connections \(format(hundred, 0))"
    )
    BenchProgress.shared.begin("memory")
    let memory = try figures.memory()
    print("5. " + memory.described(posts: millionPosts) + " (target: idle ≤ 20, flat within 5%)")
    var pairs: [PairMemory] = []
    for audio in ["null", "pulse"] {
        BenchProgress.shared.begin("pair \(audio)")
        let pair = try figures.pairMemory(audio: audio, posts: memoryPosts)
        print("5b. " + pair.described)
        pairs.append(pair)
    }
    print("    target with --audio pulse: daemon + helper RSS ≤ 20, PSS ≤ 12, anonymous ≤ 5")
    BenchProgress.shared.begin("longtext")
    print("\n" + (try figures.longTexts()).described)
    print("\n" + (try figures.idleFigure(rounds: max(3, samples / 40))))

    print(
        "\nsummary: started p50 \(format(idle.p50)) ms / p99 \(format(idle.p99)) ms idle (floor \(format(floor.p50)) ms), interrupt \(format(ended.p50)) ms, completion \(format(completion.p50)) ms, \(format(one, 0)) posts/s, idle RSS \(format(memory.idle, 1)) MiB, daemon + helper with pulse RSS \(format(pairs[1].sum.rss, 1)) / PSS \(format(pairs[1].sum.pss, 1)) MiB, start \(format(start.p50)) ms, navigate next → started p50 \(format(navigate.p50)) ms / p99 \(format(navigate.p99)) ms, pause → paused p50 \(format(paused.p50)) ms / p99 \(format(paused.p99)) ms, pause → silent at the sink p50 \(format(heard.paused.p50)) ms / p99 \(format(heard.paused.p99)) ms"
    )
    if smoke {
        print("\n--smoke: the figures only --only measures (a few samples each; not figures to quote)")
        for name in smokeOnly { try await measureOne(name, figures) }
        if !piperReady {
            print(
                "(the Piper figures 13 to 15 and spiel need announced-piper beside the daemon, the engine and the test voice: make piper-engine)"
            )
        }
    }
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
