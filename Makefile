# SPDX-License-Identifier: GPL-3.0-or-later
# announced: build, run and test. `scripts/run` and `scripts/test` (`make run`, `make test`) are the
# two commands in the README.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
AUDIO ?= auto
BINDIR ?= $(PREFIX)/bin
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
# D-Bus activation files of the session bus (the Spiel provider's name).
DBUSSERVICEDIR ?= $(PREFIX)/share/dbus-1/services
SHAREDIR ?= $(PREFIX)/share/announced
# The espeak-ng helper process; the daemon looks for it beside itself, then in ../libexec/announced.
LIBEXECDIR ?= $(PREFIX)/libexec/announced
SYSCONFDIR ?= /etc/announced
# The Piper engine's helper (announced-piper) and, in its piper/ folder, the engine's libraries
# (install-piper; the announced-piper package). The daemon looks for the helper beside itself, in
# ../libexec/announced and in ../lib/announced.
PIPERDIR ?= $(PREFIX)/lib/announced
# Where scripts/fetch-piper-engine.sh unpacks the pinned sherpa-onnx-core wheel.
PIPER_ENGINE_DIR ?= $(SCRATCH)/piper-engine
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/announced
# Where bash-completion, zsh (Debian's default $fpath) and fish look for completions.
BASHCOMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPLETIONDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPLETIONDIR ?= $(PREFIX)/share/fish/vendor_completions.d
# The build folder install builds in (the release products land in $(SCRATCH)/release).
SCRATCH ?= .build
# Release builds: static Swift runtime, lld with packed relocations, bound at load time (scripts/packages.sh).
RELEASE = $(shell . scripts/packages.sh; echo $$RELEASE_FLAGS)
# announcectl's release link adds identical code folding, to keep it small (scripts/packages.sh).
ANNOUNCECTL_LINK = $(shell . scripts/packages.sh; echo $$ANNOUNCECTL_LINK_FLAGS)

# Debian packages the build and tests need; pandoc too for install and deb (the protocol's man page).
DEBIAN_PACKAGES = $(shell . scripts/packages.sh; echo $$DEBIAN_PACKAGES)
INSTALL_PACKAGES = $(shell . scripts/packages.sh; echo $$INSTALL_PACKAGES)
# Man pages and completions, generated from their sources by install (scripts/generate-docs.sh).
GENERATED = $(SCRATCH)/generated

.PHONY: all deps build release piper-engine install-piper run test desktop-packages desktop-test docs install uninstall deb bench bench-smoke bench-build bench-compare fuzz tsan asan soak format clean

all: build

## deps: install the Debian packages that are missing (uses sudo when not root)
deps:
	@scripts/install-deps.sh $(DEBIAN_PACKAGES)

build:
	$(SWIFT) build

release:
	$(SWIFT) build $(RELEASE) --product announced
	$(SWIFT) build $(RELEASE) --product announced-espeak
	$(SWIFT) build $(RELEASE) --product announced-piper

## piper-engine: fetch the Piper engine (PyPI's sherpa-onnx-core 2.0.1 wheel, sha256 checked) into
## $(PIPER_ENGINE_DIR), and the test voice into ~/.cache/announced (scripts/fetch-piper-engine.sh)
piper-engine:
	scripts/fetch-piper-engine.sh $(PIPER_ENGINE_DIR)

## run: install what is missing, build, start the daemon and make it speak an announcement
run:
	AUDIO=$(AUDIO) scripts/run

## test: the whole test suite (unit and integration, against the real daemon). The PulseAudio
## tests also need pulseaudio and pulseaudio-utils (CI installs them; on a desktop PipeWire's
## pipewire-pulse stands in for pulseaudio, so they are not installed here) and are skipped without.
test:
	scripts/test

## desktop-test: only the desktop clients' suites (Desktop*): Orca 43 on Xvfb with AT-SPI,
## Firefox ESR's and Chromium's Web Speech, Qt 6's QTextToSpeech, Emacs's speechd-el, each against
## the daemon's SSIP socket, headless. Installs the clients first when missing (desktop-packages;
## heavy: two browsers, Orca, Qt, Emacs). `make test` runs these suites too when the clients are
## installed (CI installs them), and skips them otherwise.
DESKTOP_PACKAGES = orca xvfb xdotool zenity at-spi2-core dbus firefox-esr chromium \
	qt6-speech-speechd-plugin python3-pyqt6.qttexttospeech emacs-nox speechd-el \
	python3-gi gir1.2-gtk-3.0
desktop-packages:
	@scripts/install-deps.sh $(DESKTOP_PACKAGES)
desktop-test: desktop-packages
	@scripts/install-deps.sh $(DEBIAN_PACKAGES)
	$(SWIFT) build --build-tests
	SPEECHD_CMD=/bin/false $(SWIFT) test --skip-build --filter Desktop

## format: format every Swift file with swift-format (the toolchain's) and the tree's .swift-format;
## .ci/check-format (run by CI) fails on an unformatted file.
format:
	$(SWIFT) format format --in-place --recursive --parallel Package.swift Sources Tests

## bench: latency, throughput and memory figures (release build, daemon as a separate process).
## announced-piper is built too when the Piper engine is fetched into $(PIPER_ENGINE_DIR)
## (make piper-engine), for figures 13 and 14 (BENCH_ARGS="--only piper" or "--only piper-heard");
## without it the espeak-ng figures run as before and announced-piper is left unbuilt.
bench: bench-build
	ANNOUNCED_PIPER_LIBRARY_DIR="$${ANNOUNCED_PIPER_LIBRARY_DIR:-$(abspath $(PIPER_ENGINE_DIR))/lib}" $(SCRATCH)/release/announced-bench $(BENCH_ARGS)

## bench-smoke: every figure of make bench, the --only ones too (the Piper figures when the engine is
## fetched), with a few samples each (announced-bench --smoke), so that the bench cannot rot unseen;
## CI runs it. Its figures are not to be quoted. Progress goes to standard error.
bench-smoke: bench-build
	ANNOUNCED_PIPER_LIBRARY_DIR="$${ANNOUNCED_PIPER_LIBRARY_DIR:-$(abspath $(PIPER_ENGINE_DIR))/lib}" $(SCRATCH)/release/announced-bench --smoke $(BENCH_ARGS)

# The release products make bench and make bench-smoke run, in $(SCRATCH) (make deb builds the same
# ones with the same flags, so after it only announced-bench is compiled).
bench-build: deps
	$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product announced
	$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product announced-espeak
	$(SWIFT) build $(RELEASE) $(ANNOUNCECTL_LINK) --scratch-path $(SCRATCH) --product announcectl
	$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product announced-bench
	@if [ -e $(PIPER_ENGINE_DIR)/lib/libsherpa-onnx-c-api.so ]; then \
	    echo "$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product announced-piper"; \
	    $(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product announced-piper; \
	else \
	    echo "make bench: no Piper engine in $(PIPER_ENGINE_DIR), so announced-piper is not built and figures 13 and 14 cannot run (make piper-engine fetches it)"; \
	fi

## docs: release-build, then make the man pages and shell completions into $(GENERATED):
## announced(8) and announcectl(1) from the command definitions, announced-protocol(7) from
## Protocol.md (pandoc), completions from announcectl
docs:
	@scripts/install-deps.sh $(DEBIAN_PACKAGES) $(INSTALL_PACKAGES)
	$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product announced
	$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product announced-espeak
	$(SWIFT) build $(RELEASE) $(ANNOUNCECTL_LINK) --scratch-path $(SCRATCH) --product announcectl
	scripts/generate-docs.sh $(SCRATCH)/release $(GENERATED) $(SCRATCH)

## install: release-build and install announced and announcectl, the systemd user
## units (ExecStart pointing at $(BINDIR); announced-ssip.socket serves SSIP when enabled), the man pages, the completions for bash, zsh and fish,
## the documentation (README, Protocol.md, the configuration keys) in $(DOCDIR), and the sample
## configuration. PREFIX and DESTDIR honoured.
## The sample goes to $(SHAREDIR)/announced.json, and to $(SYSCONFDIR)/announced.json unless a file
## is already there (an edited configuration is never overwritten).
install: docs
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(USERUNITDIR) $(DESTDIR)$(SHAREDIR) $(DESTDIR)$(SYSCONFDIR)
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(MANDIR)/man8
	install -d $(DESTDIR)$(BASHCOMPLETIONDIR) $(DESTDIR)$(ZSHCOMPLETIONDIR) $(DESTDIR)$(FISHCOMPLETIONDIR)
	install -m 0755 $(SCRATCH)/release/announced $(SCRATCH)/release/announcectl $(DESTDIR)$(BINDIR)/
	install -m 0755 $(SCRATCH)/release/announced-espeak $(DESTDIR)$(LIBEXECDIR)/
	sed 's#^ExecStart=/usr/local/bin/#ExecStart=$(BINDIR)/#' systemd/announced.service > $(SCRATCH)/announced.service
	install -m 0644 $(SCRATCH)/announced.service $(DESTDIR)$(USERUNITDIR)/announced.service
	install -m 0644 systemd/announced.socket $(DESTDIR)$(USERUNITDIR)/announced.socket
	install -m 0644 systemd/announced-ssip.socket $(DESTDIR)$(USERUNITDIR)/announced-ssip.socket
	install -d $(DESTDIR)$(DBUSSERVICEDIR)
	sed 's#^Exec=/usr/local/bin/#Exec=$(BINDIR)/#' systemd/org.announced.Speech.Provider.service > $(SCRATCH)/org.announced.Speech.Provider.service
	install -m 0644 $(SCRATCH)/org.announced.Speech.Provider.service $(DESTDIR)$(DBUSSERVICEDIR)/org.announced.Speech.Provider.service
	install -m 0644 $(GENERATED)/man/man1/announcectl.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(GENERATED)/man/man7/announced-protocol.7 $(DESTDIR)$(MANDIR)/man7/
	install -m 0644 $(GENERATED)/man/man8/announced.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 $(GENERATED)/completions/announcectl.bash $(DESTDIR)$(BASHCOMPLETIONDIR)/announcectl
	install -m 0644 $(GENERATED)/completions/_announcectl $(DESTDIR)$(ZSHCOMPLETIONDIR)/_announcectl
	install -m 0644 $(GENERATED)/completions/announcectl.fish $(DESTDIR)$(FISHCOMPLETIONDIR)/announcectl.fish
	install -m 0644 Config/announced.json $(DESTDIR)$(SHAREDIR)/announced.json
	install -d $(DESTDIR)$(DOCDIR)
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -m 0644 Sources/AnnounceProtocol/AnnounceProtocol.docc/Protocol.md $(DESTDIR)$(DOCDIR)/Protocol.md
	install -m 0644 Config/README.md $(DESTDIR)$(DOCDIR)/configuration.md
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/announced.json ]; then \
	    echo "$(DESTDIR)$(SYSCONFDIR)/announced.json exists: left as it is (the sample is $(SHAREDIR)/announced.json)"; \
	else \
	    echo "install -m 0644 Config/announced.json $(DESTDIR)$(SYSCONFDIR)/announced.json"; \
	    install -m 0644 Config/announced.json $(DESTDIR)$(SYSCONFDIR)/announced.json; \
	fi
	@echo "Installed. Start it for your user with: systemctl --user daemon-reload && systemctl --user enable --now announced.socket"
	@echo "To serve speech-dispatcher's clients too (SSIP): systemctl --user enable --now announced-ssip.socket"

## deb: announced_<version>_<arch>.deb and announced-piper_<version>_<arch>.deb in $(DEBDIR).
## announced: the files `install` puts under /usr (helper
## in /usr/libexec/announced, user units in /usr/lib/systemd/user, zsh completion in Debian's
## vendor-completions), /etc/announced/announced.json as a conffile, the docs and the copyright
## file (scripts/debian-copyright); Depends from dpkg-shlibdeps (scripts/build-deb.sh).
## announced-piper: what install-piper puts in /usr/lib/announced, its copyright file naming
## sherpa-onnx (Apache-2.0) and ONNX Runtime (MIT). Install them with:
## sudo apt-get install ./announced_*.deb ./announced-piper_*.deb
DEBDIR ?= .
DEBROOT = $(SCRATCH)/deb-root
PIPERDEBROOT = $(SCRATCH)/deb-root-piper
deb:
	rm -rf $(DEBROOT) $(PIPERDEBROOT)
	$(MAKE) install PREFIX=/usr DESTDIR=$(abspath $(DEBROOT)) SYSCONFDIR=/etc/announced \
	    ZSHCOMPLETIONDIR=/usr/share/zsh/vendor-completions SCRATCH=$(SCRATCH)
	$(MAKE) install-piper PREFIX=/usr DESTDIR=$(abspath $(PIPERDEBROOT)) SCRATCH=$(SCRATCH) \
	    PIPER_ENGINE_DIR=$(abspath $(PIPER_ENGINE_DIR))
	scripts/build-deb.sh $(DEBROOT) $(DEBDIR) $(SCRATCH) $(PIPERDEBROOT)

## install-piper: release-build announced-piper and install it in $(PIPERDIR), with the engine's
## libraries from the fetched wheel in $(PIPERDIR)/piper. No voice: `announcectl voices install`.
install-piper: piper-engine
	$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product announced-piper
	install -d $(DESTDIR)$(PIPERDIR)/piper
	install -m 0755 $(SCRATCH)/release/announced-piper $(DESTDIR)$(PIPERDIR)/
	install -m 0644 $(PIPER_ENGINE_DIR)/lib/libsherpa-onnx-c-api.so $(PIPER_ENGINE_DIR)/lib/libonnxruntime.so $(DESTDIR)$(PIPERDIR)/piper/

## uninstall: remove what `make install` installed (the /etc file only if it is still the sample)
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/announced $(DESTDIR)$(BINDIR)/announcectl $(DESTDIR)$(LIBEXECDIR)/announced-espeak
	rm -f $(DESTDIR)$(PIPERDIR)/announced-piper $(DESTDIR)$(PIPERDIR)/piper/libsherpa-onnx-c-api.so $(DESTDIR)$(PIPERDIR)/piper/libonnxruntime.so
	-rmdir $(DESTDIR)$(PIPERDIR)/piper $(DESTDIR)$(PIPERDIR) 2>/dev/null
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null
	rm -f $(DESTDIR)$(USERUNITDIR)/announced.service $(DESTDIR)$(USERUNITDIR)/announced.socket $(DESTDIR)$(USERUNITDIR)/announced-ssip.socket
	rm -f $(DESTDIR)$(MANDIR)/man1/announcectl.1 $(DESTDIR)$(MANDIR)/man7/announced-protocol.7 $(DESTDIR)$(MANDIR)/man8/announced.8
	rm -f $(DESTDIR)$(BASHCOMPLETIONDIR)/announcectl $(DESTDIR)$(ZSHCOMPLETIONDIR)/_announcectl $(DESTDIR)$(FISHCOMPLETIONDIR)/announcectl.fish
	rm -f $(DESTDIR)$(SHAREDIR)/announced.json
	rm -f $(DESTDIR)$(DOCDIR)/README.md $(DESTDIR)$(DOCDIR)/Protocol.md $(DESTDIR)$(DOCDIR)/configuration.md
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null
	-rmdir $(DESTDIR)$(SHAREDIR) 2>/dev/null
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/announced.json ] && cmp -s Config/announced.json $(DESTDIR)$(SYSCONFDIR)/announced.json; then \
	    rm -f $(DESTDIR)$(SYSCONFDIR)/announced.json; rmdir $(DESTDIR)$(SYSCONFDIR) 2>/dev/null || true; \
	elif [ -e $(DESTDIR)$(SYSCONFDIR)/announced.json ]; then \
	    echo "$(DESTDIR)$(SYSCONFDIR)/announced.json was edited: left in place"; \
	fi

clean:
	rm -rf .build

## fuzz: libFuzzer over the request decoder and element composition, and over espeak-ng's text
## input (FUZZ_SECONDS each; crashes are written to fuzz-artifacts/). espeak-ng is fuzzed in two
## forked workers that go on after a crash (Debian's espeak-ng has known ones: see
## Tests/FuzzCorpus/espeak-crashes), with a dictionary of the tokens its translator treats specially.
FUZZ_SECONDS ?= 300
FUZZ_FLAGS = -c release --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING
fuzz:
	$(SWIFT) build $(FUZZ_FLAGS) --product FuzzRequestDecoder
	$(SWIFT) build $(FUZZ_FLAGS) --product FuzzEspeakText
	$(SWIFT) build $(FUZZ_FLAGS) --product FuzzSSIP
	mkdir -p fuzz-corpus-work/requests fuzz-corpus-work/text fuzz-corpus-work/ssip fuzz-artifacts
	.build-fuzz/release/FuzzSSIP fuzz-corpus-work/ssip Tests/FuzzCorpus/ssip -max_len=4096 -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=fuzz-artifacts/
	.build-fuzz/release/FuzzRequestDecoder fuzz-corpus-work/requests Tests/FuzzCorpus/requests -max_len=4096 -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=fuzz-artifacts/
	.build-fuzz/release/FuzzEspeakText fuzz-corpus-work/text Tests/FuzzCorpus/text -dict=Tests/FuzzCorpus/espeak.dict -max_len=512 -fork=2 -ignore_crashes=1 -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=fuzz-artifacts/

## tsan / asan: the test suite under ThreadSanitizer / AddressSanitizer
# Every instrumented process the run starts writes its reports to a file in .build-tsan or
# .build-asan/sanitizer-reports (log_path in TSAN_OPTIONS / ASAN_OPTIONS), whoever holds its
# stderr: the test runner, the daemons the integration tests start, their espeak-ng helpers,
# announcectl, daemons spawned in the background. scripts/sanitizer-reports.sh fails the run when
# that folder holds a report, or when test.log holds one (from a process the options did not
# reach); IntegrationTests' SanitizerReportTests checks that chain with a real report.
# SANITIZER_TEST_FLAGS go to `swift test` (`--filter ClientTests` runs only those).
SANITIZER_TEST_FLAGS ?=
TSAN_REPORTS = $(CURDIR)/.build-tsan/sanitizer-reports
tsan:
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	rm -rf $(TSAN_REPORTS) && mkdir -p $(TSAN_REPORTS)
	{ TSAN_OPTIONS="$${TSAN_OPTIONS:+$$TSAN_OPTIONS:}log_path=$(TSAN_REPORTS)/report:log_exe_name=1" \
	    $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan $(SANITIZER_TEST_FLAGS) 2>&1; echo $$? > .build-tsan/test.status; } | tee .build-tsan/test.log
	@scripts/sanitizer-reports.sh $(TSAN_REPORTS) .build-tsan/test.log || { echo "make tsan: a sanitizer report above"; exit 1; }
	@test "$$(cat .build-tsan/test.status)" = 0

# LeakSanitizer is off: at exit it reports the process-lifetime objects of the test runner,
# NIO's singleton event loops and lazily started tasks, and fails announcectl's exit status with
# them. Growth over time is what `make soak` measures. Known bugs outside this repository are
# suppressed in scripts/asan-suppressions.txt, each with its reason and upstream fix.
ASAN_REPORTS = $(CURDIR)/.build-asan/sanitizer-reports
asan:
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	rm -rf $(ASAN_REPORTS) && mkdir -p $(ASAN_REPORTS)
	{ ASAN_OPTIONS="$${ASAN_OPTIONS:+$$ASAN_OPTIONS:}detect_leaks=0:suppressions=$(CURDIR)/scripts/asan-suppressions.txt:log_path=$(ASAN_REPORTS)/report:log_exe_name=1" \
	    $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan $(SANITIZER_TEST_FLAGS) 2>&1; echo $$? > .build-asan/test.status; } | tee .build-asan/test.log
	@scripts/sanitizer-reports.sh $(ASAN_REPORTS) .build-asan/test.log || { echo "make asan: a sanitizer report above"; exit 1; }
	@test "$$(cat .build-asan/test.status)" = 0

## soak: a million announcements through the daemon, with its RSS before, during and after; then
## SSIP and native clients pausing, cancelling and dying for SOAK_SECONDS (ProtocolSoakTests)
SOAK_POSTS ?= 1000000
SOAK_SECONDS ?= 600
soak:
	$(SWIFT) build $(RELEASE) --product announced
	$(SWIFT) build $(RELEASE) --product announced-espeak
	$(SWIFT) build $(RELEASE) --product announced-bench
	.build/release/announced-bench --soak $(SOAK_POSTS)
	$(SWIFT) build --build-tests
	SPEECHD_CMD=/bin/false ANNOUNCED_SOAK_SECONDS=$(SOAK_SECONDS) $(SWIFT) test --skip-build --filter ProtocolSoakTests

## bench-compare: announced beside a private speech-dispatcher at a PulseAudio null sink
## (COMPARE_ROUNDS=N rounds; ROUND_TRIPS_ONLY=1 for the SSIP round trips and their floor alone)
bench-compare: deps
	$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product announced
	$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product announced-espeak
	ANNOUNCED_BUILD=$(SCRATCH)/release Benchmarks/compare-speechd $(if $(ROUND_TRIPS_ONLY),--round-trips) $(COMPARE_ROUNDS)
