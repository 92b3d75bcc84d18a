// SPDX-License-Identifier: GPL-3.0-or-later
#if DEBUG
    import BlockingThreads
    import EngineSandbox
    import EngineWire
    import Foundation
    import Glibc
    import Testing
    @testable import SpeechSynthesis

    /// Each restriction of the helper's sandbox, tried from inside the real `announced-espeak` by its
    /// debug-build probe (`SandboxProbe`). Every test runs the probe twice: in a helper started
    /// without its sandbox (`ANNOUNCED_ESPEAK_UNSANDBOXED`, debug builds only), where it must
    /// succeed, so the probe can tell; and in a sandboxed helper, where it must be refused.
    @Suite("The espeak-ng helper's sandbox, from inside the helper", .onBlockingThreads)
    struct SandboxTests {
        /// How a probe ended.
        enum Outcome: Equatable {
            /// The helper answered (`allowed`, `refused: …`, `no_new_privs=…`).
            case answered(String)
            /// The helper ended; `how` is `EngineHelperProcess.stop`'s account, `breach` its sandbox breach.
            case ended(how: String, breach: String?)
        }

        /// A started helper, sandboxed or not.
        static func helper(sandboxed: Bool) throws -> EngineHelperProcess {
            let helper = try EngineHelperProcess(kind: EspeakEngine.helper)
            if !sandboxed { helper.extraEnvironment = ["ANNOUNCED_ESPEAK_UNSANDBOXED=1"] }
            try helper.start()
            return helper
        }

        /// Runs `probe` in a new helper and says how it went.
        static func run(_ probe: SandboxProbe, _ argument: String = "", sandboxed: Bool) throws -> Outcome {
            let helper = try helper(sandboxed: sandboxed)
            defer { helper.stop() }
            return run(probe, argument, in: helper)
        }

        static func run(_ probe: SandboxProbe, _ argument: String = "", in helper: EngineHelperProcess) -> Outcome {
            let request = SynthesisRequest(
                voice: "en-us", rate: 175, pitch: 50, volume: 100, punctuation: .none, punctuationList: "", ssml: false,
                text: probe.text(argument)
            )
            var answer = ""
            if helper.send(.synthesize(request)) {
                while let message = helper.next() {
                    if case .mark(_, let name) = message { answer = name }
                    if case .done = message { return .answered(answer) }
                }
            }
            let how = helper.stop()
            return .ended(how: how, breach: helper.sandboxBreach)
        }

        /// A fresh directory of this test's.
        static func directory() -> String {
            let path = NSTemporaryDirectory() + "sandbox-tests-\(UUID().uuidString)"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        /// Killed by the sandbox for calling `call`.
        static func killed(for call: String) -> Outcome {
            .ended(
                how: "was killed by signal \(SIGSYS) (\(String(cString: strsignal(SIGSYS))))",
                breach: "system call \(call)")
        }

        @Test(
            "a file outside espeak-ng's data cannot be read (Landlock)",
            .enabled(if: EngineSandbox.kernelLandlockABI != nil, "this kernel has no Landlock")
        )
        func readOutsideData() throws {
            let file = Self.directory() + "/secret.txt"
            try "the user's own file".write(toFile: file, atomically: true, encoding: .utf8)
            #expect(try Self.run(.readFile, file, sandboxed: false) == .answered("allowed"))
            #expect(try Self.run(.readFile, file, sandboxed: true) == .answered("refused: Permission denied"))
            #expect(try Self.run(.readFile, "/etc/passwd", sandboxed: true) == .answered("refused: Permission denied"))
        }

        @Test(
            "Landlock binds every thread of the helper, espeak-ng's own too: none can read a file outside the data",
            .enabled(if: EngineSandbox.kernelLandlockABI != nil, "this kernel has no Landlock")
        )
        func everyThreadRestricted() throws {
            let file = Self.directory() + "/secret.txt"
            try "the user's own file".write(toFile: file, atomically: true, encoding: .utf8)
            for sandboxed in [false, true] {
                let helper = try Self.helper(sandboxed: sandboxed)
                defer { helper.stop() }
                // Ready, so espeak-ng has started whatever threads it starts.
                #expect(
                    Self.run(.noNewPrivileges, in: helper) == .answered(sandboxed ? "no_new_privs=1" : "no_new_privs=0")
                )
                let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(helper.pid)/task")
                #expect(!threads.isEmpty)
                for thread in threads {
                    let expected = sandboxed ? "refused: Permission denied" : "allowed"
                    #expect(
                        Self.run(.readFileOnThread, "\(thread) \(file)", in: helper) == .answered(expected),
                        "thread \(thread) of \(threads.count), \(sandboxed ? "sandboxed" : "unsandboxed")"
                    )
                }
            }
        }

        @Test("a file cannot be created: the helper is stopped at the open")
        func createFile() throws {
            let directory = Self.directory()
            #expect(try Self.run(.createFile, directory + "/unsandboxed", sandboxed: false) == .answered("allowed"))
            #expect(FileManager.default.fileExists(atPath: directory + "/unsandboxed"))
            #expect(try Self.run(.createFile, directory + "/sandboxed", sandboxed: true) == Self.killed(for: "openat"))
            #expect(!FileManager.default.fileExists(atPath: directory + "/sandboxed"))
        }

        @Test("no socket can be opened: the helper is stopped at the call")
        func openSocket() throws {
            #expect(try Self.run(.openSocket, sandboxed: false) == .answered("allowed"))
            #expect(try Self.run(.openSocket, sandboxed: true) == Self.killed(for: "socket"))
        }

        @Test("the SIGSYS handler cannot be replaced to survive a refused call: the helper is stopped at rt_sigaction")
        func violationHandlerKept() throws {
            // Unsandboxed, the probe replaces the handler and opens its socket.
            #expect(try Self.run(.replaceViolationHandler, sandboxed: false) == .answered("still running"))
            #expect(try Self.run(.replaceViolationHandler, sandboxed: true) == Self.killed(for: "rt_sigaction"))
        }

        @Test("no program can be run: the helper is stopped at execve")
        func execute() throws {
            // Unsandboxed, the helper becomes /bin/true, which exits at once without answering.
            #expect(try Self.run(.execute, sandboxed: false) == .ended(how: "exited with status 0", breach: nil))
            #expect(try Self.run(.execute, sandboxed: true) == Self.killed(for: "execve"))
        }

        @Test("no privileges can be gained: no_new_privs is set, and the kernel lists the seccomp filter")
        func noNewPrivileges() throws {
            #expect(try Self.run(.noNewPrivileges, sandboxed: false) == .answered("no_new_privs=0"))
            let helper = try Self.helper(sandboxed: true)
            defer { helper.stop() }
            #expect(Self.run(.noNewPrivileges, in: helper) == .answered("no_new_privs=1"))
            let status = try String(contentsOfFile: "/proc/\(helper.pid)/status", encoding: .utf8)
            #expect(status.contains("NoNewPrivs:\t1"), "\(status)")
            #expect(status.contains("Seccomp:\t2"), "filter mode: \(status)")
        }

        @Test(
            "SSML <audio> naming a file outside the data: espeak-ng cannot read it (nor hand it to sox), and speaks the rest",
            .enabled(if: EngineSandbox.kernelLandlockABI != nil, "this kernel has no Landlock")
        )
        func audioElement() throws {
            let helper = try Self.helper(sandboxed: true)
            defer { helper.stop() }
            let request = SynthesisRequest(
                voice: "en-us", rate: 175, pitch: 50, volume: 100, punctuation: .none, punctuationList: "", ssml: true,
                text: #"<speak>Before <audio src="/etc/passwd">the file</audio> after</speak>"#
            )
            #expect(helper.send(.synthesize(request)))
            var samples = 0
            var status: Int32?
            while let message = helper.next() {
                if case .samples(let chunk) = message { samples += chunk.count }
                if case .done(let code) = message {
                    status = code
                    break
                }
            }
            #expect(
                status == 0 && samples > 5000,
                "\(samples) samples; the helper \(status == nil ? helper.stop() : "finished")")
            #expect(helper.sandboxBreach == nil)
        }

        @Test("sandboxed, the helper still speaks: SSML, a voice change, a long text, many voices")
        func speaksInSandbox() throws {
            let helper = try Self.helper(sandboxed: true)
            defer { helper.stop() }
            #expect(Self.run(.noNewPrivileges, in: helper) == .answered("no_new_privs=1"))
            let texts: [(voice: String, ssml: Bool, text: String)] =
                [
                    ("en-us", false, "Hello world, 1st of January 2024; $5.00 & 3% e-mail@example.com"),
                    (
                        "en-us", true,
                        #"<speak>Hello <mark name="m"/><break time="200ms"/><prosody rate="fast">fast</prosody> <voice name="de">Guten Tag</voice> <say-as interpret-as="characters">abc</say-as></speak>"#
                    ),
                    (
                        "en-us", false,
                        String(repeating: "A long announcement that is still being synthesized. ", count: 30)
                    ),
                ]
                + ["de", "fr", "cmn", "ja", "ru", "ar", "hi", "el", "fi", "ko", "he", "vi"].map {
                    ($0, false, "Hello 123 world")
                }
            for (voice, ssml, text) in texts {
                let request = SynthesisRequest(
                    voice: voice, rate: 450, pitch: 50, volume: 100, punctuation: .some, punctuationList: "#$%",
                    ssml: ssml, text: text)
                #expect(helper.send(.synthesize(request)))
                var samples = 0
                var finished = false
                while let message = helper.next() {
                    if case .samples(let chunk) = message { samples += chunk.count }
                    if case .done(let status) = message {
                        #expect(status == 0)
                        finished = true
                        break
                    }
                }
                #expect(
                    finished && samples > 1000,
                    "\(voice): \(text.prefix(40)) — \(samples) samples, the helper \(finished ? "finished" : helper.stop())"
                )
            }
            #expect(helper.sandboxBreach == nil)
        }
    }
#endif
