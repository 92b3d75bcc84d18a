// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Glibc

/// What an engine says about its helper executable: its name, how it is found, how long it may
/// be silent or take to load a voice, and what the daemon says when it is missing or its engine
/// cannot start. Each engine has one (`EspeakEngine.helper`, `PiperEngine.helper`); nothing else
/// about a helper differs between engines.
struct EngineHelperKind: Sendable {
    /// The engine's name in logs, messages and the monitor: `espeak-ng`, `piper`.
    let engine: String
    /// The helper executable's name, looked for beside the daemon and in `../libexec/announced`.
    let executableName: String
    /// The environment variable that names the helper executable, for unusual installations.
    let environmentVariable: String
    /// What the engine does beyond speaking its voices, given to each voice it lists or
    /// installs: espeak-ng's take variants and are the language fallback; by default none.
    var capabilities = EngineCapabilities()
    /// How long, in milliseconds, the helper may send nothing while the speech thread waits for
    /// it before it counts as stuck (and is killed and replaced).
    var silenceLimit: Int32 = 5000
    /// How long, in milliseconds, loading a voice (`prepare`) may take before the helper counts
    /// as stuck; nil for an engine that loads nothing ahead.
    var loadTimeout: Int32?
    /// Where the helper comes from besides `make install`, added to the message that it was not found.
    var installAdvice: String?
    /// What is missing when the engine cannot be initialized and what to do (its data), added to
    /// that message; nil: the daemon's log has the engine's own message.
    var initializationAdvice: String?

    /// Where the helper is looked for, in order: the path the kind's environment variable names
    /// when it is set, else the helper next to the running executable, in `../libexec/announced`
    /// and in `../lib/announced` from it (`make install` puts espeak-ng's in the first, the
    /// announced-piper package and `make install-piper` put Piper's in the second).
    var candidatePaths: [String] {
        if let variable = getenv(environmentVariable), case let path = String(cString: variable), !path.isEmpty {
            return [path]
        }
        guard let directory = EngineHelperProcess.executableDirectory() else { return [] }
        return [
            "\(directory)/\(executableName)", "\(directory)/../libexec/announced/\(executableName)",
            "\(directory)/../lib/announced/\(executableName)",
        ]
    }

    /// The first of ``candidatePaths`` that is an executable file; nil when the helper is not
    /// installed. A few `access` calls, so it may be asked whenever it matters (a package
    /// installed while the daemon runs is found the next time).
    var installedPath: String? {
        candidatePaths.first { access($0, X_OK) == 0 }
    }

    /// The error when the helper is not found at any of `candidates`.
    func notFound(lookedAt candidates: [String]) -> SpeechSynthesisError {
        SpeechSynthesisError(
            "the \(engine) helper \(executableName) was not found (looked at \(candidates.joined(separator: ", "))). "
                + "It is built and installed with announced (`make install`\(installAdvice.map { "; \($0)" } ?? "")); "
                + "set \(environmentVariable) to its path if it lives elsewhere."
        )
    }

    /// The error when the helper's engine cannot be initialized (the engine's error `code`).
    func initializationFailed(code: Int32) -> SpeechSynthesisError {
        guard let initializationAdvice else {
            return SpeechSynthesisError(
                "the \(engine) engine could not be initialized (error \(code)); the daemon's log has its own message"
            )
        }
        return SpeechSynthesisError("\(engine) could not be initialized (error \(code)): \(initializationAdvice)")
    }
}
