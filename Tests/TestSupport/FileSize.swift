// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The size of the file at `path` in bytes; 0 when there is none.
public func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
}
