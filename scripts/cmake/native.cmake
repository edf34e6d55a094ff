# Native build: core library, Catch2 tests, kernel benchmark and the reference dump tool.
find_package(Catch2 2 REQUIRED)

add_library(embedlab_core STATIC ${EMBEDLAB_CORE_SOURCES})
target_include_directories(embedlab_core PUBLIC ${CMAKE_SOURCE_DIR}/src)
target_compile_options(embedlab_core PRIVATE ${EMBEDLAB_COMMON_FLAGS})
target_link_libraries(embedlab_core PUBLIC hwy)

option(EMBEDLAB_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(EMBEDLAB_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
  target_compile_options(embedlab_core PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer)
endif()

file(GLOB EMBEDLAB_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cpp/*.cc)
add_executable(embedlab_tests ${EMBEDLAB_TEST_SOURCES})
target_include_directories(embedlab_tests PRIVATE ${CMAKE_SOURCE_DIR}/tests/cpp)
target_link_libraries(embedlab_tests PRIVATE embedlab_core Catch2::Catch2)

enable_testing()
include(Catch)
catch_discover_tests(embedlab_tests EXTRA_ARGS --use-colour no)

add_executable(embedlab_kernel_bench ${CMAKE_SOURCE_DIR}/tests/bench/kernel_bench.cc)
target_link_libraries(embedlab_kernel_bench PRIVATE embedlab_core)
target_compile_options(embedlab_kernel_bench PRIVATE -fno-tree-vectorize)  # a truly scalar baseline

add_executable(embedlab_model_bench ${CMAKE_SOURCE_DIR}/tests/bench/model_bench.cc)
target_link_libraries(embedlab_model_bench PRIVATE embedlab_core)

add_executable(embedlab_reference_dump ${CMAKE_SOURCE_DIR}/tests/reference/reference_dump.cc)
target_link_libraries(embedlab_reference_dump PRIVATE embedlab_core)

# Tokenizer command-line tool, used by scripts/check-tiktoken-parity.mjs.
add_executable(embedlab_tokenize ${CMAKE_SOURCE_DIR}/tests/reference/tokenize_cli.cc)
target_link_libraries(embedlab_tokenize PRIVATE embedlab_core)
