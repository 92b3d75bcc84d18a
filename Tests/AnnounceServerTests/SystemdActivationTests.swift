// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceServer
import Glibc
import Testing

/// `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES` as systemd sets them for this process.
func activationEnvironment(count: Int, names: String? = nil, pid: Int32 = getpid()) -> [String: String] {
    var environment = ["LISTEN_PID": "\(pid)", "LISTEN_FDS": "\(count)"]
    environment["LISTEN_FDNAMES"] = names
    return environment
}

@Suite("Systemd: the sockets passed by socket activation, told apart by LISTEN_FDNAMES")
struct SystemdActivationTests {
    @Test("one socket without names (announced.socket alone, systemd-socket-activate): descriptor 3 is the main socket")
    func oneUnnamed() throws {
        let sockets = try #require(Systemd.activationSockets(environment: activationEnvironment(count: 1)))
        #expect(sockets.main == 3)
        #expect(sockets.ssip == nil)
        #expect(sockets.unrecognized.isEmpty)
        #expect(Systemd.activationSocket(environment: activationEnvironment(count: 1)) == 3)
    }

    @Test("announced.socket's default name, and the name FileDescriptorName=announced gives it")
    func oneNamed() throws {
        for name in ["announced", "announced.socket"] {
            let sockets = try #require(
                Systemd.activationSockets(environment: activationEnvironment(count: 1, names: name)))
            #expect(sockets.main == 3, "\(name)")
            #expect(sockets.ssip == nil)
        }
    }

    @Test("both units: each descriptor goes where its name says, in either order")
    func twoNamed() throws {
        var sockets = try #require(
            Systemd.activationSockets(environment: activationEnvironment(count: 2, names: "announced:ssip")))
        #expect(sockets.main == 3)
        #expect(sockets.ssip == 4)
        sockets = try #require(
            Systemd.activationSockets(environment: activationEnvironment(count: 2, names: "ssip:announced")))
        #expect(sockets.main == 4)
        #expect(sockets.ssip == 3)
        #expect(sockets.unrecognized.isEmpty)
        #expect(Systemd.activationSocket(environment: activationEnvironment(count: 2, names: "ssip:announced")) == 4)
        sockets = try #require(
            Systemd.activationSockets(
                environment: activationEnvironment(count: 2, names: "announced-ssip.socket:announced.socket"))
        )
        #expect(sockets.main == 4)
        #expect(sockets.ssip == 3)
    }

    @Test("only the SSIP socket: no main socket passed (the daemon binds its own)")
    func onlySSIP() throws {
        let sockets = try #require(
            Systemd.activationSockets(environment: activationEnvironment(count: 1, names: "ssip")))
        #expect(sockets.main == nil)
        #expect(sockets.ssip == 3)
        #expect(Systemd.activationSocket(environment: activationEnvironment(count: 1, names: "ssip")) == nil)
    }

    @Test("a socket of another name, or a second of the same name, is left over with its name")
    func unknownNames() throws {
        let sockets = try #require(
            Systemd.activationSockets(environment: activationEnvironment(count: 3, names: "announced:stray:announced")))
        #expect(sockets.main == 3)
        #expect(sockets.ssip == nil)
        #expect(sockets.unrecognized.map(\.descriptor) == [4, 5])
        #expect(sockets.unrecognized.map(\.name) == ["stray", "announced"])
    }

    @Test(
        "names that do not match LISTEN_FDS in number are ignored: descriptor 3 is the main socket, the rest left over")
    func mismatchedNames() throws {
        let sockets = try #require(
            Systemd.activationSockets(environment: activationEnvironment(count: 2, names: "ssip")))
        #expect(sockets.main == 3)
        #expect(sockets.ssip == nil)
        #expect(sockets.unrecognized.map(\.descriptor) == [4])
    }

    @Test(
        "nothing passed to this process: another LISTEN_PID, no LISTEN_FDS, zero or a non-number",
        arguments: [
            activationEnvironment(count: 1, names: "announced", pid: getpid() + 1),
            ["LISTEN_PID": "\(getpid())"],
            activationEnvironment(count: 0),
            ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "two"],
            [:],
        ])
    func nothingPassed(environment: [String: String]) {
        #expect(Systemd.activationSockets(environment: environment) == nil)
        #expect(Systemd.activationSocket(environment: environment) == nil)
    }
}
