// SPDX-License-Identifier: Apache-2.0
/// The spoken names of traits, by language. Traits with no spoken name (`static-text`,
/// `summary-element`, `plays-sound`, `updates-frequently`) add nothing to an element's speech.
///
/// The one table of these names: the daemon speaks them and the lint checks labels and hints
/// against them, so it lives with the wire types both depend on.
public enum TraitNames {
    /// The languages with their own table, by primary language subtag. Others use English.
    public static let languages = ["en", "de", "fr", "es", "zh"]

    /// The spoken name of `trait` in `language` (a BCP 47 tag such as `de-AT` or `cmn`), or nil
    /// when the trait is not spoken.
    public static func spokenName(of trait: Trait, language: String?) -> String? {
        table(for: language)[trait]
    }

    /// The table for a language tag: its primary subtag decides (`cmn`, `yue` and `zh` use Chinese).
    static func table(for language: String?) -> [Trait: String] {
        switch primarySubtag(language) {
        case "de": return german
        case "fr": return french
        case "es": return spanish
        case "zh", "cmn", "yue": return chinese
        default: return english
        }
    }

    /// The lower-case primary subtag of a language tag: `de` for `de-AT`, `cmn` for `cmn-Hans`;
    /// `en` when there is no tag.
    public static func primarySubtag(_ language: String?) -> String {
        guard let language else { return "en" }
        let primary = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? language
        return primary.lowercased()
    }

    static let english: [Trait: String] = [
        .button: "button", .link: "link", .header: "heading", .searchField: "search field",
        .image: "image", .selected: "selected", .notEnabled: "dimmed", .adjustable: "adjustable",
        .keyboardKey: "key", .toggle: "switch button", .tabBar: "tab",
    ]
    static let german: [Trait: String] = [
        .button: "Taste", .link: "Link", .header: "Überschrift", .searchField: "Suchfeld",
        .image: "Bild", .selected: "ausgewählt", .notEnabled: "gedimmt", .adjustable: "anpassbar",
        .keyboardKey: "Tastaturtaste", .toggle: "Schalter", .tabBar: "Tab",
    ]
    static let french: [Trait: String] = [
        .button: "bouton", .link: "lien", .header: "en-tête", .searchField: "champ de recherche",
        .image: "image", .selected: "sélectionné", .notEnabled: "estompé", .adjustable: "réglable",
        .keyboardKey: "touche", .toggle: "bouton bascule", .tabBar: "onglet",
    ]
    static let spanish: [Trait: String] = [
        .button: "botón", .link: "enlace", .header: "encabezado", .searchField: "campo de búsqueda",
        .image: "imagen", .selected: "seleccionado", .notEnabled: "atenuado", .adjustable: "ajustable",
        .keyboardKey: "tecla", .toggle: "botón de activación", .tabBar: "pestaña",
    ]
    static let chinese: [Trait: String] = [
        .button: "按钮", .link: "链接", .header: "标题", .searchField: "搜索栏",
        .image: "图像", .selected: "已选定", .notEnabled: "变暗", .adjustable: "可调整",
        .keyboardKey: "键", .toggle: "切换按钮", .tabBar: "标签",
    ]
}
