// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import DaemonConfiguration
import Testing

@Suite("Settings: ssip_socket, --ssip-socket and ANNOUNCED_SSIP_SOCKET")
struct SSIPSocketSettingTests {
    @Test("off by default; the flag beats the variable, which beats the file")
    func layering() throws {
        let fixture = ConfigFixture()
        #expect(try fixture.loader().load().settings.ssipSocket == .off)
        fixture.write(#"{"ssip_socket": "default"}"#, to: fixture.xdgFile)
        #expect(try fixture.loader().load().settings.ssipSocket == .default)
        let environment = ["ANNOUNCED_SSIP_SOCKET": "/tmp/from-env/speechd.sock"]
        #expect(
            try fixture.loader(environment: environment).load().settings.ssipSocket
                == .path("/tmp/from-env/speechd.sock"))
        let flags = try CommandLineSettings(arguments: ["--ssip-socket", "off"])
        #expect(try fixture.loader(flags, environment: environment).load().settings.ssipSocket == .off)
        #expect(SettingsTable.shared.ssipSocket.environmentVariable == "ANNOUNCED_SSIP_SOCKET")
        #expect(SettingsTable.shared.ssipSocket.flag?.name == "--ssip-socket")
    }

    @Test("null in the file, or an empty variable, leaves it off")
    func nullAndEmpty() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"ssip_socket": null}"#, to: fixture.xdgFile)
        #expect(try fixture.loader(environment: ["ANNOUNCED_SSIP_SOCKET": ""]).load().settings.ssipSocket == .off)
    }

    @Test(
        "a bad value names where it came from, what is allowed and the value",
        arguments: [
            (
                #"{"ssip_socket": "speechd.sock"}"#, [String: String](), [String](),
                "key \"ssip_socket\": must be off, default", ", not \"speechd.sock\"; correct it, or remove the key"
            ),
            (#"{"ssip_socket": true}"#, [:], [], "key \"ssip_socket\": must be off, default", ", not true; correct it"),
            (#"{"ssip_socket": ""}"#, [:], [], "key \"ssip_socket\": must be off, default", ", not \"\"; correct it"),
            (
                "{}", ["ANNOUNCED_SSIP_SOCKET": "on"], [],
                "environment variable ANNOUNCED_SSIP_SOCKET: must be off, default", ", not \"on\"; correct or unset it"
            ),
            (
                "{}", [:], ["--ssip-socket", "run/speechd.sock"], "--ssip-socket: must be off, default",
                ", not \"run/speechd.sock\""
            ),
        ])
    func badValue(file: String, environment: [String: String], flags: [String], start: String, end: String) throws {
        let fixture = ConfigFixture()
        fixture.write(file, to: fixture.xdgFile)
        let error = try #require(settingsError(fixture, flags: flags, environment: environment))
        #expect(error.description.contains(start), "\(error)")
        #expect(error.description.contains("or the absolute path of a Unix socket"), "\(error)")
        #expect(error.description.contains(end), "\(error)")
    }

    @Test("default is speech-dispatcher's place under XDG_RUNTIME_DIR, a default location (its directory is checked)")
    func defaultUnderRuntimeDirectory() throws {
        let location = try #require(
            SSIPSocketSetting.default.location(environment: ["XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/me"]))
        #expect(location == SocketLocation(path: "/run/user/1000/speech-dispatcher/speechd.sock", isDefault: true))
        #expect(location.directory == "/run/user/1000/speech-dispatcher")
    }

    @Test("without XDG_RUNTIME_DIR, default is where libspeechd then looks: $XDG_CACHE_HOME, else ~/.cache")
    func defaultWithoutRuntimeDirectory() throws {
        #expect(
            SSIPSocketSetting.default.location(environment: ["XDG_CACHE_HOME": "/home/me/cache", "HOME": "/home/me"])?
                .path
                == "/home/me/cache/speech-dispatcher/speechd.sock")
        #expect(
            SSIPSocketSetting.default.location(environment: ["XDG_RUNTIME_DIR": "", "HOME": "/home/me"])?.path
                == "/home/me/.cache/speech-dispatcher/speechd.sock")
    }

    @Test("a path is served where it says, without the default directory's checks; off serves nothing")
    func pathAndOff() throws {
        #expect(
            SSIPSocketSetting.path("/tmp/x/s.sock").location(environment: [:])
                == SocketLocation(path: "/tmp/x/s.sock", isDefault: false))
        #expect(SSIPSocketSetting.off.location(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == nil)
        #expect(SSIPSocketSetting("off") == .off)
        #expect(SSIPSocketSetting("default") == .default)
        #expect(SSIPSocketSetting("Default") == nil)
    }
}
