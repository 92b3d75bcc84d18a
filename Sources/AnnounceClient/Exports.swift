// SPDX-License-Identifier: Apache-2.0
// The wire types (Element, Trait, SpeechOptions, StatusReport, Event, ...) are part of this
// library's API: `import AnnounceClient` is all an app needs.
@_exported public import AnnounceProtocol
