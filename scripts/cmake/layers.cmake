# One static library per folder of src/, each linking only the layers below it. A layer sees the headers of its
# own folder and of the layers it links, through a folder of its own holding one link (build/layers/<layer>/<layer>
# -> src/<layer>): an #include of a higher layer's header finds no file, so the build itself refuses it.
#
#   text  random  simd       (no embedlab dependencies)
#   errors      -> text   (numbers in messages: text/decimal.h)
#   bpe         -> text errors
#   hf          -> bpe text errors   (Hugging Face tokenizer.json: normalizers, pre-tokenizers, BPE model, decoders)
#   embed       -> text simd random errors   (text/decimal.h: number text without the C library's strtod/printf)
#   model       -> embed text simd random errors
#   compare     -> model embed text simd random errors
#   checkpoint  -> text   (the safetensors format; JSON from text/json_value.h)
#   training    -> model checkpoint embed text random errors   (trainer, tasks, batches, model checkpoints)
#   bindings    -> everything (the wasm module; Embind lives only there)
set(EMBEDLAB_LAYERS text errors random simd bpe hf embed model compare checkpoint training)
set(EMBEDLAB_LAYER_DEPS_errors text)
set(EMBEDLAB_LAYER_DEPS_bpe text errors)
set(EMBEDLAB_LAYER_DEPS_hf bpe text errors)
set(EMBEDLAB_LAYER_DEPS_embed text simd random errors)
set(EMBEDLAB_LAYER_DEPS_model embed text simd random errors)
set(EMBEDLAB_LAYER_DEPS_compare model embed text simd random errors)
set(EMBEDLAB_LAYER_DEPS_checkpoint text)
set(EMBEDLAB_LAYER_DEPS_training model checkpoint embed text random errors)

# embedlab_layer_include_root(LAYER VAR): the folder that exposes src/LAYER, and only it, as "LAYER/...".
function(embedlab_layer_include_root layer var)
  set(root ${CMAKE_BINARY_DIR}/layers/${layer})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/${layer} ${root}/${layer} SYMBOLIC)
  set(${var} ${root} PARENT_SCOPE)
endfunction()

# embedlab_add_layers(SUFFIX EXCLUDE_REGEX): defines embedlab_<layer><SUFFIX> for every layer, plus the interface
# target embedlab_core<SUFFIX> that links them all (for the bindings, tests and tools). Sources whose path matches
# EXCLUDE_REGEX are left out. Flags come from the caller's EMBEDLAB_LAYER_OPTIONS and EMBEDLAB_LAYER_INCLUDES.
function(embedlab_add_layers suffix exclude_regex)
  add_library(embedlab_core${suffix} INTERFACE)
  foreach(layer ${EMBEDLAB_LAYERS})
    set(target embedlab_${layer}${suffix})
    embedlab_layer_include_root(${layer} include_root)
    file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${layer}/*.cc)
    if(exclude_regex)
      list(FILTER sources EXCLUDE REGEX "${exclude_regex}")
    endif()
    add_library(${target} STATIC ${sources})
    target_include_directories(${target} PUBLIC ${include_root} ${EMBEDLAB_LAYER_INCLUDES})
    target_compile_options(${target} PUBLIC ${EMBEDLAB_LAYER_OPTIONS})
    foreach(dependency ${EMBEDLAB_LAYER_DEPS_${layer}})
      target_link_libraries(${target} PUBLIC embedlab_${dependency}${suffix})
    endforeach()
    target_link_libraries(embedlab_core${suffix} INTERFACE ${target})
  endforeach()
endfunction()
