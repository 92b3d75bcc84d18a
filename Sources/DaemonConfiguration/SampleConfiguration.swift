// SPDX-License-Identifier: GPL-3.0-or-later
/// Where users find the sample configuration file, for help texts and error messages: the
/// installed copy (`make install` and the Debian package put `Config/announced.json` there), never
/// a path in the source tree, which an installed daemon's user does not have.
public enum SampleConfiguration {
    /// The installed sample's path under the Debian package's prefix, then under `make install`'s.
    public static let whereInstalled =
        "/usr/share/announced/announced.json, or /usr/local/share/announced/announced.json after make install"
}
