// SPDX-License-Identifier: GPL-3.0-or-later

/// The scripts of the Unicode standard that imply a language of their own, and Latin.
public enum Script: UInt8, Sendable, CaseIterable {
    /// Latin letters (English, German, Vietnamese, ...).
    case latin
    /// Cyrillic letters (Russian, Ukrainian, Bulgarian, ...).
    case cyrillic
    /// Greek letters.
    case greek
    /// Hebrew letters (Hebrew, Yiddish).
    case hebrew
    /// Arabic letters (Arabic, Persian, Urdu, ...).
    case arabic
    /// Korean Hangul.
    case hangul
    /// Japanese Hiragana.
    case hiragana
    /// Japanese Katakana.
    case katakana
    /// Han ideographs (Chinese, and Japanese kanji).
    case han
    /// Devanagari (Hindi, Marathi, Nepali, ...).
    case devanagari
    /// Thai letters.
    case thai

    /// The script of `scalar`, or nil for everything else: digits, punctuation, spaces, symbols,
    /// combining marks (Unicode's Common and Inherited) and the scripts not listed here, which
    /// all stay with the run around them.
    public init?(of scalar: Unicode.Scalar) {
        let value = scalar.value
        // ASCII letters are the common case, and ASCII has no other letters.
        if value < 0x80 {
            guard (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) else { return nil }
            self = .latin
            return
        }
        // The last range starting at or before `value`, by binary search.
        var low = 0
        var high = Self.ranges.count
        while low < high {
            let middle = (low + high) / 2
            if Self.ranges[middle].first <= value { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let range = Self.ranges[low - 1]
        guard value <= range.last else { return nil }
        self = range.script
    }

    /// The ranges of scalars of each script, sorted by their first scalar: the Unicode Character
    /// Database's Scripts.txt, Unicode 14.0.0 (the `Script` property, not `Script_Extensions`),
    /// for the scripts above only, adjacent ranges of one script joined.
    static let ranges: [(first: UInt32, last: UInt32, script: Script)] = [
        (0x0041, 0x005A, .latin),
        (0x0061, 0x007A, .latin),
        (0x00AA, 0x00AA, .latin),
        (0x00BA, 0x00BA, .latin),
        (0x00C0, 0x00D6, .latin),
        (0x00D8, 0x00F6, .latin),
        (0x00F8, 0x02B8, .latin),
        (0x02E0, 0x02E4, .latin),
        (0x0370, 0x0373, .greek),
        (0x0375, 0x0377, .greek),
        (0x037A, 0x037D, .greek),
        (0x037F, 0x037F, .greek),
        (0x0384, 0x0384, .greek),
        (0x0386, 0x0386, .greek),
        (0x0388, 0x038A, .greek),
        (0x038C, 0x038C, .greek),
        (0x038E, 0x03A1, .greek),
        (0x03A3, 0x03E1, .greek),
        (0x03F0, 0x03FF, .greek),
        (0x0400, 0x0484, .cyrillic),
        (0x0487, 0x052F, .cyrillic),
        (0x0591, 0x05C7, .hebrew),
        (0x05D0, 0x05EA, .hebrew),
        (0x05EF, 0x05F4, .hebrew),
        (0x0600, 0x0604, .arabic),
        (0x0606, 0x060B, .arabic),
        (0x060D, 0x061A, .arabic),
        (0x061C, 0x061E, .arabic),
        (0x0620, 0x063F, .arabic),
        (0x0641, 0x064A, .arabic),
        (0x0656, 0x066F, .arabic),
        (0x0671, 0x06DC, .arabic),
        (0x06DE, 0x06FF, .arabic),
        (0x0750, 0x077F, .arabic),
        (0x0870, 0x088E, .arabic),
        (0x0890, 0x0891, .arabic),
        (0x0898, 0x08E1, .arabic),
        (0x08E3, 0x08FF, .arabic),
        (0x0900, 0x0950, .devanagari),
        (0x0955, 0x0963, .devanagari),
        (0x0966, 0x097F, .devanagari),
        (0x0E01, 0x0E3A, .thai),
        (0x0E40, 0x0E5B, .thai),
        (0x1100, 0x11FF, .hangul),
        (0x1C80, 0x1C88, .cyrillic),
        (0x1D00, 0x1D25, .latin),
        (0x1D26, 0x1D2A, .greek),
        (0x1D2B, 0x1D2B, .cyrillic),
        (0x1D2C, 0x1D5C, .latin),
        (0x1D5D, 0x1D61, .greek),
        (0x1D62, 0x1D65, .latin),
        (0x1D66, 0x1D6A, .greek),
        (0x1D6B, 0x1D77, .latin),
        (0x1D78, 0x1D78, .cyrillic),
        (0x1D79, 0x1DBE, .latin),
        (0x1DBF, 0x1DBF, .greek),
        (0x1E00, 0x1EFF, .latin),
        (0x1F00, 0x1F15, .greek),
        (0x1F18, 0x1F1D, .greek),
        (0x1F20, 0x1F45, .greek),
        (0x1F48, 0x1F4D, .greek),
        (0x1F50, 0x1F57, .greek),
        (0x1F59, 0x1F59, .greek),
        (0x1F5B, 0x1F5B, .greek),
        (0x1F5D, 0x1F5D, .greek),
        (0x1F5F, 0x1F7D, .greek),
        (0x1F80, 0x1FB4, .greek),
        (0x1FB6, 0x1FC4, .greek),
        (0x1FC6, 0x1FD3, .greek),
        (0x1FD6, 0x1FDB, .greek),
        (0x1FDD, 0x1FEF, .greek),
        (0x1FF2, 0x1FF4, .greek),
        (0x1FF6, 0x1FFE, .greek),
        (0x2071, 0x2071, .latin),
        (0x207F, 0x207F, .latin),
        (0x2090, 0x209C, .latin),
        (0x2126, 0x2126, .greek),
        (0x212A, 0x212B, .latin),
        (0x2132, 0x2132, .latin),
        (0x214E, 0x214E, .latin),
        (0x2160, 0x2188, .latin),
        (0x2C60, 0x2C7F, .latin),
        (0x2DE0, 0x2DFF, .cyrillic),
        (0x2E80, 0x2E99, .han),
        (0x2E9B, 0x2EF3, .han),
        (0x2F00, 0x2FD5, .han),
        (0x3005, 0x3005, .han),
        (0x3007, 0x3007, .han),
        (0x3021, 0x3029, .han),
        (0x302E, 0x302F, .hangul),
        (0x3038, 0x303B, .han),
        (0x3041, 0x3096, .hiragana),
        (0x309D, 0x309F, .hiragana),
        (0x30A1, 0x30FA, .katakana),
        (0x30FD, 0x30FF, .katakana),
        (0x3131, 0x318E, .hangul),
        (0x31F0, 0x31FF, .katakana),
        (0x3200, 0x321E, .hangul),
        (0x3260, 0x327E, .hangul),
        (0x32D0, 0x32FE, .katakana),
        (0x3300, 0x3357, .katakana),
        (0x3400, 0x4DBF, .han),
        (0x4E00, 0x9FFF, .han),
        (0xA640, 0xA69F, .cyrillic),
        (0xA722, 0xA787, .latin),
        (0xA78B, 0xA7CA, .latin),
        (0xA7D0, 0xA7D1, .latin),
        (0xA7D3, 0xA7D3, .latin),
        (0xA7D5, 0xA7D9, .latin),
        (0xA7F2, 0xA7FF, .latin),
        (0xA8E0, 0xA8FF, .devanagari),
        (0xA960, 0xA97C, .hangul),
        (0xAB30, 0xAB5A, .latin),
        (0xAB5C, 0xAB64, .latin),
        (0xAB65, 0xAB65, .greek),
        (0xAB66, 0xAB69, .latin),
        (0xAC00, 0xD7A3, .hangul),
        (0xD7B0, 0xD7C6, .hangul),
        (0xD7CB, 0xD7FB, .hangul),
        (0xF900, 0xFA6D, .han),
        (0xFA70, 0xFAD9, .han),
        (0xFB00, 0xFB06, .latin),
        (0xFB1D, 0xFB36, .hebrew),
        (0xFB38, 0xFB3C, .hebrew),
        (0xFB3E, 0xFB3E, .hebrew),
        (0xFB40, 0xFB41, .hebrew),
        (0xFB43, 0xFB44, .hebrew),
        (0xFB46, 0xFB4F, .hebrew),
        (0xFB50, 0xFBC2, .arabic),
        (0xFBD3, 0xFD3D, .arabic),
        (0xFD40, 0xFD8F, .arabic),
        (0xFD92, 0xFDC7, .arabic),
        (0xFDCF, 0xFDCF, .arabic),
        (0xFDF0, 0xFDFF, .arabic),
        (0xFE2E, 0xFE2F, .cyrillic),
        (0xFE70, 0xFE74, .arabic),
        (0xFE76, 0xFEFC, .arabic),
        (0xFF21, 0xFF3A, .latin),
        (0xFF41, 0xFF5A, .latin),
        (0xFF66, 0xFF6F, .katakana),
        (0xFF71, 0xFF9D, .katakana),
        (0xFFA0, 0xFFBE, .hangul),
        (0xFFC2, 0xFFC7, .hangul),
        (0xFFCA, 0xFFCF, .hangul),
        (0xFFD2, 0xFFD7, .hangul),
        (0xFFDA, 0xFFDC, .hangul),
        (0x10140, 0x1018E, .greek),
        (0x101A0, 0x101A0, .greek),
        (0x10780, 0x10785, .latin),
        (0x10787, 0x107B0, .latin),
        (0x107B2, 0x107BA, .latin),
        (0x10E60, 0x10E7E, .arabic),
        (0x16FE2, 0x16FE3, .han),
        (0x16FF0, 0x16FF1, .han),
        (0x1AFF0, 0x1AFF3, .katakana),
        (0x1AFF5, 0x1AFFB, .katakana),
        (0x1AFFD, 0x1AFFE, .katakana),
        (0x1B000, 0x1B000, .katakana),
        (0x1B001, 0x1B11F, .hiragana),
        (0x1B120, 0x1B122, .katakana),
        (0x1B150, 0x1B152, .hiragana),
        (0x1B164, 0x1B167, .katakana),
        (0x1D200, 0x1D245, .greek),
        (0x1DF00, 0x1DF1E, .latin),
        (0x1EE00, 0x1EE03, .arabic),
        (0x1EE05, 0x1EE1F, .arabic),
        (0x1EE21, 0x1EE22, .arabic),
        (0x1EE24, 0x1EE24, .arabic),
        (0x1EE27, 0x1EE27, .arabic),
        (0x1EE29, 0x1EE32, .arabic),
        (0x1EE34, 0x1EE37, .arabic),
        (0x1EE39, 0x1EE39, .arabic),
        (0x1EE3B, 0x1EE3B, .arabic),
        (0x1EE42, 0x1EE42, .arabic),
        (0x1EE47, 0x1EE47, .arabic),
        (0x1EE49, 0x1EE49, .arabic),
        (0x1EE4B, 0x1EE4B, .arabic),
        (0x1EE4D, 0x1EE4F, .arabic),
        (0x1EE51, 0x1EE52, .arabic),
        (0x1EE54, 0x1EE54, .arabic),
        (0x1EE57, 0x1EE57, .arabic),
        (0x1EE59, 0x1EE59, .arabic),
        (0x1EE5B, 0x1EE5B, .arabic),
        (0x1EE5D, 0x1EE5D, .arabic),
        (0x1EE5F, 0x1EE5F, .arabic),
        (0x1EE61, 0x1EE62, .arabic),
        (0x1EE64, 0x1EE64, .arabic),
        (0x1EE67, 0x1EE6A, .arabic),
        (0x1EE6C, 0x1EE72, .arabic),
        (0x1EE74, 0x1EE77, .arabic),
        (0x1EE79, 0x1EE7C, .arabic),
        (0x1EE7E, 0x1EE7E, .arabic),
        (0x1EE80, 0x1EE89, .arabic),
        (0x1EE8B, 0x1EE9B, .arabic),
        (0x1EEA1, 0x1EEA3, .arabic),
        (0x1EEA5, 0x1EEA9, .arabic),
        (0x1EEAB, 0x1EEBB, .arabic),
        (0x1EEF0, 0x1EEF1, .arabic),
        (0x1F200, 0x1F200, .hiragana),
        (0x20000, 0x2A6DF, .han),
        (0x2A700, 0x2B738, .han),
        (0x2B740, 0x2B81D, .han),
        (0x2B820, 0x2CEA1, .han),
        (0x2CEB0, 0x2EBE0, .han),
        (0x2F800, 0x2FA1D, .han),
        (0x30000, 0x3134A, .han),
    ]
}
