// SPDX-License-Identifier: GPL-3.0-or-later
public import Glibc

extension sockaddr_un {
    /// The address of the Unix socket at `path` (cut to what fits).
    public static func make(path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        return address
    }
}
