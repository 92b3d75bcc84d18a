// SPDX-License-Identifier: GPL-3.0-or-later

/// An announcement a toolkit sent over AT-SPI (GTK's `gtk_accessible_announce`, Qt's
/// announcement event, ATK's `announcement` signal): the `object:announcement` event.
public struct ToolkitAnnouncement: Sendable, Equatable {
    /// What to say.
    public var text: String
    /// How urgently (the event's `detail1`).
    public var politeness: AnnouncementPoliteness
    /// The sending application's accessible name (its root object's `Name`), or its process's
    /// name when it gives none.
    public var application: String
    /// The sender's unique name on the accessibility bus.
    public var sender: String

    /// An announcement with these fields.
    public init(text: String, politeness: AnnouncementPoliteness, application: String, sender: String) {
        self.text = text
        self.politeness = politeness
        self.application = application
        self.sender = sender
    }
}

/// How an announcement asks to be spoken (AT-SPI's `AtspiLive`, from at-spi2-core 2.49.90).
public enum AnnouncementPoliteness: Sendable, Equatable {
    /// No politeness given (at-spi2-core before 2.49.90 always sends 0): wait in line.
    case unspecified
    /// `ATSPI_LIVE_POLITE` (1): wait in line.
    case polite
    /// `ATSPI_LIVE_ASSERTIVE` (2): interrupt.
    case assertive

    /// The politeness an event's `detail1` carries.
    public init(detail: Int32) {
        switch detail {
        case 1: self = .polite
        case 2: self = .assertive
        default: self = .unspecified
        }
    }
}
