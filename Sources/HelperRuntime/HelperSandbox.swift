// SPDX-License-Identifier: GPL-3.0-or-later
public import EngineSandbox
import EngineWire
import Glibc

extension HelperRuntime {
    /// Enters the helper's sandbox (EngineSandbox) around `initialize`, the engine's
    /// initialization, which may start threads: `no_new_privs` and Landlock (only `readablePaths`
    /// readable, nothing writable) before it, so its threads are born inside; the seccomp
    /// allowlist (with `allowances` beyond every helper's) after it, on every thread at once. A
    /// refused call then ends the helper with SIGSYS after a `sandboxViolation` message naming it.
    ///
    /// Without Landlock it logs a warning and goes on. When the sandbox cannot be set up it says
    /// why on standard error and exits with status 3 rather than read a text unconfined. In debug
    /// builds the variable `switchedOffBy` set runs `initialize` without the sandbox (the tests'
    /// control experiment); `readablePaths` is then not asked for.
    public func enterSandbox(
        reading readablePaths: @autoclosure () -> [String], allowances: Set<EngineSandbox.Allowance> = [],
        switchedOffBy variable: String, around initialize: () -> Void = {}
    ) {
        #if DEBUG
            if getenv(variable) != nil {
                initialize()
                return
            }
        #endif
        let sandbox = EngineSandbox(
            readablePaths: readablePaths(),
            violationReport: ViolationReport(fd: messages.fd) { EngineMessage.sandboxViolation(systemCall: $0).frame },
            allowances: allowances
        )
        do {
            if let warning = try sandbox.enter(around: initialize).warning {
                say("warning: \(warning)")
            }
        } catch {
            say(error.message)
            exit(3)
        }
    }
}
