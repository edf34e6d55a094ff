// What src/hf needs from src/text beyond its older headers: NFC with an alignment (unicode_normalization.h) and the
// split-pattern matchers of the tokenizer.json regexes (split_patterns.h).
#ifndef EMBEDLAB_HF_TEXT_DEPENDENCIES_H_
#define EMBEDLAB_HF_TEXT_DEPENDENCIES_H_

#include "text/split_patterns.h"
#include "text/unicode_normalization.h"

#endif  // EMBEDLAB_HF_TEXT_DEPENDENCIES_H_
