// Writes word vectors as GloVe text, the format ParseGloveText (embed/glove_file.h) reads: one
// "word v1 ... vd" line per row, no header. Each value is written with 9 significant digits, enough for a
// float32 to read back bit for bit, in the shortest form JavaScript prints such a number (String(x)).
#ifndef EMBEDLAB_EMBED_GLOVE_TEXT_WRITER_H_
#define EMBEDLAB_EMBED_GLOVE_TEXT_WRITER_H_

#include <cstddef>
#include <string>
#include <vector>

namespace embedlab {

// value rounded to 9 significant digits (halves away from zero), trailing zeros dropped, in JavaScript's
// Number-to-string form: "0.1", "-1.5e-7", "123456789", "1.23456789e+21"; "0" for both zeros. Throws
// std::invalid_argument unless value is finite.
std::string NineDigitDecimal(float value);

// words.size() lines of "word v1 ... vd\n" from vectors (words.size() x dim, row-major); "" for no words.
// Throws std::out_of_range for dim 0 and std::invalid_argument for an empty word or one containing
// whitespace (the parser splits fields on it).
std::string WriteGloveText(const std::vector<std::string>& words, const float* vectors, size_t dim);

}  // namespace embedlab

#endif  // EMBEDLAB_EMBED_GLOVE_TEXT_WRITER_H_
