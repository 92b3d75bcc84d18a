// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc

// announced-bench: the figures of Benchmarks/README.md (what each means is there too),
// against the daemon as a separate, release-built process on a real socket. Usage:
//   announced-bench [--daemon PATH] [--samples N] [--posts N] [--quick]
//   announced-bench --only FIGURE[,FIGURE...] [...]   (idle, busy10, busy100, paced100, interrupt, start, navigate, announcectl, throughput,
//                                                      pause, heard, memory, pair, longtext, wakeups, piper, piper-heard, toolkit: one figure alone,
//                                                      for profiling; piper-heard is figure 14, switch figure 15, run only this way)
//   --memory-posts N: posts spoken before the daemon-and-helper memory figure (default 100)
//   --piper-threads N: figure 14's daemon with piper_threads N (default: the daemon's default)
//   announced-bench --soak POSTS [--daemon PATH]

// A connection the daemon closed must show up as an error, not kill the benchmark.
signal(SIGPIPE, SIG_IGN)

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let quick = arguments.contains("--quick")
let samples = Int(option("--samples") ?? "") ?? (quick ? 50 : 200)
let millionPosts = Int(option("--posts") ?? "") ?? (quick ? 100_000 : 1_000_000)
/// Posts spoken before the daemon-and-helper memory figure (5b).
let memoryPosts = Int(option("--memory-posts") ?? "") ?? (quick ? 20 : 100)
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

if let only = option("--only") {
    let figures = Figures(executable: executable, samples: samples, millionPosts: millionPosts)
    do {
        for name in only.split(separator: ",") {
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
            case "dbus": figure = try DesktopBusFigure().measure()
            case "toolkit": figure = try ToolkitAnnouncementFigure(executable: executable).measure()
            case "pause":
                let (paused, resumed) = try figures.pauseAndResume()
                for figure in [paused, resumed] {
                    print(
                        pad(figure.name, 62)
                            + "p50 \(format(figure.p50))  p99 \(format(figure.p99))  max \(format(figure.max))")
                }
                continue
            case "heard":
                let heard = try figures.heardPause()
                for figure in [heard.paused, heard.resumed, heard.cancelled] {
                    print(
                        pad(figure.name, 62)
                            + "p50 \(format(figure.p50))  p99 \(format(figure.p99))  max \(format(figure.max))")
                }
                print("    (\(heard.inSilence) requests fell between words and measured nothing)")
                continue
            case "memory":
                let memory = try figures.memory()
                print(memory.described(posts: millionPosts))
                continue
            case "pair":
                for audio in ["null", "pulse"] {
                    print(try figures.pairMemory(audio: audio, posts: memoryPosts).described)
                }
                continue
            case "longtext":
                print(try figures.longTexts().described)
                continue
            case "wakeups":
                print(try figures.idleFigure(rounds: max(3, samples / 40)))
                continue
            case "throughput":
                let one = try figures.throughput(posts: max(10_000, millionPosts / 10), connections: 1)
                one.daemon?.stop()
                let hundred = try figures.throughput(posts: 100_000, connections: 100)
                hundred.daemon?.stop()
                print(
                    "4. throughput, posts/s accepted and answered: 1 connection \(format(one.postsPerSecond, 0)); 100 connections \(format(hundred.postsPerSecond, 0))"
                )
                continue
            case "piper":
                let piper = PiperHelperFigure(
                    helper: URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(
                        "announced-piper"
                    ).path,
                    libraryDirectory: piperFiles.libraryDirectory, voice: piperFiles.voice, runs: samples
                )
                for (figure, load) in try piper.measure() {
                    print(
                        pad(figure.name, 62)
                            + "p50 \(format(figure.p50))  p99 \(format(figure.p99))  max \(format(figure.max))  (voice loaded in \(format(load, 2)) s)"
                    )
                }
                continue
            case "switch":
                print(try figures.engineSwitch(files: piperFiles).described)
                continue
            case "piper-heard":
                if piperFiles.cli == nil {
                    print(
                        "(the piper CLI is not at \(piperCLI): its rows are left out; scripts/fetch-piper-cli.sh installs it)"
                    )
                }
                let threads = option("--piper-threads").flatMap { Int($0) }
                print("(the daemon's piper_threads: \(threads.map(String.init) ?? "its default"))")
                print(try figures.piperHeard(files: piperFiles, threads: threads).described)
                continue
            default:
                print(
                    "unknown figure \(name): use idle, busy10, busy100, paced100, interrupt, start, navigate, announcectl, dbus, pause, heard, memory, pair, longtext, wakeups, throughput, piper, piper-heard or switch"
                )
                exit(2)
            }
            print(
                pad(figure.name, 62)
                    + "p50 \(format(figure.p50))  p99 \(format(figure.p99))  max \(format(figure.max))  \(figure.note)")
        }
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

let figures = Figures(executable: executable, samples: samples, millionPosts: millionPosts)
let text = "Download complete"
guard let floor = EspeakFloor.measure(text: text, samples: samples) else {
    print("espeak-ng could not start in this process (is espeak-ng-data installed?)")
    exit(1)
}
let audioSeconds = Double(EspeakFloor.totalSamples / samples) / 22050

var rows: [(Figure, String)] = []
do {
    let idle = try figures.startLatency(busy: 0)
    let (ended, started) = try figures.interruption()
    let completion = try figures.completion(text: text, audioSeconds: audioSeconds)
    let start = try figures.startup()
    let navigate = try figures.navigateNext()
    let shortcut = try figures.announcectlNext()
    let (paused, resumed) = try figures.pauseAndResume()
    let heard = try figures.heardPause()
    rows.append((floor, "the floor"))
    rows.append((idle, "p50 ≤ 1, p99 ≤ 3"))
    rows.append((try figures.startLatency(busy: 10), ""))
    rows.append((try figures.startLatency(busy: 100), "p99 ≤ 10"))
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

    let one = try figures.throughput(posts: max(10_000, millionPosts / 10), connections: 1)
    one.daemon?.stop()
    let hundred = try figures.throughput(posts: 100_000, connections: 100)
    hundred.daemon?.stop()
    print(
        "\n4. throughput, posts/s accepted and answered: 1 connection \(format(one.postsPerSecond, 0)) (target ≥ 50000); 100 connections \(format(hundred.postsPerSecond, 0))"
    )
    let memory = try figures.memory()
    print("5. " + memory.described(posts: millionPosts) + " (target: idle ≤ 20, flat within 5%)")
    var pairs: [PairMemory] = []
    for audio in ["null", "pulse"] {
        let pair = try figures.pairMemory(audio: audio, posts: memoryPosts)
        print("5b. " + pair.described)
        pairs.append(pair)
    }
    print("    target with --audio pulse: daemon + helper RSS ≤ 20, PSS ≤ 12, anonymous ≤ 5")
    print("\n" + (try figures.longTexts()).described)
    print("\n" + (try figures.idleFigure(rounds: max(3, samples / 40))))

    print(
        "\nsummary: started p50 \(format(idle.p50)) ms / p99 \(format(idle.p99)) ms idle (floor \(format(floor.p50)) ms), interrupt \(format(ended.p50)) ms, completion \(format(completion.p50)) ms, \(format(one.postsPerSecond, 0)) posts/s, idle RSS \(format(memory.idle, 1)) MiB, daemon + helper with pulse RSS \(format(pairs[1].sum.rss, 1)) / PSS \(format(pairs[1].sum.pss, 1)) MiB, start \(format(start.p50)) ms, navigate next → started p50 \(format(navigate.p50)) ms / p99 \(format(navigate.p99)) ms, pause → paused p50 \(format(paused.p50)) ms / p99 \(format(paused.p99)) ms, pause → silent at the sink p50 \(format(heard.paused.p50)) ms / p99 \(format(heard.paused.p99)) ms"
    )
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
