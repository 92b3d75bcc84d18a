// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import CSystemdBus
import Glibc

/// One voice as Spiel's `Voices` property lists it (`a(ssstas)` in
/// `org.freedesktop.Speech.Provider.xml`).
public struct SpeechProviderVoice: Sendable, Equatable {
    /// The human-readable name.
    public var name: String
    /// The identifier `Synthesize` takes as `voice_id`.
    public var identifier: String
    /// The stream's format as GStreamer caps, e.g. `audio/x-spiel,format=S16LE,channels=1,rate=22050`.
    public var outputFormat: String
    /// Spiel's `VOICE_FEATURE` bits (``SpeechProviderVoice/wordEvents``, ``SpeechProviderVoice/markEvents``).
    public var features: UInt64
    /// BCP 47 tags, best first.
    public var languages: [String]

    /// `EVENTS_WORD`: the stream has a word event before each word's audio.
    public static let wordEvents: UInt64 = 0x1
    /// `EVENTS_SSML_MARK`: the stream has a mark event where an SSML `<mark>` is reached.
    public static let markEvents: UInt64 = 0x8

    /// Creates a voice entry.
    public init(name: String, identifier: String, outputFormat: String, features: UInt64, languages: [String]) {
        self.name = name
        self.identifier = identifier
        self.outputFormat = outputFormat
        self.features = features
        self.languages = languages
    }
}

/// One `Synthesize` call, as the client made it.
public struct SpeechProviderCall: Sendable {
    /// The write end of the client's pipe: a descriptor of the caller's own (`dup`ed,
    /// close-on-exec), which the handler must close when the stream is done.
    public var pipe: Int32
    /// The text, plain or SSML.
    public var text: String
    /// The `identifier` of one of the `Voices`.
    public var voiceID: String
    /// 1.0 is the voice's normal pitch.
    public var pitch: Double
    /// 1.0 is the voice's normal rate.
    public var rate: Double
    /// Whether `text` is SSML.
    public var isSSML: Bool
    /// The language the client asked for (may be empty).
    public var language: String
    /// The caller's unique bus name (`:1.42`).
    public var sender: String
    /// The name of the caller's process as the bus tells it (`GetConnectionUnixProcessID`, then
    /// `/proc/PID/comm`: `orca`, `python3`); empty when the bus does not say.
    public var application: String = ""
}

/// Why a `Synthesize` call was refused: the D-Bus error it is answered with.
public struct SpeechProviderRefusal: Error, Sendable, Equatable {
    /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: String
    /// What went wrong and what to do.
    public var message: String

    /// A refusal answered with the error `name` and `message`.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
}

/// announced as a Spiel speech provider on a bus connection: the object at the bus name's path
/// (dots turned into slashes) with the interface `org.freedesktop.Speech.Provider`, exported with
/// an sd-bus vtable (`CSystemdBus/speech_provider.h`), and the well-known name that makes clients
/// find it.
///
/// Its handlers run on the connection's queue: `Voices` is read from the list last set with
/// ``setVoices(_:)``, and `Synthesize` hands the call to `synthesize`, which must return at once
/// (it starts the synthesis elsewhere) with nil, or with a refusal the client gets as a D-Bus error.
/// A caller's first `Synthesize` also asks the bus daemon for the caller's PID (one round trip on
/// the queue, answered by the bus daemon, never by the caller), to name its application.
// Unchecked: its mutable state (`voices`, the slot, the application names) is touched only on the
// connection's queue.
public final class SpeechProviderObject: @unchecked Sendable {
    /// The interface's name.
    public static let interface = "org.freedesktop.Speech.Provider"
    /// The connection it is exported on.
    public let connection: BusConnection
    /// The bus name it owns, ending in `.Speech.Provider`.
    public let busName: String
    /// Its object path: the bus name with dots as slashes.
    public var path: String { "/" + busName.split(separator: ".").joined(separator: "/") }
    let providerName: String
    let synthesize: @Sendable (SpeechProviderCall) -> SpeechProviderRefusal?
    // Touched only on the connection's queue.
    var voices: [SpeechProviderVoice]
    private var slot: OpaquePointer?
    /// Each caller's process name, by unique bus name (never given to another connection); cleared
    /// when it holds ``applicationsKept``.
    private var applications: [String: String] = [:]
    private static let applicationsKept = 256

    private init(
        connection: BusConnection, busName: String, providerName: String, voices: [SpeechProviderVoice],
        synthesize: @escaping @Sendable (SpeechProviderCall) -> SpeechProviderRefusal?
    ) {
        self.connection = connection
        self.busName = busName
        self.providerName = providerName
        self.voices = voices
        self.synthesize = synthesize
    }

    /// Exports the provider on `connection` and then asks the bus for `busName`.
    /// - Throws: ``DesktopBusError/callFailed(method:name:message:)`` when the object cannot be
    ///   exported or the name is owned by another connection.
    public static func export(
        on connection: BusConnection, busName: String, providerName: String, voices: [SpeechProviderVoice],
        synthesize: @escaping @Sendable (SpeechProviderCall) -> SpeechProviderRefusal?
    ) async throws -> SpeechProviderObject {
        let object = SpeechProviderObject(
            connection: connection, busName: busName, providerName: providerName, voices: voices,
            synthesize: synthesize)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            connection.queue.async {
                var slot: OpaquePointer?
                let result = sd_bus_add_object_vtable(
                    connection.bus, &slot, object.path, interface, announced_speech_provider_vtable(),
                    Unmanaged.passUnretained(object).toOpaque())
                guard result >= 0 else {
                    return continuation.resume(
                        throwing: DesktopBusError.callFailed(
                            method: "sd_bus_add_object_vtable", name: "sd-bus", message: errnoName(-result)))
                }
                object.slot = slot
                continuation.resume()
            }
        }
        guard try await connection.requestName(busName) else {
            object.withdraw()
            throw DesktopBusError.callFailed(
                method: "org.freedesktop.DBus.RequestName", name: "org.freedesktop.DBus.Error.AddressInUse",
                message: "another program owns \(busName)")
        }
        return object
    }

    /// Replaces the voice list; when it differs, emits `PropertiesChanged` for `Voices`.
    public func setVoices(_ newVoices: [SpeechProviderVoice]) {
        connection.queue.async { [self] in
            guard newVoices != voices, slot != nil else { return }
            voices = newVoices
            var names: [UnsafeMutablePointer<CChar>?] = [strdup("Voices"), nil]
            defer { free(names[0]) }
            _ = sd_bus_emit_properties_changed_strv(connection.bus, path, Self.interface, &names)
            sd_bus_flush(connection.bus)
        }
    }

    /// The process name of the caller that sent `message` (on the connection's queue): from the
    /// bus once per caller (sd-bus asks the bus daemon for its PID), then `/proc/PID/comm`.
    fileprivate func application(of message: OpaquePointer, sender: String) -> String {
        if let known = applications[sender] { return known }
        var creds: OpaquePointer?
        var pid: pid_t = 0
        var name = ""
        if sd_bus_query_sender_creds(message, UInt64(SD_BUS_CREDS_PID), &creds) >= 0,
            sd_bus_creds_get_pid(creds, &pid) >= 0
        {
            name = ProcessName.of(pid: pid) ?? ""
        }
        sd_bus_creds_unref(creds)
        if applications.count >= Self.applicationsKept { applications.removeAll(keepingCapacity: true) }
        applications[sender] = name
        return name
    }

    /// Removes the object from the bus (the name goes with the connection).
    public func withdraw() {
        connection.queue.async { [self] in
            if let slot { sd_bus_slot_unref(slot) }
            slot = nil
        }
    }
}

@_cdecl("announced_speech_provider_synthesize")
func speechProviderSynthesize(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ replyError: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let message, let userdata else { return -EINVAL }
    let object = Unmanaged<SpeechProviderObject>.fromOpaque(userdata).takeUnretainedValue()
    var reader = BusMessageReader(message)
    let call: SpeechProviderCall
    do {
        let pipe = try reader.readFileDescriptor()
        let text = try reader.readString()
        let voiceID = try reader.readString()
        let pitch = try reader.readDouble()
        let rate = try reader.readDouble()
        let isSSML = try reader.readBool()
        let language = try reader.readString()
        let owned = fcntl(pipe, F_DUPFD_CLOEXEC, 3)
        guard owned >= 0 else { return -errno }
        let sender = reader.sender ?? ""
        call = SpeechProviderCall(
            pipe: owned, text: text, voiceID: voiceID, pitch: pitch, rate: rate, isSSML: isSSML,
            language: language, sender: sender, application: object.application(of: message, sender: sender))
    } catch {
        return sd_bus_error_set(replyError, "org.freedesktop.DBus.Error.InvalidArgs", "\(error)")
    }
    if let refusal = object.synthesize(call) {
        return sd_bus_error_set(replyError, refusal.name, refusal.message)
    }
    var reply: OpaquePointer?
    var result = sd_bus_message_new_method_return(message, &reply)
    if result >= 0 { result = sd_bus_send(nil, reply, nil) }
    sd_bus_message_unref(reply)
    return result < 0 ? result : 1
}

@_cdecl("announced_speech_provider_name")
func speechProviderName(
    _ bus: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ interface: UnsafePointer<CChar>?,
    _ property: UnsafePointer<CChar>?, _ reply: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
    _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let reply, let userdata else { return -EINVAL }
    let object = Unmanaged<SpeechProviderObject>.fromOpaque(userdata).takeUnretainedValue()
    return BusArgument.string(object.providerName).append(to: reply)
}

@_cdecl("announced_speech_provider_voices")
func speechProviderVoices(
    _ bus: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ interface: UnsafePointer<CChar>?,
    _ property: UnsafePointer<CChar>?, _ reply: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
    _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let reply, let userdata else { return -EINVAL }
    let object = Unmanaged<SpeechProviderObject>.fromOpaque(userdata).takeUnretainedValue()
    var result = sd_bus_message_open_container(reply, Character("a").cValue, "(ssstas)")
    for voice in object.voices where result >= 0 {
        result = sd_bus_message_open_container(reply, Character("r").cValue, "ssstas")
        for argument in [BusArgument.string(voice.name), .string(voice.identifier), .string(voice.outputFormat)]
        where result >= 0 {
            result = argument.append(to: reply)
        }
        if result >= 0 {
            result = withUnsafePointer(to: voice.features) {
                sd_bus_message_append_basic(reply, Character("t").cValue, $0)
            }
        }
        if result >= 0 { result = BusArgument.stringArray(voice.languages).append(to: reply) }
        if result >= 0 { result = sd_bus_message_close_container(reply) }
    }
    return result < 0 ? result : sd_bus_message_close_container(reply)
}
