// SPDX-License-Identifier: GPL-3.0-or-later
#if DEBUG
    import BlockingThreads
    import EngineSandbox
    import EngineWire
    import Foundation
    import Glibc
    import Testing

    /// Each restriction of the Piper helper's sandbox, tried from inside the real `announced-piper`
    /// by its debug-build probe (`SandboxProbe`), once without the sandbox
    /// (`ANNOUNCED_PIPER_UNSANDBOXED`), where it must succeed, and once with it, where it must be
    /// refused. The helper's sandbox allows threads (ONNX Runtime's), which the espeak-ng helper's
    /// does not; a fork must still be refused.
    @Suite(
        "The Piper helper's sandbox, from inside the helper", .onBlockingThreads,
        .enabled(if: PiperTestFiles.isFetched, "\(PiperTestFiles.missing)")
    )
    struct PiperSandboxTests {
        /// How a probe ended.
        enum Outcome: Equatable {
            /// The helper answered (`allowed`, `refused: …`, `no_new_privs=…`).
            case answered(String)
            /// The helper ended with this status (128 + signal), after reporting this call refused.
            case ended(status: Int32, refused: String?)
        }

        static func helper(sandboxed: Bool) throws -> PiperHelper {
            let helper = try PiperHelper(environment: sandboxed ? [:] : ["ANNOUNCED_PIPER_UNSANDBOXED": "1"])
            let ready = helper.next()
            if ready != .ready(sampleRate: 22_050, voices: []) {
                let errors = helper.errors
                try #require(
                    ready == .ready(sampleRate: 22_050, voices: []),
                    "the helper ended \(helper.stop()); stderr: \(errors)")
            }
            return helper
        }

        static func run(_ probe: SandboxProbe, _ argument: String = "", sandboxed: Bool) throws -> Outcome {
            let helper = try helper(sandboxed: sandboxed)
            return run(probe, argument, in: helper)
        }

        static func run(_ probe: SandboxProbe, _ argument: String = "", in helper: PiperHelper) -> Outcome {
            helper.send(PiperHelper.request(probe.text(argument)))
            var answer = ""
            var refused: String?
            while let message = helper.next() {
                switch message {
                case .mark(_, let name): answer = name
                case .done: return .answered(answer)
                case .sandboxViolation(let call): refused = call
                default: break
                }
            }
            return .ended(status: helper.waitForExit(), refused: refused)
        }

        static func killed(for call: String) -> Outcome { .ended(status: 128 + SIGSYS, refused: call) }

        static func directory() -> String {
            let path = NSTemporaryDirectory() + "piper-sandbox-tests-\(UUID().uuidString)"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }

        @Test(
            "files outside the engine, espeak-ng's data and the voice directories cannot be read (Landlock); a voice's can",
            .enabled(if: EngineSandbox.kernelLandlockABI != nil, "this kernel has no Landlock")
        )
        func readFiles() throws {
            let file = Self.directory() + "/secret.txt"
            try "the user's own file".write(toFile: file, atomically: true, encoding: .utf8)
            #expect(try Self.run(.readFile, file, sandboxed: false) == .answered("allowed"))
            let helper = try Self.helper(sandboxed: true)
            #expect(Self.run(.readFile, file, in: helper) == .answered("refused: Permission denied"))
            #expect(Self.run(.readFile, "/etc/passwd", in: helper) == .answered("refused: Permission denied"))
            #expect(Self.run(.readFile, PiperTestFiles.voice + ".json", in: helper) == .answered("allowed"))
            #expect(
                Self.run(.readFile, PiperTestFiles.libraryDirectory + "/libsherpa-onnx-c-api.so", in: helper)
                    == .answered("allowed"))
        }

        @Test(
            "Landlock binds every thread of the helper, espeak-ng's and ONNX Runtime's too: none can read a file outside its paths",
            .enabled(if: EngineSandbox.kernelLandlockABI != nil, "this kernel has no Landlock")
        )
        func everyThreadRestricted() throws {
            let file = Self.directory() + "/secret.txt"
            try "the user's own file".write(toFile: file, atomically: true, encoding: .utf8)
            for sandboxed in [false, true] {
                let helper = try Self.helper(sandboxed: sandboxed)
                // A voice loaded and spoken, so ONNX Runtime has started whatever threads it starts.
                helper.send(.prepare(voice: PiperTestFiles.voice))
                #expect(helper.next(timeout: 120) == .voicePrepared(status: 0, message: ""))
                helper.send(PiperHelper.request("Threads."))
                #expect(helper.utterance().last == .done(status: 0))
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
            #expect(try Self.run(.createFile, directory + "/sandboxed", sandboxed: true) == Self.killed(for: "openat"))
            #expect(!FileManager.default.fileExists(atPath: directory + "/sandboxed"))
        }

        @Test("no socket can be opened")
        func openSocket() throws {
            #expect(try Self.run(.openSocket, sandboxed: false) == .answered("allowed"))
            #expect(try Self.run(.openSocket, sandboxed: true) == Self.killed(for: "socket"))
        }

        @Test("the SIGSYS handler cannot be replaced to survive a refused call: the helper is stopped at rt_sigaction")
        func violationHandlerKept() throws {
            #expect(try Self.run(.replaceViolationHandler, sandboxed: false) == .answered("still running"))
            #expect(try Self.run(.replaceViolationHandler, sandboxed: true) == Self.killed(for: "rt_sigaction"))
        }

        @Test("no program can be run")
        func execute() throws {
            // Unsandboxed, the helper becomes /bin/true, which exits at once without answering.
            #expect(try Self.run(.execute, sandboxed: false) == .ended(status: 0, refused: nil))
            #expect(try Self.run(.execute, sandboxed: true) == Self.killed(for: "execve"))
        }

        @Test("threads are allowed, a fork is not: the helper is stopped at clone")
        func fork() throws {
            #expect(try Self.run(.fork, sandboxed: false) == .answered("allowed"))
            #expect(try Self.run(.fork, sandboxed: true) == Self.killed(for: "clone"))
        }

        @Test(
            "no privileges can be gained: no_new_privs is set and the seccomp filter is on every thread, ONNX Runtime's too"
        )
        func noNewPrivileges() throws {
            #expect(try Self.run(.noNewPrivileges, sandboxed: false) == .answered("no_new_privs=0"))
            let helper = try Self.helper(sandboxed: true)
            #expect(Self.run(.noNewPrivileges, in: helper) == .answered("no_new_privs=1"))
            helper.send(.prepare(voice: PiperTestFiles.voice))
            #expect(helper.next(timeout: 120) == .voicePrepared(status: 0, message: ""))
            helper.send(PiperHelper.request("Threads."))
            #expect(helper.utterance().last == .done(status: 0))
            let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(helper.pid)/task")
            #expect(tasks.count > 1, "ONNX Runtime started its threads")
            for task in tasks {
                let status = try String(contentsOfFile: "/proc/\(helper.pid)/task/\(task)/status", encoding: .utf8)
                #expect(
                    status.contains("NoNewPrivs:\t1") && status.contains("Seccomp:\t2"), "thread \(task): \(status)")
            }
        }
    }
#endif
