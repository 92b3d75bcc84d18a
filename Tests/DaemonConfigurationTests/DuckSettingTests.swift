// SPDX-License-Identifier: GPL-3.0-or-later
import DaemonConfiguration
import Testing

@Suite("Settings: duck, --duck and ANNOUNCED_DUCK")
struct DuckSettingTests {
    @Test("off by default; the file takes a number or off; the flag beats the variable, which beats the file")
    func layers() throws {
        let fixture = ConfigFixture()
        #expect(try fixture.loader().load().settings.duck == .off)
        fixture.write(#"{"duck": -12}"#, to: fixture.xdgFile)
        #expect(try fixture.loader().load().settings.duck == .level(decibels: -12))
        #expect(
            try fixture.loader(environment: ["ANNOUNCED_DUCK": "-20dB"]).load().settings.duck == .level(decibels: -20))
        let off = try CommandLineSettings(arguments: ["--duck", "off"])
        #expect(try fixture.loader(off, environment: ["ANNOUNCED_DUCK": "-20"]).load().settings.duck == .off)
        #expect(
            try fixture.loader(CommandLineSettings(arguments: ["--duck", "-20"])).load().settings.duck
                == .level(decibels: -20))
        fixture.write(#"{"duck": "off"}"#, to: fixture.xdgFile)
        #expect(try fixture.loader().load().settings.duck == .off)
        fixture.write(#"{"duck": "-6"}"#, to: fixture.xdgFile)
        #expect(try fixture.loader().load().settings.duck == .level(decibels: -6))
    }

    @Test(
        "a bad value in the file names the file, the key, what it must be and the value",
        arguments: ["12", "0", "-61", "true", "\"loud\"", "-12.5"])
    func badFileValue(_ value: String) throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"duck": \#(value)}"#, to: fixture.xdgFile)
        let error = try #require(loadError(fixture.loader()))
        #expect(error.key == "duck")
        #expect(error.description.contains(fixture.xdgFile), "\(error)")
        #expect(error.description.contains("must be off or a level in decibels from -60 to -1 (e.g. -12)"), "\(error)")
        #expect(error.description.contains("not \(value)"), "\(error)")
    }

    @Test("a bad variable or flag names it")
    func badVariableAndFlag() throws {
        let fixture = ConfigFixture()
        let variable = try #require(loadError(fixture.loader(environment: ["ANNOUNCED_DUCK": "on"])))
        #expect(variable.description.hasPrefix("environment variable ANNOUNCED_DUCK"), "\(variable)")
        let flag = try #require(settingsError(fixture, flags: ["--duck", "-100"]))
        #expect(flag.description.hasPrefix("--duck"), "\(flag)")
        #expect(flag.description.contains("-60 to -1"), "\(flag)")
    }
}
