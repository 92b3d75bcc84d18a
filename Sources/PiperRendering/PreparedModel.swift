// SPDX-License-Identifier: GPL-3.0-or-later
import CSherpaOnnx
import Glibc
import PiperVoices
import SystemPackage

/// A Piper voice as sherpa-onnx's VITS loader takes it, without changing the user's files.
///
/// The loader reads `model_type`, `voice`, `sample_rate` and the rest from the `.onnx`'s metadata
/// (`metadata_props`), which Piper's own models do not carry, and the phoneme ids from a
/// `tokens.txt`; its C API takes both only as file paths. So the helper writes each into an
/// anonymous file in memory (memfd) and passes `/proc/self/fd/N`: the model is the `.onnx`'s bytes
/// with the metadata appended as extra `metadata_props` fields (protobuf merges a repeated field
/// written after the rest of a message, so the result is the same model with the metadata set).
/// Nothing is written to disk, the voice directory can stay read-only, and the copies are
/// freed once the engine has loaded the model (``close()``).
struct PreparedModel {
    /// The model with its metadata, as a path sherpa-onnx can open.
    let modelPath: String
    /// The tokens file, as a path.
    let tokensPath: String
    private let descriptors: [Int32]

    /// A model or its tokens that cannot be prepared.
    struct Problem: Error {
        let message: String
    }

    /// Prepares `onnxPath` with `voice`'s metadata and tokens.
    init(onnxPath: String, voice: PiperVoiceConfig) throws(Problem) {
        let model = CSherpaOnnx_memory_file("announced-piper-model")
        guard model >= 0 else {
            throw Problem(message: "no memory file for the model: \(String(cString: strerror(errno)))")
        }
        let tokens = CSherpaOnnx_memory_file("announced-piper-tokens")
        guard tokens >= 0 else {
            Glibc.close(model)
            throw Problem(message: "no memory file for the tokens: \(String(cString: strerror(errno)))")
        }
        descriptors = [model, tokens]
        modelPath = "/proc/self/fd/\(model)"
        tokensPath = "/proc/self/fd/\(tokens)"
        do throws(Problem) {
            try Self.copy(onnxPath, to: model)
            try Self.write(Self.metadataFields(voice.modelMetadata), to: model)
            try Self.write(Array(voice.tokensText.utf8), to: tokens)
        } catch {
            close()
            throw error
        }
    }

    /// Frees the copies (the engine has its own once loaded).
    func close() {
        for fd in descriptors { _ = Glibc.close(fd) }
    }

    /// ModelProto's `metadata_props` (field 14), one `StringStringEntryProto` (key 1, value 2) per pair.
    static func metadataFields(_ pairs: [(key: String, value: String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (key, value) in pairs {
            var entry: [UInt8] = []
            appendField(1, Array(key.utf8), to: &entry)
            appendField(2, Array(value.utf8), to: &entry)
            appendField(14, entry, to: &bytes)
        }
        return bytes
    }

    /// A length-delimited field: tag (number << 3 | 2), length, bytes.
    private static func appendField(_ number: UInt64, _ payload: [UInt8], to bytes: inout [UInt8]) {
        appendVarint(number << 3 | 2, to: &bytes)
        appendVarint(UInt64(payload.count), to: &bytes)
        bytes += payload
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func copy(_ path: String, to fd: Int32) throws(Problem) {
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw Problem(message: "\(path) cannot be read: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(source) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let count: Int
            do {
                count = try FileDescriptor(rawValue: source).read(into: buffer)
            } catch {
                throw Problem(message: "\(path) cannot be read: \(error)")
            }
            if count == 0 { break }
            try write(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: fd)
            total += count
        }
        guard total > 0 else { throw Problem(message: "\(path) is empty") }
    }

    private static func write(_ bytes: some Sequence<UInt8>, to fd: Int32) throws(Problem) {
        do {
            try FileDescriptor(rawValue: fd).writeAll(bytes)
        } catch {
            throw Problem(message: "the model cannot be copied to memory: \(error)")
        }
    }
}
