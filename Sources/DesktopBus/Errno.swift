// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The system's words for an errno value (`strerror`), for error messages.
func errnoName(_ code: Int32) -> String {
    String(cString: strerror(code))
}
