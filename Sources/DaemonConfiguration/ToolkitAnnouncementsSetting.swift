// SPDX-License-Identifier: GPL-3.0-or-later

/// What `toolkit_announcements` says: when the daemon speaks the announcements apps make over
/// the desktop's accessibility bus.
public enum ToolkitAnnouncementsSetting: String, Sendable, CaseIterable {
    /// Only while no screen reader runs (it would speak them too).
    case auto
    /// Always.
    case on
    /// Never; the daemon does not connect to the accessibility bus.
    case off
}
