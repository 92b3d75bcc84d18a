#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the man pages and shell completions that `make install` and `make deb` install, from
# their maintained sources, at build time (nothing generated is committed, so nothing can drift):
# - announcectl(1) and announced(8): from the command definitions in Sources/announcectl and
#   Sources/announced, by swift-argument-parser's generate-manual tool (the one its
#   generate-manual plugin runs; built here on its own because the plugin release-builds every
#   product of the package without the release flags, which would rebuild them twice);
# - announced-protocol(7): from Sources/AnnounceProtocol/AnnounceProtocol.docc/Protocol.md, by pandoc;
# - completions for bash, zsh and fish: from announcectl itself (--generate-completion-script).
# Usage: scripts/generate-docs.sh BINDIR OUTDIR [SCRATCH]
#   BINDIR holds the built announced and announcectl; OUTDIR gets man/ and completions/;
#   SCRATCH is the build folder whose checkouts/ holds swift-argument-parser (default .build).
set -euo pipefail
bindir=$(realpath "$1")
outdir=$2
scratch=${3:-.build}
cd "$(dirname "$0")/.."

command -v pandoc >/dev/null || {
    echo "generate-docs: pandoc makes the protocol's man page; install it with: sudo apt-get install pandoc" >&2
    exit 1
}
parser="$scratch/checkouts/swift-argument-parser"
[ -f "$parser/Package.swift" ] || {
    echo "generate-docs: $parser is missing; run 'swift package resolve' (or 'make build') first" >&2
    exit 1
}
# The tool is an executable target of swift-argument-parser, not a product: build that package
# as the root, in a folder of its own (it has no dependencies, so nothing is fetched).
swift build --package-path "$parser" --scratch-path "$scratch/generate-manual" --product generate-manual
generate_manual="$scratch/generate-manual/debug/generate-manual"

version=$("$bindir/announced" --version)
# The pages carry the date of the commit they were made from, so a rebuild makes the same pages.
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
date=$(date -u -d "@$epoch" +%Y-%m-%d)

rm -rf "$outdir/man" "$outdir/completions"
mkdir -p "$outdir/man/man1" "$outdir/man/man7" "$outdir/man/man8" "$outdir/completions"
"$generate_manual" "$bindir/announcectl" --section 1 --date "$date" --output-directory "$outdir/man/man1"
"$generate_manual" "$bindir/announced" --section 8 --date "$date" --output-directory "$outdir/man/man8"
# generate-manual separates a discussion's paragraphs with empty lines, which man then reports
# as "mdoc warning: Empty input line" on every view; .Pp is mdoc's paragraph break.
sed -i 's/^$/.Pp/' "$outdir/man/man1/announcectl.1" "$outdir/man/man8/announced.8"

# Protocol.md's title (its one level-1 heading) becomes the page's title line; its sections
# become the page's sections. NAME (for whatis and apropos) and SEE ALSO are added around it.
cat > "$outdir/man/name.roff" <<'EOF'
.SH NAME
announced-protocol \- the JSON lines protocol of announced, the speech announcement daemon
EOF
cat > "$outdir/man/see-also.roff" <<'EOF'
.SH SEE ALSO
.BR announced (8),
.BR announcectl (1),
.BR socat (1)
EOF
pandoc --from gfm --to man --standalone --shift-heading-level-by=-1 \
    -V title=ANNOUNCED-PROTOCOL -V section=7 -V date="$date" \
    -V footer="announced $version" -V header="announced manual" \
    --include-before-body="$outdir/man/name.roff" --include-after-body="$outdir/man/see-also.roff" \
    Sources/AnnounceProtocol/AnnounceProtocol.docc/Protocol.md -o "$outdir/man/man7/announced-protocol.7"
rm "$outdir/man/name.roff" "$outdir/man/see-also.roff"
# Ragged right (.na): the protocol's tables hold long JSON words that troff cannot justify
# ("cannot adjust line" on every view at 80 columns).
sed -i '/^\.hy$/a .na' "$outdir/man/man7/announced-protocol.7"

# Without its #! line: bash-completion sources the file, it is never run (lintian's
# bash-completion-with-hashbang).
"$bindir/announcectl" --generate-completion-script bash | sed '1{/^#!/d}' > "$outdir/completions/announcectl.bash"
"$bindir/announcectl" --generate-completion-script zsh > "$outdir/completions/_announcectl"
"$bindir/announcectl" --generate-completion-script fish > "$outdir/completions/announcectl.fish"
# Each output must be non-empty and a page must have its title line; a tool that printed nothing
# would otherwise install empty files.
for page in "$outdir"/man/man1/announcectl.1 "$outdir"/man/man8/announced.8 "$outdir"/man/man7/announced-protocol.7; do
    grep -q '^\.\(TH\|Dt\)' "$page" || { echo "generate-docs: $page has no title line" >&2; exit 1; }
done
for file in "$outdir"/completions/*; do
    [ -s "$file" ] || { echo "generate-docs: $file is empty" >&2; exit 1; }
done
echo "generate-docs: man pages and completions in $outdir"
