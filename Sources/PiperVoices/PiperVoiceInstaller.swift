// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import SystemPackage

/// Puts a Piper voice's pair into a voice directory whole, or not at all.
///
/// Both files are first written to temporary files in the directory itself (hidden, named
/// `.STEM.onnx.partial-XXXXXX`), flushed to disk and checked there like discovery checks them.
/// Only then are they renamed into place, the model first and its `.onnx.json` last, and the
/// directory is flushed. Discovery takes a model only with its `.onnx.json`, so at no moment of a
/// crash is there a pair it would take half-written; a refused or failed install removes its
/// temporary files. A voice already installed under the same file names is replaced: its
/// `.onnx.json` is removed before the new model takes the old one's place.
public struct PiperVoiceInstaller: Sendable {
    /// The voice directory, created (with its parents) when missing.
    public let directory: String

    /// An installer into `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// A temporary file in the directory for one file of the pair, open for writing.
    public struct TemporaryFile: Sendable {
        /// Its path.
        public let path: String
        /// Its open descriptor.
        public let descriptor: Int32
    }

    /// Makes the directory and a temporary file for the voice file `fileName`.
    public func makeTemporaryFile(for fileName: String) throws(PiperVoiceProblem) -> TemporaryFile {
        try makeDirectories(directory)
        var template = Array("\(directory)/.\(fileName).partial-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw PiperVoiceProblem(
                "cannot be written in \(directory) (\(VoiceFileIO.errorText())); check its permissions and free space")
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        fchmod(fd, 0o644)
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return TemporaryFile(path: path, descriptor: fd)
    }

    /// Copies the file at `source` into `file`.
    public func copy(_ source: String, into file: TemporaryFile) throws(PiperVoiceProblem) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw PiperVoiceProblem(
                "cannot be read (\(VoiceFileIO.errorText())); check that it exists and its permissions")
        }
        defer { close(input) }
        let output = FileDescriptor(rawValue: file.descriptor)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try FileDescriptor(rawValue: input).read(into: $0) }
            } catch {
                throw PiperVoiceProblem("cannot be read (\(error))")
            }
            if count == 0 { return }
            do {
                try output.writeAll(chunk[..<count])
            } catch {
                throw PiperVoiceProblem("cannot be written to \(file.path) (\(error)); check the free space")
            }
        }
    }

    /// Checks the pair in `model` and `config` (filled), and moves it into place as `stem.onnx`
    /// and `stem.onnx.json`. On any failure both temporary files are removed.
    ///
    /// - Throws: ``PiperVoiceProblem`` starting with the file at fault's name.
    public func install(stem: String, model: TemporaryFile, config: TemporaryFile) throws(PiperVoiceProblem)
        -> PiperVoice
    {
        var moved = false
        defer {
            close(model.descriptor)
            close(config.descriptor)
            if !moved {
                unlink(model.path)
                unlink(config.path)
            }
        }
        let modelName = stem + PiperVoiceFiles.modelSuffix
        let configName = stem + PiperVoiceFiles.configSuffix
        guard fsync(model.descriptor) == 0, fsync(config.descriptor) == 0 else {
            throw PiperVoiceProblem(
                "\(modelName) cannot be written to disk in \(directory) (\(VoiceFileIO.errorText())); check the free space"
            )
        }
        do throws(PiperVoiceProblem) {
            try VoiceFileIO.checkModel(model.path)
        } catch {
            throw PiperVoiceProblem("\(modelName) \(error.problem)")
        }
        let parsed: PiperVoiceConfig
        do throws(PiperVoiceProblem) {
            parsed = try PiperVoiceConfig(contentsOf: config.path)
        } catch {
            throw PiperVoiceProblem("\(configName) \(error.problem)")
        }
        let modelPath = directory + "/" + modelName
        let configPath = directory + "/" + configName
        // An installed pair of the same name stops being a pair before its model is replaced.
        if unlink(configPath) != 0 && errno != ENOENT {
            throw PiperVoiceProblem(
                "\(configPath) cannot be replaced (\(VoiceFileIO.errorText())); check the directory's permissions")
        }
        guard rename(model.path, modelPath) == 0 else {
            throw PiperVoiceProblem(
                "\(modelPath) cannot be written (\(VoiceFileIO.errorText())); check the directory's permissions")
        }
        guard rename(config.path, configPath) == 0 else {
            unlink(modelPath)
            throw PiperVoiceProblem(
                "\(configPath) cannot be written (\(VoiceFileIO.errorText())); check the directory's permissions")
        }
        moved = true
        syncDirectory()
        return PiperVoice(name: PiperVoice.name(ofModelFile: modelName), modelPath: modelPath, config: parsed)
    }

    /// Removes the installed voice whose name (lower-cased file name without `.onnx`) is `name`:
    /// its `.onnx.json` first, so it stops being a voice at once, then its model. Returns the
    /// model's path, or nil when the directory has no such voice.
    public func remove(named name: String) throws(PiperVoiceProblem) -> String? {
        guard let names = VoiceFileIO.names(in: directory) else { return nil }
        guard
            let file = names.first(where: {
                $0.hasSuffix(PiperVoiceFiles.modelSuffix) && PiperVoice.name(ofModelFile: $0) == name.lowercased()
            })
        else {
            return nil
        }
        let modelPath = directory + "/" + file
        for path in [modelPath + ".json", modelPath] where unlink(path) != 0 && errno != ENOENT {
            throw PiperVoiceProblem(
                "\(path) cannot be removed (\(VoiceFileIO.errorText())); check the directory's permissions")
        }
        syncDirectory()
        return modelPath
    }

    /// True when the directory has a voice named `name`.
    public func hasVoice(named name: String) -> Bool {
        (VoiceFileIO.names(in: directory) ?? []).contains {
            $0.hasSuffix(PiperVoiceFiles.modelSuffix) && PiperVoice.name(ofModelFile: $0) == name.lowercased()
        }
    }

    /// Creates `path` and its missing parents (mode 0755).
    private func makeDirectories(_ path: String) throws(PiperVoiceProblem) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw PiperVoiceProblem(
                    "\(prefix) cannot be created (\(VoiceFileIO.errorText())); check its parent's permissions")
            }
        }
    }

    /// Flushes the directory's entries (the renames) to disk.
    private func syncDirectory() {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
