// SPDX-License-Identifier: GPL-3.0-or-later
import CEspeakNG
import EngineWire

/// Reads espeak-ng's voice list.
enum EspeakVoices {
    /// The voices espeak-ng offers. A voice's name is its file name without the folder,
    /// lower-cased (`en-us`, `de`, `cmn`); its identifier is the full file name (`gmw/en-US`),
    /// which `espeak_SetVoiceByName` accepts for every voice (it refuses some language names,
    /// e.g. `en-gb`); its languages come from the voice's language list, best first, lower-cased.
    static func list() -> [EngineVoice] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var voices: [EngineVoice] = []
        var index = 0
        while let voice = list[index] {
            index += 1
            guard let identifier = voice.pointee.identifier.map({ String(cString: $0) }) else { continue }
            let name = String(identifier.split(separator: "/").last ?? Substring(identifier)).lowercased()
            let languages = parseLanguages(voice.pointee.languages)
            let title = voice.pointee.name.map { String(cString: $0) } ?? ""
            voices.append(
                EngineVoice(
                    name: name, identifier: identifier, languages: languages.isEmpty ? [name] : languages,
                    gender: voice.pointee.gender, title: title
                )
            )
        }
        return voices.sorted { $0.name < $1.name }
    }

    /// espeak's language list: repeated (priority byte, NUL-terminated name), ended by a NUL.
    private static func languageEntries(_ pointer: UnsafePointer<CChar>?) -> [(priority: Int, name: String)] {
        guard var cursor = pointer else { return [] }
        var result: [(priority: Int, name: String)] = []
        while cursor.pointee != 0 {
            let priority = Int(UInt8(bitPattern: cursor.pointee))
            let name = String(cString: cursor + 1)
            result.append((priority, name.lowercased()))
            cursor += name.utf8.count + 2
        }
        return result
    }

    private static func parseLanguages(_ pointer: UnsafePointer<CChar>?) -> [String] {
        let entries = languageEntries(pointer)
        return entries.enumerated()
            .sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }
            .map(\.element.name)
    }
}
