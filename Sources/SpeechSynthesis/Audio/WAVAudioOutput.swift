// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The `wav:DIR` output: the `null` output's virtual real-time device, which it plays through,
/// and a recording of the audio actually played of each utterance in `DIR/<seq>.wav`.
///
/// Files are RIFF 16-bit mono PCM at the synthesizer's sample rate. A file is created when the
/// utterance's first sample arrives (an utterance that never produced audio leaves no file) and
/// replaces an older file of the same name. When an utterance is interrupted, its file keeps only
/// what had been played. Nothing is added: no padding, no gaps.
public final class WAVAudioOutput: AudioOutput {
    /// The directory the files go to.
    public let directory: String
    private let device: NullAudioOutput
    private var seq: UInt64 = 0
    private var sampleRate = 22_050
    private var file: WAVFileWriter?

    /// Creates the output, creating `directory` (and its parents) if it does not exist.
    /// - Throws: `SpeechSynthesisError` when the directory cannot be created or is not writable.
    public convenience init(directory: String) throws {
        try self.init(directory: directory, time: .monotonic)
    }

    /// The output, playing by `time` (tests: a time that moves only while it sleeps).
    init(directory: String, time: PlaybackTime) throws {
        self.directory = directory
        device = NullAudioOutput(time: time)
        if let problem = Self.makeDirectory(directory) {
            throw SpeechSynthesisError.unusableDirectory(directory, reason: problem)
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw SpeechSynthesisError.unusableDirectory(directory, reason: "it is not writable")
        }
    }

    /// Creates `path` and its missing parents (`mkdir -p`); nil when it is now a directory,
    /// else why not.
    static func makeDirectory(_ path: String) -> String? {
        var status = stat()
        if stat(path, &status) == 0 {
            return status.st_mode & S_IFMT == S_IFDIR ? nil : "it is a file, not a directory"
        }
        guard errno == ENOENT else { return "it could not be examined (\(String(cString: strerror(errno))))" }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty, let problem = makeDirectory(parent) {
            return "its parent \(parent) is unusable: \(problem)"
        }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            return "it could not be created (\(String(cString: strerror(errno))))"
        }
        return nil
    }

    /// `wav:` followed by the directory.
    public var description: String { "wav:\(directory)" }

    /// The file the utterance `seq` is recorded to.
    public func path(forSeq seq: UInt64) -> String {
        directory.hasSuffix("/") ? "\(directory)\(seq).wav" : "\(directory)/\(seq).wav"
    }

    /// Starts an utterance; its file is created at the first sample.
    public func begin(seq: UInt64, sampleRate: Int, abortSignal: UtteranceAbortSignal) throws {
        file?.abandon()
        file = nil
        self.seq = seq
        self.sampleRate = sampleRate
        try device.begin(seq: seq, sampleRate: sampleRate, abortSignal: abortSignal)
    }

    /// Records `samples` and plays them in real time.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard !samples.isEmpty else { return }
        if file == nil {
            file = try WAVFileWriter(path: path(forSeq: seq), sampleRate: sampleRate)
        }
        try file?.append(samples)
        try device.write(samples)
    }

    /// The frames of the current utterance played so far.
    public var playedFrames: Int { device.playedFrames }

    /// Waits until everything written has played or `timeout` passed.
    public func waitForPlayout(timeout: Duration) throws -> Bool {
        try device.waitForPlayout(timeout: timeout)
    }

    /// Drops the unplayed audio; the file keeps only what was played.
    public func discard() {
        device.discard()
        do {
            try file?.truncate(toFrames: device.playedFrames)
        } catch {
            // Reported again by `end`, which rewrites the header of whatever is left.
        }
    }

    /// Holds playback; the file already has every frame written, each once.
    public func pause() {
        device.pause()
    }

    /// Plays on from where `pause` held it.
    public func resume() {
        device.resume()
    }

    /// Ends the utterance: fixes the header sizes and closes the file.
    public func end() throws {
        defer { file = nil }
        try file?.truncate(toFrames: device.playedFrames)
        try file?.finish()
        try device.end()
    }
}
