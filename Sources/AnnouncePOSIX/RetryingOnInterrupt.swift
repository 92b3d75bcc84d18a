// SPDX-License-Identifier: Apache-2.0
import Glibc

/// Calls `call` again while it fails with `EINTR` (a signal arrived first); returns its result
/// otherwise, with `errno` as the call left it. The one such loop, for the calls swift-system has
/// no wrapper for (`poll`, `waitpid`, `waitid`, `send` without blocking); reads and writes go
/// through `FileDescriptor`, which retries by itself.
public func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}
