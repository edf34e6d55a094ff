// Compiled by ctest (scripts/cmake/layering_test.cmake) as a file of the bpe layer, once with a lower layer's
// header and once with a higher layer's: the first must build, the second must fail to find its header.
#include "bpe/tokenizer.h"
#include EMBEDLAB_PROBE_HEADER

int LayeringProbe() { return 0; }
