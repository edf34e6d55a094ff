# ctest checks that the layering holds: a file of the bpe layer may include a lower layer's header (text), and
# one that includes a higher layer's (model) does not build. The probes are not part of the normal build.
foreach(probe lower upper)
  add_library(layering_probe_${probe} OBJECT EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/tests/cpp/layering/include_probe.cc)
  target_link_libraries(layering_probe_${probe} PRIVATE embedlab_bpe)
endforeach()
target_compile_definitions(layering_probe_lower PRIVATE EMBEDLAB_PROBE_HEADER="text/utf8.h")
target_compile_definitions(layering_probe_upper PRIVATE EMBEDLAB_PROBE_HEADER="model/gpt.h")

add_test(NAME layering_allows_lower_include
         COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target layering_probe_lower)
add_test(NAME layering_refuses_upward_include
         COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target layering_probe_upper)
# Refused for the right reason: the header is not found, not some other compile error.
set_tests_properties(layering_refuses_upward_include PROPERTIES PASS_REGULAR_EXPRESSION "model/gpt.h: No such file")
set_tests_properties(layering_allows_lower_include layering_refuses_upward_include PROPERTIES RESOURCE_LOCK build_tree)
