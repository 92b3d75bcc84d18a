// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
public import AnnounceServer
public import NIOCore
import SSIPProtocol

/// One SSIP connection's decoder, on its event loop: splits the bytes into lines (CR LF, or a bare
/// LF inside `SPEAK` data), runs each through the connection's ``SSIPSession`` and turns the step
/// into the dispatcher's input, in order.
public struct SSIPDecoder: FrontEndDecoder {
    let connection: SSIPConnection
    let frontEnd: SSIPFrontEnd
    private var splitter: LineSplitter
    /// The id of the next message (unique on the connection; the SSIP message id is its sequence
    /// number, which the dispatcher gives it).
    private var nextMessage: Int64 = 1
    /// Set after QUIT or a line over the limit: nothing more is decoded.
    private var done = false
    /// Set once an output module announced does not have was logged for this connection.
    private var loggedModuleFallback = false

    init(connection: SSIPConnection, frontEnd: SSIPFrontEnd) {
        self.connection = connection
        self.frontEnd = frontEnd
        self.splitter = LineSplitter(maxLineBytes: frontEnd.maxLineBytes)
    }

    /// Decodes every line `incoming` completes.
    public mutating func decode(_ incoming: inout ByteBuffer) -> DecodedInput {
        var decoded = DecodedInput()
        defer { incoming.moveReaderIndex(to: incoming.writerIndex) }
        guard !done else { return decoded }
        // Each line is taken where it lies in the read buffer, as the splitter finds it (no copy).
        // The splitter is moved out while it runs, so that taking a line may change the decoder.
        var splitter = self.splitter
        defer { self.splitter = splitter }
        do {
            try incoming.withUnsafeReadableBytes { chunk throws(LineSplitter.LineTooLong) in
                try splitter.split(chunk) { line in
                    if !done { take(line, into: &decoded) }
                }
            }
        } catch {
            if !done {
                decoded.inputs.append(.answered(SSIPReply.lineTooLong(limit: frontEnd.maxLineBytes)))
                decoded.framingLost = true
                done = true
            }
        }
        return decoded
    }

    /// End of input is QUIT without its reply: the connection's queued messages are kept (libspeechd
    /// and python3-speechd close the socket instead of sending QUIT). An unfinished line or
    /// message is dropped.
    public mutating func decodeLast() -> DecodedInput { DecodedInput() }

    /// Forgets the connection for `SET all` and `SET <id>`.
    public mutating func closed() {
        frontEnd.connections.remove(connection.id)
    }

    private mutating func take(_ line: UnsafeRawBufferPointer, into decoded: inout DecodedInput) {
        let step = connection.session.withLock { $0.take(bytes: line) }
        switch step {
        case .none:
            break
        case .reply(let reply):
            if reply == .clientNameSet {
                decoded.inputs.append(.name(connection.session.withLock { $0.settings.clientName }))
            }
            decoded.inputs.append(.answered(reply))
        case .queue(let message):
            let post = SSIPMessagePost.make(
                message, id: RequestID.integer(nextMessage), voices: frontEnd.voices.current)
            // What is spoken may be longer than what was sent (`kp-` is said "keypad "): the
            // bound holds for the spoken text.
            let characters = post.text.unicodeScalars.count
            guard characters <= frontEnd.maxTextChars else {
                decoded.inputs.append(
                    .answered(SSIPReply.messageTooLong(characters: characters, limit: frontEnd.maxTextChars)))
                return
            }
            nextMessage += 1
            decoded.inputs.append(.message(post))
        case .control(let control, let scope, _):
            // The dispatcher answers done or unknown client; the encoder words it (210-213, 406).
            decoded.inputs.append(.control(SpeechControl(control), ClientScope(scope)))
        case .setOthers(let scope, let setting, let success):
            decoded.inputs.append(.answered(setOthers(scope, setting, success: success)))
        case .listSynthesisVoices:
            let catalog = frontEnd.voices.current
            let module = connection.session.withLock { $0.settings.outputModule }.flatMap { catalog.module(named: $0) }
            decoded.inputs.append(.answered(SSIPReply.synthesisVoices(catalog.entries(module: module))))
        case .listOutputModules:
            decoded.inputs.append(.answered(SSIPReply.moduleList(frontEnd.voices.current.modules)))
        case .setOutputModule(let scope, let name):
            // A name that is no installed engine (`flite`, `festival`) is set as it is, answered 216
            // like speech-dispatcher (shared/ssip.md §3: python3-speechd raises on 312, and
            // speech-dispatcher's own tests set `flite`), and `GET OUTPUT_MODULE` answers it; its
            // messages speak as if no module were set. The fallback is logged once per connection.
            // An installed engine without voices (piper before a Piper voice is installed) is set
            // too: espeak-ng speaks its messages until a Piper voice is installed.
            let catalog = frontEnd.voices.current
            let module = catalog.module(named: name)
            if module == nil, !loggedModuleFallback {
                loggedModuleFallback = true
                let clientName = connection.session.withLock { $0.settings.clientName }
                frontEnd.logger.notice(
                    "an SSIP client chose an output module announced does not have; its messages speak with the default voice",
                    metadata: [
                        "client": "\(clientName)", "module": "\(name)",
                        "modules": "\(catalog.modules.joined(separator: ", "))",
                        "fix": "choose one of the modules (LIST OUTPUT_MODULES), or leave the module unset",
                    ]
                )
            }
            decoded.inputs.append(.answered(setOthers(scope, .outputModule(module ?? name), success: .outputModuleSet)))
        case .quit:
            decoded.inputs.append(.answered(SSIPReply.bye))
            decoded.framingLost = true
            done = true
        }
    }

    /// `SET all …` changes every open SSIP connection's setting, this one's too; `SET <id> …` the
    /// one with that client id, or answers the setting's 3xx when there is none.
    private func setOthers(_ scope: SSIPScope, _ setting: SSIPSetting, success: SSIPReply) -> SSIPReply {
        switch scope {
        case .self:
            connection.session.withLock { $0.apply(fromOthers: setting) }
        case .all:
            for other in frontEnd.connections.all { other.session.withLock { $0.apply(fromOthers: setting) } }
        case .client(let id):
            guard id >= 0, let other = frontEnd.connections[ClientID(id)] else { return .couldNotSet(setting) }
            other.session.withLock { $0.apply(fromOthers: setting) }
        }
        return success
    }
}

extension SpeechControl {
    init(_ control: SSIPControl) {
        switch control {
        case .stop: self = .stop
        case .cancel: self = .cancel
        case .pause: self = .pause
        case .resume: self = .resume
        }
    }
}

extension ClientScope {
    init(_ scope: SSIPScope) {
        switch scope {
        case .self: self = .own
        case .all: self = .all
        // A negative id names no connection.
        case .client(let id): self = .client(id >= 0 ? ClientID(id) : .max)
        }
    }
}

extension SSIPReply {
    /// A line longer than the daemon's `max_line_bytes`: framing is lost and the connection closes.
    static func lineTooLong(limit: Int) -> SSIPReply {
        SSIPReply(520, "ERR LINE LONGER THAN \(limit) BYTES; THE CONNECTION IS CLOSED; SEND LONG TEXT AS SEVERAL LINES")
    }
}
