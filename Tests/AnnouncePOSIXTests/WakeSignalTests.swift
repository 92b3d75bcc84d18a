// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import Glibc
import POSIXThreads
import SystemPackage
import Testing

/// Whether `descriptor` polls readable now (a zero timeout: it never waits).
private func isReadable(_ descriptor: FileDescriptor) -> Bool {
    var fds = [pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
    return poll(&fds, 1, 0) == 1 && fds[0].revents & Int16(POLLIN) != 0
}

/// Whether `descriptor` is close-on-exec.
private func isCloseOnExec(_ descriptor: FileDescriptor) -> Bool {
    fcntl(descriptor.rawValue, F_GETFD) & FD_CLOEXEC != 0
}

@Suite("WakeSignal: the one way a thread that polls descriptors is woken")
struct WakeSignalTests {
    @Test("lowered at first, readable from raise until clear, and raising twice needs one clear")
    func raiseAndClear() throws {
        let signal = try WakeSignal()
        defer { signal.close() }
        #expect(!isReadable(signal.descriptor))
        signal.raise()
        #expect(isReadable(signal.descriptor))
        signal.raise()
        signal.clear()
        #expect(!isReadable(signal.descriptor), "one clear lowers every raise before it")
        // A clear with nothing raised returns at once (non-blocking) and leaves it lowered.
        signal.clear()
        #expect(!isReadable(signal.descriptor))
    }

    @Test("a raised signal nobody clears wakes every poller, as a stop latch")
    func latchWakesEveryPoller() throws {
        let signal = try WakeSignal()
        defer { signal.close() }
        signal.raise()
        #expect(isReadable(signal.descriptor))
        #expect(isReadable(signal.descriptor), "polling does not lower it")
    }

    @Test("a raise from another thread wakes a thread blocked in poll")
    func wakesABlockedPoll() throws {
        let signal = try WakeSignal()
        defer { signal.close() }
        var fds = [pollfd(fd: signal.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
        DedicatedThread.start(name: "raiser", stackSize: 64 * 1024) { signal.raise() }
        // Waits for the raise; the 30 s bound only ends a broken run.
        #expect(poll(&fds, 1, 30_000) == 1)
    }

    @Test("its eventfd is close-on-exec and non-blocking")
    func descriptorFlags() throws {
        let signal = try WakeSignal()
        defer { signal.close() }
        #expect(isCloseOnExec(signal.descriptor))
        #expect(fcntl(signal.descriptor.rawValue, F_GETFL) & O_NONBLOCK != 0)
    }
}

@Suite("FileDescriptor.closeOnExecPipe: both ends close-on-exec from the start")
struct CloseOnExecPipeTests {
    @Test("both ends are close-on-exec, and what is written to one end is read from the other")
    func pipeEnds() throws {
        let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
        defer {
            try? readEnd.close()
            try? writeEnd.close()
        }
        #expect(isCloseOnExec(readEnd) && isCloseOnExec(writeEnd))
        _ = try writeEnd.writeAll(Array("wake".utf8))
        var bytes = [UInt8](repeating: 0, count: 8)
        let count = try bytes.withUnsafeMutableBytes { try readEnd.read(into: $0) }
        #expect(Array(bytes[..<count]) == Array("wake".utf8))
    }
}

@Suite("ProcessName: /proc/PID/comm")
struct ProcessNameTests {
    @Test("the test process's own name is its comm, without the newline; no process has none")
    func ownName() throws {
        let comm = try FileDescriptor.readFile("/proc/self/comm", limit: 64)
        let expected = String(decoding: comm.dropLast(), as: UTF8.self)
        #expect(ProcessName.of(pid: getpid()) == expected)
        #expect(!expected.isEmpty && !expected.hasSuffix("\n"))
        #expect(ProcessName.of(pid: 0) == nil)
        #expect(ProcessName.of(pid: -1) == nil)
    }
}
