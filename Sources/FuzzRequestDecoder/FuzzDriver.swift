// SPDX-License-Identifier: GPL-3.0-or-later
import FuzzSupport

#if FUZZING
    /// SwiftPM links an executable's entry point under this name; hand control to libFuzzer.
    @_cdecl("FuzzRequestDecoder_main")
    func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        runLibFuzzer(argc, argv) { fuzzRequestDecoder($0, $1) }
    }
#else
    /// Without libFuzzer: replays the files given as arguments (a corpus or a crash) through the
    /// same entry point.
    @main
    struct ReplayRequestDecoder {
        static func main() {
            replayFiles(CommandLine.arguments.dropFirst()) { fuzzRequestDecoder($0, $1) }
        }
    }
#endif
