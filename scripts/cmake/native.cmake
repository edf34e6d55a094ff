# Native build: the layer libraries (Highway dynamic dispatch through Debian's libhwy), Catch2 tests, benchmarks
# and tools; with EMBEDLAB_FUZZ (clang), the libFuzzer targets as well (scripts/build-sanitize.sh: one sanitizer
# build serves the Catch2 suite and the fuzz targets).
option(EMBEDLAB_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(EMBEDLAB_FUZZ "Also build the libFuzzer targets of tests/fuzz (clang; sanitizers on)" OFF)

set(EMBEDLAB_LAYER_OPTIONS ${EMBEDLAB_COMMON_FLAGS} -Werror)
if(EMBEDLAB_SANITIZE OR EMBEDLAB_FUZZ)
  set(sanitizers -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${sanitizers})
  add_link_options(${sanitizers})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 under ASan reports maybe-uninitialized in libstdc++'s <regex> (Catch2 uses it): a known false positive.
    list(APPEND EMBEDLAB_LAYER_OPTIONS -Wno-maybe-uninitialized)
  endif()
endif()

# Natively libhwy provides Highway's runtime; the wasm builds compile their own.
embedlab_add_layers("" "/simd/highway_runtime\\.cc$")
target_link_libraries(embedlab_simd PUBLIC hwy)

if(EMBEDLAB_FUZZ)
  include(${CMAKE_SOURCE_DIR}/scripts/cmake/fuzz.cmake)
endif()

find_package(Catch2 2 REQUIRED)
find_package(Threads REQUIRED)
file(GLOB EMBEDLAB_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cpp/*.cc)
add_executable(embedlab_tests ${EMBEDLAB_TEST_SOURCES})
target_include_directories(embedlab_tests PRIVATE ${CMAKE_SOURCE_DIR}/tests/cpp)
target_link_libraries(embedlab_tests PRIVATE embedlab_core Catch2::Catch2)
# Catch2's single header, parsed once per build instead of once per test file (0.8 s of CPU a file under the
# sanitizers, for 55 files). main.cc, compiled with other flags, includes it itself.
target_precompile_headers(embedlab_tests PRIVATE <catch2/catch.hpp>)
set_source_files_properties(${CMAKE_SOURCE_DIR}/tests/cpp/main.cc PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  # Clang's -Wextra flags adjacent string literals in an array; the decimal tests split long digit strings that way.
  set_source_files_properties(${EMBEDLAB_TEST_SOURCES} PROPERTIES COMPILE_OPTIONS -Wno-string-concatenation)
endif()
# main.cc is Catch2's runner alone (no test of ours): optimised, and in the sanitizer build instrumented, it was the
# slowest file of every build (30-45 s of CPU under clang's sanitizers, 16-22 s at -O3) for no check of our code.
set(catch_main_options -O0 -g0)
if(EMBEDLAB_SANITIZE OR EMBEDLAB_FUZZ)
  list(APPEND catch_main_options -fno-sanitize=all)
endif()
set_property(SOURCE ${CMAKE_SOURCE_DIR}/tests/cpp/main.cc APPEND PROPERTY COMPILE_OPTIONS ${catch_main_options})

enable_testing()
include(Catch)
# -w NoTests: a test name that matches nothing (e.g. split at a ";" by CatchAddTests) fails instead of passing.
catch_discover_tests(embedlab_tests EXTRA_ARGS --use-colour no -w NoTests)
include(${CMAKE_SOURCE_DIR}/scripts/cmake/layering_test.cmake)

# The benchmark programs are not in `all`: `npm run bench` builds them (target embedlab_native_benches); npm test,
# which runs none of them, does not wait for them.
add_custom_target(embedlab_native_benches)
add_executable(embedlab_kernel_bench EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/tests/bench/kernel_bench.cc)
target_link_libraries(embedlab_kernel_bench PRIVATE embedlab_core)
target_compile_options(embedlab_kernel_bench PRIVATE -fno-tree-vectorize)  # a truly scalar baseline

add_executable(embedlab_model_bench EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/tests/bench/model_bench.cc)
target_link_libraries(embedlab_model_bench PRIVATE embedlab_core)

add_executable(embedlab_glove_bench EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/tests/bench/glove_bench.cc)
target_link_libraries(embedlab_glove_bench PRIVATE embedlab_core)
add_dependencies(embedlab_native_benches embedlab_kernel_bench embedlab_model_bench embedlab_glove_bench)

add_executable(embedlab_reference_dump ${CMAKE_SOURCE_DIR}/tests/reference/reference_dump.cc)
target_link_libraries(embedlab_reference_dump PRIVATE embedlab_core)

# The long-context experiment for the tables of docs/long-contexts.md (training/long_context_run.h; BPE for the
# corpus task).
add_executable(embedlab_long_context ${CMAKE_SOURCE_DIR}/src/tools/embedlab_long_context.cc)
target_link_libraries(embedlab_long_context PRIVATE embedlab_core Threads::Threads)

# Tokenizer command-line tool, used by scripts/check-tiktoken-parity.mjs; it needs the text and bpe layers only.
add_executable(embedlab_tokenize ${CMAKE_SOURCE_DIR}/src/tools/embedlab_tokenize.cc)
target_link_libraries(embedlab_tokenize PRIVATE embedlab_bpe)

# Hugging Face tokenizer.json tool: encode, decode and time a tokenizer.json natively (the hf layer alone).
add_executable(embedlab_hf_encode ${CMAKE_SOURCE_DIR}/src/tools/embedlab_hf_encode.cc)
target_link_libraries(embedlab_hf_encode PRIVATE embedlab_hf)

# The text layer seen from node (NFC and the tokenizer.json split regexes) for the node tests that compare it
# with String.prototype.normalize and Tokenizers.js, and its speed.
add_executable(embedlab_text_probe ${CMAKE_SOURCE_DIR}/tests/cpp/tools/text_probe.cc)
target_link_libraries(embedlab_text_probe PRIVATE embedlab_text)
