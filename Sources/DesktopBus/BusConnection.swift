// SPDX-License-Identifier: GPL-3.0-or-later
import CSystemdBus
import Dispatch
import Glibc

/// One connection to a D-Bus bus through sd-bus, with no thread of its own.
///
/// sd-bus is not thread-safe, so the connection has one owner: a serial dispatch queue, on which
/// every sd-bus call is made. libdispatch watches the connection's one descriptor (a read source,
/// and a write source only while sd-bus has output queued) and a timer for sd-bus's next
/// timeout (a call's reply deadline); on each of them the queue runs `sd_bus_process` until it
/// has nothing left, then asks sd-bus again what to wait for (`sd_bus_get_events`,
/// `sd_bus_get_timeout`). Replies and signals are decoded on that queue by the caller's decoder
/// and leave it as Swift values, through a continuation or an `AsyncStream`.
///
/// The connection lives until ``close()``, or until the bus goes away; either way every call
/// still waiting fails with ``DesktopBusError/closed`` and every signal stream finishes.
///
/// Objects are exported with `sd_bus_add_object_vtable` (the Spiel provider's, in
/// SpeechProviderObject.swift), and descriptors are read as `h`
/// (``BusMessageReader/readFileDescriptor()``).
// Unchecked: `bus` and the mutable state below are touched only on `queue`.
public final class BusConnection: @unchecked Sendable {
    /// What the connection was opened to (`session`, or the address), for log lines.
    public let name: String
    let bus: OpaquePointer
    /// The queue that owns `bus`: every sd-bus call on it is made here.
    let queue: DispatchQueue
    private let readSource: any DispatchSourceRead
    private let writeSource: any DispatchSourceWrite
    private let timer: any DispatchSourceTimer
    // State below is touched only on `queue`.
    private var writeSuspended = false
    private var isClosed = false
    private var pendingCalls: [ObjectIdentifier: PendingCall] = [:]
    private var matches: [ObjectIdentifier: SignalMatch] = [:]

    /// Connects to the user's session bus at `address` (``sessionAddress(environment:)`` finds
    /// the daemon's).
    /// - Throws: ``DesktopBusError/sessionBusUnavailable(reason:)`` when there is none.
    public static func session(address: String) throws -> BusConnection {
        do {
            return try connect(address: address)
        } catch DesktopBusError.connectionFailed(_, let reason) {
            throw DesktopBusError.sessionBusUnavailable(reason: "\(address): \(reason)")
        }
    }

    /// The session bus's address by sd-bus's rule (`sd_bus_open_user`): `DBUS_SESSION_BUS_ADDRESS`
    /// of `environment`, else the socket `bus` in `XDG_RUNTIME_DIR`, which must be there. Found
    /// here, before any sd-bus call, so that a daemon without a session bus never runs sd-bus's
    /// connection code (it touched 0.4 MiB of libsystemd to learn there was none).
    /// - Throws: ``DesktopBusError/sessionBusUnavailable(reason:)`` naming what is missing.
    public static func sessionAddress(environment: [String: String]) throws(DesktopBusError) -> String {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let directory = environment["XDG_RUNTIME_DIR"], !directory.isEmpty else {
            throw .sessionBusUnavailable(reason: "neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set")
        }
        let path = directory + "/bus"
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else {
            throw .sessionBusUnavailable(reason: "DBUS_SESSION_BUS_ADDRESS is not set and \(path) is no socket")
        }
        return "unix:path=" + escapedAddressValue(path)
    }

    /// `value` escaped for a D-Bus address, as the specification's "Server Addresses" says: each
    /// byte but `-`, `_`, `/`, `.`, `\`, `*` and ASCII letters and digits as `%` and two hex digits.
    static func escapedAddressValue(_ value: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var escaped: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"),
                UInt8(ascii: "*"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "a")...UInt8(ascii: "z"):
                escaped.append(byte)
            default:
                escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Connects to the bus at `address` (a D-Bus address such as `unix:path=/run/user/1000/at-spi/bus`)
    /// as a bus client (it says Hello and gets a unique name).
    /// - Throws: ``DesktopBusError/connectionFailed(address:reason:)``.
    public static func connect(address: String) throws -> BusConnection {
        var bus: OpaquePointer?
        var result = sd_bus_new(&bus)
        guard result >= 0, let bus else {
            throw DesktopBusError.connectionFailed(address: address, reason: errnoName(-result))
        }
        result = sd_bus_set_address(bus, address)
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        if result >= 0 { result = sd_bus_start(bus) }
        guard result >= 0 else {
            sd_bus_flush_close_unref(bus)
            throw DesktopBusError.connectionFailed(address: address, reason: errnoName(-result))
        }
        return BusConnection(bus: bus, name: address)
    }

    private init(bus: OpaquePointer, name: String) {
        self.bus = bus
        self.name = name
        queue = DispatchQueue(label: "announced.dbus")
        let fd = sd_bus_get_fd(bus)
        readSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        writeSource = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        timer = DispatchSource.makeTimerSource(queue: queue)
        readSource.setEventHandler { [self] in pump() }
        writeSource.setEventHandler { [self] in pump() }
        timer.setEventHandler { [self] in pump() }
        // sd-bus closes the descriptor, which dispatch must not watch any more by then.
        let sourcesDone = DispatchGroup()
        for source in [readSource, writeSource, timer] as [any DispatchSourceProtocol] {
            sourcesDone.enter()
            source.setCancelHandler { sourcesDone.leave() }
        }
        sourcesDone.notify(queue: queue) { sd_bus_flush_close_unref(bus) }
        timer.schedule(deadline: .distantFuture)
        readSource.activate()
        writeSource.activate()
        timer.activate()
        queue.async { [self] in pump() }
    }

    /// Calls `member` of `interface` on `path` at `destination` and decodes the reply with
    /// `decode` (on the connection's queue).
    /// - Throws: ``DesktopBusError/callFailed(method:name:message:)`` for an error reply (or no
    ///   reply within `timeoutMicroseconds`, sd-bus's 25 s when 0), ``DesktopBusError/closed``,
    ///   or what `decode` throws.
    public func call<Reply: Sendable>(
        destination: String, path: String, interface: String, member: String, arguments: [BusArgument] = [],
        timeoutMicroseconds: UInt64 = 0, decode: @escaping @Sendable (inout BusMessageReader) throws -> Reply
    ) async throws -> Reply {
        let method = "\(interface).\(member)"
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                let call = PendingCall(connection: self) { result in
                    switch result {
                    case .failure(let error): continuation.resume(throwing: error)
                    case .success(let reply):
                        if sd_bus_message_is_method_error(reply, nil) != 0 {
                            let error = sd_bus_message_get_error(reply)?.pointee
                            continuation.resume(
                                throwing: DesktopBusError.callFailed(
                                    method: method, name: error?.name.map { String(cString: $0) } ?? "unknown",
                                    message: error?.message.map { String(cString: $0) } ?? ""
                                )
                            )
                            return
                        }
                        var reader = BusMessageReader(reply)
                        continuation.resume(with: Result { try decode(&reader) })
                    }
                }
                guard !isClosed else { return call.complete(.failure(.closed)) }
                let (message, made) = methodCall(destination, path, interface, member, arguments)
                var result = made
                if result >= 0 {
                    let userdata = Unmanaged.passUnretained(call).toOpaque()
                    result = sd_bus_call_async(bus, nil, message, pendingCallReply, userdata, timeoutMicroseconds)
                }
                sd_bus_message_unref(message)
                guard result >= 0 else {
                    return call.complete(
                        .failure(.callFailed(method: method, name: "sd-bus", message: errnoName(-result))))
                }
                pendingCalls[ObjectIdentifier(call)] = call
                pump()
            }
        }
    }

    /// Calls `member` of `interface` on `path` at `destination` without waiting for a reply (the
    /// call says it expects none): handed to the connection's queue, which sends it after
    /// everything handed to it before. Nothing is sent once the connection is closed.
    public func send(
        destination: String, path: String, interface: String, member: String, arguments: [BusArgument] = []
    ) {
        queue.async { [self] in
            guard !isClosed else { return }
            let (message, made) = methodCall(destination, path, interface, member, arguments)
            var result = made
            if result >= 0 { result = sd_bus_message_set_expect_reply(message, 0) }
            if result >= 0 { result = sd_bus_send(bus, message, nil) }
            sd_bus_message_unref(message)
            if result >= 0 { pump() }
        }
    }

    /// A new method call message with `arguments` appended (the caller unreferences it), and
    /// sd-bus's result: negative (an errno) when it could not be made.
    private func methodCall(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [BusArgument]
    ) -> (OpaquePointer?, Int32) {
        var message: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        for argument in arguments where result >= 0 { result = argument.append(to: message!) }
        return (message, result)
    }

    /// Adds the match `rule` (D-Bus match rule syntax) on the bus and delivers each matching
    /// message to `handler`, on the connection's queue, until the returned match is removed or
    /// the connection closes (then `finished` runs once).
    /// - Throws: ``DesktopBusError/callFailed(method:name:message:)`` if the bus refuses the rule.
    public func addMatch(
        _ rule: String, handler: @escaping @Sendable (inout BusMessageReader) -> Void,
        finished: @escaping @Sendable () -> Void
    ) async throws -> BusMatch {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                let match = SignalMatch(handler: handler, finished: finished)
                match.connection = self
                guard !isClosed else {
                    finished()
                    return continuation.resume(throwing: DesktopBusError.closed)
                }
                match.installed = { error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: BusMatch(match: match))
                    }
                }
                var slot: OpaquePointer?
                let userdata = Unmanaged.passUnretained(match).toOpaque()
                let result = sd_bus_add_match_async(
                    bus, &slot, rule, signalMatchMessage, signalMatchInstalled, userdata)
                guard result >= 0, let slot else {
                    match.installed = nil
                    finished()
                    let error = DesktopBusError.callFailed(
                        method: "AddMatch", name: "sd-bus", message: errnoName(-result))
                    return continuation.resume(throwing: error)
                }
                match.slot = slot
                matches[ObjectIdentifier(match)] = match
                pump()
            }
        }
    }

    /// Removes a match added by ``addMatch(_:handler:finished:)``; its `finished` runs.
    public func remove(_ match: BusMatch) {
        queue.async { [self] in
            guard let removed = matches.removeValue(forKey: ObjectIdentifier(match.match)) else { return }
            removed.end()
        }
    }

    /// Asks the bus for the well-known `name` (no queueing, no replacement); whether this
    /// connection owns it now.
    public func requestName(_ name: String) async throws -> Bool {
        let reply = try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", arguments: [.string(name), .uint32(4)]
        ) { try $0.readUInt32() }
        return reply == 1 || reply == 4 // primary owner, or already the owner
    }

    /// Closes the connection: calls still waiting fail with ``DesktopBusError/closed`` and
    /// signal streams finish.
    public func close() {
        queue.async { [self] in shutDown() }
    }

    /// Finishes a call whose reply (or synthesized error) sd-bus delivered.
    func finish(_ call: PendingCall, reply: OpaquePointer) {
        pendingCalls[ObjectIdentifier(call)] = nil
        call.complete(.success(reply))
    }

    func matchInstalled(_ match: SignalMatch, error: DesktopBusError?) {
        match.installed?(error)
        match.installed = nil
        if error != nil, let removed = matches.removeValue(forKey: ObjectIdentifier(match)) { removed.end() }
    }

    /// Runs sd-bus until it has nothing to do, then waits for what it asks for.
    private func pump() {
        guard !isClosed else { return }
        while true {
            let result = sd_bus_process(bus, nil)
            if result < 0 || isClosed { return shutDown() }
            if result == 0 { break }
        }
        let events = sd_bus_get_events(bus)
        if events < 0 { return shutDown() }
        let wantsWrite = Int16(events) & Int16(POLLOUT) != 0
        if wantsWrite && writeSuspended {
            writeSource.resume()
            writeSuspended = false
        } else if !wantsWrite && !writeSuspended {
            writeSource.suspend()
            writeSuspended = true
        }
        var deadline: UInt64 = 0
        if sd_bus_get_timeout(bus, &deadline) > 0 && deadline != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            let wait = deadline > nowMicroseconds ? deadline - nowMicroseconds : 0
            timer.schedule(deadline: .now() + .microseconds(Int(min(wait, UInt64(Int32.max)))))
        } else {
            timer.schedule(deadline: .distantFuture)
        }
    }

    private func shutDown() {
        guard !isClosed else { return }
        isClosed = true
        if writeSuspended {
            writeSource.resume()
            writeSuspended = false
        }
        readSource.cancel()
        writeSource.cancel()
        timer.cancel()
        let calls = pendingCalls.values
        pendingCalls = [:]
        for call in calls { call.complete(.failure(.closed)) }
        let ended = matches.values
        matches = [:]
        for match in ended {
            match.installed?(.closed)
            match.installed = nil
            match.end()
        }
    }
}
