// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser

extension Announcectl {
    /// `cancel [ID]`: the caller's own posts (those of earlier announcectl runs).
    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Cancel what announcectl said: the post given --id ID, or every post of announcectl pending or speaking.",
            discussion: """
                Other apps' posts are left alone (stop ends everything). Exit status 0 when a post \
                was cancelled, 1 when none was pending or speaking.
                """
        )
        @ParentCommand var parent: Announcectl

        @Argument(help: ArgumentHelp("The id given to say --id.", valueName: "id"))
        var id: String?

        func validate() throws {
            if let id, id.isEmpty { throw ValidationError("the id must not be empty") }
        }

        func run() async throws {
            let count: Int
            do { count = try await parent.makeAnnouncer().cancelOwnPosts(target: id.map(RequestID.string)) } catch {
                throw fail(error)
            }
            printLine(count == 1 ? "cancelled 1 post" : "cancelled \(count) posts")
        }
    }
}
