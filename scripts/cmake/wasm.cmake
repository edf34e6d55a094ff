# wasm build (emcmake cmake): two flavours of the package module and two of the kernel and model benchmarks.
# Debian's acorn is needed when emcc optimises the JS at link time.
set(CMAKE_CXX_LINKER_LAUNCHER env NODE_PATH=/usr/share/nodejs)

# The Emscripten sysroot hides /usr/include; expose only Highway through a folder of links. Not nlohmann/json:
# its templates cost the full module about 30 kB gzipped; text/json_value.h serves the wasm code instead.
set(EMBEDLAB_WASM_INCLUDES ${CMAKE_BINARY_DIR}/wasm-include)
file(MAKE_DIRECTORY ${EMBEDLAB_WASM_INCLUDES})
file(CREATE_LINK /usr/include/hwy ${EMBEDLAB_WASM_INCLUDES}/hwy SYMBOLIC)

set(EMBEDLAB_PACKAGE_DIR ${CMAKE_SOURCE_DIR}/dist CACHE PATH "Where the wasm modules of the npm package go")
set(EMBEDLAB_BENCH_DIR ${CMAKE_BINARY_DIR}/bench CACHE PATH "Where the wasm kernel benchmarks go")
set(EMBEDLAB_MAXIMUM_MEMORY 4GB)

# NODEJS_CATCH_*=0: a library must not add process-wide uncaughtException / unhandledRejection listeners
# (the glue's would turn any later error of the user's program into exit code 7 and a dump of its code).
set(EMBEDLAB_WASM_LINK_FLAGS
    -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0
    -sMODULARIZE=1 -sEXPORT_ES6=1 -sENVIRONMENT=web,worker,node
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=${EMBEDLAB_MAXIMUM_MEMORY} -sFILESYSTEM=0
    --extern-pre-js ${CMAKE_SOURCE_DIR}/src/js/runtime/node_shim.js)

# After each link of a package module: its glue minified (scripts/minify-glue.mjs: about 5 KB gzipped less) and
# its .wasm named in a custom section (scripts/name-wasm-module.mjs), which createEmbedLab({wasm}) reads.
function(embedlab_finish_package_module target)
  add_custom_command(TARGET ${target} POST_BUILD
                     COMMAND node ${CMAKE_SOURCE_DIR}/scripts/minify-glue.mjs $<TARGET_FILE:${target}>
                     COMMAND node ${CMAKE_SOURCE_DIR}/scripts/name-wasm-module.mjs $<TARGET_FILE:${target}>
                     WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} VERBATIM)
endfunction()

# Toward the full module's size budget (200 kB gzipped, tests/node/package_size.test.mjs): cold code is compiled for
# size: set-up, validation, file formats, the page's demos (embed, compare) and the Embind glue. It runs once per
# call from JS or per file, never in the inner loops of the tokenizer, the kernels or the training step, which stay
# at -O3 (src/simd, text, bpe's encoder/decoder/trainer, model, the trainer and its batches; at -Os the trainer,
# its batches and the activations made a training step 4.6% slower in one A/B run). -Os where a loop over user data remains (the
# tokenizer's Embind glue, a binary vocabulary's loading, the page's demos; GloVe's counting and training loop, whose
# inner arithmetic is in src/simd: -Os there cost 0.06 s once per run in counting Brown's 2.2M tokens, epochs were
# unchanged, and it saves 2 kB gzipped); -Oz elsewhere.
# The Hugging Face module (src/hf) likewise: reading tokenizer.json and the decoders at -Os, its other set-up at -Oz;
# its encode path (BPE merge loop, merge and token tables, split scanners, normalizers, added tokens, NFC in src/text)
# and the loading of its binary form (the page's path, 35% slower at -Os) stay at -O3. Measured on 2026-12-02 against
# all of src/hf at -O3 (interleaved runs in node): 119.0 -> 112.2 kB gzipped with glue, encoding as fast, a
# tokenizer.json read about 20% slower (Llama 3's 9 MB: 0.37 -> 0.45 s; at -O3 it would cost 3.5 kB more).
set(EMBEDLAB_WASM_COLD_SOURCES
    bindings/boundary.cc bindings/embind.cc bindings/embind_batches.cc bindings/embind_glove.cc
    bindings/embind_glove_text.cc bindings/embind_long_context.cc bindings/embind_model.cc bindings/embind_nearest.cc
    bindings/embind_positions.cc bindings/embind_principal_components.cc bindings/embind_safetensors.cc
    bindings/embind_word_vector_training.cc
    bpe/base64.cc bpe/encodings.cc bpe/gpt2_vocabulary_file.cc bpe/tiktoken_file.cc bpe/tokenizer_file.cc
    checkpoint/byte_source.cc checkpoint/safetensors_index.cc checkpoint/safetensors_reader.cc
    checkpoint/safetensors_writer.cc
    compare/principal_components.cc compare/symmetric_eigen.cc
    embed/glove_file.cc embed/glove_text_writer.cc
    errors/argument_checks.cc
    model/gpt_config.cc model/parameter_layout.cc model/rope_scaling.cc
    text/json_number.cc text/json_value.cc
    training/evaluation_windows.cc training/long_context_data.cc
    training/long_context_run.cc training/long_context_schemes.cc training/model_checkpoint.cc training/order_task.cc
    training/passkey_task.cc training/position_scores.cc training/recall_task.cc training/rope_scaling_json.cc
    hf/hf_tokenizer.cc hf/hf_tokenizer_impl.cc hf/json_parts.cc hf/post_processor.cc)
set(EMBEDLAB_WASM_LUKEWARM_SOURCES
    bindings/embind_hf_tokenizer.cc bindings/embind_tokenizer.cc bpe/vocabulary_binary.cc compare/nearest_rows.cc
    compare/self_attention.cc hf/decoder.cc hf/json_cursor.cc hf/tokenizer_json_reader.cc
    compare/sentence_comparison.cc embed/composition.cc embed/cooccurrence_counts.cc embed/glove_trainer.cc
    embed/learned_encoding.cc embed/positional_encoding.cc
    embed/sinusoidal_encoding.cc embed/token_embedding.cc)
list(TRANSFORM EMBEDLAB_WASM_COLD_SOURCES PREPEND ${CMAKE_SOURCE_DIR}/src/)
list(TRANSFORM EMBEDLAB_WASM_LUKEWARM_SOURCES PREPEND ${CMAKE_SOURCE_DIR}/src/)
set_source_files_properties(${EMBEDLAB_WASM_COLD_SOURCES} PROPERTIES COMPILE_OPTIONS -Oz)
set_source_files_properties(${EMBEDLAB_WASM_LUKEWARM_SOURCES} PROPERTIES COMPILE_OPTIONS -Os)
# The package modules' glue reads only the two Module options wasm_loader.js passes. (Linking at -Oz would take
# about 7 kB more off, but Binaryen's -Oz made the training step 21-27% slower: measured, not taken.)
set(EMBEDLAB_WASM_PACKAGE_LINK_FLAGS "-sINCOMING_MODULE_JS_API=[locateFile,instantiateWasm]")

# The package's modules alone, without the benchmark programs (scripts/build.sh --no-bench, which npm test runs).
add_custom_target(embedlab_package_modules)

# simd: Highway's WASM target (SIMD128) and WebAssembly exception handling; fallback: EMU128 and exceptions through
# JS, for engines without either. Wasm exceptions make the module and glue 14 kB gzipped smaller (JS exceptions wrap
# every call that may throw in an invoke_ import); every engine with SIMD128 has them except Chrome 91-94 and
# Firefox 89-99, which get the fallback (wasm_loader.js probes both).
foreach(flavour simd fallback)
  if(flavour STREQUAL "simd")
    set(flavour_flags -msimd128 -DHWY_COMPILE_ONLY_STATIC=1)
    set(exception_flag -fwasm-exceptions)
  else()
    set(flavour_flags -DHWY_COMPILE_ONLY_EMU128=1)
    set(exception_flag -fexceptions)
  endif()
  set(EMBEDLAB_FLAVOUR_LINK_FLAGS ${EMBEDLAB_WASM_LINK_FLAGS} ${exception_flag})

  set(EMBEDLAB_LAYER_OPTIONS ${flavour_flags} ${exception_flag} ${EMBEDLAB_COMMON_FLAGS})
  set(EMBEDLAB_LAYER_INCLUDES ${EMBEDLAB_WASM_INCLUDES})
  embedlab_add_layers(_${flavour} "")

  file(GLOB EMBEDLAB_BINDING_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/bindings/*.cc)
  # The Hugging Face bindings are the third module's alone (below).
  list(FILTER EMBEDLAB_BINDING_SOURCES EXCLUDE REGEX "(embind_tokenizer_module|embind_hf_tokenizer)\\.cc$")
  add_executable(embedlab_${flavour} ${EMBEDLAB_BINDING_SOURCES})
  embedlab_layer_include_root(bindings bindings_include_root)
  target_include_directories(embedlab_${flavour} PRIVATE ${bindings_include_root})
  target_link_libraries(embedlab_${flavour} PRIVATE embedlab_core_${flavour})
  target_compile_definitions(embedlab_${flavour} PRIVATE EMBEDLAB_VERSION="${PROJECT_VERSION}")
  # DYNAMIC_EXECUTION=0: Embind builds no functions with eval, so pages can use a CSP without 'unsafe-eval'.
  target_link_options(embedlab_${flavour} PRIVATE ${EMBEDLAB_FLAVOUR_LINK_FLAGS} ${EMBEDLAB_WASM_PACKAGE_LINK_FLAGS}
                      -lembind -sDYNAMIC_EXECUTION=0 -sEXPORT_NAME=createEmbedLabModule)
  set_target_properties(embedlab_${flavour} PROPERTIES OUTPUT_NAME "embedlab-${flavour}" SUFFIX ".js"
                        RUNTIME_OUTPUT_DIRECTORY ${EMBEDLAB_PACKAGE_DIR})
  embedlab_finish_package_module(embedlab_${flavour})

  # The tokenizer-only module of the package entry embedlab/tokenizer: src/text and src/bpe (with errors) alone.
  add_executable(embedlab_tokenizer_${flavour} ${CMAKE_SOURCE_DIR}/src/bindings/boundary.cc
                 ${CMAKE_SOURCE_DIR}/src/bindings/embind_tokenizer.cc
                 ${CMAKE_SOURCE_DIR}/src/bindings/embind_tokenizer_module.cc)
  target_include_directories(embedlab_tokenizer_${flavour} PRIVATE ${bindings_include_root})
  target_link_libraries(embedlab_tokenizer_${flavour} PRIVATE embedlab_bpe_${flavour})
  target_compile_definitions(embedlab_tokenizer_${flavour} PRIVATE EMBEDLAB_VERSION="${PROJECT_VERSION}")
  target_link_options(embedlab_tokenizer_${flavour} PRIVATE ${EMBEDLAB_FLAVOUR_LINK_FLAGS}
                      ${EMBEDLAB_WASM_PACKAGE_LINK_FLAGS} -lembind -sDYNAMIC_EXECUTION=0 -sEXPORT_NAME=createTokenizerModule)
  set_target_properties(embedlab_tokenizer_${flavour} PROPERTIES OUTPUT_NAME "embedlab-tokenizer-${flavour}"
                        SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY ${EMBEDLAB_PACKAGE_DIR})
  embedlab_finish_package_module(embedlab_tokenizer_${flavour})

  # The Hugging Face tokenizer.json module, which both entries start on demand (tokenizer/hf_module.js) at the first
  # tokenizerFromHuggingFace() or loadTokenizer() of a Hugging Face tokenizer's binary form: src/hf over src/text,
  # src/bpe and errors. Its own module, so that neither the other modules nor the page's first load carry it.
  add_executable(embedlab_hf_module_${flavour} ${CMAKE_SOURCE_DIR}/src/bindings/boundary.cc
                 ${CMAKE_SOURCE_DIR}/src/bindings/embind_hf_tokenizer.cc
                 ${CMAKE_SOURCE_DIR}/src/bindings/embind_tokenizer_module.cc)
  target_include_directories(embedlab_hf_module_${flavour} PRIVATE ${bindings_include_root})
  target_link_libraries(embedlab_hf_module_${flavour} PRIVATE embedlab_hf_${flavour})
  target_compile_definitions(embedlab_hf_module_${flavour} PRIVATE EMBEDLAB_VERSION="${PROJECT_VERSION}")
  target_link_options(embedlab_hf_module_${flavour} PRIVATE ${EMBEDLAB_FLAVOUR_LINK_FLAGS}
                      ${EMBEDLAB_WASM_PACKAGE_LINK_FLAGS} -lembind -sDYNAMIC_EXECUTION=0 -sEXPORT_NAME=createHfModule)
  set_target_properties(embedlab_hf_module_${flavour} PROPERTIES OUTPUT_NAME "embedlab-hf-${flavour}" SUFFIX ".js"
                        RUNTIME_OUTPUT_DIRECTORY ${EMBEDLAB_PACKAGE_DIR})
  embedlab_finish_package_module(embedlab_hf_module_${flavour})
  add_dependencies(embedlab_package_modules embedlab_${flavour} embedlab_tokenizer_${flavour} embedlab_hf_module_${flavour})

  add_executable(kernel_bench_${flavour} ${CMAKE_SOURCE_DIR}/tests/bench/kernel_bench.cc)
  target_link_libraries(kernel_bench_${flavour} PRIVATE embedlab_core_${flavour})
  target_compile_definitions(kernel_bench_${flavour} PRIVATE EMBEDLAB_BENCH_LIBRARY=1)
  target_compile_options(kernel_bench_${flavour} PRIVATE -fno-vectorize -fno-slp-vectorize)  # scalar baseline
  target_link_options(kernel_bench_${flavour} PRIVATE ${EMBEDLAB_FLAVOUR_LINK_FLAGS}
                      -sEXPORTED_FUNCTIONS=_bench_kernel_seconds,_malloc,_free -sEXPORT_NAME=createKernelBench)
  set_target_properties(kernel_bench_${flavour} PROPERTIES OUTPUT_NAME "kernel-bench-${flavour}" SUFFIX ".mjs"
                        RUNTIME_OUTPUT_DIRECTORY ${EMBEDLAB_BENCH_DIR})

  add_executable(model_bench_${flavour} ${CMAKE_SOURCE_DIR}/tests/bench/model_bench.cc)
  target_link_libraries(model_bench_${flavour} PRIVATE embedlab_core_${flavour})
  target_compile_definitions(model_bench_${flavour} PRIVATE EMBEDLAB_BENCH_LIBRARY=1)
  set(model_bench_exports _bench_matmul_prepare _bench_matmul_run _bench_training_prepare _bench_training_run
      _bench_training_tokens_per_step)
  list(JOIN model_bench_exports "," model_bench_exports)
  target_link_options(model_bench_${flavour} PRIVATE ${EMBEDLAB_FLAVOUR_LINK_FLAGS} -sEXPORT_NAME=createModelBench
                      -sEXPORTED_FUNCTIONS=${model_bench_exports})
  set_target_properties(model_bench_${flavour} PROPERTIES OUTPUT_NAME "model-bench-${flavour}" SUFFIX ".mjs"
                        RUNTIME_OUTPUT_DIRECTORY ${EMBEDLAB_BENCH_DIR})
endforeach()
