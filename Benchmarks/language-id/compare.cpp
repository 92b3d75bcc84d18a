// SPDX-License-Identifier: GPL-3.0-or-later
// The two language identifiers in Debian 12 (CLD2, libexttextcat) on the short phrases in
// phrases/*.txt, restricted to candidate languages as announced's `detect` mode restricts them to
// the user's `languages`. Prints one Markdown table for Benchmarks/README.md. Built and run by
// Benchmarks/language-id/run.sh.
//
// For each phrase and candidate set, each identifier answers one candidate or "not sure":
// - CLD2: the candidates are given as its content-language hint; the answer is its first of the
//   top three languages that is a candidate, "not sure" unless CLD2 calls the result reliable
//   and that language is its first.
// - libexttextcat: only the candidates' n-gram profiles are compared with the phrase's; the answer
//   is the closest, "not sure" when the second is within textcat's own 3 % (THRESHOLDVALUE).
// A phrase counts as right only when the answer is its language; "not sure" on a phrase in the
// post's language (English in the pairs) is right too, because it keeps that language.
// compact_lang_det.h uses FILE without including its header.
#include <cstdio>
#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>
#include <libexttextcat/fingerprint.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

const std::vector<std::string> kLanguages = {"en", "de", "fr", "es", "it", "nl", "pt", "ru", "uk"};

struct Answer {
    std::string language;  // empty: not sure
};

struct Tally {
    int right = 0, wrong = 0, unsure = 0, total = 0;
    double seconds = 0;
};

Answer cld2(const std::string& text, const std::vector<std::string>& candidates) {
    std::string hint;
    for (const auto& c : candidates) hint += (hint.empty() ? "" : ",") + c;
    CLD2::CLDHints hints = {hint.c_str(), nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
    CLD2::Language language3[3];
    int percent3[3];
    double scores3[3];
    int textBytes = 0;
    bool reliable = false;
    CLD2::ExtDetectLanguageSummary(text.data(), int(text.size()), true, &hints, 0, language3, percent3, scores3,
                                   nullptr, &textBytes, &reliable);
    for (int i = 0; i < 3; i++) {
        std::string code = CLD2::LanguageCode(language3[i]);
        for (const auto& c : candidates) {
            if (code == c) return Answer{reliable && i == 0 ? code : ""};
        }
    }
    return Answer{""};
}

std::map<std::string, void*> profiles;

void* profile(const std::string& language) {
    auto found = profiles.find(language);
    if (found != profiles.end()) return found->second;
    void* fp = fp_Init(language.c_str());
    fp_SetProperty(fp, TCPROP_UTF8AWARE, TC_TRUE);
    std::string path = "/usr/share/libexttextcat/" + language + ".lm";
    if (fp_Read(fp, path.c_str(), 400) == 0) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        std::exit(1);
    }
    profiles[language] = fp;
    return fp;
}

Answer textcat(const std::string& text, const std::vector<std::string>& candidates) {
    void* unknown = fp_Init(nullptr);
    fp_SetProperty(unknown, TCPROP_UTF8AWARE, TC_TRUE);
    fp_SetProperty(unknown, TCPROP_MINIMUM_DOCUMENT_SIZE, 1);
    if (fp_Create(unknown, text.data(), unsigned(text.size()), 400) == 0) {
        fp_Done(unknown);
        return Answer{""};
    }
    std::string best;
    long bestScore = LONG_MAX, secondScore = LONG_MAX;
    for (const auto& c : candidates) {
        long score = fp_Compare(profile(c), unknown, INT_MAX);
        if (score < bestScore) {
            secondScore = bestScore;
            bestScore = score;
            best = c;
        } else if (score < secondScore) {
            secondScore = score;
        }
    }
    fp_Done(unknown);
    if (double(secondScore) <= double(bestScore) * 1.03) return Answer{""};
    return Answer{best};
}

std::vector<std::string> readPhrases(const std::string& directory, const std::string& language) {
    std::ifstream file(directory + "/" + language + ".txt");
    std::vector<std::string> phrases;
    std::string line;
    while (std::getline(file, line)) {
        if (!line.empty()) phrases.push_back(line);
    }
    return phrases;
}

template <typename Identify>
void count(Tally& tally, Identify identify, const std::string& phrase, const std::string& language,
           const std::vector<std::string>& candidates, const std::string& postLanguage) {
    // The fastest of five calls: the machine is shared, and the answer is the same each time.
    Answer answer;
    double fastest = 1e9;
    for (int i = 0; i < 5; i++) {
        auto start = std::chrono::steady_clock::now();
        answer = identify(phrase, candidates);
        fastest = std::min(fastest, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    tally.seconds += fastest;
    tally.total++;
    if (answer.language.empty()) {
        tally.unsure++;
        if (language == postLanguage) tally.right++;
    } else if (answer.language == language) {
        tally.right++;
    } else {
        tally.wrong++;
    }
}

std::string percent(int part, int whole) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f %%", whole ? 100.0 * part / whole : 0.0);
    return buffer;
}

}  // namespace

int main(int argc, char** argv) {
    std::string directory = argc > 1 ? argv[1] : "phrases";
    // [identifier][setting][language]
    std::map<std::string, std::map<std::string, std::map<std::string, Tally>>> tallies;
    std::map<std::string, std::pair<int, int>> words;  // language: shortest, longest
    // Loaded before the timing, as the daemon would load them once; CLD2's tables are compiled in.
    for (const auto& language : kLanguages) profile(language);
    for (const auto& language : kLanguages) {
        for (const auto& phrase : readPhrases(directory, language)) {
            int n = 0;
            bool inWord = false;
            for (char c : phrase) {
                bool space = c == ' ';
                if (!space && !inWord) n++;
                inWord = !space;
            }
            auto& w = words[language];
            w.first = w.first ? std::min(w.first, n) : n;
            w.second = std::max(w.second, n);
            // The pairs: English posts with one other language of the user; an English phrase
            // is tried against every pair.
            for (const auto& other : kLanguages) {
                if (other == "en" || (language != "en" && other != language)) continue;
                std::vector<std::string> pair = {"en", other};
                count(tallies["CLD2"]["pair"][language], cld2, phrase, language, pair, "en");
                count(tallies["libexttextcat"]["pair"][language], textcat, phrase, language, pair, "en");
            }
            count(tallies["CLD2"]["all"][language], cld2, phrase, language, kLanguages, "en");
            count(tallies["libexttextcat"]["all"][language], textcat, phrase, language, kLanguages, "en");
            // The languages of the phrase's script only, as `detect` sees a run of one script.
            bool cyrillic = language == "ru" || language == "uk";
            std::vector<std::string> script;
            for (const auto& l : kLanguages) {
                if ((l == "ru" || l == "uk") == cyrillic) script.push_back(l);
            }
            count(tallies["CLD2"]["script"][language], cld2, phrase, language, script, "en");
            count(tallies["libexttextcat"]["script"][language], textcat, phrase, language, script, "en");
        }
    }
    std::printf("| phrase language (words) |");
    for (const auto& identifier : {"CLD2", "libexttextcat"}) {
        std::printf(" %s, {en, one}: right / wrong | %s, its script's: right / wrong | %s, all 9: right / wrong |",
                    identifier, identifier, identifier);
    }
    std::printf("\n|---|---|---|---|---|---|---|\n");
    std::map<std::string, std::map<std::string, Tally>> overall;
    for (const auto& language : kLanguages) {
        std::printf("| %s (%d-%d) |", language.c_str(), words[language].first, words[language].second);
        for (const auto& identifier : {"CLD2", "libexttextcat"}) {
            for (const auto& setting : {"pair", "script", "all"}) {
                const Tally& t = tallies[identifier][setting][language];
                std::printf(" %s / %s |", percent(t.right, t.total).c_str(), percent(t.wrong, t.total).c_str());
                Tally& o = overall[identifier][setting];
                o.right += t.right;
                o.wrong += t.wrong;
                o.unsure += t.unsure;
                o.total += t.total;
                o.seconds += t.seconds;
            }
        }
        std::printf("\n");
    }
    std::printf("| **overall** |");
    for (const auto& identifier : {"CLD2", "libexttextcat"}) {
        for (const auto& setting : {"pair", "script", "all"}) {
            const Tally& t = overall[identifier][setting];
            std::printf(" **%s** / %s |", percent(t.right, t.total).c_str(), percent(t.wrong, t.total).c_str());
        }
    }
    std::printf("\n| time per phrase |");
    for (const auto& identifier : {"CLD2", "libexttextcat"}) {
        for (const auto& setting : {"pair", "script", "all"}) {
            const Tally& t = overall[identifier][setting];
            std::printf(" %.1f µs |", 1e6 * t.seconds / t.total);
        }
    }
    std::printf("\n");
    return 0;
}
