// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// Whether a file is a whole ONNX model, without loading it: an ONNX model is one protobuf
/// message (`ModelProto`), so its top level is a run of fields (a tag, then a number or a length
/// and that many bytes) that ends exactly at the end of the file. A model cut short (an
/// interrupted download) ends inside its last field, usually the graph, which holds almost all
/// of its bytes; another kind of file does not start with `ir_version` (field 1, a number).
///
/// Only the tags and lengths are read (a few hundred bytes of a 60 MB model); the graph is
/// stepped over. Written here because no package in the mirror reads protobuf framing without
/// generated code, and ONNX Runtime would load the whole model.
public enum ONNXModelCheck {
    /// Checks the open file `descriptor` of `size` bytes.
    ///
    /// - Throws: ``PiperVoiceProblem`` saying what is wrong.
    public static func check(descriptor: Int32, size: Int) throws(PiperVoiceProblem) {
        guard size > 0 else { throw PiperVoiceProblem("is empty; download it again") }
        var reader = FieldReader(descriptor: descriptor, size: size)
        var fields = 0
        var hasGraph = false
        while reader.offset < size {
            guard let tag = reader.varint(), tag >> 3 > 0 else { throw cutShort(at: reader.offset, size: size) }
            let field = tag >> 3
            if fields == 0 && (field != 1 || tag & 7 != 0) { throw notONNX }
            switch tag & 7 {
            case 0:
                guard reader.varint() != nil else { throw cutShort(at: reader.offset, size: size) }
            case 1:
                reader.offset += 8
            case 2:
                guard let length = reader.varint(), length <= UInt64(size) else {
                    throw cutShort(at: reader.offset, size: size)
                }
                reader.offset += Int(length)
                if field == 7 { hasGraph = true }
            case 5:
                reader.offset += 4
            default:
                throw fields == 0 ? notONNX : cutShort(at: reader.offset, size: size)
            }
            guard reader.offset <= size else { throw cutShort(at: size, size: size) }
            fields += 1
        }
        guard hasGraph else { throw PiperVoiceProblem("holds no model graph; it is not a Piper voice's .onnx model") }
    }

    static let notONNX = PiperVoiceProblem(
        "does not start like an ONNX model (a protobuf ModelProto); it is not a Piper voice's .onnx file")

    static func cutShort(at offset: Int, size: Int) -> PiperVoiceProblem {
        PiperVoiceProblem("is cut short or damaged (its data runs past its end, \(size) bytes); download it again")
    }

    /// Reads protobuf varints at `offset` with `pread`, a few bytes at a time.
    struct FieldReader {
        let descriptor: Int32
        let size: Int
        var offset = 0

        /// The varint at `offset`, moving past it; nil at the end of the file or for a varint
        /// longer than 10 bytes.
        mutating func varint() -> UInt64? {
            var bytes = [UInt8](repeating: 0, count: 10)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 10, off_t(offset)) }
            guard count > 0 else { return nil }
            var value: UInt64 = 0
            for index in 0..<count {
                value |= UInt64(bytes[index] & 0x7F) << (7 * UInt64(index))
                if bytes[index] & 0x80 == 0 {
                    offset += index + 1
                    return value
                }
            }
            return nil
        }
    }
}
