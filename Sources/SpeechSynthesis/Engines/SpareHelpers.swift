// SPDX-License-Identifier: GPL-3.0-or-later

/// An engine's spare helpers: those started because its warm helper was busy with another
/// request (requests overlapped: the speech thread's post and a Spiel stream, or two streams).
/// A spare is kept idle only while the overlap lasts (its engine's warm helper is still out), so
/// an engine holds one copy of a voice while requests do not overlap, and one per request in
/// flight while they do. Guarded by its engine's lock.
struct SpareHelpers {
    private var idle: [(helper: EngineHelperProcess, voice: String, generation: UInt64)] = []
    /// The spares lent out, with the generation they were started in.
    private var out: [ObjectIdentifier: UInt64] = [:]
    /// Counts `forget` calls: a spare started before one may hold a voice's old files.
    private var generation: UInt64 = 0

    /// How many spares run (idle or lent), for the log and tests.
    var count: Int { idle.count + out.count }

    /// Whether `helper` is one of the spares lent out.
    func isSpare(_ helper: EngineHelperProcess) -> Bool { out[ObjectIdentifier(helper)] != nil }

    /// Lends an idle spare with `voice` loaded (an engine that selects voices per request passes
    /// nil: any spare does).
    mutating func take(voice: String?) -> EngineHelperProcess? {
        guard let index = idle.firstIndex(where: { voice == nil || $0.voice == voice }) else { return nil }
        let spare = idle.remove(at: index)
        out[ObjectIdentifier(spare.helper)] = spare.generation
        return spare.helper
    }

    /// Counts `helper`, just started, as a spare lent out.
    mutating func lend(_ helper: EngineHelperProcess) {
        out[ObjectIdentifier(helper)] = generation
    }

    /// Adds `helper`, just started with `voice`, to the idle spares.
    mutating func add(_ helper: EngineHelperProcess, voice: String) {
        idle.append((helper, voice, generation))
    }

    /// Takes back a spare lent out: kept idle when `keep` (the overlap goes on) and its voice's
    /// files have not changed since it started; false when it is to be stopped.
    mutating func giveBack(_ helper: EngineHelperProcess, voice: String, keep: Bool) -> Bool {
        guard let born = out.removeValue(forKey: ObjectIdentifier(helper)) else { return false }
        guard keep, born == generation, helper.isRunning else { return false }
        idle.append((helper, voice, born))
        return true
    }

    /// Removes every idle spare (the overlap ended, or the engine stops), to be stopped outside the lock.
    mutating func drain() -> [EngineHelperProcess] {
        defer { idle = [] }
        return idle.map(\.helper)
    }

    /// The files of `voices` changed: removes the idle spares that hold one (to be stopped outside
    /// the lock), and has those lent out stopped when they come back.
    mutating func forget(voices: Set<String>) -> [EngineHelperProcess] {
        generation += 1
        let stale = idle.filter { voices.contains($0.voice) }.map(\.helper)
        idle.removeAll { voices.contains($0.voice) }
        return stale
    }
}
