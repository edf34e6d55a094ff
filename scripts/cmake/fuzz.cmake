# libFuzzer targets (clang, EMBEDLAB_FUZZ=ON; scripts/build-sanitize.sh configures them, scripts/fuzz.sh runs them):
# one executable per tests/fuzz/*_fuzz.cc on the same layer libraries as every other build, and the seed maker.
# libFuzzer's coverage instrumentation goes on the layers and the fuzz targets, not on the Catch2 tests that share
# the build: their calls into the layers reach the sanitizer runtime's no-op coverage hooks.
foreach(layer ${EMBEDLAB_LAYERS})
  target_compile_options(embedlab_${layer} PRIVATE -fsanitize=fuzzer-no-link)
endforeach()
file(GLOB fuzz_sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/fuzz/*_fuzz.cc)
add_custom_target(fuzz_targets)
foreach(source ${fuzz_sources})
  get_filename_component(name ${source} NAME_WE)
  string(REGEX REPLACE "_fuzz$" "" name ${name})
  add_executable(${name} ${source})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests/fuzz)
  target_link_libraries(${name} PRIVATE embedlab_core)
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer-no-link)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  add_dependencies(fuzz_targets ${name})
endforeach()
add_executable(make_seeds ${CMAKE_SOURCE_DIR}/tests/fuzz/make_seeds.cc)
target_include_directories(make_seeds PRIVATE ${CMAKE_SOURCE_DIR}/tests/fuzz)
target_link_libraries(make_seeds PRIVATE embedlab_core)
add_dependencies(fuzz_targets make_seeds)
