// SPDX-License-Identifier: GPL-3.0-or-later
import DesktopBus
import Dispatch
import Foundation
import Glibc
import ProcessHarness

/// `--only dbus`: `GetNameOwner` round trips through `DesktopBus`'s `BusConnection` (sd-bus driven
/// by libdispatch, the way the daemon will use it) on a private `dbus-daemon --session`:
/// `runs` runs of `calls` awaited calls one after another, each run's mean per round trip, in µs.
/// Beside Benchmarks/dbus-libraries/run.sh's C figures, it is what the Swift layer and the
/// dispatch queue add.
struct DesktopBusFigure {
    var calls = 1000
    var runs = 21

    func measure() async throws -> Figure {
        let directory = "/tmp/announced-bench-dbus-\(getpid())"
        mkdir(directory, 0o700)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bus = try SpawnedProcess(
            executable: "/usr/bin/dbus-daemon",
            arguments: [
                "--session", "--nofork", "--nosyslog", "--address=unix:path=\(directory)/bus", "--print-address=1",
            ],
            environment: ProcessInfo.processInfo.environment, output: .pipe
        )
        defer {
            bus.signal(SIGKILL)
            bus.waitForExit()
        }
        // dbus-daemon prints its address once it listens.
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = bus.output?.availableData ?? Data()
            if chunk.isEmpty { throw SpawnError("dbus-daemon printed no address") }
            printed += chunk
        }
        let connection = try BusConnection.session(address: "unix:path=\(directory)/bus")
        defer { connection.close() }
        var means: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<calls {
                _ = try await connection.call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus",
                    member: "GetNameOwner", arguments: [.string("org.freedesktop.DBus")]
                ) { try $0.readString() }
            }
            means.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(calls) / 1000)
        }
        var figure = Figure(name: "D-Bus round trip, BusConnection, µs (p50: the median run)", unit: "µs")
        figure.values = means
        figure.note = "fastest run \(format(figure.values.min() ?? .nan, 1)) µs"
        return figure
    }
}
