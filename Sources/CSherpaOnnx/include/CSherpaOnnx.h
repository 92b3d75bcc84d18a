// SPDX-License-Identifier: GPL-3.0-or-later
// The part of sherpa-onnx's C API (sherpa-onnx/c-api/c-api.h, version 2.0.1) that announced-piper
// uses, declared here so that the package builds without the engine: the helper loads
// libsherpa-onnx-c-api.so at run time (CSherpaOnnx_load) and calls it through function pointers.
//
// The structures copy the header's layouts field for field, under names of their own, and the
// function pointer types name the structures through the CSherpaOnnx_Real* aliases. The layout
// test (Tests/PiperEngineTests/PiperEngineLayoutTests.swift) compiles a C file that includes
// the real header first and defines CSHERPAONNX_CHECK_AGAINST_REAL_HEADER: the aliases then name
// the real structures, each real function is assigned to its pointer type here (an error when a
// signature differs), and _Static_asserts compare every structure's size and field offsets.
#ifndef C_SHERPA_ONNX_H
#define C_SHERPA_ONNX_H

#include <stddef.h>
#include <stdint.h>

/// SherpaOnnxOfflineTtsVitsModelConfig.
typedef struct CSherpaOnnx_VitsModelConfig {
    const char *model;
    const char *lexicon;
    const char *tokens;
    const char *data_dir;
    float noise_scale;
    float noise_scale_w;
    float length_scale;
    const char *dict_dir;
} CSherpaOnnx_VitsModelConfig;

/// SherpaOnnxOfflineTtsMatchaModelConfig (unused; zeroed).
typedef struct CSherpaOnnx_MatchaModelConfig {
    const char *acoustic_model;
    const char *vocoder;
    const char *lexicon;
    const char *tokens;
    const char *data_dir;
    float noise_scale;
    float length_scale;
    const char *dict_dir;
} CSherpaOnnx_MatchaModelConfig;

/// SherpaOnnxOfflineTtsKokoroModelConfig (unused; zeroed).
typedef struct CSherpaOnnx_KokoroModelConfig {
    const char *model;
    const char *voices;
    const char *tokens;
    const char *data_dir;
    float length_scale;
    const char *dict_dir;
    const char *lexicon;
    const char *lang;
} CSherpaOnnx_KokoroModelConfig;

/// SherpaOnnxOfflineTtsKittenModelConfig (unused; zeroed).
typedef struct CSherpaOnnx_KittenModelConfig {
    const char *model;
    const char *voices;
    const char *tokens;
    const char *data_dir;
    float length_scale;
    const char *lexicon;
} CSherpaOnnx_KittenModelConfig;

/// SherpaOnnxOfflineTtsZipvoiceModelConfig (unused; zeroed).
typedef struct CSherpaOnnx_ZipvoiceModelConfig {
    const char *tokens;
    const char *encoder;
    const char *decoder;
    const char *vocoder;
    const char *data_dir;
    const char *lexicon;
    float feat_scale;
    float t_shift;
    float target_rms;
    float guidance_scale;
} CSherpaOnnx_ZipvoiceModelConfig;

/// SherpaOnnxOfflineTtsPocketModelConfig (unused; zeroed).
typedef struct CSherpaOnnx_PocketModelConfig {
    const char *lm_flow;
    const char *lm_main;
    const char *encoder;
    const char *decoder;
    const char *text_conditioner;
    const char *vocab_json;
    const char *token_scores_json;
    int32_t voice_embedding_cache_capacity;
} CSherpaOnnx_PocketModelConfig;

/// SherpaOnnxOfflineTtsSupertonicModelConfig (unused; zeroed).
typedef struct CSherpaOnnx_SupertonicModelConfig {
    const char *duration_predictor;
    const char *text_encoder;
    const char *vector_estimator;
    const char *vocoder;
    const char *tts_json;
    const char *unicode_indexer;
    const char *voice_style;
} CSherpaOnnx_SupertonicModelConfig;

/// SherpaOnnxOfflineTtsModelConfig.
typedef struct CSherpaOnnx_TtsModelConfig {
    CSherpaOnnx_VitsModelConfig vits;
    int32_t num_threads;
    int32_t debug;
    const char *provider;
    CSherpaOnnx_MatchaModelConfig matcha;
    CSherpaOnnx_KokoroModelConfig kokoro;
    CSherpaOnnx_KittenModelConfig kitten;
    CSherpaOnnx_ZipvoiceModelConfig zipvoice;
    CSherpaOnnx_PocketModelConfig pocket;
    CSherpaOnnx_SupertonicModelConfig supertonic;
} CSherpaOnnx_TtsModelConfig;

/// SherpaOnnxOfflineTtsConfig.
typedef struct CSherpaOnnx_TtsConfig {
    CSherpaOnnx_TtsModelConfig model;
    const char *rule_fsts;
    int32_t max_num_sentences;
    const char *rule_fars;
    float silence_scale;
} CSherpaOnnx_TtsConfig;

/// SherpaOnnxGeneratedAudio: mono float samples in [-1, 1].
typedef struct CSherpaOnnx_GeneratedAudio {
    const float *samples;
    int32_t n;
    int32_t sample_rate;
} CSherpaOnnx_GeneratedAudio;

/// SherpaOnnxGenerationConfig. announced-piper sets `speed`, `sid` and the phonemes
/// (`phoneme_codepoints`: every sentence's code points, one after another; `phoneme_codepoints_lens`:
/// how many each sentence has).
typedef struct CSherpaOnnx_GenerationConfig {
    float silence_scale;
    float speed;
    int32_t sid;
    const float *reference_audio;
    int32_t reference_audio_len;
    int32_t reference_sample_rate;
    const char *reference_text;
    int32_t num_steps;
    const char *extra;
    const int32_t *phoneme_codepoints;
    const int32_t *phoneme_codepoints_lens;
    int32_t phoneme_codepoints_num_sentences;
    const char *const *tokens;
    const int32_t *tokens_lens;
    int32_t tokens_num_sentences;
} CSherpaOnnx_GenerationConfig;

/// The opaque SherpaOnnxOfflineTts.
typedef struct CSherpaOnnx_Tts CSherpaOnnx_Tts;

#ifdef CSHERPAONNX_CHECK_AGAINST_REAL_HEADER
typedef SherpaOnnxOfflineTtsConfig CSherpaOnnx_RealTtsConfig;
typedef SherpaOnnxOfflineTts CSherpaOnnx_RealTts;
typedef SherpaOnnxGeneratedAudio CSherpaOnnx_RealGeneratedAudio;
typedef SherpaOnnxGenerationConfig CSherpaOnnx_RealGenerationConfig;
#else
typedef CSherpaOnnx_TtsConfig CSherpaOnnx_RealTtsConfig;
typedef CSherpaOnnx_Tts CSherpaOnnx_RealTts;
typedef CSherpaOnnx_GeneratedAudio CSherpaOnnx_RealGeneratedAudio;
typedef CSherpaOnnx_GenerationConfig CSherpaOnnx_RealGenerationConfig;
/// `memfd_create(name, MFD_CLOEXEC)`: an anonymous file in memory (glibc declares it only with
/// _GNU_SOURCE). announced-piper hands sherpa-onnx a Piper model through one, as
/// /proc/self/fd/N, with the metadata its loader needs appended. The descriptor, or -1 and errno.
int CSherpaOnnx_memory_file(const char *name);

#endif

/// SherpaOnnxGeneratedAudioProgressCallbackWithArg: return 1 to go on, 0 to stop.
typedef int32_t (*CSherpaOnnx_ProgressCallback)(const float *samples, int32_t n, float progress, void *arg);

/// The C API functions announced-piper calls, with their names in the library.
typedef const char *(*CSherpaOnnx_GetVersionStr)(void);
typedef const CSherpaOnnx_RealTts *(*CSherpaOnnx_CreateOfflineTts)(const CSherpaOnnx_RealTtsConfig *config);
typedef void (*CSherpaOnnx_DestroyOfflineTts)(const CSherpaOnnx_RealTts *tts);
typedef int32_t (*CSherpaOnnx_OfflineTtsSampleRate)(const CSherpaOnnx_RealTts *tts);
typedef const CSherpaOnnx_RealGeneratedAudio *(*CSherpaOnnx_OfflineTtsGenerateWithConfig)(
    const CSherpaOnnx_RealTts *tts, const char *text, const CSherpaOnnx_RealGenerationConfig *config,
    CSherpaOnnx_ProgressCallback callback, void *arg);
typedef void (*CSherpaOnnx_DestroyOfflineTtsGeneratedAudio)(const CSherpaOnnx_RealGeneratedAudio *audio);

/// The loaded library's functions.
typedef struct CSherpaOnnx_API {
    CSherpaOnnx_GetVersionStr getVersionStr;
    CSherpaOnnx_CreateOfflineTts createOfflineTts;
    CSherpaOnnx_DestroyOfflineTts destroyOfflineTts;
    CSherpaOnnx_OfflineTtsSampleRate sampleRate;
    CSherpaOnnx_OfflineTtsGenerateWithConfig generateWithConfig;
    CSherpaOnnx_DestroyOfflineTtsGeneratedAudio destroyGeneratedAudio;
} CSherpaOnnx_API;

/// The library's file name, looked up in the directory given to CSherpaOnnx_load.
#define CSHERPAONNX_LIBRARY_NAME "libsherpa-onnx-c-api.so"

/// Loads `directory`/libsherpa-onnx-c-api.so (its ONNX Runtime comes from the same directory,
/// through the library's $ORIGIN run path) and fills `api` with its functions. 0 on success; else
/// -1 with dlerror's message (or the missing symbol's name) in `error` (`error_size` bytes).
int CSherpaOnnx_load(const char *directory, CSherpaOnnx_API *api, char *error, size_t error_size);

/// `memfd_create(name, MFD_CLOEXEC)`: an anonymous file in memory (glibc declares it only with
/// _GNU_SOURCE). announced-piper hands sherpa-onnx a Piper model through one, as
/// /proc/self/fd/N, with the metadata its loader needs appended. The descriptor, or -1 and errno.
int CSherpaOnnx_memory_file(const char *name);

#endif
