// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import Glibc
import Logging

/// The daemon's log lines on standard error, written to read well in `journalctl --user -u
/// announced` and in a terminal.
///
/// swift-log's `StreamLogHandler` repeats the logger's label and adds the source module
/// (`info announced: [announced] ...`) and its own timestamp, which journald adds again. This
/// handler writes `component: message key=value` with no label for the daemon's own logger
/// (`announced`), the part after `announced.` for the others (`speech: ...`). Under journald
/// (`JOURNAL_STREAM` set) each line starts with the syslog priority (`<4>`), which journald reads
/// as the entry's level and does not show; elsewhere it starts with a timestamp and the level.
struct DaemonLogHandler: LogHandler {
    /// The component shown before the message, or nil for the daemon's own logger.
    let component: String?
    /// True when standard error goes to journald.
    let toJournal: Bool
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(label: String, level: Logger.Level, environment: [String: String]) {
        component = label == "announced" ? nil : String(label.split(separator: ".").last ?? Substring(label))
        toJournal = environment["JOURNAL_STREAM"].map { !$0.isEmpty } ?? false
        logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        printToStandardError(
            Self.line(
                level: event.level, message: "\(event.message)", metadata: merged, component: component,
                toJournal: toJournal
            ))
    }

    /// One log line, without its newline.
    static func line(
        level: Logger.Level, message: String, metadata: Logger.Metadata, component: String?, toJournal: Bool
    ) -> String {
        var line = toJournal ? "<\(syslogPriority(level))>" : "\(timestamp()) \(level.rawValue): "
        if let component { line += "\(component): " }
        line += message
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            let text = "\(value)"
            line += text.contains(" ") || text.isEmpty ? " \(key)=\"\(text)\"" : " \(key)=\(text)"
        }
        return line
    }

    /// The syslog priority journald reads from a `<N>` prefix.
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Local time to the second, as `2026-11-24 03:11:00`.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
