@testable import SpeechSynthesis
import Glibc
import TestSupport
import Testing

@Suite("The espeak-ng helper's environment")
struct HelperEnvironmentTests {
    /// The helper's environment built from `inherited`, as Swift strings.
    static func environment(from inherited: [String]) -> [String] {
        var pointers: [UnsafeMutablePointer<CChar>?] = inherited.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        let built = pointers.withUnsafeMutableBufferPointer { SpeechSynthesis.EspeakHelperProcess.helperEnvironment(inherited: $0.baseAddress!) }
        defer { built.forEach { free($0) } }
        #expect(built.last == .some(nil), "NULL-terminated for posix_spawn")
        return built.compactMap { $0.map { String(cString: $0) } }
    }

    @Test("PulseAudio and the Swift backtracer are replaced; everything else is passed on")
    func overrides() {
        let built = Self.environment(from: [
            "HOME=/home/a", "PULSE_SERVER=unix:/run/user/1000/pulse/native", "SWIFT_BACKTRACE=enable=yes",
            "PULSE_SERVER_EXTRA=kept", "XDG_RUNTIME_DIR=/run/user/1000",
        ])
        #expect(built.filter { $0.hasPrefix("PULSE_SERVER=") } == ["PULSE_SERVER=unix:/dev/null"])
        #expect(built.filter { $0.hasPrefix("SWIFT_BACKTRACE=") } == ["SWIFT_BACKTRACE=enable=no"])
        #expect(Set(built) == Set(EspeakHelperProcess.helperOverrides + ["HOME=/home/a", "PULSE_SERVER_EXTRA=kept", "XDG_RUNTIME_DIR=/run/user/1000"]))
    }

    @Test("the helper's PulseAudio address refuses at once: no server is contacted")
    func pulseRefused() throws {
        let address = try #require(EspeakHelperProcess.helperOverrides.first { $0.hasPrefix("PULSE_SERVER=unix:") })
        let path = String(address.dropFirst("PULSE_SERVER=unix:".count))
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var socketAddress = sockaddr_un.make(path: path)
        let result = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(result == -1 && errno == ECONNREFUSED)
    }
}
