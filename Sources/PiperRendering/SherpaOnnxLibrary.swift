// SPDX-License-Identifier: GPL-3.0-or-later
import CSherpaOnnx
import Glibc

/// sherpa-onnx's C API, loaded at run time from the engine's library directory.
public struct SherpaOnnxLibrary: Sendable {
    /// Where the engine's libraries are looked for, first found wins: `ANNOUNCED_PIPER_LIBRARY_DIR`;
    /// the executable's own directory (a development build with the libraries copied beside it);
    /// its `piper` folder (`make install-piper`, whatever the prefix); the installed package's
    /// `/usr/lib/announced/piper`.
    public static let libraryDirectoryVariable = "ANNOUNCED_PIPER_LIBRARY_DIR"
    /// Where the `announced-piper` package installs the engine.
    public static let installedLibraryDirectory = "/usr/lib/announced/piper"

    /// The loaded functions.
    let api: CSherpaOnnx_API
    /// The directory the library was loaded from.
    public let directory: String

    /// The engine could not be loaded: why, and what to do.
    public struct Problem: Error {
        /// What is missing or broken, and what to do.
        public let message: String
    }

    /// The directories to try, in order.
    public static func candidateDirectories() -> [String] {
        var directories: [String] = []
        if let variable = getenv(libraryDirectoryVariable), variable.pointee != 0 {
            directories.append(String(cString: variable))
        }
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &path, Int(PATH_MAX))
        if length > 0 {
            let executable = String(decoding: path[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = executable.lastIndex(of: "/") {
                let folder = String(executable[..<slash])
                directories.append(folder)
                directories.append(folder + "/piper")
            }
        }
        directories.append(installedLibraryDirectory)
        return directories
    }

    /// Loads the library from the first candidate directory that has it.
    public static func load() throws(Problem) -> SherpaOnnxLibrary {
        try load(from: candidateDirectories())
    }

    /// Loads the library from the first of `directories` that has it (a test names the fetched engine's).
    public static func load(from directories: [String]) throws(Problem) -> SherpaOnnxLibrary {
        for directory in directories where access(directory + "/" + CSHERPAONNX_LIBRARY_NAME, R_OK) == 0 {
            var api = CSherpaOnnx_API()
            var error = [CChar](repeating: 0, count: 1024)
            guard CSherpaOnnx_load(directory, &api, &error, error.count) == 0 else {
                throw Problem(
                    message:
                        "the speech engine in \(directory) cannot be loaded: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
                )
            }
            return SherpaOnnxLibrary(api: api, directory: directory)
        }
        throw Problem(
            message: "the Piper speech engine (\(CSHERPAONNX_LIBRARY_NAME)) is not installed; looked in "
                + directories.joined(separator: ", ")
                + ". Install the announced-piper package, or run scripts/fetch-piper-engine.sh and set \(libraryDirectoryVariable)."
        )
    }

    /// sherpa-onnx's version, e.g. `2.0.1`.
    public var version: String {
        api.getVersionStr().map { String(cString: $0) } ?? "unknown"
    }
}
