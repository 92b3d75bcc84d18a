// SPDX-License-Identifier: GPL-3.0-or-later
import CEngineSandbox
import Glibc

/// Landlock for a sandboxed engine: every access right the kernel's ABI knows is handled, and
/// only reading is allowed, beneath the readable paths. Needs `no_new_privs` set first.
struct LandlockRules {
    /// Files and directories that stay readable (with everything beneath them).
    let readablePaths: [String]

    /// Whether the rules are in force.
    enum Outcome: Equatable {
        /// Restricted, with the rights of this Landlock ABI version.
        case enforced(abi: Int)
        /// The kernel cannot: why, in words.
        case unavailable(String)
    }

    /// The filesystem rights Landlock ABI `abi` knows.
    static func handledFilesystemRights(abi: Int) -> UInt64 {
        var rights: UInt64 = 0
        for right in [
            CEngineSandbox_access_fs_execute, CEngineSandbox_access_fs_write_file, CEngineSandbox_access_fs_read_file,
            CEngineSandbox_access_fs_read_dir, CEngineSandbox_access_fs_remove_dir,
            CEngineSandbox_access_fs_remove_file,
            CEngineSandbox_access_fs_make_char, CEngineSandbox_access_fs_make_dir, CEngineSandbox_access_fs_make_reg,
            CEngineSandbox_access_fs_make_sock, CEngineSandbox_access_fs_make_fifo, CEngineSandbox_access_fs_make_block,
            CEngineSandbox_access_fs_make_sym,
        ] {
            rights |= UInt64(right)
        }
        if abi >= 2 { rights |= UInt64(CEngineSandbox_access_fs_refer) }
        if abi >= 3 { rights |= UInt64(CEngineSandbox_access_fs_truncate) }
        if abi >= 5 { rights |= UInt64(CEngineSandbox_access_fs_ioctl_dev) }
        return rights
    }

    /// Applies the rules to the calling thread (the helper's only one) and its future children.
    func restrictSelf() -> Outcome {
        let abi = CEngineSandbox_landlock_abi_version()
        guard abi >= 1 else {
            return .unavailable(
                errno == EOPNOTSUPP
                    ? "the kernel has it, but it was not enabled at boot"
                    : "this kernel has no Landlock: \(String(cString: strerror(errno)))"
            )
        }
        let network = abi >= 4 ? UInt64(CEngineSandbox_access_net_bind_tcp | CEngineSandbox_access_net_connect_tcp) : 0
        let scopes = abi >= 6 ? UInt64(CEngineSandbox_scope_abstract_unix_socket | CEngineSandbox_scope_signal) : 0
        let ruleset = CEngineSandbox_landlock_create_ruleset(
            Self.handledFilesystemRights(abi: Int(abi)), network, scopes, abi)
        guard ruleset >= 0 else {
            return .unavailable("its ruleset cannot be created: \(String(cString: strerror(errno)))")
        }
        defer { close(ruleset) }
        let read = UInt64(CEngineSandbox_access_fs_read_file | CEngineSandbox_access_fs_read_dir)
        for path in readablePaths {
            var status = stat()
            // A missing path has nothing to read; a file gets no directory right (Landlock refuses it).
            guard stat(path, &status) == 0 else { continue }
            let rights = (status.st_mode & S_IFMT) == S_IFDIR ? read : UInt64(CEngineSandbox_access_fs_read_file)
            guard CEngineSandbox_landlock_allow_beneath(ruleset, path, rights) == 0 else {
                return .unavailable("\(path) cannot be made readable: \(String(cString: strerror(errno)))")
            }
        }
        guard CEngineSandbox_landlock_restrict_self(ruleset) == 0 else {
            return .unavailable("the process cannot be restricted: \(String(cString: strerror(errno)))")
        }
        return .enforced(abi: Int(abi))
    }
}
