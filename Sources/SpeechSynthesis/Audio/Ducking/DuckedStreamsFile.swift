import AnnouncePOSIX
// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Glibc
import SystemPackage

/// The small file, in the daemon's runtime directory, that names the streams the ducker has
/// lowered and their volumes before, so that a daemon that crashed while ducking has them
/// restored by the next one. Written (mode 0600) before a stream is lowered, removed once every
/// lowered stream is restored.
struct DuckedStreamsFile {
    /// The file's path.
    let path: String

    /// Replaces the file with `streams`, or removes it when there are none.
    /// - Throws: `SpeechSynthesisError` saying why the file cannot be written.
    func write(_ streams: [DuckedStream]) throws(SpeechSynthesisError) {
        guard !streams.isEmpty else {
            remove()
            return
        }
        let bytes = JSONValue.object(["streams": .array(streams.map(Self.json))]).jsonLine
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw failure("cannot be created") }
        // A file left by an older run with other permissions: only the user may read it.
        _ = fchmod(fd, 0o600)
        do {
            try FileDescriptor(rawValue: fd).writeAll(bytes)
        } catch {
            close(fd)
            throw failure("cannot be written")
        }
        close(fd)
        guard rename(temporary, path) == 0 else { throw failure("cannot be put in place") }
    }

    /// The streams the file names; none when there is no file or it cannot be read as one.
    func read() -> [DuckedStream] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        guard let bytes = try? FileDescriptor(rawValue: fd).readToEnd(limit: 1 << 20, chunk: 4096) else { return [] }
        guard let streams = (try? JSONParser.parse(bytes))?.objectValue?["streams"]?.arrayValue else { return [] }
        return streams.compactMap(Self.stream)
    }

    /// Removes the file.
    func remove() {
        unlink(path)
    }

    private func failure(_ what: String) -> SpeechSynthesisError {
        SpeechSynthesisError(
            "the ducking state file \(path) \(what) (\(String(cString: strerror(errno)))); "
                + "check that the daemon's runtime directory is writable by you"
        )
    }

    private static func json(_ stream: DuckedStream) -> JSONValue {
        var object: JSONObject = ["index": .integer(Int64(stream.index)), "name": .string(stream.name)]
        if let processID = stream.processID { object.append("process_id", .string(processID)) }
        object.append("original", .array(stream.original.map { .integer(Int64($0)) }))
        object.append("lowered", .array(stream.lowered.map { .integer(Int64($0)) }))
        return .object(object)
    }

    private static func stream(_ value: JSONValue) -> DuckedStream? {
        guard let object = value.objectValue, let index = object["index"]?.integerValue.flatMap(UInt32.init(exactly:)),
            let name = object["name"]?.stringValue, let original = volumes(object["original"]),
            let lowered = volumes(object["lowered"]), !original.isEmpty, original.count == lowered.count
        else { return nil }
        return DuckedStream(
            index: index, processID: object["process_id"]?.stringValue, name: name, original: original, lowered: lowered
        )
    }

    private static func volumes(_ value: JSONValue?) -> [UInt32]? {
        guard let array = value?.arrayValue else { return nil }
        let volumes = array.compactMap { $0.integerValue.flatMap(UInt32.init(exactly:)) }
        return volumes.count == array.count ? volumes : nil
    }
}
