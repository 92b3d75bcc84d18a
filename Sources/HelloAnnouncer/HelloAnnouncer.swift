// SPDX-License-Identifier: Apache-2.0
// The smallest client: one announcement, waited for, and how it ended.
//
//     swift run HelloAnnouncer "Build finished"
//
// It is also the client whose memory Benchmarks/README.md quotes (AnnounceClient needs no Foundation).
import AnnounceClient

@main
enum HelloAnnouncer {
    static func main() async {
        let text = CommandLine.arguments.dropFirst().first ?? "Hello"
        let result = await Announcer(clientName: "hello").announce(text)
        print(result)
    }
}
