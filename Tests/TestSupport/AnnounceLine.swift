// SPDX-License-Identifier: GPL-3.0-or-later

/// An `announce` request line: post `id` speaking `text`, with `extra` (`,"priority":"high"`, ...)
/// added to its fields.
public func announce(_ id: Int, _ text: String, _ extra: String = "") -> String {
    #"{"op":"announce","id":\#(id),"text":"\#(text)"\#(extra)}"#
}
