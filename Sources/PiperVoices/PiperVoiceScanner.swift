// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// Finds the Piper voices installed in some directories: every `NAME.onnx` with a
/// `NAME.onnx.json` beside it, both checked (the JSON's fields, the model's framing; see
/// ``PiperVoiceConfig`` and ``ONNXModelCheck``). A pair that fails a check is left out and
/// reported as a ``Problem`` that says what to fix.
///
/// A scan reads the directories and `stat`s each pair; a pair whose files have not changed
/// since the last scan (same inode, size and modification time) is not read again, so scanning
/// on every `voices` request costs a few system calls per voice.
public struct PiperVoiceScanner: Sendable {
    /// A pair that was left out, and why.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file at fault.
        public var path: String
        /// What is wrong with it and what to do.
        public var problem: PiperVoiceProblem

        /// `PATH problem`.
        public var description: String { "Piper voice \(path) \(problem.problem)" }
    }

    /// What one scan found.
    public struct Scan: Sendable, Hashable {
        /// The voices, the user's directory first, each directory's by file name.
        public var voices: [PiperVoice] = []
        /// The pairs left out.
        public var problems: [Problem] = []

        /// Nothing found.
        public init() {}
    }

    /// Where to look.
    public let directories: PiperVoiceDirectories
    /// The last outcome of each model path, with the identities of its two files then.
    private var cache:
        [String: (
            model: VoiceFileIO.Identity, config: VoiceFileIO.Identity, outcome: Result<PiperVoiceConfig, Problem>
        )] = [:]

    /// The model paths whose pair was added, changed (installed again) or removed between the
    /// scan before the last and the last (every path found, after the first scan).
    public private(set) var changedModels: Set<String> = []

    /// A scanner of `directories`.
    public init(directories: PiperVoiceDirectories) {
        self.directories = directories
    }

    /// Looks for voices now.
    public mutating func scan() -> Scan {
        changedModels = []
        var result = Scan()
        var seen: Set<String> = []
        var checked: Set<String> = []
        for directory in directories.searchOrder {
            guard let names = VoiceFileIO.names(in: directory) else {
                let code = errno
                if code != ENOENT && code != ENOTDIR {
                    result.problems.append(
                        Problem(
                            path: directory,
                            problem: PiperVoiceProblem(
                                "cannot be read (\(VoiceFileIO.errorText(code))); check its permissions")))
                }
                continue
            }
            let present = Set(names)
            for name in names where !name.hasPrefix(".") {
                if name.hasSuffix(PiperVoiceFiles.configSuffix) {
                    let model = String(name.dropLast(".json".count))
                    if !present.contains(model) {
                        result.problems.append(
                            Problem(
                                path: directory + "/" + name,
                                problem: PiperVoiceProblem(
                                    "has no model beside it; put \(model) (from the same place as the .onnx.json) in \(directory), or remove it"
                                )
                            ))
                    }
                    continue
                }
                guard name.hasSuffix(PiperVoiceFiles.modelSuffix), name.count > PiperVoiceFiles.modelSuffix.count else {
                    continue
                }
                let path = directory + "/" + name
                checked.insert(path)
                switch outcome(modelPath: path, hasConfig: present.contains(name + ".json")) {
                case .success(let config):
                    let voiceName = PiperVoice.name(ofModelFile: name)
                    // The user's voice hides the system's of the same name (and the first of
                    // two names differing only in case wins).
                    guard seen.insert(voiceName).inserted else { continue }
                    result.voices.append(PiperVoice(name: voiceName, modelPath: path, config: config))
                case .failure(let problem):
                    result.problems.append(problem)
                }
            }
        }
        changedModels.formUnion(cache.keys.filter { !checked.contains($0) })
        cache = cache.filter { checked.contains($0.key) }
        return result
    }

    /// The outcome for the model at `path`, from the cache when neither file changed.
    private mutating func outcome(modelPath path: String, hasConfig: Bool) -> Result<PiperVoiceConfig, Problem> {
        let configPath = path + ".json"
        guard hasConfig, let configIdentity = VoiceFileIO.identity(configPath) else {
            if cache.removeValue(forKey: path) != nil { changedModels.insert(path) }
            let file = path.split(separator: "/").last.map(String.init) ?? path
            return .failure(
                Problem(
                    path: path,
                    problem: PiperVoiceProblem(
                        "has no \(file).json beside it; put the voice's .onnx.json (from the same place as the model) next to it, or install the voice with `announcectl voices install`"
                    )
                ))
        }
        guard let modelIdentity = VoiceFileIO.identity(path) else {
            if cache.removeValue(forKey: path) != nil { changedModels.insert(path) }
            return .failure(
                Problem(
                    path: path,
                    problem: PiperVoiceProblem("cannot be read (\(VoiceFileIO.errorText())); check its permissions")))
        }
        if let cached = cache[path], cached.model == modelIdentity, cached.config == configIdentity {
            return cached.outcome
        }
        let outcome = Self.check(modelPath: path)
        changedModels.insert(path)
        cache[path] = (modelIdentity, configIdentity, outcome)
        return outcome
    }

    /// Checks the pair of the model at `path`.
    static func check(modelPath path: String) -> Result<PiperVoiceConfig, Problem> {
        do throws(PiperVoiceProblem) {
            try VoiceFileIO.checkModel(path)
        } catch {
            return .failure(Problem(path: path, problem: error))
        }
        let configPath = path + ".json"
        do throws(PiperVoiceProblem) {
            return .success(try PiperVoiceConfig(contentsOf: configPath))
        } catch {
            return .failure(Problem(path: configPath, problem: error))
        }
    }
}
