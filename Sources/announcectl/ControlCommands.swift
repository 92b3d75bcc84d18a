// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser

extension Announcectl {
    /// `stop`.
    struct Stop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop speech and discard every waiting post.")
        @ParentCommand var parent: Announcectl

        func run() async throws {
            do { try await parent.makeAnnouncer().stop() } catch { throw fail(error) }
        }
    }

    /// `pause`.
    struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Hold speech where it is until resume; posts keep arriving and wait."
        )
        @ParentCommand var parent: Announcectl

        func run() async throws {
            // The pause outlives this short-lived connection: it lasts until `announcectl resume`.
            do { try await parent.makeAnnouncer().pause(untilResume: true) } catch { throw fail(error) }
        }
    }

    /// `resume`.
    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Continue paused speech from where it stopped.")
        @ParentCommand var parent: Announcectl

        func run() async throws {
            do { try await parent.makeAnnouncer().resume() } catch { throw fail(error) }
        }
    }

    /// `mute`.
    struct Mute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn speech off for every client until unmute.")
        @ParentCommand var parent: Announcectl

        func run() async throws {
            do { try await parent.makeAnnouncer().setMuted(true) } catch { throw fail(error) }
        }
    }

    /// `unmute`.
    struct Unmute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Turn speech back on.")
        @ParentCommand var parent: Announcectl

        func run() async throws {
            do { try await parent.makeAnnouncer().setMuted(false) } catch { throw fail(error) }
        }
    }

    /// `set`: the daemon's defaults until it restarts.
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change the default voice, rate, pitch, volume or punctuation until the daemon restarts."
        )
        @ParentCommand var parent: Announcectl

        @Option(
            help:
                "An espeak-ng voice, by language or file name, e.g. en-us, en-gb, gmw/en, de (announcectl voices lists them)."
        )
        var voice: String?

        @Option(help: SpeechOptionRanges.rateHelp)
        var rate: Int?

        @Option(help: "Pitch, 0 to 100 (Piper voices ignore it).")
        var pitch: Int?

        @Option(help: "Volume, 0 to 200.")
        var volume: Int?

        @Option(help: "Which punctuation is spoken: none, some or all.")
        var punctuation: Punctuation?

        func validate() throws {
            if voice == nil && rate == nil && pitch == nil && volume == nil && punctuation == nil {
                throw ValidationError("give at least one of --voice, --rate, --pitch, --volume, --punctuation")
            }
            try SpeechOptionRanges.check(rate: rate, pitch: pitch, volume: volume)
        }

        func run() async throws {
            let change = SettingsChange(
                voice: voice, rate: rate, pitch: pitch, volume: volume, punctuation: punctuation)
            do { try await parent.makeAnnouncer().change(change) } catch { throw fail(error) }
        }
    }
}
