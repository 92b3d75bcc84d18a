// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import POSIXThreads
import SSIPProtocol

/// The daemon's voices as SSIP sees them, per output module (engine): `LIST OUTPUT_MODULES`,
/// `LIST SYNTHESIS_VOICES` of a module, the names `SET … SYNTHESIS_VOICE` may select, and a
/// voice for a language when `VOICE_TYPE` asks for a variant of it.
struct SSIPVoiceCatalog: Sendable {
    /// Every voice, in the daemon's order.
    let voices: [VoiceDescription]
    /// The engines installed, with voices or not (`piper` once its helper is installed).
    let installedEngines: [String]
    private let names: [String: String]
    private let byLanguage: [String: String]

    init(_ voices: [VoiceDescription], installedEngines: [String] = []) {
        self.voices = voices
        self.installedEngines = installedEngines
        var names: [String: String] = [:]
        var byLanguage: [String: String] = [:]
        for voice in voices {
            if names[voice.name.lowercased()] == nil { names[voice.name.lowercased()] = voice.engine }
            for language in voice.languages where byLanguage[language] == nil { byLanguage[language] = voice.name }
        }
        self.names = names
        self.byLanguage = byLanguage
    }

    /// The module that speaks for a connection that set none, and for a module without voices:
    /// the engine of the first voice that is the language fallback (espeak-ng's), else the first
    /// engine installed; nil when there is neither.
    var defaultModule: String? {
        voices.first(where: \.capabilities.languageFallback)?.engine ?? installedEngines.first ?? voices.first?.engine
    }

    /// The output modules: the default module first, then each engine installed (with voices or
    /// not: `piper` once its helper is), then any other engine a voice names.
    var modules: [String] {
        var modules = defaultModule.map { [$0] } ?? []
        for engine in installedEngines where !modules.contains(engine) { modules.append(engine) }
        for voice in voices where !modules.contains(voice.engine) { modules.append(voice.engine) }
        return modules
    }

    /// The module `name` (case-insensitive) as listed.
    func module(named name: String) -> String? {
        modules.first { $0.lowercased() == name.lowercased() }
    }

    /// Whether `module` has a voice; a module without one (`piper` before a Piper voice is
    /// installed) is spoken for by the default module (``defaultModule``).
    func hasVoices(module: String) -> Bool {
        voices.contains { $0.engine == module }
    }

    /// Whether `VOICE_TYPE`'s variants apply to a connection set to `module` (nil: none set): the
    /// voices of the module that speaks for it (the module itself when it has voices, else the
    /// default module) take variants; true when no voice says (the daemon then decides).
    func takesVariants(module: String?) -> Bool {
        let speaking = module.flatMap { hasVoices(module: $0) ? $0 : nil } ?? defaultModule
        guard let voice = voices.first(where: { $0.engine == speaking }) else { return true }
        return voice.capabilities.voiceVariants
    }

    /// `LIST SYNTHESIS_VOICES`' entries for `module` (nil: the default module's): name, best
    /// language (`en-GB` style), variant `none`.
    func entries(module: String?) -> [SSIPVoice] {
        let engine = module ?? defaultModule
        return voices.filter { $0.engine == engine }.map {
            SSIPVoice(name: $0.name, language: Self.displayTag($0.languages.first ?? $0.name))
        }
    }

    /// True when `name` is one of the voices (case-insensitive), of `module` when one is given.
    func knows(_ name: String, module: String? = nil) -> Bool {
        guard let engine = names[name.lowercased()] else { return false }
        return module == nil || module == engine
    }

    /// A voice that speaks `language` (`en-US`, `en_US`, `en`), or its primary language.
    func voice(forLanguage language: String) -> String? {
        let tag = String(language.lowercased().map { $0 == "_" ? "-" : $0 })
        if let exact = byLanguage[tag] { return exact }
        return byLanguage[TraitNames.primarySubtag(tag)]
    }

    /// `en-gb` → `en-GB`: the region in capitals, as SSIP clients match locales.
    static func displayTag(_ tag: String) -> String {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        return parts.enumerated().map { index, part in
            index > 0 && part.count == 2 ? part.uppercased() : String(part)
        }.joined(separator: "-")
    }
}

/// Where the SSIP front-end gets the daemon's voices and engines: the catalog of the last look,
/// which connections only read (on their event loops), and a way to look again, called by
/// whoever learns that the voices changed (the daemon's voice catalog, on its own thread, when a
/// Piper voice is installed or removed while the daemon runs).
final class SSIPVoiceSource: Sendable {
    private let lookAgain: (@Sendable () -> SSIPVoiceCatalog)?
    private let catalog: LockedValue<SSIPVoiceCatalog>

    /// Voices and engines that never change.
    init(fixed voices: [VoiceDescription], installedEngines: [String]) {
        lookAgain = nil
        catalog = LockedValue(SSIPVoiceCatalog(voices, installedEngines: installedEngines))
    }

    /// The voices `lookForVoices` and the engines `lookForEngines` find, looked for now and
    /// whenever ``refresh()`` is called.
    init(
        lookForVoices: @escaping @Sendable () -> [VoiceDescription], lookForEngines: @escaping @Sendable () -> [String]
    ) {
        let lookAgain: @Sendable () -> SSIPVoiceCatalog = {
            SSIPVoiceCatalog(lookForVoices(), installedEngines: lookForEngines())
        }
        self.lookAgain = lookAgain
        catalog = LockedValue(lookAgain())
    }

    /// The catalog of the last look.
    var current: SSIPVoiceCatalog { catalog.withLock { $0 } }

    /// Looks again, on the calling thread, and keeps what it found for the connections.
    func refresh() {
        guard let lookAgain else { return }
        let fresh = lookAgain()
        catalog.withLock { $0 = fresh }
    }
}
