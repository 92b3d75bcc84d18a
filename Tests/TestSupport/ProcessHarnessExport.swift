// SPDX-License-Identifier: GPL-3.0-or-later
// The child processes, the private PulseAudio server and the readiness socket live in
// Sources/ProcessHarness, which announced-bench uses too; `import TestSupport` brings them along.
@_exported public import ProcessHarness
