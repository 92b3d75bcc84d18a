// SPDX-License-Identifier: GPL-3.0-or-later
// Compiled by PiperEngineLayoutTests against the fetched wheel's real header: fails to compile
// when CSherpaOnnx.h's declarations differ from sherpa-onnx's (a field's type, order or size, a
// structure's size, a function's signature).
#include <stddef.h>
#include <sherpa-onnx/c-api/c-api.h>
#define CSHERPAONNX_CHECK_AGAINST_REAL_HEADER 1
#include "CSherpaOnnx.h"

#define SAME_SIZE(mine, real) _Static_assert(sizeof(mine) == sizeof(real), #mine " differs in size from " #real)
#define SAME_FIELD(mine, real, field)                                                        \
    _Static_assert(offsetof(mine, field) == offsetof(real, field), #mine "." #field " moved"); \
    _Static_assert(sizeof(((mine *)0)->field) == sizeof(((real *)0)->field), #mine "." #field " differs in size")

SAME_SIZE(CSherpaOnnx_VitsModelConfig, SherpaOnnxOfflineTtsVitsModelConfig);
SAME_FIELD(CSherpaOnnx_VitsModelConfig, SherpaOnnxOfflineTtsVitsModelConfig, model);
SAME_FIELD(CSherpaOnnx_VitsModelConfig, SherpaOnnxOfflineTtsVitsModelConfig, lexicon);
SAME_FIELD(CSherpaOnnx_VitsModelConfig, SherpaOnnxOfflineTtsVitsModelConfig, tokens);
SAME_FIELD(CSherpaOnnx_VitsModelConfig, SherpaOnnxOfflineTtsVitsModelConfig, data_dir);
SAME_FIELD(CSherpaOnnx_VitsModelConfig, SherpaOnnxOfflineTtsVitsModelConfig, noise_scale);
SAME_FIELD(CSherpaOnnx_VitsModelConfig, SherpaOnnxOfflineTtsVitsModelConfig, noise_scale_w);
SAME_FIELD(CSherpaOnnx_VitsModelConfig, SherpaOnnxOfflineTtsVitsModelConfig, length_scale);
SAME_FIELD(CSherpaOnnx_VitsModelConfig, SherpaOnnxOfflineTtsVitsModelConfig, dict_dir);
SAME_SIZE(CSherpaOnnx_MatchaModelConfig, SherpaOnnxOfflineTtsMatchaModelConfig);
SAME_SIZE(CSherpaOnnx_KokoroModelConfig, SherpaOnnxOfflineTtsKokoroModelConfig);
SAME_SIZE(CSherpaOnnx_KittenModelConfig, SherpaOnnxOfflineTtsKittenModelConfig);
SAME_SIZE(CSherpaOnnx_ZipvoiceModelConfig, SherpaOnnxOfflineTtsZipvoiceModelConfig);
SAME_SIZE(CSherpaOnnx_PocketModelConfig, SherpaOnnxOfflineTtsPocketModelConfig);
SAME_SIZE(CSherpaOnnx_SupertonicModelConfig, SherpaOnnxOfflineTtsSupertonicModelConfig);
SAME_SIZE(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig);
SAME_FIELD(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig, vits);
SAME_FIELD(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig, num_threads);
SAME_FIELD(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig, debug);
SAME_FIELD(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig, provider);
SAME_FIELD(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig, matcha);
SAME_FIELD(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig, kokoro);
SAME_FIELD(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig, kitten);
SAME_FIELD(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig, zipvoice);
SAME_FIELD(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig, pocket);
SAME_FIELD(CSherpaOnnx_TtsModelConfig, SherpaOnnxOfflineTtsModelConfig, supertonic);
SAME_SIZE(CSherpaOnnx_TtsConfig, SherpaOnnxOfflineTtsConfig);
SAME_FIELD(CSherpaOnnx_TtsConfig, SherpaOnnxOfflineTtsConfig, model);
SAME_FIELD(CSherpaOnnx_TtsConfig, SherpaOnnxOfflineTtsConfig, rule_fsts);
SAME_FIELD(CSherpaOnnx_TtsConfig, SherpaOnnxOfflineTtsConfig, max_num_sentences);
SAME_FIELD(CSherpaOnnx_TtsConfig, SherpaOnnxOfflineTtsConfig, rule_fars);
SAME_FIELD(CSherpaOnnx_TtsConfig, SherpaOnnxOfflineTtsConfig, silence_scale);
SAME_SIZE(CSherpaOnnx_GeneratedAudio, SherpaOnnxGeneratedAudio);
SAME_FIELD(CSherpaOnnx_GeneratedAudio, SherpaOnnxGeneratedAudio, samples);
SAME_FIELD(CSherpaOnnx_GeneratedAudio, SherpaOnnxGeneratedAudio, n);
SAME_FIELD(CSherpaOnnx_GeneratedAudio, SherpaOnnxGeneratedAudio, sample_rate);
SAME_SIZE(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, silence_scale);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, speed);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, sid);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, reference_audio);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, reference_audio_len);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, reference_sample_rate);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, reference_text);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, num_steps);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, extra);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, phoneme_codepoints);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, phoneme_codepoints_lens);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, phoneme_codepoints_num_sentences);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, tokens);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, tokens_lens);
SAME_FIELD(CSherpaOnnx_GenerationConfig, SherpaOnnxGenerationConfig, tokens_num_sentences);

// Each real function has exactly the pointer type the shim calls it through.
CSherpaOnnx_GetVersionStr check_version = SherpaOnnxGetVersionStr;
CSherpaOnnx_CreateOfflineTts check_create = SherpaOnnxCreateOfflineTts;
CSherpaOnnx_DestroyOfflineTts check_destroy = SherpaOnnxDestroyOfflineTts;
CSherpaOnnx_OfflineTtsSampleRate check_sample_rate = SherpaOnnxOfflineTtsSampleRate;
CSherpaOnnx_OfflineTtsGenerateWithConfig check_generate = SherpaOnnxOfflineTtsGenerateWithConfig;
CSherpaOnnx_DestroyOfflineTtsGeneratedAudio check_destroy_audio = SherpaOnnxDestroyOfflineTtsGeneratedAudio;
