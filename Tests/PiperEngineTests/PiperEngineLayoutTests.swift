// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

/// CSherpaOnnx declares sherpa-onnx's structures and functions itself (so the package builds
/// without the engine); this compiles Fixtures/sherpa_onnx_layout.c against the fetched wheel's
/// real c-api.h, which fails when a size, a field's offset or a function's signature differs.
@Suite(
    "CSherpaOnnx's declarations against the wheel's c-api.h",
    .enabled(if: FileManager.default.fileExists(atPath: LayoutCheck.realHeader), "\(PiperTestFiles.missing)"),
    .enabled(if: LayoutCheck.compiler != nil, "no C compiler (clang or cc) on PATH")
)
struct PiperEngineLayoutTests {
    @Test("the shim's structures and function types match the real header exactly")
    func matches() throws {
        let result = try LayoutCheck.compile(shimDirectory: LayoutCheck.shimDirectory)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(
        "the check catches a mismatch: a field's type, a field's order, a function's parameter",
        arguments: [
            ("float noise_scale_w;", "double noise_scale_w;"),
            ("    int32_t num_threads;\n    int32_t debug;", "    int32_t debug;\n    int32_t num_threads;"),
            (
                "typedef int32_t (*CSherpaOnnx_OfflineTtsSampleRate)(const CSherpaOnnx_RealTts *tts);",
                "typedef int32_t (*CSherpaOnnx_OfflineTtsSampleRate)(CSherpaOnnx_RealTts *tts, int extra);"
            ),
        ]
    )
    func catchesMismatch(original: String, broken: String) throws {
        let header = try String(contentsOfFile: LayoutCheck.shimDirectory + "/CSherpaOnnx.h", encoding: .utf8)
        #expect(header.contains(original), "the mutation must apply")
        let directory = NSTemporaryDirectory() + "csherpaonnx-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try header.replacingOccurrences(of: original, with: broken).write(
            toFile: directory + "/CSherpaOnnx.h", atomically: true, encoding: .utf8)
        let result = try LayoutCheck.compile(shimDirectory: directory)
        #expect(result.status != 0, "a changed declaration must not compile against the real header")
    }
}

/// The files and compiler of the layout check.
enum LayoutCheck {
    static let realHeader = PiperTestFiles.engineDirectory + "/include/sherpa-onnx/c-api/c-api.h"
    static let shimDirectory = PiperTestFiles.repository + "/Sources/CSherpaOnnx/include"
    static let fixture = PiperTestFiles.repository + "/Tests/PiperEngineTests/Fixtures/sherpa_onnx_layout.c"

    /// clang (the Swift toolchain has it), else cc.
    static let compiler: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["clang", "cc"] {
            for directory in path.split(separator: ":")
            where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    /// Compiles the fixture with the shim header from `shimDirectory`; the exit status and output.
    static func compile(shimDirectory: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler!)
        process.arguments = [
            "-std=c11", "-fsyntax-only", "-Werror", "-Wall", "-I", PiperTestFiles.engineDirectory + "/include", "-I",
            shimDirectory, fixture,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
