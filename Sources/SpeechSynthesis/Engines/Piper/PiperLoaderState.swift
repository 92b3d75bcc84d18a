// SPDX-License-Identifier: GPL-3.0-or-later

/// What ``PiperEngine``'s loader thread is doing with the engine's own helper: one value, read
/// and written only under the engine's one lock (its `condition`).
///
/// Invariants:
/// - Only the loader thread sets it, and only to `.loading` (``PiperEngine``'s `loadWanted`) or
///   `.unloading` (`stopHelper`); the same call sets it back to `.idle` before it returns, so
///   the loader's own loop only ever sees `.idle`.
/// - It leaves `.idle` only while the helper is not in use (nobody holds it), and while it is not
///   `.idle` nobody takes the helper: the speech thread and the streams wait, or take a spare.
/// - While it is not `.idle`, only the loader touches the helper process, without the lock.
/// - The spare helpers' loads never change it: they do not touch the engine's own helper.
enum PiperLoaderState: Equatable {
    /// The loader does not hold the helper: whoever finds it free with the voice loaded takes it.
    case idle
    /// The loader holds the helper and loads `voice` (the path of its `.onnx`) into it, starting
    /// it first if none runs. `filesReplaced`: the voice's files were replaced meanwhile, so the
    /// helper may hold the old ones; it is then stopped and the voice loaded again.
    case loading(String, filesReplaced: Bool)
    /// The loader holds the helper and stops it (idle too long, or its voice's files replaced),
    /// unloading its voice.
    case unloading

    /// The voice being loaded, if any.
    var voice: String? {
        if case .loading(let voice, _) = self { return voice }
        return nil
    }
}
