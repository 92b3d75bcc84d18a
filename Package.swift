// swift-tools-version:6.1
// SPDX-License-Identifier: GPL-3.0-or-later
import PackageDescription

/// An engine helper's link: the executable takes pcaudio's soname, so that libespeak-ng's
/// libpcaudio.so.0 is the helper itself and its calls reach CEspeakNoAudioDevice (no_audio_device.c).
/// Linked by lld (as every release build is): gold, the toolchain's default, leaves an executable
/// without a soname.
let engineHelperLinks: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-soname=libpcaudio.so.0"])]

let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "announced",
    // No `platforms`: the package builds only on Linux (glibc through CAnnounceLinux, SO_PEERCRED,
    // espeak-ng, PulseAudio, ALSA); naming macOS would promise a build that cannot work.
    products: [
        .executable(name: "announced", targets: ["announced"]),
        .executable(name: "announced-espeak", targets: ["announced-espeak"]),
        .executable(name: "announced-piper", targets: ["announced-piper"]),
        .executable(name: "announcectl", targets: ["announcectl"]),
        .library(name: "AnnounceClient", targets: ["AnnounceClient"]),
        .library(name: "AnnounceProtocol", targets: ["AnnounceProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Deque: the dispatcher's pending lists and the speech thread's queue.
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // FileDescriptor: reads and writes that retry on EINTR, for every module's file I/O.
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
    ],
    targets: [
        // Wire types: JSON lines in both directions, and what the daemon and its clients both
        // need (where the socket is, what "the main thread" is). No NIO, no Foundation.
        .target(name: "AnnounceProtocol", dependencies: ["CAnnounceLinux"], swiftSettings: strictSwift),
        // The label and hint guidelines as lint rules, shared by the daemon and `announcectl lint`.
        // Only the wire types, no Foundation.
        .target(name: "AccessibilityLint", dependencies: ["AnnounceProtocol"], swiftSettings: strictSwift),
        // speech-dispatcher's SSIP: commands, data mode, replies and events, as pure values; the
        // SSIP front-end of the server turns its steps into dispatcher requests.
        .target(name: "SSIPProtocol", dependencies: ["AnnounceProtocol"], swiftSettings: strictSwift),
        // The project's one lock (ConditionLock, and LockedValue over it), threads of their own
        // outside Swift's pool, and the monotonic clock their timed waits count on. On pthreads.
        .target(name: "POSIXThreads", dependencies: ["CAnnounceLinux", "AnnouncePOSIX"], swiftSettings: strictSwift),
        // The dispatcher: scheduling, elements, localization. Pure logic over a speech backend.
        .target(
            name: "AnnounceCore",
            dependencies: [
                "AnnounceProtocol", "AccessibilityLint", "POSIXThreads",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        .systemLibrary(
            name: "CEspeakNG",
            pkgConfig: "espeak-ng",
            providers: [.apt(["libespeak-ng-dev"])]
        ),
        // libpulse's asynchronous API and libasound's PCM API, each opened with dlopen when an
        // output first asks for it (a daemon with --audio null or wav maps neither library, nor the
        // 25 that libpulse links): the calls the daemon makes, defined by their own names and
        // forwarded (shim.c). They need the libraries' headers to build (libpulse-dev,
        // libasound2-dev), and the libraries to play.
        .target(name: "CPulseAudio", dependencies: ["CLibraryLoader"]),
        .target(name: "CALSA", dependencies: ["CLibraryLoader"]),
        // dlopen on first use for the shims above and CLD2Shim: one open, every symbol or none.
        .target(name: "CLibraryLoader"),
        // glibc calls, constants and structs Swift's Glibc module leaves out (malloc.h, and what
        // needs _GNU_SOURCE): malloc_trim, mallopt, pthread_setname_np, F_SETPIPE_SZ, struct ucred,
        // posix_spawn_file_actions_addclosefrom_np and addchdir_np, POSIX_SPAWN_SETSID, pidfd_open.
        .target(name: "CAnnounceLinux"),
        // Swift concurrency's global-executor hook, named for the linker (the static runtime of the
        // release build hides it from dlsym): AnnounceDaemon's EventLoopExecutor sets it.
        .target(name: "CConcurrencyHook"),
        // The engines' wire: the framed messages between the daemon and every engine helper process.
        .target(
            name: "EngineWire",
            dependencies: ["AnnouncePOSIX", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSwift),
        // The small POSIX layer over swift-system's FileDescriptor that the daemon, its modules and
        // announcectl share: a file read to its end, standard error, the environment. No Foundation.
        .target(
            name: "AnnouncePOSIX",
            dependencies: ["CAnnounceLinux", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSwift
        ),
        // libseccomp, for the engine sandbox's system call allowlist.
        .systemLibrary(
            name: "CSeccomp",
            pkgConfig: "libseccomp",
            providers: [.apt(["libseccomp-dev"])]
        ),
        // The calls the engine sandbox makes that Swift cannot (prctl, Landlock's system calls,
        // the async-signal-safe SIGSYS handler).
        .target(name: "CEngineSandbox", cSettings: [.define("_GNU_SOURCE")]),
        // The C half of the debug helpers' sandbox probes (EngineSandbox's SandboxProbe): compiled
        // in debug builds only, so no release helper holds them (.ci/check-release-symbols).
        .target(
            name: "CEngineSandboxProbes", path: "Tests/CEngineSandboxProbes",
            cSettings: [.define("ANNOUNCED_SANDBOX_PROBES", .when(configuration: .debug))]
        ),
        // The sandbox a speech engine's helper process enters once its engine is loaded:
        // no_new_privs, a seccomp allowlist, Landlock (read-only, beneath the engine's data).
        .target(
            name: "EngineSandbox", dependencies: ["CEngineSandbox", "CEngineSandboxProbes", "CSeccomp"],
            swiftSettings: strictSwift),
        // What every engine helper shares: its pipes, the frame loop, abort, the sandbox probes and
        // the sandbox's entry. A helper is its engine (a HelperEngine) and one call of HelperRuntime.run.
        .target(
            name: "HelperRuntime",
            dependencies: [
                "EngineWire", "EngineSandbox", "CAnnounceLinux",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSwift
        ),
        // announced-espeak: espeak-ng in a process of its own, so a text that crashes espeak-ng
        // costs one post, not the daemon; sandboxed, so a text that takes it over reaches nothing.
        // pcaudio, the audio library libespeak-ng links, replaced in both engine helpers by none:
        // the helper answers to its soname (engineHelperLinks), so libpcaudio, libpulse and what
        // they link are never loaded, and espeak-ng's initialization leaves the sound server alone
        // (no_audio_device.c).
        .target(name: "CEspeakNoAudioDevice"),
        .executableTarget(
            name: "announced-espeak",
            dependencies: ["CEspeakNG", "CEspeakNoAudioDevice", "EngineWire", "HelperRuntime"],
            swiftSettings: strictSwift,
            linkerSettings: engineHelperLinks
        ),
        // The part of sherpa-onnx's C API announced-piper uses, declared here and loaded at run time
        // (dlopen), so the package builds without the engine (scripts/fetch-piper-engine.sh gets it).
        .target(name: "CSherpaOnnx"),
        // Piper voices on sherpa-onnx: the engine loaded, a voice prepared and loaded, phonemes
        // rendered, and the rules that turn a rendering into the helper's audio (16-bit samples,
        // the first chunk's quiet onset). announced-piper speaks with it; IntegrationTests renders
        // with it directly, to compare with what the daemon recorded.
        .target(
            name: "PiperRendering",
            dependencies: ["CSherpaOnnx", "PiperVoices", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSwift
        ),
        // announced-piper: Piper voices through sherpa-onnx (ONNX Runtime), phonemized by espeak-ng,
        // in a sandboxed process of its own on the same wire and runtime as announced-espeak.
        .executableTarget(
            name: "announced-piper",
            // PiperRendering reads the voice's `.onnx.json` with PiperVoices (as the daemon does),
            // which links only AnnounceProtocol and glibc, so the helper gains no library.
            dependencies: ["PiperRendering", "CEspeakNG", "CEspeakNoAudioDevice", "EngineWire", "HelperRuntime"],
            swiftSettings: strictSwift,
            linkerSettings: engineHelperLinks
        ),
        // Speech on one dedicated thread: the helper's audio, played through the audio outputs.
        .target(
            name: "SpeechSynthesis",
            dependencies: [
                "EngineWire", "CPulseAudio", "CALSA", "CAnnounceLinux", "AnnounceCore", "PiperVoices", "AnnouncePOSIX",
                "POSIXThreads", "LanguageRuns",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        // Piper voices as files: finding and checking `.onnx` + `.onnx.json` pairs, and
        // installing them whole. Shared by the daemon and `announcectl voices install`. No Foundation.
        .target(
            name: "PiperVoices",
            dependencies: [
                "AnnounceProtocol", "AnnouncePOSIX", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSwift
        ),
        // A post's text cut into runs of one language each: by script, by SSML's xml:lang, and by
        // a language identifier (CLD2, through CLD2Shim). No Foundation, no ICU.
        .target(name: "LanguageRuns", dependencies: ["CLD2Shim"], swiftSettings: strictSwift),
        // CLD2 is C++ only: a C function around the one call LanguageRuns makes. It opens libcld2
        // with dlopen on first use (`detect` only), so nothing links it.
        .target(name: "CLD2Shim", dependencies: ["CCLD2", "CLibraryLoader"]),
        // Debian's libcld2-dev: no C header and no pkg-config file, so this names the package only.
        .systemLibrary(name: "CCLD2", providers: [.apt(["libcld2-dev"])]),
        // sd-bus, systemd's D-Bus library (Benchmarks/README.md, "D-Bus libraries", says why not libdbus).
        .systemLibrary(name: "CSystemdBus", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // The desktop's buses: the screen reader's status on the session bus, toolkit announcements
        // on the accessibility bus. sd-bus driven by libdispatch, no thread of its own, no Foundation;
        // an announcing application's `/proc/PID/comm` is read on NIO's thread pool for blocking work.
        .target(
            name: "DesktopBus",
            dependencies: ["CSystemdBus", "AnnouncePOSIX", .product(name: "NIOPosix", package: "swift-nio")],
            swiftSettings: strictSwift),
        // announced's voices for Spiel's clients: org.freedesktop.Speech.Provider on the session
        // bus, its streams synthesized on the engines' warm helpers (SpeechSynthesis' StreamSynthesizer).
        .target(
            name: "SpeechProvider",
            dependencies: [
                "DesktopBus", "SpeechSynthesis", "AnnounceCore", "AnnouncePOSIX", "POSIXThreads",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        // The daemon's configuration: file, environment and flags, layered.
        .target(
            name: "DaemonConfiguration",
            dependencies: [
                "AnnounceProtocol", "AnnounceCore", "AnnouncePOSIX", "LanguageRuns",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSwift
        ),
        // The Swift client library: `await announcer.announce("Saved")`. Plain Unix sockets with a
        // thread per connection, no NIO: announcectl links it, and NIO stays the daemon's.
        .target(
            name: "AnnounceClient",
            dependencies: [
                "AnnounceProtocol", "POSIXThreads", "AnnouncePOSIX", "CAnnounceLinux",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSwift
        ),
        // The command line for people and scripts.
        .executableTarget(
            name: "announcectl",
            dependencies: [
                "AnnounceClient", "AnnounceProtocol", "PiperVoices", "AnnouncePOSIX", "CAnnounceLinux", "POSIXThreads",
                "AccessibilityLint",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift
        ),
        // The smallest client: one announcement (and the client whose memory the README quotes).
        .executableTarget(name: "HelloAnnouncer", dependencies: ["AnnounceClient"], swiftSettings: strictSwift),
        // The seed article's task timer, on announced.
        .executableTarget(
            name: "TaskTimer",
            dependencies: ["AnnounceClient"],
            swiftSettings: strictSwift
        ),
        // A terminal menu a user drives with `announcectl navigate`: combined rows, custom rotors.
        .executableTarget(
            name: "TerminalMenu",
            dependencies: ["AnnounceClient"],
            swiftSettings: strictSwift
        ),
        // The Unix socket server: peer credentials, connections on their event loops, the
        // front-ends (JSON lines) that frame, decode and encode, systemd notify and activation.
        .target(
            name: "AnnounceServer",
            dependencies: [
                "AnnounceProtocol", "AnnounceCore", "CAnnounceLinux", "POSIXThreads",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        // The SSIP front-end: speech-dispatcher's clients through the server and the dispatcher.
        .target(
            name: "AnnounceSSIP",
            dependencies: [
                "AnnounceProtocol", "AnnounceCore", "AnnounceServer", "SSIPProtocol", "POSIXThreads",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // The daemon's services and the graph that wires them into one ServiceGroup (``Daemon``):
        // a library, so that a test can build the graph and check its start and shutdown order.
        .target(
            name: "AnnounceDaemon",
            dependencies: [
                "AnnounceCore", "AnnounceServer", "AnnounceSSIP", "SpeechSynthesis", "DaemonConfiguration",
                "CAnnounceLinux", "CConcurrencyHook", "DesktopBus", "SpeechProvider", "AnnouncePOSIX", "POSIXThreads",
                .product(name: "SystemPackage", package: "swift-system"),
                // NIOThreadPool: the blocking work of its services (malloc_trim, the /proc scan for Orca);
                // the singleton event loops, which run its tasks (EventLoopExecutor, EventLoopSleep).
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "announced",
            dependencies: [
                "AnnounceDaemon", "AnnounceCore", "AnnounceServer", "SpeechSynthesis", "DaemonConfiguration",
                "CAnnounceLinux", "AnnouncePOSIX", .product(name: "SystemPackage", package: "swift-system"),
                // NIOSingletons: main sizes NIO's blocking pool before anything uses it.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        // `make bench`: latency, throughput and memory figures against the daemon process.
        .executableTarget(
            name: "announced-bench",
            dependencies: ["CEspeakNG", "ProcessHarness", "EngineWire", "DesktopBus", "POSIXThreads"],
            swiftSettings: strictSwift
        ),
        // `make fuzz`: libFuzzer targets (built with -sanitize=fuzzer -DFUZZING); without those
        // flags they replay corpus files, so CI keeps them building.
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], swiftSettings: strictSwift),
        .executableTarget(
            name: "FuzzRequestDecoder",
            dependencies: ["AnnounceProtocol", "AnnounceCore", "AccessibilityLint", "FuzzSupport"],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "FuzzSSIP",
            dependencies: [
                "SSIPProtocol", "AnnounceSSIP", "AnnounceCore", "FuzzSupport",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "FuzzEspeakText",
            dependencies: ["CEspeakNG", "FuzzSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "AnnounceDaemonTests",
            dependencies: [
                "AnnounceDaemon", "POSIXThreads", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(name: "AnnounceProtocolTests", dependencies: ["AnnounceProtocol"], swiftSettings: strictSwift),
        .testTarget(
            name: "AnnouncePOSIXTests",
            dependencies: ["AnnouncePOSIX", "POSIXThreads", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSwift),
        // A helper on the shared runtime with an engine of the tests' own (announced-helper-probe),
        // and the runtime's tests through it: frames, voices, prepare, abort, exit statuses.
        .executableTarget(
            name: "announced-helper-probe", dependencies: ["HelperRuntime", "EngineWire"],
            path: "Tests/HelperRuntimeProbe", swiftSettings: strictSwift),
        .testTarget(
            name: "HelperRuntimeTests",
            dependencies: ["announced-helper-probe", "EngineWire", "TestSupport", "BlockingThreads"],
            swiftSettings: strictSwift),
        // The one lock and the threads of their own (ConditionLock, LockedValue, DedicatedThread).
        .testTarget(name: "POSIXThreadsTests", dependencies: ["POSIXThreads"], swiftSettings: strictSwift),
        // The engine wire's frames through real pipes.
        .testTarget(
            name: "EngineWireTests", dependencies: ["EngineWire", "POSIXThreads", "TestSupport", "BlockingThreads"],
            swiftSettings: strictSwift),
        // The Spiel provider's stream writer on real pipes.
        .testTarget(
            name: "SpeechProviderTests", dependencies: ["SpeechProvider", "POSIXThreads", "TestSupport"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "AccessibilityLintTests", dependencies: ["AccessibilityLint", "AnnounceProtocol"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "SSIPProtocolTests", dependencies: ["SSIPProtocol", "AnnounceProtocol"], swiftSettings: strictSwift),
        .testTarget(
            name: "AnnounceCoreTests",
            dependencies: ["AnnounceCore", "AnnounceProtocol", "TestSupport", "POSIXThreads"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "SpeechSynthesisTests",
            dependencies: [
                "SpeechSynthesis", "EngineWire", "AnnounceCore", "CAnnounceLinux", "EngineSandbox", "TestSupport",
                "BlockingThreads", "POSIXThreads",
                // A third engine's doors (ThirdEngineDoorsTests): SSIP's front end, the toolkit announcements'.
                "AnnounceSSIP", "AnnounceServer", "AnnounceDaemon", "DesktopBus", "AnnounceProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        // announced-piper with the real engine and voice (scripts/fetch-piper-engine.sh; skipped
        // without them), its wire messages, its sandbox, and CSherpaOnnx's layout against the real header.
        .testTarget(
            name: "PiperEngineTests",
            dependencies: [
                "EngineWire", "EngineSandbox", "CAnnounceLinux", "PiperVoices", "TestSupport", "BlockingThreads",
            ],
            // The C file the layout test compiles against the fetched header.
            exclude: ["Fixtures"],
            swiftSettings: strictSwift
        ),
        // The server's connections on EmbeddedChannel: framing, half-close, limits, peers.
        .testTarget(
            name: "AnnounceServerTests",
            dependencies: [
                "AnnounceServer", "AnnounceCore", "AnnounceProtocol", "TestSupport", "POSIXThreads",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // The SSIP front-end's decoder, encoder and connections on EmbeddedChannel.
        .testTarget(
            name: "AnnounceSSIPTests",
            dependencies: [
                "AnnounceSSIP", "AnnounceServer", "AnnounceCore", "AnnounceProtocol", "SSIPProtocol", "TestSupport",
                "POSIXThreads",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "PiperVoicesTests", dependencies: ["PiperVoices", "AnnounceProtocol", "TestSupport"],
            swiftSettings: strictSwift),
        // Language runs, and espeak-ng reading each run in its language.
        .testTarget(
            name: "LanguageRunsTests", dependencies: ["LanguageRuns", "ProcessHarness", "BlockingThreads"],
            swiftSettings: strictSwift
        ),
        // The desktop's buses for real: a private session bus with at-spi-bus-launcher, and a GTK 3
        // application announcing on Xvfb (skipped, naming the packages, when they are missing).
        .testTarget(
            name: "DesktopBusTests",
            dependencies: ["DesktopBus", "ProcessHarness", "TestSupport", "BlockingThreads", "CAnnounceLinux"],
            exclude: ["Fixtures"], swiftSettings: strictSwift
        ),
        .testTarget(
            name: "DaemonConfigurationTests", dependencies: ["DaemonConfiguration", "AnnounceCore"],
            swiftSettings: strictSwift),
        // Against the real daemon (and announcectl) as separate processes on real sockets.
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "AnnounceProtocol", "AnnounceClient", "SSIPProtocol", "EngineSandbox", "PiperRendering", "TestSupport",
                "BlockingThreads", "DesktopBus", "POSIXThreads",
            ],
            // Sources of client programs the tests compile themselves (the libspeechd client).
            exclude: ["Fixtures"],
            swiftSettings: strictSwift
        ),
        // Child processes started and reaped by pid, a private PulseAudio server with its monitor
        // recording, and a readiness socket for the daemon's READY=1: what the tests and
        // announced-bench both start from outside.
        .target(
            name: "ProcessHarness", dependencies: ["CAnnounceLinux", "POSIXThreads", "AnnouncePOSIX"],
            swiftSettings: strictSwift),
        // What only the tests need (a private PipeWire session, sanitizer reports, pause seams,
        // manual dispatcher turns, a silent backend, the server on embedded channels); it
        // re-exports ProcessHarness, so `import TestSupport` brings both.
        .target(
            name: "TestSupport",
            dependencies: [
                "ProcessHarness", "AnnounceCore", "AnnounceServer", "CAnnounceLinux", "POSIXThreads", "EngineWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strictSwift
        ),
        // Threads of their own for tests that block (child processes, synchronous socket reads), so
        // that Swift's cooperative pool stays free for the async tests, and the trait that puts a
        // suite on them. Its own target: it needs swift-nio and Swift Testing, announced-bench neither.
        .target(
            name: "BlockingThreads",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/BlockingThreads",
            swiftSettings: strictSwift
        ),
    ]
)
